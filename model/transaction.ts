// A request's transaction on PostgreSQL without knex's transaction object (issue 10). `em.begin()`
// has knex build a transaction (knex 3, execution/transaction.js): a Transaction with its own event
// emitter, a client with four listeners, and a "transactor", a whole knex instance made by makeKnex,
// which defines each of about 150 query-builder methods on it as a new function, for every
// transaction. An empty transaction (BEGIN and COMMIT that were never sent) cost cairn 0.19 ms of CPU
// per request, about a fifth of a new issue's; the transactor alone was 12 % of what a new issue
// allocates.
//
// `openTransaction` makes instead what MikroORM and knex use of a transaction, and nothing more:
// - MikroORM passes the EntityManager's transaction context to knex's `.transacting(ctx)`, which only
//   takes `ctx.client`: a client that always hands out the transaction's connection and refuses
//   statements once the transaction has ended. It is made as knex's makeTxClient makes it (an object
//   on knex's client prototype, knex 3), with the settings on a prototype shared by every transaction
//   and its events passed on to the pool's client, where knex's `query` listeners are.
// - MikroORM commits with `ctx.commit()` and awaits `ctx.executionPromise`; it rolls back with
//   `ctx.rollback()`; a nested `em.transactional` asks `ctx.transaction()` for a savepoint. Like
//   knex's, `commit` and `rollback` never fail themselves: a failed COMMIT rejects `executionPromise`.
// - BEGIN, COMMIT and ROLLBACK go to pg through model/pipeline.ts (`beginOn`, `endOn`: BEGIN waits
//   for the first statement, and a transaction that ran nothing sends neither BEGIN nor its end),
//   announced to knex's `query` listeners as knex announces its own; savepoints go through the
//   client's `query`, as knex's do.
// The connection comes from knex's pool when the first statement needs it, not when the transaction
// opens: a request holds none while its handler works out what to write, and a handler that sends
// everything with COMMIT (a new issue or comment) holds one for that round trip alone. With knex's the
// pool (four connections on two CPUs) was held through every handler's own work, and 64 writers queued
// for it. The connection goes back once the transaction has ended; one whose ROLLBACK failed or did
// not answer within 5 s (knex's limit too) is marked disposed, so the pool drops it.
// On the embedded database the EntityManager's own `begin()` is used.
import type { EntityManager } from '@mikro-orm/core';
import { PostgreSqlConnection } from '@mikro-orm/postgresql';
import { beginOn, endOn } from './pipeline.ts';

/** A driver connection, as knex marks one it must not hand out again (knex 3). */
interface Conn {
  __knex__disposed?: unknown;
}
type QueryParam = string | { sql: string; bindings?: unknown[] };

/** knex's PostgreSQL client (knex 3), as far as a transaction uses it. */
interface KnexClient {
  acquireConnection(): Promise<Conn>;
  releaseConnection(conn: Conn): Promise<void>;
  query(conn: Conn, q: QueryParam): Promise<unknown>;
  stream(conn: Conn, q: QueryParam, stream: unknown, options: unknown): Promise<unknown>;
  emit(event: string | symbol, ...args: unknown[]): boolean;
}

/** What knex's transaction client carries besides its prototype's methods (knex 3, makeTxClient). */
const COPIED = ['version', 'config', 'driver', 'connectionSettings', 'valueForUndefined', 'logger'] as const;

/** A transaction's client: the shared prototype below, with its transaction. */
interface TxClient extends KnexClient {
  trx: Transaction;
}

/** The prototype of every transaction client of one pool client, made once. */
const txPrototypes = new WeakMap<KnexClient, KnexClient>();
function txPrototypeOf(root: KnexClient): KnexClient {
  let proto = txPrototypes.get(root);
  if (proto) return proto;
  const base = Object.getPrototypeOf(root) as KnexClient;
  proto = Object.create(base) as KnexClient;
  for (const key of COPIED) (proto as unknown as Record<string, unknown>)[key] = (root as unknown as Record<string, unknown>)[key];
  Object.assign(proto, {
    transacting: true,
    emit: (event: string | symbol, ...args: unknown[]) => root.emit(event, ...args),
    acquireConnection(this: TxClient) {
      return this.trx.connection();
    },
    releaseConnection: () => Promise.resolve(),
    query(this: TxClient, conn: Conn, q: QueryParam) {
      const refused = this.trx.refusal(conn);
      return refused ? Promise.reject(refused) : base.query.call(this, conn, q);
    },
    stream(this: TxClient, conn: Conn, q: QueryParam, stream: unknown, options: unknown) {
      const refused = this.trx.refusal(conn);
      return refused ? Promise.reject(refused) : base.stream.call(this, conn, q, stream, options);
    },
  });
  txPrototypes.set(root, proto);
  return proto;
}

/** How long a ROLLBACK may take before its connection is given up (knex's limit). */
const ROLLBACK_MS = 5000;

/** A transaction or a savepoint in one, on one connection; the transaction context MikroORM is given. */
export class Transaction {
  readonly client: TxClient;
  readonly isTransaction = true;
  readonly userParams = {};
  /** Settles when the transaction has ended: rejected when its COMMIT failed. */
  readonly executionPromise: Promise<void>;
  private completed = false;
  private resolve!: () => void;
  private reject!: (err: unknown) => void;
  private savepoints = 0;
  private readonly root: KnexClient;
  /** The connection once taken from the pool (a savepoint is given its transaction's). */
  private conn: Conn | null;
  private taking: Promise<Conn> | null = null;
  /** The savepoint this transaction is, or null for the transaction itself. */
  private readonly point: string | null;

  constructor(root: KnexClient, conn: Conn | null, point: string | null) {
    this.root = root;
    this.conn = conn;
    this.point = point;
    this.client = Object.create(txPrototypeOf(root)) as TxClient;
    this.client.trx = this;
    this.executionPromise = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Awaited by whoever commits; a rollback's outcome is nobody's to handle.
    this.executionPromise.catch(() => {});
  }

  isCompleted(): boolean {
    return this.completed;
  }

  /**
   * The transaction's connection: taken from the pool when its first statement needs it, and BEGIN
   * noted on it (sent with that statement). A request holds a connection only from its first
   * statement on: a handler that sends everything with COMMIT holds one for that round trip alone.
   */
  connection(): Promise<Conn> {
    if (this.conn !== null) return Promise.resolve(this.conn);
    if (this.completed) return Promise.reject(completedError());
    this.taking ??= this.root.acquireConnection().then(async (conn) => {
      this.conn = conn;
      await this.bound(conn, 'BEGIN;', () => beginOn(conn));
      return conn;
    });
    return this.taking;
  }

  /** Whether a statement has taken (or is taking) the transaction's connection: it may hold locks. */
  holdsConnection(): boolean {
    return this.conn !== null || this.taking !== null;
  }

  /**
   * Ends a transaction that took no connection and whose BEGIN, statements and COMMIT were sent on
   * another one (model/raw.ts commitInLane), announced there: this one only settles as `ended` does.
   */
  endedElsewhere(ended: Promise<unknown>): void {
    if (this.completed || this.holdsConnection()) throw new Error('a transaction that ran statements cannot end elsewhere');
    this.completed = true;
    ended.then(
      () => this.resolve(),
      (err: unknown) => this.reject(err),
    );
  }

  /** Why a statement on `conn` may not run in this transaction, or null. */
  refusal(conn: Conn): Error | null {
    if (conn !== this.conn) return new Error('Invalid connection for transaction query.');
    return this.completed ? completedError() : null;
  }

  commit(): Promise<void> {
    return this.end(this.point ? `RELEASE SAVEPOINT ${this.point};` : 'COMMIT;', true);
  }

  rollback(): Promise<void> {
    return this.end(this.point ? `ROLLBACK TO SAVEPOINT ${this.point}` : 'ROLLBACK', false);
  }

  /** A savepoint in this transaction (a nested `em.transactional`), once it is set. */
  async transaction(container?: unknown): Promise<Transaction> {
    if (container) throw new TypeError('a transaction container function is not supported: commit or roll back the transaction returned');
    const conn = await this.connection();
    const nested = new Transaction(this.root, conn, `${this.point ?? 'trx'}_${++this.savepoints}`);
    await this.client.query(conn, `SAVEPOINT ${nested.point};`);
    return nested;
  }

  /** knex's name for `transaction`. */
  savepoint(container?: unknown): Promise<Transaction> {
    return this.transaction(container);
  }

  /**
   * BEGIN or the end of the transaction itself (model/pipeline.ts: held back or sent with pg alone),
   * announced to knex's listeners and with its errors as knex words them, as knex's own were; without
   * knex's query object, bindings and promise chain, twice per request.
   */
  private bound(conn: Conn, sql: string, run: () => Promise<unknown>): Promise<unknown> {
    const { __knexUid } = conn as { __knexUid?: string };
    this.root.emit('query', { __knexUid, sql, bindings: [] });
    return run().catch((err: Error) => {
      err.message = `${sql} - ${err.message}`;
      this.root.emit('query-error', err, { __knexUid, sql, bindings: [] });
      throw err;
    });
  }

  /**
   * The statement that ends the transaction or savepoint, on its connection: past the client's own
   * refusal, the transaction being complete by now.
   */
  private send(conn: Conn, sql: string): Promise<unknown> {
    if (this.point !== null) return (Object.getPrototypeOf(this.root) as KnexClient).query.call(this.client, conn, sql);
    return this.bound(conn, sql, () => endOn(conn, sql.startsWith('COMMIT') ? 'COMMIT' : 'ROLLBACK'));
  }

  /**
   * Ends the transaction with `sql`. With the connection taken, the statement is queued at once (so
   * model/pipeline.ts can send it with the statements queued just before). A transaction that never
   * took one ran nothing: its BEGIN and end are announced to `query` listeners, as knex announces the
   * ones it holds back, and nothing is sent.
   */
  private end(sql: string, commit: boolean): Promise<void> {
    if (this.completed) return Promise.resolve();
    this.completed = true;
    if (this.conn === null && this.taking === null) {
      this.root.emit('query', { sql: 'BEGIN;', bindings: [] });
      this.root.emit('query', { sql, bindings: [] });
      this.resolve();
      return Promise.resolve();
    }
    const conn = this.conn;
    let sent = conn !== null ? this.send(conn, sql) : this.taking!.then((taken) => this.send(taken, sql));
    let timer: NodeJS.Timeout | undefined;
    if (!commit) {
      sent = Promise.race([
        sent,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`${sql} did not answer within ${ROLLBACK_MS} ms`)), ROLLBACK_MS);
        }),
      ]);
    }
    return sent
      .then(
        () => this.resolve(),
        (err: unknown) => {
          // The connection may be in any state: the pool must not hand it out again.
          if (this.conn !== null && !commit) this.conn.__knex__disposed ??= err;
          this.reject(err);
        },
      )
      .finally(() => {
        clearTimeout(timer);
        if (this.point === null && this.conn !== null) return this.root.releaseConnection(this.conn);
      });
  }
}

const completedError = () => new Error('Transaction query already complete, run with DEBUG=knex:tx for more info');

/**
 * Opens the EntityManager's transaction: on PostgreSQL a `Transaction` (above), else `em.begin()`.
 * It ends as one begun with `em.begin()` does: `em.commit()`, `em.rollback()`, or model/pipeline.ts.
 */
export async function openTransaction(em: EntityManager): Promise<void> {
  const conn = em.getConnection();
  if (!(conn instanceof PostgreSqlConnection) || em.isInTransaction()) return em.begin();
  em.setTransactionContext(new Transaction(conn.getKnex().client as unknown as KnexClient, null, null));
}

/**
 * Runs `work` on `em` in a transaction of its own: flushed and committed when it returns, rolled back
 * when it throws. For the short transactions of work outside a request (a request's go through the
 * server's hook, with its counter queue).
 */
export async function inTransaction<T>(em: EntityManager, work: () => Promise<T>): Promise<T> {
  await openTransaction(em);
  try {
    const out = await work();
    await em.flush();
    await em.commit();
    return out;
  } catch (e) {
    if (em.isInTransaction()) await em.rollback();
    throw e;
  }
}
