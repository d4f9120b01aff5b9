// Database bootstrap: PostgreSQL when CAIRN__DATABASE__URL is set, otherwise embedded PGlite under
// the data path. The SQL dialect is the same, so one set of committed migrations serves both.
import fs from 'node:fs';
import path from 'node:path';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { PGlite } from '@electric-sql/pglite';
import { PGliteDriver } from 'mikro-orm-pglite';
import type { Config } from '../config.ts';
import { entities } from './entities.ts';
import { migrations } from './migrations/index.ts';

export type Orm = MikroORM;

export interface DbHandle {
  orm: Orm;
  close(): Promise<void>;
}

const common = {
  entities,
  extensions: [Migrator],
  migrations: { migrationsList: migrations, transactional: true, allOrNothing: true, tableName: 'cairn_migrations', silent: true },
  allowGlobalContext: false,
  debug: false,
  discovery: { warnWhenNoEntities: false },
} satisfies Partial<Options>;

/** `memory` opens an in-memory PGlite (tests); otherwise the URL or the data path decides. */
export async function openDatabase(cfg: Config, opts: { memory?: boolean } = {}): Promise<DbHandle> {
  if (cfg.DATABASE.URL && !opts.memory) {
    const orm = await MikroORM.init({ ...common, clientUrl: cfg.DATABASE.URL, pool: { min: 0, max: cfg.DATABASE.POOL_MAX } });
    return { orm, close: () => orm.close(true) };
  }
  let dataDir: string | undefined;
  if (!opts.memory) {
    dataDir = path.join(cfg.dataPath, 'pglite');
    fs.mkdirSync(dataDir, { recursive: true });
  }
  const pglite = new PGlite(dataDir);
  await pglite.waitReady;
  // The PGlite driver's own types come from a different copy of @mikro-orm/knex, so the driver
  // option is typed loosely here; it is the documented way to plug the driver in.
  const orm = await MikroORM.init({
    ...common,
    driver: PGliteDriver as unknown as Options['driver'],
    dbName: 'postgres',
    driverOptions: { connection: { pglite: () => pglite } },
  });
  return { orm, close: async () => { await orm.close(true); await pglite.close(); } };
}

export async function migrate(orm: Orm): Promise<string[]> {
  const done = await orm.getMigrator().up();
  return done.map((m) => m.name);
}
