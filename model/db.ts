// Database bootstrap: PostgreSQL when CAIRN__DATABASE__URL is set, otherwise embedded PGlite under
// the data path. The SQL dialect is the same, so one set of committed migrations serves both.
import fs from 'node:fs';
import path from 'node:path';
import { MikroORM, type EntityManager, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { PGlite } from '@electric-sql/pglite';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { entities } from './entities.ts';
import { migrations } from './migrations/index.ts';
import { embeddedClock, MARK_ALL, postgresClock, type DbClock } from './db-clock.ts';
import { onRepositoryChange } from '../git/changes.ts';
import { executeSql, Sql, sql } from './sql.ts';
import { openStatementPool } from './statement-pool.ts';

export type Orm = MikroORM;

export interface DbHandle {
  orm: Orm;
  /** The database's change clock (model/db-clock.ts); it hears of every change to a git repository while the handle is open. */
  clock: DbClock;
  close(): Promise<void>;
}

/** The handle of an open ORM and its clock: the clock hears of git changes until the handle closes. */
function handle(orm: Orm, clock: DbClock, after: () => Promise<void> = async () => undefined): DbHandle {
  const unlisten = onRepositoryChange(() => clock.changed());
  clocks.set(orm, clock);
  return {
    orm,
    clock,
    async close() {
      unlisten();
      await clock.close();
      await orm.close(true);
      await after();
    },
  };
}

const clocks = new WeakMap<Orm, DbClock>();

/** What pg's own wait adds to `statement_timeout`, so that a server that answers says why first. */
const CLIENT_MARGIN_MS = 500;

/** knex's `log` option, onto pino. */
const knexLog = (log: Logger) => ({
  warn: (message: unknown) => log.warn({ knex: String(message) }, 'database driver warning'),
  error: (message: unknown) => log.error({ knex: String(message) }, 'database driver error'),
  deprecate: (message: unknown) => log.debug({ knex: String(message) }, 'database driver deprecation'),
  debug: (message: unknown) => log.debug({ knex: message }, 'database driver'),
});

/** The clock of an ORM opened by `openDatabase` (null for another). */
export const clockOf = (orm: Orm): DbClock | null => clocks.get(orm) ?? null;

const common = {
  entities,
  extensions: [Migrator],
  migrations: { migrationsList: migrations, transactional: true, allOrNothing: true, tableName: 'cairn_migrations', silent: true },
  allowGlobalContext: false,
  debug: false,
  discovery: { warnWhenNoEntities: false },
} satisfies Partial<Options>;

/** `memory` opens an in-memory PGlite (tests); otherwise the URL or the data path decides. */
export async function openDatabase(cfg: Config, opts: { memory?: boolean; log?: Logger } = {}): Promise<DbHandle> {
  if (cfg.DATABASE.URL && !opts.memory) {
    const { connectMs, acquireMs, statementMs } = cfg.databaseTimeouts;
    // Every wait for the server is bounded (0: not): connecting, a free connection of the pool, and a
    // statement, by the server (`statement_timeout`) and, for a server that answers nothing at all,
    // by pg itself a moment later (`query_timeout`).
    const orm = await MikroORM.init({
      ...common,
      clientUrl: cfg.DATABASE.URL,
      pool: { min: 0, max: cfg.DATABASE.POOL_MAX },
      // jit off: cairn's statements read a few rows each, yet one whose plan PostgreSQL estimates as
      // costly (correlated conditions over many repositories, GET /repos/issues/search) was compiled
      // on every execution: 3.6 s of JIT for a 1 ms statement (measured at 30,000 issues).
      driverOptions: {
        connection: {
          options: '-c jit=off',
          ...(connectMs > 0 ? { connectionTimeoutMillis: connectMs } : {}),
          ...(statementMs > 0 ? { statement_timeout: statementMs, query_timeout: statementMs + CLIENT_MARGIN_MS } : {}),
        },
        ...(acquireMs > 0 ? { acquireConnectionTimeout: acquireMs } : {}),
        // knex's own warnings (a connection found broken) go to the process's log, not to stderr.
        ...(opts.log ? { log: knexLog(opts.log) } : {}),
      },
    });
    // Announcements fall back to the pool when the clock's own connection cannot be opened.
    const viaPool = () => executeSql(orm.em, sql.raw(MARK_ALL));
    // The clock's text numbers its parameters (`$1`); a fragment takes them in order.
    const askViaPool = async (text: string, params: unknown[]) => {
      const values = [...text.matchAll(/\$(\d+)/g)].map((m) => params[Number(m[1]) - 1]);
      return (await executeSql<Record<string, unknown>>(orm.em, new Sql(text.split(/\$\d+/), values)))[0] ?? {};
    };
    const statements = openStatementPool(orm, {
      max: cfg.DATABASE.POOL_MAX,
      // pg's pool bounds a wait for a free connection and the connecting of a new one by one figure.
      connectMs: connectMs > 0 && acquireMs > 0 ? Math.max(connectMs, acquireMs) : 0,
      statementMs,
      clientMarginMs: CLIENT_MARGIN_MS,
      onIdleError: (e) => opts.log?.warn({ err: e.message }, 'an idle database connection failed; the pool drops it'),
    });
    const { connectMs: clockConnectMs, statementMs: clockStatementMs } = cfg.databaseTimeouts;
    return handle(
      orm,
      postgresClock(cfg.DATABASE.URL, { viaPool, askViaPool, connectMs: clockConnectMs, statementMs: clockStatementMs }),
      () => statements.end(),
    );
  }
  let dataDir: string | undefined;
  if (!opts.memory) {
    dataDir = path.join(cfg.dataPath, 'pglite');
    fs.mkdirSync(dataDir, { recursive: true });
  }
  // Loaded only for the embedded database: a server on PostgreSQL does not hold PGlite and its driver.
  const [{ PGlite }, { PGliteDriver }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('mikro-orm-pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  // pg_trgm: the trigram indexes of keyword search (migration KeywordSearch) need its operator classes.
  const pglite = new PGlite({ dataDir, extensions: { pg_trgm } });
  await pglite.waitReady;
  // The PGlite driver's own types come from a different copy of @mikro-orm/knex, so the driver
  // option is typed loosely here; it is the documented way to plug the driver in.
  const orm = await MikroORM.init({
    ...common,
    driver: PGliteDriver as unknown as Options['driver'],
    dbName: 'postgres',
    driverOptions: { connection: { pglite: () => singleStatementsAsQueries(pglite) } },
  });
  return handle(orm, embeddedClock(pglite), () => pglite.close());
}

/**
 * The EntityManager of one request: an identity map of its own, no context. The driver's public
 * `createEntityManager(false)` makes what `orm.em.fork()` makes while the global EntityManager has no
 * filters, filter parameters, logger context, schema or subscribers of its own (cairn sets none;
 * test/model/request-em.test.ts compares the two), without fork's two `config.set` calls, each of
 * which rewrites `process.env` (bench/runtime.md, "Lanes for hot rows").
 */
export const requestEm = (orm: Orm): EntityManager => orm.em.getDriver().createEntityManager(false) as EntityManager;

/**
 * The PGlite knex client runs any raw SQL containing a `;` through `exec` (the multi-statement path,
 * which answers a list of results). MikroORM inlines parameters into raw SQL, so a `;` inside a quoted
 * value — a search for `a;b` — took that path and the caller got the wrong shape. This hands SQL that is
 * one statement once quotes are skipped back to `query`, as the client does for every other statement.
 */
function singleStatementsAsQueries(db: PGlite): PGlite {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'exec') {
        return (sql: string, opts?: Parameters<PGlite['exec']>[1]) =>
          statementCount(sql) <= 1 ? target.query(sql, [], opts) : target.exec(sql, opts);
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Statements in a SQL text: top-level `;` separators, skipping quoted text, dollar quotes and comments. */
export function statementCount(sql: string): number {
  let count = 0;
  let pending = false;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (ch === "'" || ch === '"') {
      i = closing(sql, i, ch);
      pending = true;
    } else if (ch === '$' && /^\$[A-Za-z_]*\$/.test(sql.slice(i, i + 64))) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i, i + 64))![0];
      const end = sql.indexOf(tag, i + tag.length);
      i = end < 0 ? sql.length : end + tag.length - 1;
      pending = true;
    } else if (ch === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end;
    } else if (ch === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 1;
    } else if (ch === ';') {
      if (pending) count++;
      pending = false;
    } else if (!/\s/.test(ch)) {
      pending = true;
    }
  }
  return count + (pending ? 1 : 0);
}

/** Index of the quote closing the one at `start` (a doubled quote is an escaped one). */
function closing(sql: string, start: number, quote: string): number {
  for (let i = start + 1; i < sql.length; i++) {
    if (sql[i] !== quote) continue;
    if (sql[i + 1] === quote) {
      i++;
      continue;
    }
    return i;
  }
  return sql.length;
}

export async function migrate(orm: Orm): Promise<string[]> {
  const done = await orm.getMigrator().up();
  return done.map((m) => m.name);
}
