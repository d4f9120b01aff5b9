// Bulk rows for the list routes: 10,000 issues and 10,000 repositories through the API would take
// far longer than the run may (tens of requests a second), so the API makes one row of each kind and
// SQL copies it. A copy takes every column of the row the API wrote, as the catalog lists them today
// (so it follows the migrations), changes only what must differ (number, name, title, time), and
// copies the rows the API wrote alongside it that point to it (units, watches, feed entries, ...).
// Derived values are then recounted with the statements cairn uses (lib/issues/issues.ts, model/counter.ts).
//
// Not made: bare git directories for the copied repositories (the repository lists read none).
import type { Sql } from './database.ts';

interface Column {
  column_name: string;
  column_default: string | null;
  is_identity: string;
  is_generated: string;
}

const ident = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected identifier ${name}`);
  return `"${name}"`;
};

/** Columns of `table` that an insert may set (a serial or identity `id` is left to the database). */
async function writableColumns(sql: Sql, table: string): Promise<string[]> {
  const cols = await sql.query<Column>(
    `select column_name, column_default, is_identity, is_generated from information_schema.columns
     where table_schema = current_schema() and table_name = $1 order by ordinal_position`,
    [table],
  );
  if (cols.length === 0) throw new Error(`no table ${table}`);
  return cols
    .filter((c) => c.is_generated !== 'ALWAYS')
    .filter((c) => !(c.column_name === 'id' && (c.is_identity === 'YES' || (c.column_default ?? '').startsWith('nextval('))))
    .map((c) => c.column_name);
}

/**
 * insert into `table` (its columns) select, for each row of `table` t where t.`key` = `value` and
 * each row of `join`, the column itself or its override (an SQL expression). Returns the row count.
 */
async function copyRows(
  sql: Sql,
  table: string,
  o: { key: string; value: number; join: string; overrides: Record<string, string>; params: unknown[] },
): Promise<number> {
  const cols = await writableColumns(sql, table);
  for (const k of Object.keys(o.overrides)) if (!cols.includes(k)) throw new Error(`${table} has no column ${k}`);
  const values = cols.map((c) => o.overrides[c] ?? `t.${ident(c)}`);
  const rows = await sql.query<{ n: number }>(
    `with ins as (insert into ${ident(table)} (${cols.map(ident).join(', ')})
       select ${values.join(', ')} from ${ident(table)} t ${o.join} where t.${ident(o.key)} = $1 returning 1)
     select count(*)::int as n from ins`,
    [o.value, ...o.params],
  );
  return rows[0].n;
}

/** Tables other than `parent` with a `fk` column and at least one row where it is `id`. */
async function dependents(sql: Sql, parent: string, fk: string, id: number): Promise<string[]> {
  const tables = await sql.query<{ table_name: string }>(
    `select c.table_name from information_schema.columns c join information_schema.tables t
       on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
     where c.table_schema = current_schema() and c.column_name = $1 and c.table_name <> $2 order by c.table_name`,
    [fk, parent],
  );
  const out: string[] = [];
  for (const { table_name } of tables) {
    const [{ n }] = await sql.query<{ n: number }>(`select count(*)::int as n from ${ident(table_name)} where ${ident(fk)} = $1`, [id]);
    if (n > 0) out.push(table_name);
  }
  return out;
}

export type Copied = Record<string, number>;

/**
 * Copies the row `id` of `parent` once for each n in [from, to] with `overrides` (expressions over
 * `t`, the template row, and `g.n`), then the rows of other tables whose `fk` points to it, pointed
 * at the copies instead.
 */
async function copyWithDependents(
  sql: Sql,
  parent: string,
  fk: string,
  id: number,
  from: number,
  to: number,
  overrides: Record<string, string>,
): Promise<Copied> {
  if (to < from) return {};
  const deps = await dependents(sql, parent, fk, id);
  const [{ max }] = await sql.query<{ max: number }>(`select coalesce(max(id), 0)::int as max from ${ident(parent)}`);
  const copied: Copied = {};
  copied[parent] = await copyRows(sql, parent, {
    key: 'id',
    value: id,
    join: 'cross join generate_series($2::int, $3::int) as g(n)',
    overrides,
    params: [from, to],
  });
  for (const dep of deps) {
    copied[dep] = await copyRows(sql, dep, {
      key: fk,
      value: id,
      join: `join ${ident(parent)} n on n.id > $2`,
      overrides: { [fk]: 'n.id' },
      params: [max],
    });
  }
  for (const table of Object.keys(copied)) await sql.query(`analyze ${ident(table)}`);
  return copied;
}

/**
 * Fills repository `repoId`, whose only issue is the API-made `templateIssueId` (number 1), up to
 * `total` open issues numbered 2..total, a millisecond apart, then sets the counters as cairn would.
 */
export async function fillIssues(sql: Sql, repoId: number, templateIssueId: number, total: number): Promise<Copied> {
  const copied = await copyWithDependents(sql, 'issue', 'issue_id', templateIssueId, 2, total, {
    index: 'g.n',
    title: `'Issue ' || g.n`,
    created_at: `t.created_at + g.n * interval '1 millisecond'`,
    updated_at: `t.updated_at + g.n * interval '1 millisecond'`,
  });
  // model/counter.ts (nextIndex) and lib/issues/issues.ts (recountIssueTotals).
  await sql.query(
    `insert into resource_index (kind, group_id, max_index) values ('issue', $1, $2)
    on conflict (kind, group_id) do update set max_index = greatest(resource_index.max_index, excluded.max_index)`,
    [repoId, total],
  );
  await sql.query(
    `update repository r set
    num_open_issues = (select count(*) from issue i where i.repo_id = r.id and not i.is_pull and not i.is_closed),
    num_open_pulls = (select count(*) from issue i where i.repo_id = r.id and i.is_pull and not i.is_closed)
    where r.id = $1`,
    [repoId],
  );
  return copied;
}

/**
 * Adds copies of the API-made repository `templateRepoId` (`seed00001`, ...: the number to `width`
 * digits, which must hold it) until there are `total`.
 */
export async function fillRepositories(sql: Sql, templateRepoId: number, total: number, width = 5): Promise<Copied> {
  const [{ n }] = await sql.query<{ n: number }>('select count(*)::int as n from repository');
  const [{ m }] = await sql.query<{ m: number }>(`select count(*)::int as m from repository where lower_name like 'seed%'`);
  if (String(m + total - n).length > width) throw new Error(`seed numbers need more than ${width} digits`);
  return copyWithDependents(sql, 'repository', 'repo_id', templateRepoId, m + 1, m + total - n, {
    name: `'seed' || lpad(g.n::text, ${width}, '0')`,
    lower_name: `'seed' || lpad(g.n::text, ${width}, '0')`,
  });
}

export async function count(sql: Sql, table: 'issue' | 'repository', where = 'true', params: unknown[] = []): Promise<number> {
  const [{ n }] = await sql.query<{ n: number }>(`select count(*)::int as n from ${ident(table)} where ${where}`, params);
  return n;
}
