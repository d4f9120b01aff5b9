// A real cairn for tests: real HTTP on port 0, a real database (PostgreSQL when CAIRN__DATABASE__URL
// is set — a fresh database per test process — else in-memory PGlite), real git repositories in a
// temporary data directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig, type Config } from '../../config.ts';
import { migrate, openDatabase, type DbHandle } from '../../model/db.ts';
import { createApp, listen, type Running } from '../../server.ts';
import { closeAll } from '../../git/cat-file.ts';
import { createScratchDb } from './scratch-db.ts';

export interface TestDb {
  db: DbHandle;
  dataPath: string;
  /** The PostgreSQL database's URL; '' for the in-memory embedded database. */
  url?: string;
  close(): Promise<void>;
}

/**
 * One database (and data directory) per test process; several servers may share it. `overrides` are
 * settings of the database's own (`DATABASE__POOL_MAX: '1'`).
 */
export async function openTestDb(overrides: Record<string, string> = {}): Promise<TestDb> {
  const dataPath = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-test-'));
  const base = process.env.CAIRN__DATABASE__URL;
  let url = '';
  let dropDb: (() => Promise<void>) | null = null;
  if (base) {
    const scratch = await createScratchDb(base, 'cairn_test');
    url = scratch.url;
    dropDb = scratch.drop;
  }
  const cfg = loadConfig({}, { ...overrides, SERVER__APP_DATA_PATH: dataPath, DATABASE__URL: url });
  const db = await openDatabase(cfg, { memory: !url });
  await migrate(db.orm);
  return {
    db,
    dataPath,
    url,
    // The database and the data directory go even when closing fails (a test that closed the pool itself).
    async close() {
      try {
        await closeAll();
        await db.close();
      } finally {
        if (dropDb) await dropDb();
        fs.rmSync(dataPath, { recursive: true, force: true });
      }
    },
  };
}

export interface TestServer {
  url: string;
  api: string;
  config: Config;
  close(): Promise<void>;
}

/** Starts a server on port 0 over a shared test database, with settings overrides (`QUOTA__ENABLED: 'true'`). */
export async function startServer(t: TestDb, overrides: Record<string, string> = {}): Promise<TestServer> {
  const cfg0 = loadConfig({}, { SERVER__APP_DATA_PATH: t.dataPath, ...overrides });
  const log = pino({ level: process.env.TEST_LOG ?? 'silent' });
  const app = createApp({ config: cfg0, orm: t.db.orm, log });
  const running: Running = await listen(app, '127.0.0.1', 0);
  // ROOT_URL must name the real port for Link headers and redirects; rebuild with it.
  const cfg = loadConfig({}, { SERVER__APP_DATA_PATH: t.dataPath, SERVER__ROOT_URL: `${running.url}/`, ...overrides });
  running.server.removeAllListeners('request');
  running.server.on('request', createApp({ config: cfg, orm: t.db.orm, log }).callback());
  return { url: running.url, api: `${running.url}/api/v1`, config: cfg, close: () => running.close() };
}
