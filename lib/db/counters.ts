// Denormalised counters (num_comments, num_stars, repo_count, ...) under concurrent writers.
// Every write request is one READ COMMITTED transaction, and a recount statement cannot see another transaction's uncommitted rows: two writers that recount at once both
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
// WriteQueue (made by the interpreter's `transactional` for each write request, `c.writes`, passed
// explicitly to what queues), and the queue's counter updates are sent last, one UPDATE per row, rows
// in the same fixed order. Without a queue (CLI, migrations, cron, a caller that passes none) the
// increment runs at once. Increments and recounts converge together because an incrementing writer's
// own row is inserted before (or in the statement before) its delta is applied, and the delta is
// applied under the row lock before COMMIT:
// - a recount that locks first counts in a snapshot without that uncommitted row, and the increment,
//   which waits for the recount's commit, adds it on top of the exact count;
// - an increment that locks first commits its row and its delta together; the recount waits, and its
//   new snapshot sees the row, so its absolute count already includes it.
// A request that queues increments never recounts afterwards (a new issue with labels, milestone,
// assignees or state passes no queue: its increments run at once, in the fixed order), so a queued
// lock never comes out of order at COMMIT.
//
// The same queue holds a hot write's first write (the new row) and its last writes that nothing reads
// back in the request (its notification threads and feed rows, `tailWrite`): sent with the counter
// updates, after the first write and before the counters. A first write may `combine` the whole queue
// into one call of a database function (a new issue's or comment's, lib/issues/issues.ts): it does the
// same statements in the same order, the counter row's update last, so the locks and the convergence
// above are those of the statements it replaces.
import { Utils, type EntityManager, type EntityName } from '@mikro-orm/core';
import { textOf, type Plain } from '../../model/raw.ts';
import { executeSql, sql, type Sql, type Write as SqlWrite } from '../../model/sql.ts';

/** The tables holding counters, in the order their rows are locked. */
const LOCK_ORDER = ['user', 'topic', 'issue', 'repository', 'milestone', 'label'] as const;
export type CounterTable = (typeof LOCK_ORDER)[number];

/** Lock the rows named by id (ids ≤ 0 ignored) until the transaction ends; one statement, none when empty. */
export async function lockCounterRows(em: EntityManager, rows: Partial<Record<CounterTable, readonly number[]>>): Promise<void> {
  const locks: Sql[] = [];
  for (const table of LOCK_ORDER) {
    const ids = [...new Set(rows[table] ?? [])].filter((id) => id > 0).sort((a, b) => a - b);
    if (!ids.length) continue;
    locks.push(
      sql`${sql.id(`t${locks.length}`)} as (select id from ${sql.id(table)} where id in (${sql.list(ids)}) order by id for no key update)`,
    );
  }
  if (!locks.length) return;
  // Each CTE is read by one scalar subquery of the select list; they run left to right, so the
  // tables are locked in LOCK_ORDER.
  const reads = locks.map((_, i) => sql`(select count(*) from ${sql.id(`t${i}`)})`);
  await executeSql(em, sql`with ${sql.join(locks)} select ${sql.join(reads)}`);
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
 * `learnCounters` for `entity`, which may be a plain row (`Plain`: a request that reads its context as
 * plain objects, lib/http/handler.ts plainContext): a plain row is given the values, as the entity would
 * be. The one change made to a plain row besides a provisional row's (lib/issues/issues.ts): it writes
 * nothing (a plain row is never flushed), and the values are what the database holds now.
 */
export function learnCountersOf<T extends { id: number }>(
  em: EntityManager,
  entityName: EntityName<T>,
  entity: Plain<T>,
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
const COLUMN = /^[a-z_]+$/;

/** A statement of model/sql.ts's `writeAlone`, and for a first write's `combine` what it writes, as values. */
export interface Write extends SqlWrite {
  /** What the statement writes, as values, for a first write's `combine` (e.g. notification threads). */
  part?: WritePart;
}

/** A queued write described by its kind and values (lib/activity/notify.ts, feeds.ts). */
export interface WritePart {
  readonly kind: string;
}

/** The deltas and assignments queued for one counter row. */
export interface CounterRow {
  readonly table: CounterTable;
  readonly id: number;
  readonly add: ReadonlyMap<string, number>;
  readonly set: ReadonlyMap<string, unknown>;
}

/**
 * A first write that may take the rest of the queue with it: `combine` answers one statement that does
 * it, the queued tail writes and the counter updates, in that order and with the same locks (a database
 * function, lib/issues/issues.ts), or null when the queue holds something it does not know.
 */
export interface FirstWrite extends Write {
  combine?: (tails: readonly Write[], counters: readonly CounterRow[]) => Write | null;
}

/**
 * What one write request queues to send last (see the header): its first write (the new row), its tail
 * writes, its counter updates. Made by the interpreter for each write request (RequestState `writes`)
 * and dropped with it; `take` empties it.
 */
export class WriteQueue {
  readonly #counters = new Map<CounterTable, Map<number, Pending>>();
  #firsts: FirstWrite[] = [];
  /** Null until `deferTails`: tail writes run at once until then. */
  #tails: (Write & { table: string })[] | null = null;

  /** Queue `add` (summed) and `set` for one counter row. */
  addCounters(table: CounterTable, id: number, add: Record<string, number>, set: Record<string, unknown>): void {
    const rows = this.#counters.get(table) ?? new Map<number, Pending>();
    this.#counters.set(table, rows);
    const row = rows.get(id) ?? { add: new Map(), set: new Map() };
    rows.set(id, row);
    for (const [col, n] of Object.entries(add)) row.add.set(col, (row.add.get(col) ?? 0) + n);
    for (const [col, v] of Object.entries(set)) row.set.set(col, v);
  }

  /**
   * From now until the end, `tailWrite` with this queue queues. A handler marks this after its last
   * read or write of the tables tail writes touch (notification, action), before the event that writes them.
   */
  deferTails(): void {
    this.#tails ??= [];
  }

  /**
   * Queue the insert of a request's new row, to go first at the end (lib/issues/issues.ts: a new issue's
   * number, row and watch, a new comment's row): ahead of the tail writes and counters, which may refer
   * to the row; a lock it takes (a new issue's number) is held for no longer than that. Whatever runs
   * queued writes earlier (a second tail write of one table) runs these first.
   */
  firstWrite(w: FirstWrite): void {
    this.#firsts.push(w);
  }

  /** Whether tail writes are queued (`deferTails`). */
  get defersTails(): boolean {
    return this.#tails !== null;
  }

  /** Whether a tail write to `table` is queued. */
  queuesTailOf(table: string): boolean {
    return this.#tails?.some((w) => w.table === table) ?? false;
  }

  /** Queue a tail write (only after `deferTails`). */
  queueTail(w: Write & { table: string }): void {
    if (!this.#tails) throw new Error('a tail write queued before deferTails');
    this.#tails.push(w);
  }

  /** The queued first writes, taken off the queue. */
  takeFirsts(): FirstWrite[] {
    const list = this.#firsts;
    this.#firsts = [];
    return list;
  }

  /** The queued tail writes, taken off the queue (which keeps deferring), or null when not deferring. */
  takeTails(): (Write & { table: string })[] | null {
    const list = this.#tails;
    if (list) this.#tails = [];
    return list;
  }

  /** The queued counter updates (one per row, rows in the lock order), taken off the queue. */
  takeCounters(): Write[] {
    const writes: Write[] = [];
    for (const table of LOCK_ORDER) {
      const rows = this.#counters.get(table);
      if (!rows) continue;
      for (const id of [...rows.keys()].sort((a, b) => a - b)) {
        const w = rowUpdate(table, id, rows.get(id)!.add, rows.get(id)!.set);
        if (w) writes.push(w);
      }
    }
    this.#counters.clear();
    return writes;
  }

  /**
   * Everything queued, taken off the queue, in the order it is sent: the first writes, the tail writes'
   * statement, then the counters'. The interpreter sends them last: as one text of statements outside
   * a transaction (model/sql.ts writeAlone, one round trip) for a handler that began none, else just
   * before COMMIT; the rows they lock are locked for no longer than that. Not all in one statement:
   * with the counter update in the statement of the threads' insert, 8 writers commenting on one issue
   * made fewer commits a second than with the counter apart (bench/runtime.md), so the counter row keeps
   * its statement of its own.
   */
  take(): Write[] {
    const firsts = this.takeFirsts();
    const tails = this.takeTails() ?? [];
    const combined = firsts.length === 1 ? (firsts[0]!.combine?.(tails, this.#counterRows()) ?? null) : null;
    if (combined) {
      this.#counters.clear();
      return [combined];
    }
    return [...firsts, together(tails), together(this.takeCounters())].filter((w): w is Write => w !== null);
  }

  #counterRows(): CounterRow[] {
    const rows: CounterRow[] = [];
    for (const table of LOCK_ORDER) {
      for (const [id, row] of [...(this.#counters.get(table) ?? [])].sort(([a], [b]) => a - b)) rows.push({ table, id, ...row });
    }
    return rows;
  }
}

/**
 * Add `add` to the counter columns of one row (and set `set`, e.g. an update time stamped with it):
 * queued until the end on the request's queue `writes`, else written now. The caller has inserted the
 * rows being counted (see the header).
 */
export async function addCounters(
  em: EntityManager,
  writes: WriteQueue | undefined,
  table: CounterTable,
  id: number,
  add: Record<string, number>,
  set: Record<string, unknown> = {},
): Promise<void> {
  if (writes) return writes.addCounters(table, id, add, set);
  const w = rowUpdate(table, id, new Map(Object.entries(add)), new Map(Object.entries(set)));
  if (w) await executeSql(em, w.sql, w.params);
}

/** Write the counters queued on `writes` now, in one statement (rows in the lock order), and take them off it. */
export async function applyCounters(em: EntityManager, writes: WriteQueue): Promise<void> {
  await runTogether(em, writes.takeCounters());
}

async function runWrites(em: EntityManager, writes: readonly Write[]): Promise<void> {
  for (const w of writes) {
    const rows = await executeSql(em, w.sql, w.params);
    w.answered?.(rows);
  }
}

async function runTogether(em: EntityManager, writes: readonly Write[]): Promise<void> {
  const w = together(writes);
  if (w) await executeSql(em, w.sql, w.params);
}

/**
 * The writes as one statement, in their order: each is a data-modifying CTE that the select list reads
 * left to right, so counter rows are still locked in the fixed order. A text per combination: a few
 * texts in all (model/raw.ts textOf). Null when there are none.
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

/**
 * A write to `table` whose result nothing reads, `sql` without `returning`: queued on `writes` once it
 * defers tail writes, else run now (after any queued first write, which it may refer to). The CTEs of
 * one statement do not see each other's rows, so a second write to the same table (two upserts of one
 * notification thread) first runs what is queued.
 */
export async function tailWrite(
  em: EntityManager,
  writes: WriteQueue | undefined,
  table: string,
  sql: string,
  params: unknown[],
  part?: WritePart,
): Promise<void> {
  if (!writes?.defersTails) {
    if (writes) await runWrites(em, writes.takeFirsts());
    await executeSql(em, sql, params);
    return;
  }
  if (writes.queuesTailOf(table)) {
    await runWrites(em, writes.takeFirsts());
    await runTogether(em, writes.takeTails() ?? []);
  }
  writes.queueTail({ table, sql, params, part });
}
