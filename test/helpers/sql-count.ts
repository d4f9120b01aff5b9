// Counts the SQL statements the server sends while one HTTP request runs. Statements per request are
// part of the performance contract: unlike time they are deterministic, so a test
// can pin them exactly and a change that adds a round trip fails a test instead of a benchmark.
//
// The hook is model/connection.ts onStatementSent: knex's `query` event, which knex emits for every
// statement it sends on any connection (queries built by MikroORM, raw statements, the BEGIN / COMMIT
// of a transaction; both drivers), and the statement pool's own (model/statement-pool.ts).
import { Socket } from 'node:net';
import type { Orm } from '../../model/db.ts';
import { onStatementSent } from '../../model/connection.ts';

export interface Counted<T> {
  result: T;
  /** The statements in the order they were sent, as knex saw them (placeholders, no values). */
  statements: string[];
}

/**
 * Runs `fn` and returns what it returned with every statement sent meanwhile. Attribution is by time
 * window, so nothing else may use the database while `fn` runs: the test servers start no background
 * schedulers, and tests run one request at a time.
 *
 * A token's record of its last use (lib/auth/auth.ts: a write at most once a minute per token, not a cost
 * of any one kind of request) is left out of the count: on a loaded machine a minute can pass between
 * a warm-up request and the counted one, and the count would change with the machine's speed.
 */
/** The statement of a token's last-use record, as MikroORM's `nativeUpdate` writes it (lib/auth/auth.ts; values inlined or not). */
const TOKEN_LAST_USE = /^update "access_token" set "updated_at" = \S+ where "id" = \S+$/;

export async function countSql<T>(orm: Orm, fn: () => Promise<T>): Promise<Counted<T>> {
  const statements: string[] = [];
  const off = onStatementSent(orm, (text) => {
    if (!TOKEN_LAST_USE.test(text)) statements.push(text);
  });
  try {
    return { result: await fn(), statements };
  } finally {
    off();
  }
}

/** The statements as numbered one-line entries, for an assertion message that shows what changed. */
export const listing = (statements: string[]) => statements.map((s, i) => `${i + 1}. ${s.replace(/\s+/g, ' ').slice(0, 200)}`).join('\n');

type SocketWrite = (this: Socket, ...a: unknown[]) => unknown;

/** The protocol codes of PostgreSQL's StartupMessage (3.0) and SSLRequest. */
const OPENING_CODES = new Set([196608, 80877103]);

/**
 * Runs `fn` and counts the writes to PostgreSQL's sockets (remote port `port`) meanwhile: each is a
 * wait for the server, so this is the request's round trips to the database. A new connection's
 * opening is not counted: whether a pool opens one depends on what ran before. A token's last-use
 * record (see `countSql`) is left out. Same rule as `countSql`: nothing else may use the database
 * while `fn` runs.
 */
export async function countDbWrites<T>(port: number, fn: () => Promise<T>): Promise<{ result: T; writes: number }> {
  const proto = Socket.prototype as unknown as { _write: SocketWrite; _writev: SocketWrite };
  const { _write: write, _writev: writev } = proto;
  let writes = 0;
  const count = (socket: Socket, chunks: unknown[]) => {
    if (socket.remotePort !== port) return;
    // A connection's opening (its startup message or SSL request: no type byte, a protocol code after
    // the length) is the pool growing, not a round trip of the request's statements.
    if (chunks.some((c) => Buffer.isBuffer(c) && c.length >= 8 && OPENING_CODES.has(c.readInt32BE(4)))) return;
    if (chunks.some((c) => Buffer.isBuffer(c) && c.includes('update "access_token" set "updated_at"'))) return;
    writes++;
  };
  proto._write = function (this: Socket, ...a: unknown[]) {
    count(this, [a[0]]);
    return write.apply(this, a);
  };
  proto._writev = function (this: Socket, ...a: unknown[]) {
    count(
      this,
      (a[0] as { chunk: unknown }[]).map((c) => c.chunk),
    );
    return writev.apply(this, a);
  };
  try {
    return { result: await fn(), writes };
  } finally {
    proto._write = write;
    proto._writev = writev;
  }
}
