// Connections for the plain reads outside a transaction (model/raw.ts `onDriver`), handed out
// without a round through knex's pool on most statements (issue 10): tarn's acquire builds two
// pending operations, each with promises and a timeout timer, and validates the connection through
// a chain of promises, about 4 % of cairn's CPU on `GET {R}` with a token, for a statement that
// takes one round trip. Under load (more requests than connections) reads wait for a connection on
// most statements, so the lease queues its own reads too: a connection a read gives back goes to the
// next waiting read directly.
//
// A lease holds the connections its reads took from tarn: tarn counts them as used, so the
// connections stay within its maximum (CAIRN__DATABASE__POOL_MAX), and it gives tarn one back
// whenever tarn would otherwise make someone (a transaction, an ORM query) wait:
// - a connection a read gives back goes to tarn while tarn has acquirers waiting, before any read
//   waiting in the lease (which waits in tarn's queue as one acquirer meanwhile);
// - when tarn is asked for a connection and has none free, the lease gives it an idle one first;
// - idle connections no read needed during a second go back to tarn (which closes them after its
//   own idle time);
// - a connection whose statement failed, or that knex marked disposed (it reported an error or
//   ended), goes back to tarn, which validates it before anyone uses it again;
// - when the pool is destroyed (`orm.close()`), idle connections go back at once, reads in flight
//   give theirs back as they end (tarn's destroy waits for every used connection), and waiting
//   reads fail as they would have in tarn.
// Which connection a read runs on is all it decides: no state of a request or of the data is kept.

/** A driver connection as knex leaves it: knex marks one that reported an error or ended (knex 3). */
interface Marked {
  __knex__disposed?: unknown;
}

/** Knex's pool (tarn 3), as far as the lease reads and drives it. */
export interface Tarn<C> {
  readonly max: number;
  readonly free: readonly unknown[];
  readonly used: readonly unknown[];
  readonly pendingCreates: readonly unknown[];
  readonly pendingAcquires: readonly unknown[];
  readonly destroyed: boolean;
  release(connection: C): boolean;
  on(event: 'acquireRequest' | 'poolDestroyRequest', listener: () => void): void;
}

/** Knex's client, as far as the lease takes connections through it (tarn's acquire, with knex's timeout and error). */
export interface LeaseClient<C> {
  pool: Tarn<C> | undefined;
  acquireConnection(): Promise<C>;
}

/** A read waiting for a connection; `seq` orders arrivals. */
interface Waiter<C> {
  resolve(c: C): void;
  reject(err: unknown): void;
  seq: number;
}

/** How long an idle connection stays in a lease without being needed (ms). */
const IDLE_MS = 1000;

/** What knex's acquireConnection throws once its pool is destroyed. */
const closed = () => new Error('Unable to acquire a connection');

const disposed = (c: object) => (c as Marked).__knex__disposed !== undefined;

export class Lease<C extends object> {
  private readonly pool: Tarn<C>;
  private readonly client: LeaseClient<C>;
  /** Idle connections, the most recently used last. Never non-empty while reads wait. */
  private readonly idle: C[] = [];
  /** Reads waiting for a connection, first come first served. */
  private readonly waiting: Waiter<C>[] = [];
  /** The lease's connections in use by reads. */
  private busy = 0;
  /** Whether the lease is acquiring a connection from tarn (at most one at a time). */
  private acquiring = false;
  private seq = 0;
  /** The fewest idle connections since the last sweep: that many were not needed meanwhile. */
  private low = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(client: LeaseClient<C>, pool: Tarn<C>) {
    this.client = client;
    this.pool = pool;
    pool.on('acquireRequest', () => {
      if (pool.free.length === 0) this.giveOneBack();
    });
    pool.on('poolDestroyRequest', () => this.close());
  }

  /** An idle connection, or null: then `wait` for one. */
  take(): C | null {
    for (let c = this.idle.pop(); c !== undefined; c = this.idle.pop()) {
      if (this.idle.length < this.low) this.low = this.idle.length;
      if (!disposed(c)) {
        this.busy++;
        return c;
      }
      this.pool.release(c);
    }
    return null;
  }

  /** A connection once one is free for a read; `give` it back after the statement. */
  wait(): Promise<C> {
    if (this.pool.destroyed) return Promise.reject(closed());
    return new Promise<C>((resolve, reject) => {
      this.waiting.push({ resolve, reject, seq: ++this.seq });
      this.refill();
    });
  }

  /** Takes back a connection after its read, `failed` when its statement failed. */
  give(c: C, failed: boolean): void {
    this.busy--;
    const pool = this.pool;
    // While the lease acquires, one of tarn's waiting acquirers may be the lease itself.
    if (failed || pool.destroyed || disposed(c) || pool.pendingAcquires.length > (this.acquiring ? 1 : 0)) {
      pool.release(c);
    } else {
      const next = this.waiting.shift();
      if (next !== undefined) {
        this.busy++;
        next.resolve(c);
      } else {
        this.idle.push(c);
        if (this.timer === null) this.arm();
      }
    }
    this.refill();
  }

  /** Connections idle in the lease and in use by its reads (for tests). */
  get held(): { idle: number; busy: number } {
    return { idle: this.idle.length, busy: this.busy };
  }

  /**
   * Acquires a connection from tarn for the waiting reads when nothing else would serve them soon:
   * the lease has none in use (no read will give one back), or tarn has one free or room for one.
   */
  private refill(): void {
    if (this.acquiring || this.waiting.length === 0) return;
    const pool = this.pool;
    if (this.busy > 0 && pool.free.length === 0 && pool.used.length + pool.pendingCreates.length >= pool.max) return;
    this.acquiring = true;
    const since = this.seq;
    this.client.acquireConnection().then(
      (c) => {
        this.acquiring = false;
        this.busy++;
        this.give(c, false);
      },
      (err: unknown) => {
        this.acquiring = false;
        // The reads that were waiting when this acquire began share its failure (a timeout, a
        // connection that could not be made), as they would have each failed in tarn's queue.
        while (this.waiting.length > 0 && this.waiting[0]!.seq <= since) this.waiting.shift()!.reject(err);
        this.refill();
      },
    );
  }

  private giveOneBack(): void {
    const c = this.idle.shift();
    if (c === undefined) return;
    if (this.idle.length < this.low) this.low = this.idle.length;
    this.pool.release(c);
  }

  private arm(): void {
    this.low = this.idle.length;
    this.timer = setTimeout(() => this.sweep(), IDLE_MS);
    this.timer.unref();
  }

  /** Gives back the connections no read needed since the last sweep, the least recently used first. */
  private sweep(): void {
    this.timer = null;
    for (let n = this.low; n > 0; n--) this.giveOneBack();
    if (this.idle.length > 0) this.arm();
  }

  private close(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    for (let c = this.idle.pop(); c !== undefined; c = this.idle.pop()) this.pool.release(c);
    for (let w = this.waiting.shift(); w !== undefined; w = this.waiting.shift()) w.reject(closed());
  }
}

const leases = new WeakMap<object, Lease<object>>();

/** The lease over a knex client's current pool (a new one when knex made a new pool). */
export function leaseOf<C extends object>(client: LeaseClient<C>): Lease<C> {
  const pool = client.pool;
  if (pool === undefined) throw closed();
  let lease = leases.get(pool) as Lease<C> | undefined;
  if (lease === undefined) leases.set(pool, (lease = new Lease(client, pool)) as Lease<object>);
  return lease;
}
