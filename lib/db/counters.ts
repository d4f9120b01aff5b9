// Denormalised counters (num_comments, num_stars, repo_count, ...) under concurrent writers (issue 9,
// item 3; issue 10 for the queue). Every write request is one READ COMMITTED transaction, and a recount
// statement cannot see another transaction's uncommitted rows: two writers that recount at once both
// miss the other's row, and the last to commit wins with a count that is short by one.
//
// Recounts (the rarer paths: closing, relabelling, deleting) first lock the rows whose counters they
// rewrite with `FOR NO KEY UPDATE` (NO KEY: a foreign-key check on a child row takes a KEY SHARE lock on
// its parent, and must not wait for this one). A second writer waits there until the first commits; its
// recount is a later statement, so under READ COMMITTED it takes a new snapshot that sees the first
// writer's rows. Each writer locks after its own child rows are written, so whoever locks last counts
// everything. Locks are taken in one statement, table by table in a fixed order and by id within a
// table, so two writers never wait for each other crosswise.
//
// The hot paths (a new issue, a new comment) increment instead (`num_comments = num_comments + 1`), and
// hold the row lock only from just before COMMIT: `addCounters` queues the delta on the request's
// transaction (server.ts opens the queue), and `applyCounterQueue` writes each row's deltas in one
// UPDATE right before COMMIT, rows in the same fixed order. Outside a request (CLI, migrations, cron)
// there is no queue and the increment runs at once. Increments and recounts converge together because
// an incrementing writer's own row is inserted (flushed) before its delta is queued, and the delta is
// applied under the row lock before COMMIT:
// - a recount that locks first counts in a snapshot without that uncommitted row, and the increment,
//   which waits for the recount's commit, adds it on top of the exact count;
// - an increment that locks first commits its row and its delta together; the recount waits, and its
//   new snapshot sees the row, so its absolute count already includes it.
// A recount in the middle of a request locks the rows with queued increments along with its own (one
// statement, in the fixed order) and writes those increments at once: a lock taken later, at COMMIT,
// could come out of order and deadlock with a writer that locks both. Its count then sees them.
//
// The same queue holds a hot write's last writes that nothing reads back in the request (its notification
// threads and feed rows, `tailWrite`, issue 10): just before the counter updates they are one statement
// of data-modifying CTEs instead of one statement each, a round trip and a statement's fixed cost
// apiece (a new issue's or comment's 7 and 8 statements were 6 and 7 then).
import { Utils, type EntityManager, type EntityName } from '@mikro-orm/core';
import { textOf } from '../../model/raw.ts';
import { executeSql } from '../../model/sql.ts';

/** The tables holding counters, in the order their rows are locked. */
const LOCK_ORDER = ['user', 'topic', 'issue', 'repository', 'milestone', 'label'] as const;
export type CounterTable = (typeof LOCK_ORDER)[number];

/** Lock the rows named by id (ids ≤ 0 ignored) until the transaction ends; one statement, none when empty. */
export async function lockCounterRows(em: EntityManager, rows: Partial<Record<CounterTable, readonly number[]>>): Promise<void> {
  // Rows with queued increments are locked in the same statement and written right after, so this
  // transaction never takes a lock out of the fixed order at COMMIT; a queued first write goes before.
  await runFirstWrites(em);
  const queue = queues.get(em);
  const queued = (table: CounterTable) => [...(queue?.get(table)?.keys() ?? [])];
  const parts: string[] = [];
  const params: number[] = [];
  for (const table of LOCK_ORDER) {
    const ids = [...new Set([...(rows[table] ?? []), ...queued(table)])].filter((id) => id > 0).sort((a, b) => a - b);
    if (!ids.length) continue;
    parts.push(
      `t${parts.length} as (select id from "${table}" where id in (${ids.map(() => '?').join(',')}) order by id for no key update)`,
    );
    params.push(...ids);
  }
  if (!parts.length) return;
  // Each CTE is read by one scalar subquery of the select list; they run left to right, so the
  // tables are locked in LOCK_ORDER.
  const reads = parts.map((_, i) => `(select count(*) from t${i})`).join(', ');
  await em.getConnection().execute(`with ${parts.join(', ')} select ${reads}`, params, 'all', em.getTransactionContext());
  await applyCounterQueue(em);
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

/**
 * `learnCounters` for `entity`, which may be a plain object (a request that reads its context as plain
 * objects, lib/http/handler.ts plainContext): a plain object is given the values, as the entity would be.
 */
export function learnCountersOf<T extends { id: number }>(
  em: EntityManager,
  entityName: EntityName<T>,
  entity: T,
  counters: Partial<T>,
): void {
  learnCounters(em, entityName, entity.id, counters);
  if (em.getUnitOfWork().getById(Utils.className(entityName), entity.id as never) !== entity) Object.assign(entity, counters);
}

/** Deltas and assignments queued for one counter row, by column. */
interface Pending {
  add: Map<string, number>;
  set: Map<string, unknown>;
}
type Queue = Map<CounterTable, Map<number, Pending>>;
const queues = new WeakMap<EntityManager, Queue>();
const COLUMN = /^[a-z_]+$/;

/** Whether `em` is a request's, whose writes queue until its end (`openCounterQueue`). */
export const queuesWrites = (em: EntityManager): boolean => queues.has(em);

/** From now until `closeCounterQueue`, `addCounters` on `em` queues until `applyCounterQueue`. */
export function openCounterQueue(em: EntityManager): void {
  queues.set(em, new Map());
}

export function closeCounterQueue(em: EntityManager): void {
  queues.delete(em);
  tails.delete(em);
  firsts.delete(em);
}

/**
 * Add `add` to the counter columns of one row (and set `set`, e.g. an update time stamped with it):
 * queued until just before COMMIT when the request's transaction has a queue, else written now. The
 * caller has flushed the rows being counted (see the header).
 */
export async function addCounters(
  em: EntityManager,
  table: CounterTable,
  id: number,
  add: Record<string, number>,
  set: Record<string, unknown> = {},
): Promise<void> {
  const queue = queues.get(em);
  if (!queue) {
    const w = rowUpdate(table, id, new Map(Object.entries(add)), new Map(Object.entries(set)));
    if (w) await executeSql(em, w.sql, w.params);
    return;
  }
  const rows = queue.get(table) ?? new Map<number, Pending>();
  queue.set(table, rows);
  const row = rows.get(id) ?? { add: new Map(), set: new Map() };
  rows.set(id, row);
  for (const [col, n] of Object.entries(add)) row.add.set(col, (row.add.get(col) ?? 0) + n);
  for (const [col, v] of Object.entries(set)) row.set.set(col, v);
}

/** The queued counter updates (one per row, rows in the lock order), taken off the queue. */
function takeCounterWrites(em: EntityManager): Write[] {
  const queue = queues.get(em);
  if (!queue?.size) return [];
  queues.set(em, new Map());
  const writes: Write[] = [];
  for (const table of LOCK_ORDER) {
    const rows = queue.get(table);
    if (!rows) continue;
    for (const id of [...rows.keys()].sort((a, b) => a - b)) {
      const w = rowUpdate(table, id, rows.get(id)!.add, rows.get(id)!.set);
      if (w) writes.push(w);
    }
  }
  return writes;
}

/** Write the queued counters (one UPDATE per row, rows in the lock order; queued first writes before them) and empty the queue. */
export async function applyCounterQueue(em: EntityManager): Promise<void> {
  await runFirstWrites(em);
  await runTogether(em, takeCounterWrites(em));
}

/**
 * Just before COMMIT: the queued tail writes in one statement, then the counters. Not all in one: with
 * the counter update in the statement of the threads' insert, 8 writers commenting on one issue (5,000
 * comments) made 146 commits/s against 197 with the three apart and 318 with the counter apart (pgbench,
 * PostgreSQL 15; the cause not established), so the counter row keeps its statement of its own.
 */
export async function applyBeforeCommit(em: EntityManager): Promise<void> {
  await runWrites(em, beforeCommitWrites(em));
}

/**
 * What `applyBeforeCommit` runs, taken off the queues: the first writes (`firstWrite`), the tail
 * writes' statement, then the counters'. server.ts sends them last: as one text of statements outside
 * a transaction (model/sql.ts writeAlone, one round trip) for a handler that began none, else just
 * before COMMIT (model/raw.ts commitWith); the rows they lock are locked for no longer than that.
 */
export function beforeCommitWrites(em: EntityManager): Write[] {
  const tail = tails.get(em) ?? [];
  if (tail.length) tails.set(em, []);
  return [...takeFirstWrites(em), together(tail), together(takeCounterWrites(em))].filter((w): w is Write => w !== null);
}

/** One statement and its parameters; `answered`, when given, is told the rows it returns. */
export interface Write {
  sql: string;
  params: unknown[];
  answered?: (rows: Record<string, unknown>[]) => void;
}

async function runWrites(em: EntityManager, writes: readonly Write[]): Promise<void> {
  for (const w of writes) {
    const rows = await executeSql(em, w.sql, w.params);
    w.answered?.(rows);
  }
}

/** First writes queued until `applyBeforeCommit`, by request EntityManager (see `firstWrite`). */
const firsts = new WeakMap<EntityManager, Write[]>();

/**
 * The insert of a request's new row, queued to go first with COMMIT (issue 10, lib/issues/issues.ts: a new
 * issue's number, row and watch, a new comment's row): ahead of the tail writes and counters, which
 * may refer to the row, in the round trip of COMMIT; a lock it takes (a new issue's number) is held
 * for no longer than that. Its answer goes to `answered`. Only inside a request's transaction (which
 * opened the counter queue): false, and nothing queued, outside one, where the caller runs it.
 * Whatever runs queued writes earlier (`tailWrite`, `lockCounterRows`, `applyCounterQueue`) runs
 * these first.
 */
export function firstWrite(em: EntityManager, w: Write): boolean {
  if (!queues.has(em)) return false;
  firsts.set(em, [...(firsts.get(em) ?? []), w]);
  return true;
}

function takeFirstWrites(em: EntityManager): Write[] {
  const list = firsts.get(em) ?? [];
  if (list.length) firsts.set(em, []);
  return list;
}

const runFirstWrites = (em: EntityManager) => runWrites(em, takeFirstWrites(em));

async function runTogether(em: EntityManager, writes: readonly Write[]): Promise<void> {
  const w = together(writes);
  if (w) await executeSql(em, w.sql, w.params);
}

/**
 * The writes as one statement, in their order: each is a data-modifying CTE that the select list reads
 * left to right (as `lockCounterRows` does), so counter rows are still locked in the fixed order. A
 * text per combination: a few texts in all (model/raw.ts textOf). Null when there are none.
 */
function together(writes: readonly Write[]): Write | null {
  if (writes.length <= 1) return writes[0] ?? null;
  const sql = textOf(
    writes.map((w) => w.sql),
    () => {
      const ctes = writes.map((w, i) => `w${i} as (${w.sql} returning 1)`).join(', ');
      const reads = writes.map((_, i) => `(select count(*) from w${i})`).join(', ');
      return `with ${ctes} select ${reads}`;
    },
  );
  return { sql, params: writes.flatMap((w) => w.params) };
}

/** A text per table and set of columns: a few texts in all (model/raw.ts textOf). */
function rowUpdate(table: CounterTable, id: number, add: Map<string, number>, set: Map<string, unknown>): Write | null {
  // The text's parts: the table, then each column with `+` (added) or `=` (set).
  const key: string[] = [table];
  const params: unknown[] = [];
  for (const [col, n] of add) {
    if (!COLUMN.test(col)) throw new Error(`counter column ${col}`);
    if (n !== 0) {
      key.push(col, '+');
      params.push(n);
    }
  }
  for (const [col, v] of set) {
    if (!COLUMN.test(col)) throw new Error(`counter column ${col}`);
    key.push(col, '=');
    params.push(v);
  }
  if (key.length === 1 || id <= 0) return null;
  const sql = textOf(key, () => {
    const parts: string[] = [];
    for (let i = 1; i < key.length; i += 2) parts.push(key[i + 1] === '+' ? `"${key[i]}" = "${key[i]}" + ?` : `"${key[i]}" = ?`);
    return `update "${table}" set ${parts.join(', ')} where id = ?`;
  });
  return { sql, params: [...params, id] };
}

/** Tail writes queued until `applyBeforeCommit`, by request EntityManager (see `deferTailWrites`). */
const tails = new WeakMap<EntityManager, (Write & { table: string })[]>();

/**
 * From now until COMMIT, `tailWrite` on `em` queues (issue 10). A handler marks this after its last
 * read or write of the tables tail writes touch (notification, action), before the event that writes
 * them; only inside a request's transaction, which opened the counter queue.
 */
export function deferTailWrites(em: EntityManager): void {
  if (queues.has(em)) tails.set(em, []);
}

/**
 * A write to `table` whose result nothing reads, `sql` without `returning`: queued after
 * `deferTailWrites`, else run now. The CTEs of one statement do not see each other's rows, so a second
 * write to the same table (two upserts of one notification thread) first runs what is queued.
 */
export async function tailWrite(em: EntityManager, table: string, sql: string, params: unknown[]): Promise<void> {
  const queue = tails.get(em);
  if (!queue) {
    await runFirstWrites(em);
    await executeSql(em, sql, params);
    return;
  }
  if (queue.some((w) => w.table === table)) {
    tails.set(em, []);
    await runFirstWrites(em);
    await runTogether(em, queue);
  }
  tails.get(em)!.push({ table, sql, params });
}
