// The connections model/sql.ts runs its prepared statements on when no transaction is open, on
// PostgreSQL: a `pg.Pool` (pg's public pool) beside the ORM's, with the same connection settings
// (the ORM connection's options, its date and time parsers, `jit=off`, the statement timeouts). A
// statement that runs alone needs nothing of the ORM's pool, so it skips knex's raw path (what that
// cost is in bench/runtime.md). Statements inside a transaction, entity operations and the embedded
// database keep the ORM's connection.
//
// A statement runs as an `Execution`, a pg Submittable (pg's public interface for a query of one's
// own, the one pg-cursor uses): it writes the protocol messages with pg's public `Connection` methods
// and reads the answer's messages. Each connection parses and describes a text once; later
// executions send Bind, Execute and Sync alone and read the rows with the columns the connection was
// told the first time, so neither PostgreSQL nor pg describes the same row again, and each row is
// built by one loop over the known columns (what that saves is in bench/runtime.md).
//
// Invariants: a statement sent here is one the ORM's connection would have sent the same way (knex
// sends a raw text's values as parameters too), so its rows are the same; a connection reads a
// statement's rows with the columns it was told when it last prepared the statement, and after an
// error it prepares the statement again (a schema change makes PostgreSQL refuse the old one with
// "cached plan must not change result type"); every statement is announced to `onStatement`
// listeners (statement counts, the outage tracker); the pool is closed with the database handle.
//
// Lanes: the writes of one hot row (a repository's next issue number, an issue's comment count) all
// lock that row until they commit, so PostgreSQL lets one at a time through and the others wait on the
// lock, each waiter sleeping and waking and checking the row again, which costs it more CPU than the
// write. A statement sent with `queryInLane` goes on its row's lane instead: a connection of its own
// in pg's public pipeline mode (`pipeline: true`), which writes each statement as it comes without
// waiting for the answers before it. PostgreSQL runs them one after the other on that connection,
// with no wait on the lock between them (another process's writers still wait their turn there) and
// no round trip between them. Each is still one statement in its own transaction: one that fails
// fails alone. A row's lane is one of a few (its name's hash picks it), opened at its first
// statement; one that breaks or does not answer in time fails what it had under way and the next
// statement opens a new one. pg keeps using a statement it prepared, so when the schema moves under one
// ("cached plan must not change result type") the lane's next statements go on a new connection.
//
// A statement whose answer does not come within `statementMs` and the margin (a server that answers
// nothing at all) fails with pg's "Query read timeout" and its connection is dropped. The pool keeps
// the bound itself, one slot per connection and one timer over them, instead of pg's `query_timeout`:
// that one arms a timer per statement and wraps the statement's callback, and with it every
// request's objects outlived the young generation (bench/runtime.md, "The read bound").

import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { Orm } from './db.ts';
import type { PreparedValue } from './sql.ts';

export interface StatementPoolOptions {
  max: number;
  /** Bound of a wait for a connection, free or new (0: none). */
  connectMs: number;
  /** `statement_timeout` (0: none), and the pool's own wait for an answer a moment longer. */
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
  query<R>(p: PreparedText, values: readonly PoolValue[]): Promise<R[]>;
  /**
   * A prepared text with its values that locks the hot row `row` until it commits, sent alone (one
   * statement, its own transaction): on the row's lane (see the header), after the statements sent
   * there before it.
   */
  queryInLane<R>(row: string, p: PreparedText, values: readonly PoolValue[]): Promise<R[]>;
  /** Calls `fn` with each statement's text (its `?` form) as it is sent; returns the unsubscribe. */
  onStatement(fn: (text: string) => void): () => void;
  /** Calls `fn` each time the database answers a statement with its rows. */
  onAnswered(fn: () => void): () => void;
  /** Connections in use, idle, and callers waiting for one. */
  counters(): { used: number; idle: number; waiting: number };
  end(): Promise<void>;
}

/** A value as the statement pool takes it: a scalar, or a Date. */
export type PoolValue = PreparedValue | Date;

/** The columns of a statement's rows, as the connection described them. */
interface Columns {
  names: string[];
  parsers: ((text: string) => unknown)[];
  /**
   * A row with every column null, which each row is copied from: a copy has all its properties at
   * once, so V8 keeps it a fast object. Properties added one by one under computed names turn an
   * object into a hash table after a dozen or so (bench/runtime.md, "Rows as fast objects").
   */
  empty: Record<string, unknown>;
}

/** The all-null row of these column names, parsed from JSON text, which makes a fast object. */
const emptyRow = (names: string[]): Record<string, unknown> =>
  JSON.parse(`{${names.map((n) => `${JSON.stringify(n)}:null`).join(',')}}`) as Record<string, unknown>;

/** A statement without rows (an update without `returning`): PostgreSQL describes it as NoData. */
const NO_ROWS: Columns = { names: [], parsers: [], empty: {} };

/** pg's RowDescription and DataRow messages, as much of them as is read here. */
interface RowDescription {
  fields: { name: string; dataTypeID: number }[];
}
interface DataRow {
  fields: (string | null)[];
}

/** The parser of a column type's text form (pg's TypeOverrides, or pg.types). */
type TypeParsers = { getTypeParser(oid: number, format: 'text'): (text: string) => unknown };

/**
 * What each connection of the pool has prepared: the statement's columns, or `UNSURE` after an
 * error in an execution that prepared it (the statement may or may not exist there).
 */
const UNSURE = Symbol('unsure');
type Prepared = Map<string, Columns | typeof UNSURE>;

/**
 * A value as PostgreSQL reads it from text: a Date as its ISO instant (every time column of the
 * schema is timestamptz, so this names the instant pg's own rendering names), anything else as pg
 * renders it (`String`); undefined, as pg takes it, as null.
 */
const textOf = (v: PoolValue | undefined): string | null => (v == null ? null : v instanceof Date ? v.toISOString() : String(v));

/**
 * One execution of a prepared text on one connection. pg's client calls `submit` when the
 * connection is free, then the `handle*` methods with the answer's messages; the execution ends at
 * ReadyForQuery, or at the error (pg drops the query then and swallows the ReadyForQuery that
 * follows).
 */
class Execution implements pg.Submittable {
  private readonly rows: Record<string, unknown>[] = [];
  /** Called once, with the rows or the error. */
  callback: ((err: Error | null, rows?: Record<string, unknown>[]) => void) | null;
  private readonly p: PreparedText;
  private readonly values: readonly PoolValue[];
  private readonly types: TypeParsers;
  private readonly preparedOf: (c: pg.Connection) => Prepared;
  private columns: Columns | null = null;
  private prepares = false;
  private prepared: Prepared | null = null;

  constructor(
    p: PreparedText,
    values: readonly PoolValue[],
    types: TypeParsers,
    preparedOf: (c: pg.Connection) => Prepared,
    done: (err: Error | null, rows?: Record<string, unknown>[]) => void,
  ) {
    this.p = p;
    this.values = values;
    this.types = types;
    this.preparedOf = preparedOf;
    this.callback = done;
  }

  submit(connection: pg.Connection): void {
    const prepared = this.preparedOf(connection);
    this.prepared = prepared;
    const known = prepared.get(this.p.name);
    this.prepares = known === undefined || known === UNSURE;
    this.columns = this.prepares ? null : (known as Columns);
    // One write for the messages, as pg's own queries make it.
    connection.stream.cork();
    try {
      if (known === UNSURE) connection.close({ type: 'S', name: this.p.name }, true);
      if (this.prepares) connection.parse({ name: this.p.name, text: this.p.numbered, types: [] }, true);
      connection.bind({ statement: this.p.name, values: this.values.map(textOf) }, true);
      if (this.prepares) connection.describe({ type: 'P', name: '' }, true);
      connection.execute({ portal: '' }, true);
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
  }

  handleRowDescription(msg: RowDescription): void {
    const names = msg.fields.map((f) => f.name);
    this.columns = {
      names,
      parsers: msg.fields.map((f) => this.types.getTypeParser(f.dataTypeID, 'text')),
      empty: emptyRow(names),
    };
  }

  handleDataRow(msg: DataRow): void {
    const { names, parsers, empty } = this.columns!;
    const row: Record<string, unknown> = { ...empty };
    for (let i = 0; i < names.length; i++) {
      const text = msg.fields[i];
      row[names[i]!] = text == null ? null : parsers[i]!(text);
    }
    this.rows.push(row);
  }

  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}

  handleReadyForQuery(): void {
    if (this.prepares) this.prepared!.set(this.p.name, this.columns ?? NO_ROWS);
    this.finish(null);
  }

  /** The answer is late: the execution fails as pg's read timeout fails a query; its connection is to be dropped. */
  expire(): void {
    this.handleError(new Error('Query read timeout'));
  }

  handleError(err: Error): void {
    // Whether the statement exists on the connection now is not known (its Parse, or a later
    // message, failed; or the schema moved under it): the next execution there prepares it again.
    this.prepared?.set(this.p.name, UNSURE);
    this.finish(err);
  }

  private finish(err: Error | null): void {
    const cb = this.callback;
    this.callback = null;
    cb?.(err, err ? undefined : this.rows);
  }
}

interface LaneConnection {
  client: pg.Client;
  /** Settles when the client has connected (or failed to). */
  ready: Promise<unknown>;
  /** Deadlines of the statements written on it and not yet answered, oldest first; 0: no bound. */
  deadlines: number[];
}

/**
 * One lane (see the header): a pipelined connection, opened at its first statement, and the deadlines
 * of the statements written on it and not yet answered, oldest first (answers come in order).
 * pg's pipeline mode takes only its own queries, not a Submittable such as `Execution`: a lane's
 * statement is pg's named prepared statement (`name`, `text`, `values`), parsed once per connection,
 * its rows built by pg (a hot write answers one row).
 */
class Lane {
  /** The connection the lane's next statement goes on (connecting or connected); null: the next opens one. */
  #current: LaneConnection | null = null;
  readonly #config: pg.ClientConfig;
  readonly #onError: (e: Error) => void;

  constructor(config: pg.ClientConfig, onError: (e: Error) => void) {
    this.#config = config;
    this.#onError = onError;
  }

  /** Runs the statement on the lane's connection (opened first when there is none); `deadline` 0: no bound. */
  async query<R>(p: PreparedText, values: readonly PoolValue[], deadline: number): Promise<R[]> {
    const c = (this.#current ??= this.#connect());
    await c.ready;
    c.deadlines.push(deadline);
    try {
      return (await c.client.query<R & pg.QueryResultRow>({ name: p.name, text: p.numbered, values: values.map(textOf) })).rows;
    } catch (e) {
      // The schema moved under a statement the connection prepared before, which pg keeps using there:
      // the lane's next statements go on a new connection, and this one closes once it has answered the rest.
      if ((e as { code?: string }).code === '0A000') {
        this.#forget(c);
        void c.client.end().catch(noop);
      }
      throw e;
    } finally {
      c.deadlines.shift();
    }
  }

  /** The oldest statement is past its deadline: the connection is dropped, which fails every statement on it. */
  sweep(now: number): void {
    const c = this.#current;
    const oldest = c?.deadlines[0];
    if (c === null || oldest === undefined || oldest === 0 || oldest > now) return;
    this.#forget(c);
    // pg's end() waits for a pipeline's answers, which are not coming: this fails them with "Connection terminated".
    c.client.connection.stream.destroy();
  }

  async end(): Promise<void> {
    const c = this.#current;
    this.#current = null;
    if (c) await c.ready.then(() => c.client.end()).catch(noop);
  }

  #connect(): LaneConnection {
    const client = new pg.Client(this.#config);
    const c: LaneConnection = { client, ready: client.connect(), deadlines: [] };
    // A broken connection fails what it had under way (pg does), and the next statement opens another.
    client.on('error', (e) => {
      this.#forget(c);
      this.#onError(e);
    });
    client.on('end', () => this.#forget(c));
    c.ready.catch(() => this.#forget(c));
    return c;
  }

  /** The lane's next statement opens a new connection, unless `c` was replaced already. */
  #forget(c: LaneConnection): void {
    if (this.#current === c) this.#current = null;
  }
}

const noop = () => undefined;

/** A row name's hash (FNV-1a), which picks its lane. */
function hashOf(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const pools = new WeakMap<object, StatementPool>();

/** The statement pool of the ORM whose connection this is; null when it has none (the embedded database). */
export const statementPoolOf = (connection: object): StatementPool | null => pools.get(connection) ?? null;

/** Opens the statement pool of a PostgreSQL ORM and attaches it to the ORM's connection. */
export function openStatementPool(orm: Orm, o: StatementPoolOptions): StatementPool {
  const connection = orm.em.getConnection() as unknown as PostgreSqlConnection;
  // The ORM connection's own options: host, user, database, and its type parsers (dates and times as text).
  const base = connection.getConnectionOptions();
  const config: pg.ClientConfig = {
    ...(base as pg.ClientConfig),
    options: '-c jit=off',
    ...(o.connectMs > 0 ? { connectionTimeoutMillis: o.connectMs } : {}),
    ...(o.statementMs > 0 ? { statement_timeout: o.statementMs } : {}),
  };
  // As long as the ORM's pool keeps an idle connection (tarn's default).
  const pool = new pg.Pool({ ...config, max: o.max, idleTimeoutMillis: 30_000 });
  const lanes = Array.from({ length: Math.ceil(o.max / 4) }, () => new Lane({ ...config, pipeline: true }, o.onIdleError));
  // What each connection is waiting for, when answers are bounded: one slot per connection, made at
  // its first statement and dropped when the pool removes it, so a statement allocates nothing here;
  // every tick fails the executions past their deadline.
  const readMs = o.statementMs > 0 ? o.statementMs + o.clientMarginMs : 0;
  const waits = new Map<pg.PoolClient, { ex: Execution | null; deadline: number }>();
  const sweep =
    readMs > 0
      ? setInterval(
          () => {
            const now = performance.now();
            for (const w of waits.values()) if (w.ex !== null && w.deadline <= now) w.ex.expire();
            for (const lane of lanes) lane.sweep(now);
          },
          Math.min(1000, Math.max(50, Math.floor(readMs / 4))),
        ).unref()
      : null;
  if (sweep) pool.on('remove', (client) => void waits.delete(client));
  pool.on('error', (e) => o.onIdleError(e));
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const listen = (event: 'statement' | 'answered', fn: (text: string) => void) => {
    events.on(event, fn);
    return () => void events.off(event, fn);
  };
  const types: TypeParsers = (base as { types?: TypeParsers }).types ?? pg.types;
  const preparedBy = new WeakMap<pg.Connection, Prepared>();
  const preparedOf = (c: pg.Connection) => {
    let m = preparedBy.get(c);
    if (m === undefined) preparedBy.set(c, (m = new Map()));
    return m;
  };
  const handle: StatementPool = {
    async query<R>(p: PreparedText, values: readonly PoolValue[]) {
      events.emit('statement', p.text);
      const client = await pool.connect();
      let failed: Error | undefined;
      try {
        const rows = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
          let wait = waits.get(client);
          if (wait === undefined && sweep) waits.set(client, (wait = { ex: null, deadline: 0 }));
          const ex = new Execution(p, values, types, preparedOf, (err, rows) => {
            if (wait) wait.ex = null;
            if (err) reject(err);
            else resolve(rows!);
          });
          if (wait) {
            wait.ex = ex;
            wait.deadline = performance.now() + readMs;
          }
          client.query(ex);
        });
        events.emit('answered');
        return rows as R[];
      } catch (e) {
        // An error PostgreSQL answered leaves the connection ready for the next statement; any other
        // (the pool's read bound, a broken connection) leaves it in an unknown state: the pool drops it.
        if (!(e instanceof pg.DatabaseError)) failed = e as Error;
        throw e;
      } finally {
        client.release(failed);
      }
    },
    async queryInLane<R>(row: string, p: PreparedText, values: readonly PoolValue[]) {
      events.emit('statement', p.text);
      const lane = lanes[hashOf(row) % lanes.length]!;
      const rows = await lane.query<R>(p, values, readMs > 0 ? performance.now() + readMs : 0);
      events.emit('answered');
      return rows;
    },
    onStatement: (fn) => listen('statement', fn),
    onAnswered: (fn) => listen('answered', fn),
    counters: () => ({ used: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    end: async () => {
      if (sweep) clearInterval(sweep);
      await Promise.all(lanes.map((l) => l.end()));
      return pool.end();
    },
  };
  pools.set(connection, handle);
  return handle;
}
