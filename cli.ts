// The command line: `serve` (npm start), `migrate`, `routes`, and the admin commands. Settings come
// from an app.ini (`--config FILE` anywhere on the line, or CAIRN_CONFIG) and the CAIRN__SECTION__KEY
// environment, the same for the server and the admin commands.
//
// With the embedded database only one process may open the data directory, so while a server runs,
// admin commands are sent to it over a unix socket under the data path and run there.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { migrate, openDatabase, type Orm } from './model/db.ts';
import { createApp, listen, secretKey } from './server.ts';
import { startMirrorScheduler } from './lib/mirrors/schedule.ts';
import { startWebhookDeliverer } from './lib/webhooks/deliver.ts';
import { startCronScheduler } from './lib/maintenance/cron.ts';
import { SecretBox } from './lib/auth/secretbox.ts';
import { repoPathFor } from './lib/http/services.ts';
import { routes } from './routes.table.ts';
import { validateTable, TableError } from './interpreter.ts';
import { matrixJson, matrixMarkdown, packageMatrixJson } from './table/matrix.ts';
import { packageRoutes } from './table/packages.ts';
import { validatePackageTable } from './table/package-interpreter.ts';
import { commandLine, dumpArgs, runAdmin, runSshAdmin, USAGE, type Output } from './cli-admin.ts';
import { HttpError } from './lib/http/errors.ts';
import { closeAll } from './git/cat-file.ts';
import { removeLeftovers } from './lib/maintenance/leftovers.ts';
import { reconcileAllMerges } from './lib/pulls/merge-recovery.ts';
import { takeServingLock } from './lib/runtime/serving-lock.ts';
import { missingServeFlags, withoutTsx } from './lib/runtime/node-flags.ts';
import { collectWhenIdle } from './lib/runtime/idle-gc.ts';
import { guardProcess } from './lib/runtime/process-guard.ts';
import { drainHttp, drainServer, onStopSignals, within } from './lib/runtime/shutdown.ts';
import { isWorker, onStopMessage, startWorkers, tellReady, WORKER_CUT, workerCount } from './lib/runtime/workers.ts';

const socketPath = (cfg: Config) => path.join(cfg.dataPath, 'cairn-admin.sock');

/** Add a new migration class to model/migrations/index.ts: its import and its entry, last. */
function registerMigration(index: string, cls: string): void {
  let src = fs.readFileSync(index, 'utf8');
  const imports = [...src.matchAll(/^import .*;$/gm)];
  const lastImport = imports[imports.length - 1];
  const at = lastImport.index + lastImport[0].length;
  src = `${src.slice(0, at)}\nimport { ${cls} } from './${cls}.ts';${src.slice(at)}`;
  src = src.replace(/\n\];\s*$/, `\n  { name: '${cls}', class: ${cls} },\n];\n`);
  fs.writeFileSync(index, src);
}

async function createMigration(cfg: Config, name: string): Promise<string | null> {
  const db = await openDatabase(cfg, { memory: true });
  try {
    await migrate(db.orm);
    const sql = await db.orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false });
    const statements = sql
      .split(/;\n/)
      .map((x) => x.trim().replace(/;$/, ''))
      .filter((x) => x && !x.startsWith('--') && !x.startsWith('set names'));
    if (statements.length === 0) return null;
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const cls = `Migration${stamp}${name}`;
    const file = path.join(path.dirname(new URL(import.meta.url).pathname), 'model', 'migrations', `${cls}.ts`);
    const body = statements.map((x) => `    this.addSql(${JSON.stringify(x)});`).join('\n');
    fs.writeFileSync(
      file,
      `import { Migration } from '@mikro-orm/migrations';\n\nexport class ${cls} extends Migration {\n  override async up(): Promise<void> {\n${body}\n  }\n}\n`,
    );
    registerMigration(path.join(path.dirname(file), 'index.ts'), cls);
    return file;
  } finally {
    await db.close();
  }
}

async function withDatabase<T>(cfg: Config, fn: (orm: Orm) => Promise<T>): Promise<T> {
  const db = await openDatabase(cfg);
  try {
    await migrate(db.orm);
    return await fn(db.orm);
  } finally {
    await db.close();
  }
}

/** Sends admin argv to a running server, or returns null when none listens on this data path. */
function viaServer(cfg: Config, argv: string[]): Promise<Output | null> {
  const file = socketPath(cfg);
  if (!fs.existsSync(file)) return Promise.resolve(null);
  return new Promise((resolve) => {
    const sock = net.connect({ path: file, allowHalfOpen: true });
    let data = '';
    sock.on('connect', () => sock.end(JSON.stringify(argv)));
    sock.on('data', (d) => {
      data += d.toString('utf8');
    });
    sock.on('end', () => resolve(JSON.parse(data) as Output));
    sock.on('error', () => resolve(null));
  });
}

function serveAdminSocket(orm: Orm, cfg: Config): net.Server {
  const file = socketPath(cfg);
  // The primary of worker processes serves it before anything else made the data directory.
  fs.mkdirSync(cfg.dataPath, { recursive: true });
  fs.rmSync(file, { force: true });
  const srv = net.createServer({ allowHalfOpen: true }, (sock) => {
    let data = '';
    sock.on('data', (d) => {
      data += d.toString('utf8');
    });
    sock.on('end', async () => {
      let out: Output;
      try {
        out = await runAdmin(orm, cfg, JSON.parse(data) as string[]);
      } catch (e) {
        out = { lines: [e instanceof Error ? e.message : String(e)], code: 1 };
      }
      sock.end(JSON.stringify(out));
    });
  });
  srv.listen(file);
  fs.chmodSync(file, 0o600);
  return srv;
}

async function serve(cfg: Config) {
  const log = pino({ level: cfg.LOG.LEVEL });
  guardProcess(log);
  // A worker (lib/runtime/workers.ts) only serves: its primary did the start-up work and said the rest.
  if (isWorker()) return serveRequests(cfg, log, null);
  for (const name of cfg.unknown) log.warn({ setting: name }, 'unknown setting ignored');
  if (cfg.configFile) log.info({ config: cfg.configFile }, 'settings read from the configuration file and the environment');
  for (const n of cfg.fileNotices) log.warn({ file: n.file, line: n.line, section: n.section, key: n.key }, n.message);
  // package.json's engines say >=24, installed by the project itself (README, "Run it"); an older
  // runtime still starts, loudly, so an operator who bypassed npm sees why.
  if (Number(process.versions.node.split('.')[0]) < 24) {
    log.warn({ node: process.version }, 'cairn runs on Node.js 24 LTS: start it with `npm start`, which uses node_modules/.bin/node');
  }
  validateTable(routes);
  const workers = workerCount(cfg);
  if (!cfg.DATABASE.URL) log.info('embedded database: one process');
  const db = await openDatabase(cfg, { log });
  const applied = await migrate(db.orm);
  if (applied.length) log.info({ migrations: applied }, 'migrations applied');
  const serving = await takeServingLock(db.orm, cfg);
  const started = Date.now();
  const removed = await removeLeftovers(cfg, { alone: serving.alone });
  log.info(
    { removed: removed.length, alone: serving.alone, ms: Date.now() - started },
    'leftovers of interrupted uploads and pushes removed',
  );
  // Merges a killed process left in git but not in the database are recorded (lib/pulls/merge-recovery.ts).
  const settled = await reconcileAllMerges(db.orm, { log, secrets: new SecretBox(secretKey(cfg)), repoPath: repoPathFor(cfg) }, cfg);
  if (settled.length) log.warn({ pulls: settled }, 'merges interrupted by a crash recorded');
  if (workers === 1) return serveRequests(cfg, log, { db, serving });
  // The primary: the admin socket, and the workers, which serve everything else.
  const admin = serveAdminSocket(db.orm, cfg);
  const ended = async (code: number) => {
    fs.rmSync(socketPath(cfg), { force: true });
    await serving.release();
    await db.close();
    process.exit(code);
  };
  log.info({ workers }, `starting ${workers} worker processes`);
  const running = await startWorkers(workers, log).catch(() => null);
  if (!running) return ended(1);
  log.info({ workers }, `cairn serves with ${workers} worker processes`);
  const graceMs = cfg.gracefulHammerMs;
  onStopSignals(
    async (signal) => {
      const began = Date.now();
      log.info({ signal, graceMs }, 'shutdown began: every worker drains');
      const [workersDrained, adminDrained] = await Promise.all([running.stop(graceMs), drainServer(admin, graceMs)]);
      const drained = workersDrained && adminDrained;
      log[drained ? 'info' : 'warn'](
        { ms: Date.now() - began, drained, workers: workersDrained, admin: adminDrained },
        drained ? 'shutdown ended: every worker finished' : 'shutdown ended: the grace period ran out, workers were cut',
      );
      await ended(0);
    },
    (signal) => {
      log.warn({ signal }, 'second signal: the workers cut their connections in flight');
      running.hammer(signal);
    },
  );
}

/**
 * HTTP, SSH and the background loops; with `own` (a single process) also the admin socket, and the
 * database and serving lock to close at the end. A worker opens its own database (no migrations).
 */
async function serveRequests(
  cfg: Config,
  log: pino.Logger,
  own: { db: Awaited<ReturnType<typeof openDatabase>>; serving: Awaited<ReturnType<typeof takeServingLock>> } | null,
) {
  const db = own?.db ?? (await openDatabase(cfg, { log }));
  const app = createApp({ config: cfg, orm: db.orm, log });
  const running = await listen(app, cfg.SERVER.HTTP_ADDR, cfg.SERVER.HTTP_PORT);
  const admin = own ? serveAdminSocket(db.orm, cfg) : null;
  // Once the load stops, V8's young generation and spare pages go back to the system (lib/runtime/idle-gc.ts).
  const idle = collectWhenIdle(running.server);
  // The built-in SSH server runs only when [server] SSH_LISTEN_PORT is set; ssh2 (and the WebAssembly
  // module it compiles when imported) is loaded only then (memory). Workers share its port
  // as they share the HTTP port (node:cluster passes every listening socket's connections).
  const ssh =
    cfg.sshListenPort === null
      ? null
      : await (await import('./git-ssh.ts')).startSshServer(
          { config: cfg, orm: db.orm, services: { log, secrets: new SecretBox(secretKey(cfg)), repoPath: repoPathFor(cfg) } },
          cfg.sshListenPort,
          cfg.SERVER.SSH_LISTEN_HOST,
        );
  if (ssh) {
    log.info({ port: ssh.port }, `cairn ssh server listening on ${cfg.SERVER.SSH_LISTEN_HOST}:${ssh.port}`);
    // What a client compares with ssh's question on its first connection (README, "Git over SSH").
    log.info({ fingerprint: ssh.fingerprint }, `ssh host key fingerprint: ${ssh.fingerprint}`);
  }
  const mirrors = startMirrorScheduler(db.orm.em, { log, secrets: new SecretBox(secretKey(cfg)), repoPath: repoPathFor(cfg) });
  const webhooks = startWebhookDeliverer(db.orm.em, { log, secrets: new SecretBox(secretKey(cfg)), repoPath: repoPathFor(cfg) }, cfg);
  const cron = startCronScheduler(db.orm.em, { log, secrets: new SecretBox(secretKey(cfg)), repoPath: repoPathFor(cfg) }, cfg);
  log.info({ url: running.url, database: cfg.DATABASE.URL ? 'postgresql' : 'embedded' }, `cairn listening on ${running.url}`);
  // Graceful shutdown (lib/runtime/shutdown.ts): on SIGTERM or SIGINT nothing new is accepted, what is
  // in flight (HTTP requests, git over HTTP and SSH, admin commands, background jobs) gets
  // GRACEFUL_HAMMER_TIME to finish, then the database is closed and the process exits 0.
  const graceMs = cfg.gracefulHammerMs;
  let cutHttp: () => void = () => undefined;
  const stop = async (signal: NodeJS.Signals) => {
    const began = Date.now();
    log.info({ signal, graceMs }, 'shutdown began: no new connections; requests and git operations in flight may finish');
    idle.stop();
    const http = drainHttp(running.server, graceMs);
    cutHttp = http.hammer;
    const [httpDrained, sshDrained, adminDrained, jobsStopped] = await Promise.all([
      http.done,
      ssh
        ? within(
            ssh.close(graceMs).then(() => true),
            graceMs + 1000,
            false,
          )
        : true,
      admin ? drainServer(admin, graceMs) : true,
      within(
        Promise.all([mirrors.stop(), webhooks.stop(), cron.stop()]).then(() => true),
        graceMs,
        false,
      ),
    ]);
    if (admin) fs.rmSync(socketPath(cfg), { force: true });
    await closeAll();
    await own?.serving.release();
    await db.close();
    const drained = httpDrained && sshDrained && adminDrained && jobsStopped;
    log[drained ? 'info' : 'warn'](
      { ms: Date.now() - began, drained, http: httpDrained, ssh: sshDrained, admin: adminDrained, jobs: jobsStopped },
      drained ? 'shutdown ended: everything in flight finished' : 'shutdown ended: the grace period ran out, work in flight was cut',
    );
    process.exit(own || drained ? 0 : WORKER_CUT);
  };
  const begin = onStopSignals(stop, (signal) => {
    log.warn({ signal }, 'second signal: connections in flight are cut');
    cutHttp();
    void ssh?.close();
  });
  if (!own) {
    onStopMessage(() => begin('SIGTERM'));
    tellReady();
  }
}

/** Forgejo's global `--config FILE` (also `--config=FILE`, `-c FILE`), taken out of argv wherever it stands. */
function configFlag(argv: readonly string[]): { file: string | null; rest: string[] } {
  const rest: string[] = [];
  let file: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--config' || arg === '-c') {
      if (i + 1 >= argv.length) throw new ConfigError(`${arg} needs a file name`);
      file = argv[++i]!;
    } else if (arg.startsWith('--config=')) {
      file = arg.slice('--config='.length);
    } else {
      rest.push(arg);
    }
  }
  return { file, rest };
}

async function restore(cfg: Config, argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { file: { type: 'string', short: 'f' } } });
  if (!values.file) {
    console.error('usage: admin restore --file FILE.tar.gz');
    return 2;
  }
  if (fs.existsSync(socketPath(cfg))) {
    console.error(`a server is running on ${cfg.dataPath}: stop it, and restore into an empty data directory`);
    return 1;
  }
  const { DumpError, restoreInstance } = await import('./lib/maintenance/dump.ts');
  try {
    for (const line of await restoreInstance(cfg, path.resolve(values.file))) console.log(line);
    return 0;
  } catch (e) {
    if (e instanceof DumpError) {
      console.error(e.message);
      return 1;
    }
    throw e;
  }
}

async function main(args: string[]): Promise<number> {
  const { file, rest: argv } = configFlag(args);
  // `--help` on any command, and options no command takes, answer here, before anything runs.
  const early = commandLine(argv);
  if (early) {
    for (const l of early.lines) (early.code === 0 ? console.log : console.error)(l);
    return early.code;
  }
  const [cmd, ...rest] = argv;
  if (cmd === 'routes') {
    validateTable(routes);
    validatePackageTable(packageRoutes);
    process.stdout.write(
      rest.includes('--json')
        ? `${JSON.stringify([...matrixJson(routes), ...packageMatrixJson(packageRoutes)], null, 2)}\n`
        : matrixMarkdown(routes, packageRoutes),
    );
    return 0;
  }
  const cfg = loadConfig(process.env, {}, file ?? process.env.CAIRN_CONFIG ?? null);
  switch (cmd) {
    case 'serve':
    case undefined: {
      // Started without the heap settings of lib/runtime/node-flags.ts: the same process starts again with them
      // (and without tsx's loader, which Node's own type stripping makes unnecessary).
      const missing = missingServeFlags(process.execArgv, process.env.NODE_OPTIONS);
      if (missing.length && typeof process.execve === 'function') {
        process.execve(
          process.execPath,
          [process.execPath, ...withoutTsx(process.execArgv), ...missing, ...process.argv.slice(1)],
          process.env,
        );
      }
      await serve(cfg);
      return -1;
    }
    case 'migrate': {
      const done = await withDatabase(cfg, async () => []);
      console.log(`migrations up to date${done.length ? `: ${done.join(', ')}` : ''}`);
      return 0;
    }
    case 'migration': {
      // Maintainers: `npm run cli -- migration create <Name>` writes the SQL that brings the committed
      // migrations up to the entities, for review, into model/migrations/ (then list it in index.ts).
      if (rest[0] !== 'create' || !/^[A-Z]\w*$/.test(rest[1] ?? '')) {
        console.error('usage: migration create <PascalCaseName>');
        return 2;
      }
      const file = await createMigration(cfg, rest[1]);
      console.log(file ?? 'no schema changes');
      return 0;
    }
    case 'admin': {
      // A restore needs the database empty (no migrations first) and no server on the data directory.
      if (rest[0] === 'restore') return restore(cfg, rest.slice(1));
      // `admin ssh ...` reads files of the data path only: no database, no running server needed.
      const args = rest[0] === 'dump' ? ['dump', ...dumpArgs(rest.slice(1), process.cwd())] : rest;
      const out =
        rest[0] === 'ssh'
          ? runSshAdmin(cfg, rest.slice(1))
          : ((await viaServer(cfg, args)) ?? (await withDatabase(cfg, (orm) => runAdmin(orm, cfg, args))));
      for (const l of out.lines) (out.code === 0 ? console.log : console.error)(l);
      return out.code;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  // Exit only once stdout has drained: a piped `routes --json` is larger than one pipe buffer.
  (code) => {
    if (code >= 0) process.stdout.write('', () => process.exit(code));
  },
  (e) => {
    if (e instanceof ConfigError || e instanceof TableError || e instanceof HttpError) console.error(`cairn: ${e.message}`);
    else console.error(e);
    process.exit(1);
  },
);
