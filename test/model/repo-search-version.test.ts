// A repository list's kept total (lib/repos/search.ts) is exact only if every table and column
// its condition reads bumps `repo_search_version` when it changes (migration RepoSearchVersion). This
// reads the tables and columns off PostgreSQL's plan of each condition the lists build, for every kind
// of caller and every filter, and checks each has the triggers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb, type TestDb } from '../helpers/server.ts';
import { allOf, ownedBy, ownedOrCollaborating, reachable, searchCondition, type Caller, type Sql } from '../../lib/repos/search.ts';
import type { IUser } from '../../model/user.ts';
import type { TokenInfo } from '../../lib/auth/auth-types.ts';
import type { QueryOf } from '../../model/schemas/query.ts';

let db: TestDb;
const sql = <T>(q: string, params: unknown[] = []): Promise<T[]> => db.db.orm.em.fork().getConnection().execute(q, params, 'all');

test.before(async () => {
  db = await openTestDb();
});
test.after(async () => {
  await db.close();
});

const user = { id: 7 } as IUser;
const callers: Caller[] = [
  { doer: null, siteAdmin: false, token: null },
  { doer: user, siteAdmin: false, token: null },
  { doer: user, siteAdmin: true, token: null },
  { doer: user, siteAdmin: false, token: { publicOnly: true } as TokenInfo },
  { doer: user, siteAdmin: false, token: { repoIds: [1, 2] } as TokenInfo },
];
const queries: Record<string, unknown>[] = [
  {},
  { q: 'a,b/c', includeDesc: true, uid: 3, team_id: 4, starredBy: 5, is_private: true, template: false, archived: true, mode: 'fork' },
  { q: 'x', topic: true, uid: 3, exclusive: true, private: false, mode: 'source' },
  { q: 'owner/name', uid: 3, mode: 'collaborative' },
  { mode: 'mirror', template: true, is_private: false },
];

/** Every condition the lists that keep their total build (handlers/repo-lists.ts). */
function conditions(): Sql[] {
  const out: Sql[] = [];
  for (const c of callers) {
    for (const q of queries) out.push(searchCondition(c, q as QueryOf<'RepoSearch'>).where);
    out.push(allOf([ownedOrCollaborating(7), reachable(c)]), allOf([ownedBy(7), reachable(c)]));
  }
  return out;
}

interface PlanNode {
  'Relation Name'?: string;
  Alias?: string;
  Plans?: PlanNode[];
  [k: string]: unknown;
}

/**
 * The (table, column) pairs a plan reads: each scan's alias, and every `alias.column` its expressions
 * name. A scan's output list that is its whole row (PostgreSQL's physical target list, which saves a
 * projection) says nothing about what is read, and is left out; `width` gives each table's column count.
 */
function readsOf(plan: PlanNode, width: Map<string, number>): Set<string> {
  const aliases = new Map<string, string>();
  const texts: string[] = [];
  const walk = (n: PlanNode) => {
    const table = n['Relation Name'];
    if (table && n.Alias) aliases.set(n.Alias, table);
    for (const [k, v] of Object.entries(n)) {
      if (k === 'Plans') continue;
      if (typeof v === 'string') texts.push(v);
      else if (Array.isArray(v) && !(k === 'Output' && table && v.length === width.get(table)))
        texts.push(...v.filter((x): x is string => typeof x === 'string'));
    }
    for (const p of n.Plans ?? []) walk(p);
  };
  walk(plan);
  const reads = new Set<string>([...aliases.values()].map((t) => `${t}.*`));
  for (const t of texts) {
    for (const m of t.matchAll(/"?([a-z_][a-z0-9_]*)"?\.([a-z_][a-z0-9_]*)/g)) {
      const table = aliases.get(m[1]);
      if (table) reads.add(`${table}.${m[2]}`);
    }
  }
  return reads;
}

test('every table and column a kept-total condition reads bumps repo_search_version', async () => {
  const reads = new Set<string>();
  const widths = await sql<{ table: string; n: number }>(
    `select c.relname as "table", count(*)::int as n from pg_attribute a join pg_class c on c.oid = a.attrelid
     where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped group by c.relname`,
  );
  const width = new Map(widths.map((w) => [w.table, w.n]));
  for (const where of conditions()) {
    // PostgreSQL before 17 does not print the left side of a hashed subplan's test: the outer
    // repository's columns are read off the condition's text (`r.` is only ever the listed repository).
    for (const m of where.text.matchAll(/\br\.([a-z_][a-z0-9_]*)/g)) reads.add(`repository.${m[1]}`);
    const [row] = await sql<{ 'QUERY PLAN': unknown }>(
      `explain (verbose, format json) select count(*) from repository r where ${where.text}`,
      [...where.values],
    );
    const raw = row['QUERY PLAN'];
    const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
    for (const r of readsOf(plan[0].Plan, width)) reads.add(r);
  }
  // The walk found what the conditions are known to read (a guard against reading nothing).
  for (const known of [
    'repository.is_private',
    'user.visibility',
    'org_user.uid',
    'team.includes_all_repositories',
    'team_user.uid',
    'team_repo.repo_id',
    'collaboration.user_id',
    'star.uid',
    'repo_topic.topic_id',
    'topic.name',
    'repository.description',
  ]) {
    assert.ok(reads.has(known), `${known} in ${[...reads].join(', ')}`);
  }
  const triggers = await sql<{ table: string; name: string; columns: string[] | string | null; type: number }>(
    `select c.relname as "table", t.tgname as name, t.tgtype::int as type,
       (select array_agg(a.attname::text) from pg_attribute a where a.attrelid = t.tgrelid and a.attnum = any(t.tgattr)) as columns
     from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgname like 'repo_search_version_%' and not t.tgisinternal`,
  );
  const cols = (v: string[] | string | null) => (v === null ? [] : Array.isArray(v) ? v : v.replace(/^\{|\}$/g, '').split(','));
  const has = (table: string, name: string) => triggers.find((t) => t.table === table && t.name === name);
  for (const read of reads) {
    const [table, column] = read.split('.');
    assert.ok(has(table, 'repo_search_version_rows'), `${table}: insert and delete`);
    assert.ok(has(table, 'repo_search_version_truncate'), `${table}: truncate`);
    if (column !== '*') assert.ok(cols(has(table, 'repo_search_version_columns')?.columns ?? null).includes(column), `${read}: update`);
  }
  // tgtype bits: 4 insert, 8 delete, 16 update, 32 truncate.
  for (const t of triggers) {
    const want = t.name === 'repo_search_version_rows' ? 4 | 8 : t.name === 'repo_search_version_columns' ? 16 : 32;
    assert.is(t.type & (4 | 8 | 16 | 32), want, `${t.table}.${t.name}`);
  }
});

test('the bump: one per transaction, at commit, and not for an update that changes no read column', async () => {
  const version = async () => Number((await sql<{ v: string }>('select v::text as v from repo_search_version where id = 1'))[0].v);
  const before = await version();
  const em = db.db.orm.em.fork();
  await em.transactional(async (tx) => {
    const conn = tx.getConnection();
    const ctx = tx.getTransactionContext();
    await conn.execute('insert into org_user (uid, org_id) values (900001, 900002), (900003, 900002)', [], 'run', ctx);
    await conn.execute('update org_user set org_id = 900004 where org_id = 900002', [], 'run', ctx);
    assert.is(
      Number((await conn.execute<{ v: string }[]>('select v::text as v from repo_search_version where id = 1', [], 'all', ctx))[0].v),
      before,
      'not before the commit',
    );
  });
  assert.is(await version(), before + 1);
  await sql('update org_user set is_public = true, uid = uid where uid = 900001');
  assert.is(await version(), before + 1, 'no read column changed');
  await sql('update org_user set uid = 900005 where uid = 900001');
  assert.is(await version(), before + 2);
});

test.run();
