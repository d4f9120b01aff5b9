// The connections model/sql.ts runs its prepared statements on when no transaction is open, on
// PostgreSQL: a `pg.Pool` (pg's public pool) beside the ORM's, with the same connection settings
// (the ORM connection's options, its date and time parsers, `jit=off`, the statement timeouts). A
// statement that runs alone needs nothing of the ORM's pool, so it skips knex's raw path (what that
// cost is in bench/runtime.md). Statements inside a transaction, entity operations and the embedded
// database keep the ORM's connection.
//
// Invariants: a statement sent here is one the ORM's connection would have sent the same way (knex
// sends a raw text's values as parameters too), so its rows are the same; every statement is
// announced to `onStatement` listeners (statement counts, the outage tracker); the pool is closed
// with the database handle.
import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { Orm } from './db.ts';

export interface StatementPoolOptions {
  max: number;
  /** Bound of a wait for a connection, free or new (0: none). */
  connectMs: number;
  /** `statement_timeout` (0: none), and pg's own wait a moment longer. */
  statementMs: number;
  clientMarginMs: number;
  /** An idle connection's error (the server went away): logged, the connection is dropped by the pool. */
  onIdleError(e: Error): void;
}

/** A fixed text of the code as a named prepared statement (model/sql.ts makes one per text). */
export interface PreparedText {
  /** The statement's name, the same in every process. */
  readonly name: string;
  /** The text with `?` placeholders (model/sql.ts's form), which statement listeners are told. */
  readonly text: string;
  /** The same text with pg's `$n` placeholders, as it is sent. */
  readonly numbered: string;
}

export interface StatementPool {
  /** A prepared text with its values. */
  query<R>(p: PreparedText, values: readonly unknown[]): Promise<R[]>;
  /** Calls `fn` with each statement's text (its `?` form) as it is sent; returns the unsubscribe. */
  onStatement(fn: (text: string) => void): () => void;
  /** Calls `fn` each time the database answers a statement with its rows. */
  onAnswered(fn: () => void): () => void;
  /** Connections in use, idle, and callers waiting for one. */
  counters(): { used: number; idle: number; waiting: number };
  end(): Promise<void>;
}

const pools = new WeakMap<object, StatementPool>();

/** The statement pool of the ORM whose connection this is; null when it has none (the embedded database). */
export const statementPoolOf = (connection: object): StatementPool | null => pools.get(connection) ?? null;

/** Opens the statement pool of a PostgreSQL ORM and attaches it to the ORM's connection. */
export function openStatementPool(orm: Orm, o: StatementPoolOptions): StatementPool {
  const connection = orm.em.getConnection() as unknown as PostgreSqlConnection;
  // The ORM connection's own options: host, user, database, and its type parsers (dates and times as text).
  const base = connection.getConnectionOptions();
  const pool = new pg.Pool({
    ...(base as pg.PoolConfig),
    options: '-c jit=off',
    max: o.max,
    // As long as the ORM's pool keeps an idle connection (tarn's default).
    idleTimeoutMillis: 30_000,
    ...(o.connectMs > 0 ? { connectionTimeoutMillis: o.connectMs } : {}),
    ...(o.statementMs > 0 ? { statement_timeout: o.statementMs, query_timeout: o.statementMs + o.clientMarginMs } : {}),
  });
  pool.on('error', (e) => o.onIdleError(e));
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const listen = (event: 'statement' | 'answered', fn: (text: string) => void) => {
    events.on(event, fn);
    return () => void events.off(event, fn);
  };
  const handle: StatementPool = {
    async query<R>(p: PreparedText, values: readonly unknown[]) {
      events.emit('statement', p.text);
      const res = await pool.query<R & pg.QueryResultRow>({ name: p.name, text: p.numbered, values: [...values] });
      events.emit('answered');
      return res.rows;
    },
    onStatement: (fn) => listen('statement', fn),
    onAnswered: (fn) => listen('answered', fn),
    counters: () => ({ used: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    end: () => pool.end(),
  };
  pools.set(connection, handle);
  return handle;
}
