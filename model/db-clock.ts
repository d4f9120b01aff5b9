// The database's change clock (issue 10): what lets a process keep an answer across requests and
// still never serve one that a committed write has made wrong, whichever process wrote.
//
// `snapshot()` is PostgreSQL's `pg_current_snapshot()`: the oldest running transaction id, the next
// one to be assigned, and the ids in progress between them. Every transaction that writes a row gets
// an id, and when it ends (commit or rollback) either the next id moves past it or it leaves the list
// of ids in progress, so two equal texts mean that no write transaction ended between them, in any
// process or session on this database cluster. (Reads take no id; a write in another database of the
// cluster, or a rollback, changes the text too, which only costs a kept answer.)
//
// `changed()` is for what changes without a row: a git repository on disk. On PostgreSQL it ends a
// transaction of its own that holds an id (`pg_current_xact_id()`), which changes the text for every
// process.
//
// Both run on a connection of their own, not the ORM's pool: a request that holds a pool connection
// in its transaction while git writes must never wait for the pool to announce the change.
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';

export interface DbClock {
  /**
   * The database's current snapshot, as text, taken after the call. Callers that come while one is
   * being taken share the next (AskedAfter), so under load one question serves many requests.
   */
  snapshot(): Promise<string>;
  /** Makes every later `snapshot()` differ from every earlier one, for every process. */
  changed(): Promise<void>;
  close(): Promise<void>;
}

const SNAPSHOT = 'select pg_current_snapshot()::text as s';
const TAKE_ID = 'select pg_current_xact_id()::text as x';

/** Bounds of the clock's waits in milliseconds (config.ts DatabaseTimeouts; 0: none). */
export interface ClockTimeouts {
  connectMs: number;
  statementMs: number;
}

/**
 * A clock on PostgreSQL: one connection of its own, opened when first used and again after a failure.
 * Every call ends within the bounds: opening the connection within `connectMs`, a question within
 * `statementMs`, and a caller that shares a question under way waits no longer than both together.
 */
export function postgresClock(url: string, timeouts: ClockTimeouts = { connectMs: 0, statementMs: 0 }): DbClock {
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;
  const connection = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      const c = new pg.Client({
        connectionString: url,
        application_name: 'cairn-clock',
        ...(timeouts.connectMs > 0 ? { connectionTimeoutMillis: timeouts.connectMs } : {}),
        ...(timeouts.statementMs > 0 ? { query_timeout: timeouts.statementMs } : {}),
      });
      // A broken connection is dropped; the next call opens another.
      c.on('error', () => {
        if (client === c) client = null;
      });
      try {
        await c.connect();
        // An announcement's transaction holds nothing worth a wait for the disk: it is seen by every
        // session once it has ended, flushed or not, and lost in a crash it would change nothing.
        await c.query('set synchronous_commit = off');
      } finally {
        connecting = null;
      }
      if (closed) {
        await c.end();
        throw new Error('the database clock is closed');
      }
      client = c;
      return c;
    })();
    return connecting;
  };
  // One statement at a time on the connection (pg queues more, but is to stop doing so).
  let last: Promise<unknown> = Promise.resolve();
  const run = (name: string, text: string): Promise<string> => {
    const p = last.then(
      () => runNow(name, text),
      () => runNow(name, text),
    );
    last = p.catch(() => undefined);
    return p;
  };
  const runNow = async (name: string, text: string): Promise<string> => {
    if (closed) throw new Error('the database clock is closed');
    // One retry on a fresh connection: the kept one may have been closed by the server meanwhile.
    for (let attempt = 0; ; attempt++) {
      const c = await connection();
      try {
        const r = await c.query<{ s?: string; x?: string }>({ name, text });
        return String(r.rows[0]!.s ?? r.rows[0]!.x);
      } catch (e) {
        if (client === c) client = null;
        void c.end().catch(() => undefined);
        // A server that did not answer in time is not asked again: the caller's bound is spent.
        if (attempt > 0 || (e instanceof Error && e.message === 'Query read timeout')) throw e;
      }
    }
  };
  // Questions asked together share one; announcements made together share one transaction, ended
  // after each of them was made.
  const asking = new AskedAfter(() => run('cairn_clock_snapshot', SNAPSHOT));
  const announcing = new AskedAfter(() => run('cairn_clock_changed', TAKE_ID));
  const bound = timeouts.connectMs > 0 && timeouts.statementMs > 0 ? timeouts.connectMs + timeouts.statementMs : 0;
  return {
    snapshot: () => within(asking.after(), bound),
    changed: async () => {
      await within(announcing.after(), bound);
    },
    async close() {
      closed = true;
      const c = client ?? (connecting ? await connecting.catch(() => null) : null);
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}

/**
 * A clock on the embedded database, which one process alone may open: a change outside the rows is
 * counted in this process, next to the snapshot. The database has one session, so a snapshot asked
 * while a request's transaction is open is taken inside it; that transaction's end still changes
 * the next one.
 */
export function embeddedClock(db: PGlite): DbClock {
  let changes = 0;
  let closed = false;
  // PGlite answers within the caller's turn of the event loop (no I/O), so a question is never found
  // under way to share (AskedAfter would send one per request). A question is sent once the requests
  // that came in the same turn have asked for it: after all of them, so its answer is a snapshot
  // taken after each call.
  let waiting: Promise<string> | null = null;
  const ask = async () => `${String((await db.query<{ s: string }>(SNAPSHOT)).rows[0]!.s)}/${changes}`;
  return {
    snapshot() {
      if (closed) return Promise.reject(new Error('the database clock is closed'));
      waiting ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        waiting = null;
        return ask();
      });
      return waiting;
    },
    changed: async () => {
      changes++;
    },
    close: async () => {
      closed = true;
    },
  };
}

/**
 * A question asked at most once at a time: `after()` resolves with the answer of a question sent after
 * it was called, which every caller that came while another was under way shares (the snapshot of
 * `postgresClock`, and its announcements).
 */
export class AskedAfter<T> {
  private asking: Promise<T> | null = null;
  private next: Promise<T> | null = null;
  private readonly ask: () => Promise<T>;

  constructor(ask: () => Promise<T>) {
    this.ask = ask;
  }

  after(): Promise<T> {
    // A question is already queued behind the one under way: it is sent after this call.
    if (this.next) return this.next;
    if (!this.asking) return this.send();
    // The one under way was sent before this call: wait for it, then send another for everyone
    // who came meanwhile.
    const current = this.asking;
    this.next = current.then(noop, noop).then(() => {
      this.next = null;
      return this.send();
    });
    return this.next;
  }

  private send(): Promise<T> {
    const p = this.ask();
    this.asking = p;
    const done = () => {
      if (this.asking === p) this.asking = null;
    };
    p.then(done, done);
    return p;
  }
}

const noop = () => undefined;

/** `p`, or a rejection once `ms` have passed without its answer (0: no bound). */
function within<T>(p: Promise<T>, ms: number): Promise<T> {
  if (ms <= 0) return p;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database clock did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
