// Denormalised counters (num_comments, num_stars, repo_count, ...) under concurrent writers (issue 9,
// item 3). Every write request is one READ COMMITTED transaction, and a recount statement cannot see
// another transaction's uncommitted rows: two writers that recount at once both miss the other's row,
// and the last to commit wins with a count that is short by one.
//
// The recounts stay (they heal any drift), but each one first locks the rows whose counters it
// rewrites with `FOR NO KEY UPDATE` (NO KEY: a foreign-key check on a child row takes a KEY SHARE
// lock on its parent, and must not wait for this one). A second writer waits there until the first commits;
// its recount is a later statement, so under READ COMMITTED it takes a new snapshot that sees the
// first writer's rows. Each writer locks after its own child rows are written, so whoever locks last
// counts everything. Locks are taken in one statement, table by table in a fixed order and by id
// within a table, so two writers never wait for each other crosswise.
import { Utils, type EntityManager, type EntityName } from '@mikro-orm/core';

/** The tables holding counters, in the order their rows are locked. */
const LOCK_ORDER = ['user', 'topic', 'issue', 'repository', 'milestone', 'label'] as const;
export type CounterTable = (typeof LOCK_ORDER)[number];

/** Lock the rows named by id (ids ≤ 0 ignored) until the transaction ends; one statement, none when empty. */
export async function lockCounterRows(em: EntityManager, rows: Partial<Record<CounterTable, readonly number[]>>): Promise<void> {
  const parts: string[] = [];
  const params: number[] = [];
  for (const table of LOCK_ORDER) {
    const ids = [...new Set(rows[table] ?? [])].filter((id) => id > 0).sort((a, b) => a - b);
    if (!ids.length) continue;
    parts.push(`t${parts.length} as (select id from "${table}" where id in (${ids.map(() => '?').join(',')}) order by id for no key update)`);
    params.push(...ids);
  }
  if (!parts.length) return;
  // Each CTE is read by one scalar subquery of the select list; they run left to right, so the
  // tables are locked in LOCK_ORDER.
  const reads = parts.map((_, i) => `(select count(*) from t${i})`).join(', ');
  await em.getConnection().execute(`with ${parts.join(', ')} select ${reads}`, params, 'all', em.getTransactionContext());
}

/**
 * Tell a managed entity the counter values just written in SQL, as if they had been loaded: the
 * entity answers with them, and a later flush neither writes its older in-memory value back nor sees
 * a change to write. Callers flush first, so no unflushed change of these properties is pending.
 */
export function learnCounters<T extends object>(em: EntityManager, entityName: EntityName<T>, id: number, counters: Partial<T>): void {
  const name = Utils.className(entityName);
  const entity = em.getUnitOfWork().getById<T>(name, id as never);
  // Only an entity this request already holds: nothing else could answer or flush a stale value.
  if (entity) em.getEntityFactory().mergeData(em.getMetadata().get<T>(name), entity, counters as never);
}
