// The ORM's connection pool as the process's plumbing sees it, on public APIs (MikroORM's
// `getKnex()`, knex's client and its `query-response` event, tarn's counting methods): watching
// answers, counting the pool, a connection of one's own outside the pool, and the pool as another
// library's store reads it. Statements of our own never come here: they go through model/sql.ts.
import type { Orm } from './db.ts';
import { statementPoolOf } from './statement-pool.ts';

const knexOf = (orm: Orm) => orm.em.getConnection().getKnex();

/** Calls `answered` each time the database answers a statement sent through the ORM's pool or the statement pool. */
export function onStatementAnswered(orm: Orm, answered: () => void): void {
  knexOf(orm).on('query-response', answered);
  statementPoolOf(orm.em.getConnection())?.onAnswered(answered);
}

/** tarn's public counters (tarn 3's Pool: numUsed, numFree, numPendingAcquires, numPendingCreates). */
export interface PoolCounters {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

/**
 * The counters of the process's connections to the database: the ORM's pool (knex's `client.pool`,
 * declared in knex's types) and, on PostgreSQL, the statement pool (model/statement-pool.ts), summed.
 * Null before the ORM's pool exists.
 */
export function poolCounters(orm: Orm): PoolCounters | null {
  const client = knexOf(orm).client as { pool?: PoolCounters | null };
  const orms = client.pool && typeof client.pool.numUsed === 'function' ? client.pool : null;
  if (!orms) return null;
  const statements = statementPoolOf(orm.em.getConnection());
  if (!statements) return orms;
  return {
    numUsed: () => orms.numUsed() + statements.counters().used,
    numFree: () => orms.numFree() + statements.counters().idle,
    numPendingAcquires: () => orms.numPendingAcquires() + statements.counters().waiting,
    numPendingCreates: () => orms.numPendingCreates(),
  };
}

/** Calls `sent` with the text of each statement the process sends through the ORM's pool or the statement pool; returns the unsubscribe. */
export function onStatementSent(orm: Orm, sent: (text: string) => void): () => void {
  const knex = knexOf(orm) as unknown as {
    on(e: 'query', fn: (q: { sql: string }) => void): unknown;
    off(e: 'query', fn: (q: { sql: string }) => void): unknown;
  };
  const listener = (q: { sql: string }) => sent(q.sql);
  knex.on('query', listener);
  const off = statementPoolOf(orm.em.getConnection())?.onStatement(sent);
  return () => {
    knex.off('query', listener);
    off?.();
  };
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
