// `npm run bench -- --scale <issues>`: a large instance made by SQL (bench/seed-rows.ts's way: copies
// of API-made rows, columns as the catalog lists them), for keyword search at size. For N issues:
// N/10 repositories in all, of which the first N/100 hold 100 issues each, every issue with 3 plain
// comments. The bench user owns the first 1,000 copied repositories (public); the others belong to
// another user and are private, so the bench user sees about 1,000 repositories, as in the mixed
// workload. Titles, bodies and comments are words of a fixed vocabulary (`word` below), so that a
// keyword matches a known share of the rows. Counters (resource_index, num_open_issues,
// num_comments) are set as cairn keeps them; the copied issues have no rows in other tables.
import type { Sql } from './database.ts';
import { fillRepositories, type Copied } from './seed-rows.ts';

/** Words of the vocabulary; any one of them is in about 16 / VOCABULARY of the issues' own texts. */
export const VOCABULARY = 10_000;
const ISSUES_PER_REPO = 100;
const COMMENTS_PER_ISSUE = 3;
/** Repositories the bench user owns among the copies. */
const OWNED = 1_000;

/** 100 two-letter syllables (20 consonants × 5 vowels). */
const SYLLABLES = 'bcdfghjklmnprstvwxyz'
  .split('')
  .flatMap((c) => 'aeiou'.split('').map((v) => c + v))
  .join('');

/**
 * The vocabulary's word number `x % VOCABULARY` (an SQL integer expression) as SQL: three syllables
 * chosen by a bijection of [0, 10^6), so words share few trigrams beyond those of their syllables.
 */
export function word(x: string): string {
  const y = `(((${x})::bigint % ${VOCABULARY}) * 7919 % 1000000)`;
  const syl = (d: number) => `substr('${SYLLABLES}', 2 * ((${y} / ${d}) % 100)::int + 1, 2)`;
  return `(${syl(1)} || ${syl(100)} || ${syl(10000)})`;
}

/** `count` words for row number `n` (an SQL expression), with a salt per column. */
function words(n: string, count: number, salt: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(word(`(${n})::bigint * 2654435761 % 4294967291 + ${salt * 131 + i * 977}`));
  return parts.join(` || ' ' || `);
}

interface Column {
  column_name: string;
  column_default: string | null;
  is_identity: string;
  is_generated: string;
}

async function writableColumns(sql: Sql, table: string): Promise<string[]> {
  const cols = await sql.query<Column>(
    `select column_name, column_default, is_identity, is_generated from information_schema.columns
     where table_schema = current_schema() and table_name = $1 order by ordinal_position`,
    [table],
  );
  return cols
    .filter((c) => c.is_generated !== 'ALWAYS')
    .filter((c) => !(c.column_name === 'id' && (c.is_identity === 'YES' || (c.column_default ?? '').startsWith('nextval('))))
    .map((c) => c.column_name);
}

/** insert into `table` select the template row's columns, or their overrides, over `from`. */
async function insertCopies(sql: Sql, table: string, overrides: Record<string, string>, from: string, params: unknown[]): Promise<number> {
  const cols = await writableColumns(sql, table);
  for (const k of Object.keys(overrides)) if (!cols.includes(k)) throw new Error(`${table} has no column ${k}`);
  const rows = await sql.query<{ n: number }>(
    `with ins as (insert into "${table}" (${cols.map((c) => `"${c}"`).join(', ')})
       select ${cols.map((c) => overrides[c] ?? `t."${c}"`).join(', ')} ${from} returning 1)
     select count(*)::int as n from ins`,
    params,
  );
  return rows[0].n;
}

export interface ScaleSeed {
  templateRepoId: number;
  templateIssueId: number;
  templateCommentId: number;
  /** The user who owns the repositories the bench user does not see. */
  otherId: number;
  otherName: string;
}

/**
 * Fills the database to `issues` issues over `issues / 100` repositories and `issues / 10`
 * repositories in all (see the top of this file). Returns the rows copied, by table.
 */
export async function fillScale(sql: Sql, s: ScaleSeed, issues: number, say: (s: string) => void): Promise<Copied> {
  const repos = Math.max(issues / 10, OWNED);
  const issueRepos = Math.ceil(issues / ISSUES_PER_REPO);
  const copied: Copied = {};
  const time = async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
    const t = Date.now();
    const r = await fn();
    say(`  ${label}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
    return r;
  };
  const [{ n: before }] = await sql.query<{ n: number }>('select count(*)::int as n from repository');
  await time(`repositories up to ${repos + before}`, async () => {
    for (const [k, v] of Object.entries(await fillRepositories(sql, s.templateRepoId, repos + before, 6))) copied[k] = v;
  });
  await sql.query(`create temp table scale_repo as
    select row_number() over (order by id)::int as k, id from repository where lower_name like 'seed%' order by id`);
  await time('owners and visibility', () =>
    sql.query(
      `update repository r set owner_id = $1, owner_name = $2, is_private = true from scale_repo s where s.id = r.id and s.k > $3`,
      [s.otherId, s.otherName, OWNED],
    ),
  );
  const [{ base }] = await sql.query<{ base: string }>(`select coalesce(max(id), 0)::text as base from issue`);
  // A bulk load builds the trigram indexes once at the end, as an operator loading rows would: kept
  // up row by row, they make the inserts several times slower.
  const trigram = await sql.query<{ name: string; def: string }>(
    `select indexname as name, indexdef as def from pg_indexes
     where schemaname = current_schema() and tablename in ('issue', 'comment') and indexdef like '%gin_trgm_ops%'`,
  );
  for (const ix of trigram) await sql.query(`drop index "${ix.name}"`);
  copied.issue = await time(`${issues} issues`, () =>
    insertCopies(
      sql,
      'issue',
      {
        repo_id: 's.id',
        index: 'g.n',
        title: `'Issue ' || g.n || ': ' || ${words('s.k * 1000 + g.n', 4, 1)}`,
        content: words('s.k * 1000 + g.n', 12, 2),
        num_comments: String(COMMENTS_PER_ISSUE),
        created_at: `t.created_at + (s.k * 1000 + g.n) * interval '1 second'`,
        updated_at: `t.updated_at + (s.k * 1000 + g.n) * interval '1 second'`,
      },
      `from issue t cross join scale_repo s cross join generate_series(1, ${ISSUES_PER_REPO}) g(n)
       where t.id = $1 and s.k <= $2 and (s.k - 1) * ${ISSUES_PER_REPO} + g.n <= $3`,
      [s.templateIssueId, issueRepos, issues],
    ),
  );
  copied.comment = await time(`${issues * COMMENTS_PER_ISSUE} comments`, () =>
    insertCopies(
      sql,
      'comment',
      {
        issue_id: 'i.id',
        content: words(`i.id * 10 + g.n`, 8, 3),
        created_at: `i.created_at + g.n * interval '1 millisecond'`,
        updated_at: `i.created_at + g.n * interval '1 millisecond'`,
      },
      `from comment t cross join issue i cross join generate_series(1, ${COMMENTS_PER_ISSUE}) g(n) where t.id = $1 and i.id > $2::int`,
      [s.templateCommentId, base],
    ),
  );
  await time(`${trigram.length} trigram indexes`, async () => {
    for (const ix of trigram) await sql.query(ix.def);
  });
  // model/counter.ts (nextIndex) and lib/issues/issues.ts (recountIssueTotals).
  await time('counters', async () => {
    await sql.query(
      `insert into resource_index (kind, group_id, max_index)
       select 'issue', i.repo_id, max(i.index) from issue i where i.id > $1::int group by i.repo_id
       on conflict (kind, group_id) do update set max_index = greatest(resource_index.max_index, excluded.max_index)`,
      [base],
    );
    await sql.query(
      `update repository r set num_open_issues = c.n from
         (select i.repo_id, count(*)::int as n from issue i where not i.is_pull and not i.is_closed group by i.repo_id) c
       where c.repo_id = r.id`,
    );
  });
  await time('analyze', async () => {
    for (const t of ['repository', 'issue', 'comment', 'resource_index']) await sql.query(`analyze "${t}"`);
  });
  return copied;
}

/** The vocabulary's word number `k`, as the seeded texts spell it. */
export async function vocabularyWord(sql: Sql, k: number): Promise<string> {
  const [{ w }] = await sql.query<{ w: string }>(`select ${word('$1::int')} as w`, [k]);
  return w;
}
