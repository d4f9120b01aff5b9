// The ORM's connection pool as the process's plumbing sees it, on public APIs (MikroORM's
// `getKnex()`, knex's client and its `query-response` event, tarn's counting methods): watching
// answers, counting the pool, a connection of one's own outside the pool, and the pool as another
// library's store reads it. Statements of our own never come here: they go through model/sql.ts.
import type { Orm } from './db.ts';

const knexOf = (orm: Orm) => orm.em.getConnection().getKnex();

/** Calls `answered` each time the database answers a statement sent through the pool. */
export function onStatementAnswered(orm: Orm, answered: () => void): void {
  knexOf(orm).on('query-response', answered);
}

/** tarn's public counters (tarn 3's Pool: numUsed, numFree, numPendingAcquires, numPendingCreates). */
export interface PoolCounters {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

/** The pool's counters, from knex's `client.pool` (declared in knex's types); null before it exists. */
export function poolCounters(orm: Orm): PoolCounters | null {
  const client = knexOf(orm).client as { pool?: PoolCounters | null };
  return client.pool && typeof client.pool.numUsed === 'function' ? client.pool : null;
}

/** A connection of its own, outside the pool: what it holds (a session-level lock) lives until `release`. */
export interface OwnConnection {
  /** A statement with `$1`-style parameters, as the driver takes it. */
  query(text: string, values: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  release(): Promise<void>;
}

interface RawConnection {
  query(text: string, values: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}
interface KnexClient {
  acquireRawConnection(): Promise<RawConnection>;
  destroyRawConnection(c: RawConnection): Promise<void>;
}

/** Opens a connection outside the pool (PostgreSQL only: the embedded database has one connection). */
export async function ownConnection(orm: Orm): Promise<OwnConnection> {
  const client = knexOf(orm).client as KnexClient;
  const conn = await client.acquireRawConnection();
  return { query: (text, values) => conn.query(text, values), release: () => client.destroyRawConnection(conn) };
}

interface StoreQuery {
  text: string;
  values?: unknown[];
}
interface StoreResult {
  rows: Record<string, unknown>[];
  rowCount: number;
}

/**
 * The `pool` interface rate-limiter-flexible's PostgreSQL store takes, over the ORM's pool, so its
 * statements (the library's own texts) go through the ORM's connections on PostgreSQL and on the
 * embedded database alike (the embedded one has a single connection, which the pool hands out in
 * turn). The store writes `$n` placeholders; knex binds `?`.
 */
export function storePool(orm: Orm): { query(q: StoreQuery): Promise<StoreResult> } {
  const knex = knexOf(orm);
  return {
    async query(q) {
      const values: unknown[] = [];
      const text = q.text.replace(/\$(\d+)/g, (_m, n: string) => {
        values.push(q.values?.[Number(n) - 1] ?? null);
        return '?';
      });
      const r = (await knex.raw(text, values as never[])) as { rows?: Record<string, unknown>[]; rowCount?: number; affectedRows?: number };
      // The embedded database answers int8 as BigInt, which the store's arithmetic cannot mix with numbers.
      const rows = (r.rows ?? []).map((row) =>
        Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])),
      );
      return { rows, rowCount: r.rowCount ?? r.affectedRows ?? rows.length };
    },
  };
}
