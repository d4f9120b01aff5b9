// A transaction's BEGIN and COMMIT ride with its statements instead of taking a round trip each
// (issue 10). A new issue was six round trips, each a wait for PostgreSQL's answer, and under load a
// wait for the event loop too: the caller's token; BEGIN; the number, row and watch; the
// notification threads and feed rows; the counters; COMMIT. The repository's number lock is held
// from the third to the last, so every writer of the repository waited out three of those turns.
//
// pg's pipeline mode (pg 8.23, `pipeline: true` on the connection, model/db.ts) writes a statement as
// soon as it is queued, each with its own Sync, and pairs the answers with the statements in order.
// Three things use it:
// - BEGIN waits for the transaction's first statement: knex's `BEGIN;` is not sent but noted on the
//   connection, and goes out just ahead of the first statement that runs on it, in the same write. A
//   transaction that runs nothing sends neither BEGIN nor its COMMIT or ROLLBACK.
// - `commitWith` sends the statements of the end of a transaction (its tail writes and counters,
//   lib/db/counters.ts) and COMMIT together, and waits for the answers once.
// - `commitInLane` (model/raw.ts) writes whole transactions of one hot row, BEGIN to COMMIT each, one
//   behind the other on one connection.
// Atomicity is PostgreSQL's: a statement that fails aborts the transaction, the statements queued
// behind it fail without running ("current transaction is aborted"), and COMMIT then ends it as a
// ROLLBACK, so nothing of the transaction stays; the caller gets the first statement's error.
// A BEGIN sent with the first statement could only fail on a connection that is gone, where the
// statement fails as well.
import type { EntityManager } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/postgresql';

/** A `pg` client, as far as the pipelined edges use it. */
interface PipelineClient {
  pipeline: boolean;
  query(text: string, values: unknown[], callback: (err: Error | null, res: unknown) => void): unknown;
  connection: { stream: { cork?(): void; uncork?(): void } };
}
/** What knex's `_query` (knex 3, dialects/postgres) is given and answers. */
interface KnexQueryObject {
  sql: string;
  bindings?: unknown[];
  response?: unknown;
}
type RawQuery = (this: unknown, connection: PipelineClient, obj: KnexQueryObject) => Promise<KnexQueryObject>;
/** A knex transaction, as far as `commitWith` drives it (knex 3). */
interface KnexTransaction {
  client: { acquireConnection(): Promise<PipelineClient> };
  commit(): unknown;
  executionPromise: Promise<unknown>;
}

/** Connections whose transaction has begun in knex but not yet on the wire. */
const pendingBegin = new WeakSet<object>();
const PATCHED = Symbol.for('cairn.pipelinedBegin');
/** How knex ends a transaction (knex 3 sends `COMMIT;` and `ROLLBACK`). */
const ENDS = /^(COMMIT|ROLLBACK);?$/;

/** What knex's own `_query` gives back for a statement that was not sent (a BEGIN, or the end of a transaction that ran nothing). */
const unsent = (obj: KnexQueryObject, command: string) => {
  obj.response = { command, rowCount: null, rows: [], fields: [] };
  return Promise.resolve(obj);
};

/**
 * How a transaction begins: BEGIN, and generic plans for its named statements (issue 10). PostgreSQL
 * plans a prepared statement for its parameters' values (a custom plan) five times, then keeps the
 * generic plan only if its estimate is below the custom plans' average. For the statements of the
 * hot writes it is not once the tables have statistics (a new comment's notification threads: estimates
 * of 281 against 107), so each execution was planned again: half of PostgreSQL's CPU per new comment,
 * measured on an analyzed database (bench/runtime.md). A transaction's
 * statements are writes and point reads, whose generic plans use the same indexes; plain reads
 * outside a transaction (lists, with their LIMITs and filters) keep PostgreSQL's own choice. One
 * simple query: two statements, one message, one answer; SET LOCAL ends with the transaction.
 */
export const BEGIN = 'BEGIN; SET LOCAL plan_cache_mode = force_generic_plan';

// A text, not a config object, which pg copies property by property (8.23, cloneQueryConfig).
export const send = (conn: PipelineClient, text: string) =>
  new Promise<unknown>((resolve, reject) => {
    conn.query(text, [], (err, res) => (err ? reject(err) : resolve(res)));
  });

/**
 * A transaction's BEGIN on `conn` (model/transaction.ts): held back until its first statement when
 * the connection is pipelined, else sent.
 */
export function beginOn(conn: object): Promise<unknown> {
  const c = conn as PipelineClient;
  if (!c.pipeline) return send(c, BEGIN);
  pendingBegin.add(conn);
  return Promise.resolve();
}

/**
 * A transaction's last statement on `conn` (COMMIT or ROLLBACK, model/transaction.ts): queued at once,
 * or not sent at all when its BEGIN never was (the transaction ran nothing).
 */
export function endOn(conn: object, text: 'COMMIT' | 'ROLLBACK'): Promise<unknown> {
  if (pendingBegin.delete(conn)) return Promise.resolve();
  return send(conn as PipelineClient, text);
}

/**
 * Runs `run` (which queues one statement on `conn` synchronously) and answers what it answers; when
 * the connection's BEGIN is pending, BEGIN goes out first, in the same write, and is waited for too.
 */
export function withPendingBegin<T>(conn: object, run: () => Promise<T>): Promise<T> {
  if (!pendingBegin.has(conn)) return run();
  pendingBegin.delete(conn);
  const c = conn as PipelineClient;
  c.connection.stream.cork?.();
  try {
    const begun = send(c, BEGIN);
    const done = run();
    return Promise.all([begun, done]).then(([, r]) => r);
  } finally {
    c.connection.stream.uncork?.();
  }
}

/**
 * Makes knex's PostgreSQL client (the class of `knex.client`, whose transactions' clients share its
 * prototype) hold back `BEGIN;` until the transaction's first statement. Once per class; connections
 * must be in pipeline mode.
 */
export function pipelineBegins(knex: Knex): void {
  const proto = Object.getPrototypeOf(knex.client) as Record<PropertyKey, unknown> & { _query: RawQuery };
  if (proto[PATCHED]) return;
  const original = proto._query;
  proto._query = function (this: unknown, connection: PipelineClient, obj: KnexQueryObject): Promise<KnexQueryObject> {
    if (obj.sql === 'BEGIN;' && connection.pipeline && !obj.bindings?.length) {
      pendingBegin.add(connection);
      return unsent(obj, 'BEGIN');
    }
    const end = pendingBegin.has(connection) ? ENDS.exec(obj.sql) : null;
    if (end) {
      pendingBegin.delete(connection);
      return unsent(obj, end[1]!);
    }
    return withPendingBegin(connection, () => original.call(this, connection, obj));
  };
  proto[PATCHED] = true;
}

/**
 * Commits the EntityManager's transaction on its pipelined connection `conn` together with the
 * statements `start` queues there (it queues them synchronously and answers when each is done): all
 * written at once, then every answer awaited. The first error when one failed, and then nothing was
 * committed. The EntityManager has left the transaction either way; its unit of work must be flushed.
 * Unlike `em.commit()` it dispatches no transaction events to ORM subscribers (cairn registers none).
 */
export async function commitPipelined(em: EntityManager, conn: PipelineClient, start: () => Promise<unknown>[]): Promise<void> {
  const trx = em.getTransactionContext() as KnexTransaction;
  let sent: Promise<unknown>[];
  conn.connection.stream.cork?.();
  try {
    sent = start();
    // knex's commit queues COMMIT at once; the transaction's executionPromise settles with it.
    trx.commit();
  } finally {
    conn.connection.stream.uncork?.();
  }
  em.resetTransactionContext();
  const outcome = await Promise.allSettled([...sent, trx.executionPromise]);
  const failed = outcome.find((o) => o.status === 'rejected');
  if (failed) throw failed.reason;
}

/** The pipelined `pg` client of the EntityManager's transaction, or null (not PostgreSQL, or not pipelined). */
export async function pipelinedConnection(em: EntityManager): Promise<PipelineClient | null> {
  const trx = em.getTransactionContext() as KnexTransaction | undefined;
  if (!trx?.client) return null;
  const conn = await trx.client.acquireConnection();
  return conn.pipeline === true ? conn : null;
}

export type { PipelineClient };
