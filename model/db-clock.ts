// The database's change clock: what lets a process keep an answer across requests and
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
//
// The text is keyed by the server too: its system identifier (`pg_control_system()`) and timeline
// (`pg_control_checkpoint()`), asked with every snapshot. A restore or a failover to a standby that
// lost its last transactions hands out the same transaction ids again, so the same snapshot text
// could name other data; the identifier (a restore into a new cluster) or the timeline (a promotion,
// a point-in-time recovery) differs, so no answer kept before comes back.
//
// An announcement that cannot be made is never dropped. It is tried on the clock's connection (opened
// again if it broke), then through the ORM's pool (`viaPool`: its connections may be open when no
// new one can be, with `max_connections` reached), again and again for a few seconds before its
// caller is told it failed; and from the first failure on, until an announcement begun after it has
// succeeded (tried on in the background), `snapshot()` refuses: the process neither sends nor keeps
// answers, since its own change may be missing from the text.
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';

export interface DbClock {
  /**
   * The database's current snapshot, as text, taken after the call. Callers that come while one is
   * being taken share the next (AskedAfter), so under load one question serves many requests.
   * Refuses while a change this process made has not been announced.
   */
  snapshot(): Promise<string>;
  /**
   * Makes every later `snapshot()` differ from every earlier one, for every process. Rejects with
   * AnnouncementError when it could not; the clock then tries on until it can.
   */
  changed(): Promise<void>;
  close(): Promise<void>;
}

/** A change that could not be announced in time: other processes may serve answers from before it until it is. */
export class AnnouncementError extends Error {
  constructor(cause: unknown) {
    super(`a change could not be announced to the database: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'AnnouncementError';
  }
}

const SNAPSHOT =
  "select (select system_identifier from pg_control_system())::text || '/' || (select timeline_id from pg_control_checkpoint())::text || '/' || pg_current_snapshot()::text as s";
const TAKE_ID = 'select pg_current_xact_id()::text as x';
const EMBEDDED_SNAPSHOT = 'select pg_current_snapshot()::text as s';

export interface PostgresClockOptions {
  /** Announces through the ORM's pool (a statement that takes a transaction id, in a transaction of its own). */
  viaPool?: () => Promise<unknown>;
  /** Asks the snapshot question through the ORM's pool (the text of the first column of its one row). */
  askViaPool?: (text: string) => Promise<string>;
  /** How long `changed()` tries before it rejects (ms); the clock tries on in the background. */
  patienceMs?: number;
  /** Bounds of the clock's own waits (config.ts DatabaseTimeouts; 0 or absent: the defaults below, none for statements). */
  connectMs?: number;
  statementMs?: number;
}

const POOL_WAIT_MS = 2000;
const RETRY_MAX_MS = 1000;

/** A clock on PostgreSQL: one connection of its own, opened when first used and again after a failure. */
export function postgresClock(url: string, opts: PostgresClockOptions = {}): DbClock {
  const patienceMs = opts.patienceMs ?? 5000;
  const connectMs = opts.connectMs || POOL_WAIT_MS;
  const statementMs = opts.statementMs ?? 0;
  // A caller that shares a question under way waits no longer than opening a connection and asking.
  const bound = statementMs > 0 ? connectMs + statementMs : 0;
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;
  const connection = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      const c = new pg.Client({
        connectionString: url,
        application_name: 'cairn-clock',
        connectionTimeoutMillis: connectMs,
        ...(statementMs > 0 ? { query_timeout: statementMs } : {}),
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
      } catch (e) {
        void c.end().catch(() => undefined);
        throw e;
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

  // Announcements are numbered as they begin. `unsure` is the number of the latest one that failed
  // (0: none): an announcement that began after it and succeeded covers every change it was for.
  let begun = 0;
  let unsure = 0;
  let retrying = false;
  const announceOnce = async (): Promise<void> => {
    const n = ++begun;
    try {
      try {
        await run('cairn_clock_changed', TAKE_ID);
      } catch (own) {
        if (!opts.viaPool) throw own;
        await withTimeout(opts.viaPool(), POOL_WAIT_MS, own);
      }
    } catch (e) {
      unsure = Math.max(unsure, n);
      throw e;
    }
    if (n > unsure) unsure = 0;
  };
  // One loop at a time tries on in the background until an announcement succeeds.
  const tryOn = () => {
    if (retrying) return;
    retrying = true;
    void (async () => {
      for (let wait = 100; unsure && !closed; wait = Math.min(wait * 2, RETRY_MAX_MS)) {
        await sleep(wait);
        await announceOnce().catch(() => undefined);
      }
      retrying = false;
    })();
  };
  const announce = async (): Promise<void> => {
    const deadline = Date.now() + patienceMs;
    for (let wait = 50; ; wait = Math.min(wait * 2, RETRY_MAX_MS)) {
      if (closed) throw new Error('the database clock is closed');
      try {
        return await announceOnce();
      } catch (e) {
        if (Date.now() + wait > deadline) {
          tryOn();
          throw new AnnouncementError(e);
        }
      }
      await sleep(wait);
    }
  };
  // Questions asked together share one; announcements made together share one transaction, ended
  // after each of them was made.
  // The question falls back to the pool as announcements do: the clock's own connection being gone is
  // no outage while the pool answers.
  const ask = async (): Promise<string> => {
    try {
      return await run('cairn_clock_snapshot', SNAPSHOT);
    } catch (own) {
      if (!opts.askViaPool || closed) throw own;
      return withTimeout(opts.askViaPool(SNAPSHOT), connectMs + (statementMs || POOL_WAIT_MS), own);
    }
  };
  const asking = new AskedAfter(ask);
  const announcing = new AskedAfter(announce);
  return {
    snapshot: () => (unsure ? Promise.reject(new Error('a change is not announced yet')) : within(asking.after(), bound)),
    changed: async () => {
      await announcing.after();
    },
    async close() {
      closed = true;
      const c = client ?? (connecting ? await connecting.catch(() => null) : null);
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** `p`, or a rejection with `reason` after `ms` (p may still end later: an announcement made late is harmless). */
function withTimeout<T>(p: Promise<T>, ms: number, reason: unknown): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(reason), ms);
  });
  p.catch(() => undefined);
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/**
 * A clock on the embedded database, which one process alone may open: a change outside the rows is
 * counted in this process, next to the snapshot. The database has one session, so a snapshot asked
 * while a request's transaction is open is taken inside it; that transaction's end still changes
 * the next one. (Its data has one owner, this process, and kept answers live in its memory: a
 * restore means a new process, so the text needs no server identity.)
 */
export function embeddedClock(db: PGlite): DbClock {
  let changes = 0;
  let closed = false;
  // PGlite answers within the caller's turn of the event loop (no I/O), so a question is never found
  // under way to share (AskedAfter would send one per request). A question is sent once the requests
  // that came in the same turn have asked for it: after all of them, so its answer is a snapshot
  // taken after each call.
  let waiting: Promise<string> | null = null;
  const ask = async () => `${String((await db.query<{ s: string }>(EMBEDDED_SNAPSHOT)).rows[0]!.s)}/${changes}`;
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

/** `p`, or a rejection after `ms` (0: `p` as it is). */
function within<T>(p: Promise<T>, ms: number): Promise<T> {
  if (ms <= 0) return p;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database clock did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
