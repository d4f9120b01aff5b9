// The bench's own database and a small SQL client for bulk seeding. On PostgreSQL the run creates a
// database of its own on the server of CAIRN__DATABASE__URL (as the tests do) and drops it at the end.
// On the embedded database the SQL client opens cairn's PGlite directory, which only one process may
// hold: bulk seeding runs while cairn is stopped (bench/main.ts).
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export const DEFAULT_BASE_URL = 'postgresql://postgres@127.0.0.1:5432/test';

export interface BenchDatabase {
  /** The URL cairn is given; empty for the embedded database. */
  url: string;
  drop(): Promise<void>;
}

export async function createDatabase(base: string): Promise<BenchDatabase> {
  const name = `cairn_bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`create database ${name}`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** A client on cairn's database: PostgreSQL at `url`, or the PGlite directory under `dataPath`. */
export async function openSql(url: string, dataPath: string): Promise<Sql> {
  if (url) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    return {
      query: async <T>(text: string, params: unknown[] = []) => (await c.query(text, params)).rows as T[],
      close: () => c.end(),
    };
  }
  const db = new PGlite({ dataDir: path.join(dataPath, 'pglite'), extensions: { pg_trgm } });
  await db.waitReady;
  return {
    query: async <T>(text: string, params: unknown[] = []) => (await db.query<T>(text, params)).rows,
    close: () => db.close(),
  };
}
