// The command line: `serve` (npm start), `migrate`, `routes`, and the admin commands. Settings come
// from the same CAIRN__SECTION__KEY environment as the server.
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
import { routes } from './routes.table.ts';
import { validateTable, TableError } from './interpreter.ts';
import { matrixJson, matrixMarkdown } from './lib/matrix.ts';
import { createUser } from './lib/accounts.ts';
import { User } from './model/user.ts';
import { AccessToken } from './model/token.ts';
import { hashToken, newSalt, newTokenValue } from './lib/tokens.ts';
import { normalizeScopes } from './lib/scopes.ts';
import { newTotpSecret, totpFor } from './lib/totp.ts';
import { SecretBox } from './lib/secretbox.ts';
import { HttpError } from './lib/errors.ts';
import { closeAll } from './git/cat-file.ts';

interface Output { lines: string[]; code: number }
const socketPath = (cfg: Config) => path.join(cfg.dataPath, 'cairn-admin.sock');

const USAGE = `usage: npm run cli -- <command>
  serve                         start the HTTP server (npm start)
  migrate                       apply database migrations and exit
  routes [--json]               print the route matrix
  admin user create --username NAME --password PW --email E [--admin] [--must-change-password]
                    [--access-token] [--access-token-name NAME] [--access-token-scopes all]
  admin user 2fa enroll --username NAME     enable TOTP two-factor sign-in; prints the secret
  admin user 2fa disable --username NAME
  admin user list`;

/** Admin commands, run against an open database (here, or inside the running server). */
export async function runAdmin(orm: Orm, cfg: Config, argv: string[]): Promise<Output> {
  const lines: string[] = [];
  const [group, sub, ...rest] = argv;
  if (group !== 'user') return { lines: [USAGE], code: 2 };
  const em = orm.em.fork();
  if (sub === 'create') {
    const { values } = parseArgs({
      args: rest,
      options: {
        username: { type: 'string' }, password: { type: 'string' }, email: { type: 'string' }, admin: { type: 'boolean' },
        'must-change-password': { type: 'boolean' }, 'access-token': { type: 'boolean' },
        'access-token-name': { type: 'string' }, 'access-token-scopes': { type: 'string' },
      },
    });
    if (!values.username || !values.password || !values.email) return { lines: ['--username, --password and --email are required'], code: 2 };
    const user = await em.transactional(async (tx) => {
      const u = await createUser(tx, {
        name: values.username!, email: values.email!, password: values.password!, isAdmin: !!values.admin,
        mustChangePassword: !!values['must-change-password'],
      });
      lines.push(`New user '${u.name}' has been successfully created!`);
      if (values['access-token']) {
        const value = newTokenValue();
        const salt = newSalt();
        const scopes = normalizeScopes((values['access-token-scopes'] ?? 'all').split(','));
        tx.create(AccessToken, {
          uid: u.id, name: values['access-token-name'] ?? 'gitea-admin', tokenHash: hashToken(value, salt), tokenSalt: salt,
          tokenLastEight: value.slice(-8), scope: scopes.join(','),
        });
        lines.push(value);
      }
      return u;
    });
    return { lines, code: user ? 0 : 1 };
  }
  if (sub === '2fa') {
    const [action, ...more] = rest;
    const { values } = parseArgs({ args: more, options: { username: { type: 'string' } } });
    const user = await em.findOne(User, { lowerName: (values.username ?? '').toLowerCase(), type: 0 }, { populate: ['totpSecret'] });
    if (!user) return { lines: [`user does not exist [name: ${values.username ?? ''}]`], code: 1 };
    const box = new SecretBox(secretKey(cfg));
    if (action === 'enroll') {
      const secret = newTotpSecret();
      user.totpSecret = box.seal(secret);
      user.totpLastUsed = '';
      await em.flush();
      lines.push(`otpauth: ${totpFor(secret, user.name).toString()}`, secret);
      return { lines, code: 0 };
    }
    if (action === 'disable') {
      user.totpSecret = '';
      await em.flush();
      return { lines: [`two-factor authentication disabled for '${user.name}'`], code: 0 };
    }
    return { lines: [USAGE], code: 2 };
  }
  if (sub === 'list') {
    for (const u of await em.find(User, { type: 0 }, { orderBy: { id: 'asc' } })) lines.push(`${u.id}\t${u.name}\t${u.email}\t${u.isAdmin ? 'admin' : ''}`);
    return { lines, code: 0 };
  }
  return { lines: [USAGE], code: 2 };
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
    sock.on('data', (d) => { data += d.toString('utf8'); });
    sock.on('end', () => resolve(JSON.parse(data) as Output));
    sock.on('error', () => resolve(null));
  });
}

function serveAdminSocket(orm: Orm, cfg: Config): net.Server {
  const file = socketPath(cfg);
  fs.rmSync(file, { force: true });
  const srv = net.createServer({ allowHalfOpen: true }, (sock) => {
    let data = '';
    sock.on('data', (d) => { data += d.toString('utf8'); });
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
  for (const name of cfg.unknown) log.warn({ setting: name }, 'unknown setting ignored');
  validateTable(routes);
  const db = await openDatabase(cfg);
  const applied = await migrate(db.orm);
  if (applied.length) log.info({ migrations: applied }, 'migrations applied');
  const app = createApp({ config: cfg, orm: db.orm, log });
  const running = await listen(app, cfg.SERVER.HTTP_ADDR, cfg.SERVER.HTTP_PORT);
  const admin = serveAdminSocket(db.orm, cfg);
  log.info({ url: running.url, database: cfg.DATABASE.URL ? 'postgresql' : 'embedded' }, `cairn listening on ${running.url}`);
  const stop = async () => {
    admin.close();
    fs.rmSync(socketPath(cfg), { force: true });
    await running.close();
    await closeAll();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === 'routes') {
    validateTable(routes);
    process.stdout.write(rest.includes('--json') ? `${JSON.stringify(matrixJson(routes), null, 2)}\n` : matrixMarkdown(routes));
    return 0;
  }
  const cfg = loadConfig();
  switch (cmd) {
    case 'serve':
    case undefined:
      await serve(cfg);
      return -1;
    case 'migrate': {
      const done = await withDatabase(cfg, async () => []);
      console.log(`migrations up to date${done.length ? `: ${done.join(', ')}` : ''}`);
      return 0;
    }
    case 'admin': {
      const out = (await viaServer(cfg, rest)) ?? (await withDatabase(cfg, (orm) => runAdmin(orm, cfg, rest)));
      for (const l of out.lines) (out.code === 0 ? console.log : console.error)(l);
      return out.code;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => { if (code >= 0) process.exit(code); },
  (e) => {
    if (e instanceof ConfigError || e instanceof TableError || e instanceof HttpError) console.error(`cairn: ${e.message}`);
    else console.error(e);
    process.exit(1);
  },
);
