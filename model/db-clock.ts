// The database's change clock: what lets a process keep an answer across requests and
// still never serve one that a committed write has made wrong, whichever process wrote.
//
// A reading (`read()`) is PostgreSQL's `pg_current_snapshot()`, taken after the call, with the scopes
// of what was committed since the process's previous reading. A snapshot names the oldest running
// transaction id, the next one to be assigned, and the ids in progress between them; a transaction
// that is not visible in the previous snapshot and is visible in this one has ended in between. Every
// transaction that writes a row leaves a mark per scope it changed in `change_mark` (database
// triggers on every table, migration ChangeMarks: `repo:<id>`, `user:<id>`, or `*` for anything), so
// the question reads the marks of exactly the transactions that committed between the two snapshots,
// in any process or session. The process counts readings that saw a change as generations, and keeps
// per scope the generation of its last change: an answer made at generation g is still fresh while
// nothing it depends on (its scopes, and `*`) changed after g (`changedAfter`).
//
// Everything counts as changed (a generation that changes all scopes) when the reading has no
// previous one to compare with: the first, one whose previous reading was asked more than
// PREVIOUS_MAX_MS ago (marks older than CLEANUP_HORIZON_MS are deleted, so an old snapshot could miss
// some), too many scopes at once, or another server (below).
//
// `changed()` is for what changes without a row: a git repository on disk. On PostgreSQL it ends a
// transaction of its own that marks `*`, seen by every process at its next reading.
//
// Both run on a connection of their own, not the ORM's pool: a request that holds a pool connection
// in its transaction while git writes must never wait for the pool to announce the change.
//
// The reading is keyed by the server too: its system identifier (`pg_control_system()`) and timeline
// (`pg_control_checkpoint()`), asked with every snapshot. A restore or a failover to a standby that
// lost its last transactions hands out the same transaction ids again, so the same snapshot text
// could name other data; the identifier (a restore into a new cluster) or the timeline (a promotion,
// a point-in-time recovery) differs, and everything counts as changed.
//
// An announcement that cannot be made is never dropped. It is tried on the clock's connection (opened
// again if it broke), then through the ORM's pool (`viaPool`: its connections may be open when no
// new one can be, with `max_connections` reached), again and again for a few seconds before its
// caller is told it failed; and from the first failure on, until an announcement begun after it has
// succeeded (tried on in the background), `read()` refuses: the process neither sends nor keeps
// answers, since its own change may be missing from the marks.
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';

export interface DbClock {
  /**
   * Reads what changed up to a snapshot taken after the call, and resolves with the generation this
   * process has reached. Callers that come while one is being taken share the next (AskedAfter), so
   * under load one question serves many requests. Refuses while a change this process made has not
   * been announced.
   */
  read(): Promise<number>;
  /**
   * Whether something an answer made at generation `gen` depends on has changed after it, as far as
   * the readings so far show: one of `scopes` or `*` (null: any change at all).
   */
  changedAfter(gen: number, scopes: readonly string[] | null): boolean;
  /** The text of the server and a snapshot taken after the call (a reading's; tests compare them). */
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

/** Scopes a reading takes one by one; more count as a change of everything. */
const MAX_SCOPES = 1000;
// $1: the previous reading's snapshot (null: none). The marks of the transactions that are visible
// now (the statement's snapshot is the one returned) and were not then.
export const MARKS_SINCE = `select distinct m.scope from change_mark m where m.x >= pg_snapshot_xmin($1::pg_snapshot)
    and not pg_visible_in_snapshot(m.x, $1::pg_snapshot) limit ${MAX_SCOPES + 1}`;
const READING = `select (select system_identifier from pg_control_system())::text || '/' || (select timeline_id from pg_control_checkpoint())::text as server,
  pg_current_snapshot()::text as s,
  array(${MARKS_SINCE}) as c`;
/**
 * Settings of the clock's connection. Its statements read `change_mark` by ranges of the primary key
 * (the transactions since a snapshot: a few rows), but PostgreSQL keeps no statistics it can compare an
 * xid8 with: it guesses a third of the table and, once the table holds a few thousand marks, reads all
 * of it at every reading. Without sequential scans it takes the key. The reading's plan is the same
 * for any snapshot, so it is planned once per connection, not at every reading.
 */
export const CLOCK_SETTINGS: Readonly<Record<string, string>> = { enable_seqscan: 'off', plan_cache_mode: 'force_generic_plan' };
/** The mark of a change outside the rows: anything may have changed. */
export const MARK_ALL = `insert into change_mark (x, scope) values (pg_current_xact_id(), '*') on conflict do nothing`;
const EMBEDDED_SNAPSHOT = 'select pg_current_snapshot()::text as s';
/** A previous reading asked longer ago than this is not compared with (marks may be deleted meanwhile). */
const PREVIOUS_MAX_MS = 30_000;
/** Marks of transactions that had ended before a snapshot taken this long ago are deleted. */
const CLEANUP_HORIZON_MS = 120_000;
const CLEANUP_EVERY_MS = 60_000;
/** Scopes remembered with the generation of their last change; past it, everything counts as changed. */
const MAX_REMEMBERED = 100_000;

/** What a reading brings: the server and snapshot texts, and the scopes committed since the previous snapshot. */
interface Reading {
  server: string;
  s: string;
  c: string[];
}

/**
 * Generations of one process: a reading that saw a change is a new generation; each scope remembers
 * the generation of its last change, `*` (and anything that counts as it) all of them.
 */
export class Generations {
  private gen = 0;
  private all = 0;
  private any = 0;
  private readonly byScope = new Map<string, number>();

  get current(): number {
    return this.gen;
  }

  /** Everything may have changed. */
  reset(): number {
    this.gen++;
    this.all = this.any = this.gen;
    this.byScope.clear();
    return this.gen;
  }

  /** These scopes changed (none: nothing did). */
  saw(scopes: readonly string[]): number {
    if (scopes.length === 0) return this.gen;
    if (scopes.length > MAX_SCOPES || scopes.includes('*') || this.byScope.size + scopes.length > MAX_REMEMBERED) return this.reset();
    this.gen++;
    this.any = this.gen;
    for (const scope of scopes) this.byScope.set(scope, this.gen);
    return this.gen;
  }

  changedAfter(gen: number, scopes: readonly string[] | null): boolean {
    if (this.all > gen) return true;
    if (scopes === null) return this.any > gen;
    for (const scope of scopes) if ((this.byScope.get(scope) ?? 0) > gen) return true;
    return false;
  }
}

export interface PostgresClockOptions {
  /** Announces through the ORM's pool (a statement that takes a transaction id, in a transaction of its own). */
  viaPool?: () => Promise<unknown>;
  /** Asks the reading's question through the ORM's pool (its one row). */
  askViaPool?: (text: string, params: unknown[]) => Promise<Record<string, unknown>>;
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
  /** A client of the clock's: its readings' (with CLOCK_SETTINGS and the statement bound) or a maintenance one. */
  const newClient = (name: string, clock: boolean) =>
    new pg.Client({
      connectionString: url,
      application_name: name,
      connectionTimeoutMillis: connectMs,
      ...(clock
        ? {
            options: Object.entries(CLOCK_SETTINGS)
              .map(([k, v]) => `-c ${k}=${v}`)
              .join(' '),
            ...(statementMs > 0 ? { query_timeout: statementMs } : {}),
          }
        : {}),
    });
  const connection = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      const c = newClient('cairn-clock', true);
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
  const run = <R = Record<string, unknown>>(name: string, text: string, values: unknown[] = []): Promise<R | undefined> => {
    const p = last.then(
      () => runNow<R>(name, text, values),
      () => runNow<R>(name, text, values),
    );
    last = p.catch(() => undefined);
    return p;
  };
  const runNow = async <R>(name: string, text: string, values: unknown[]): Promise<R | undefined> => {
    if (closed) throw new Error('the database clock is closed');
    // One retry on a fresh connection: the kept one may have been closed by the server meanwhile.
    for (let attempt = 0; ; attempt++) {
      const c = await connection();
      try {
        const r = await c.query({ name, text, values });
        return r.rows[0] as R | undefined;
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
        await run('cairn_clock_changed', MARK_ALL);
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
  const question = async (values: unknown[]): Promise<Reading> => {
    try {
      return (await run<Reading>('cairn_clock_reading', READING, values))!;
    } catch (own) {
      if (!opts.askViaPool || closed) throw own;
      return (await withTimeout(opts.askViaPool(READING, values), connectMs + (statementMs || POOL_WAIT_MS), own)) as unknown as Reading;
    }
  };
  // The previous reading (questions are asked one at a time, AskedAfter).
  const generations = new Generations();
  let previous: { server: string; s: string; sentAt: number } | null = null;
  let text = '';
  const ask = async (): Promise<number> => {
    const sentAt = Date.now();
    const fresh = previous !== null && sentAt - previous.sentAt <= PREVIOUS_MAX_MS ? previous : null;
    const r = await question([fresh?.s ?? null]);
    const scopes = r.c ?? [];
    const gen = fresh === null || r.server !== fresh.server || scopes.length > MAX_SCOPES ? generations.reset() : generations.saw(scopes);
    previous = { server: r.server, s: r.s, sentAt };
    text = `${r.server}/${r.s}`;
    return gen;
  };
  const asking = new AskedAfter(ask);
  const announcing = new AskedAfter(announce);
  const read = () => (unsure ? Promise.reject(new Error('a change is not announced yet')) : within(asking.after(), bound));
  // Old marks go: those of transactions that had ended before a snapshot this process took at least
  // CLEANUP_HORIZON_MS ago, which no reading compares with any more (PREVIOUS_MAX_MS is shorter).
  const horizons: { at: number; s: string }[] = [];
  const cleanup = async () => {
    const now = Date.now();
    const taken = await run<{ s: string }>('cairn_clock_horizon', 'select pg_current_snapshot()::text as s');
    horizons.push({ at: now, s: taken!.s });
    let old: string | null = null;
    while (horizons.length > 0 && horizons[0]!.at <= now - CLEANUP_HORIZON_MS) old = horizons.shift()!.s;
    if (old === null) return;
    await run('cairn_clock_cleanup', 'delete from change_mark where x < pg_snapshot_xmin($1::pg_snapshot)', [old]);
    await vacuum();
  };
  // The deleted marks' space is taken again, and the statistics kept, whether or not the server's
  // autovacuum runs: a table every write adds to would otherwise only grow. On a connection of its
  // own, so that readings never wait for it; a process whose vacuum would wait for another's leaves
  // it to that one.
  const vacuum = async () => {
    const c = newClient('cairn-clock-vacuum', false);
    c.on('error', () => undefined);
    try {
      await c.connect();
      await c.query('vacuum (analyze, skip_locked) change_mark');
    } finally {
      await c.end().catch(() => undefined);
    }
  };
  const cleaning = setInterval(() => void cleanup().catch(() => undefined), CLEANUP_EVERY_MS);
  cleaning.unref();
  return {
    read,
    changedAfter: (gen, scopes) => generations.changedAfter(gen, scopes),
    snapshot: () => read().then(() => text),
    changed: async () => {
      await announcing.after();
    },
    async close() {
      closed = true;
      clearInterval(cleaning);
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
 * counted in this process, next to the snapshot, and any change of the snapshot counts as a change of
 * everything (the marks are not read: one process has only its own writes to tell apart, and the
 * embedded database serves small instances). The database has one session, so a snapshot asked
 * while a request's transaction is open is taken inside it; that transaction's end still changes the
 * next one. (Its data has one owner, this process, and kept answers live in its memory: a restore
 * means a new process, so the text needs no server identity.)
 */
export function embeddedClock(db: PGlite): DbClock {
  let changes = 0;
  let closed = false;
  // One process: every change counts as a change of everything (the marks are not read; old ones are deleted).
  const generations = new Generations();
  let text = '';
  // PGlite answers within the caller's turn of the event loop (no I/O), so a question is never found
  // under way to share (AskedAfter would send one per request). A question is sent once the requests
  // that came in the same turn have asked for it: after all of them, so its answer is a snapshot
  // taken after each call.
  let waiting: Promise<number> | null = null;
  const ask = async () => {
    const now = `${String((await db.query<{ s: string }>(EMBEDDED_SNAPSHOT)).rows[0]!.s)}/${changes}`;
    if (now === text) return generations.current;
    text = now;
    return generations.reset();
  };
  const read = (): Promise<number> => {
    if (closed) return Promise.reject(new Error('the database clock is closed'));
    waiting ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      waiting = null;
      return ask();
    });
    return waiting;
  };
  const cleaning = setInterval(
    () => void db.query('delete from change_mark where x < pg_snapshot_xmin(pg_current_snapshot())').catch(() => undefined),
    CLEANUP_EVERY_MS,
  );
  cleaning.unref();
  return {
    read,
    changedAfter: (gen, scopes) => generations.changedAfter(gen, scopes),
    snapshot: () => read().then(() => text),
    changed: async () => {
      changes++;
    },
    close: async () => {
      closed = true;
      clearInterval(cleaning);
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
