// Settings from an app.ini (`--config`, CAIRN_CONFIG): Forgejo's format and a small Forgejo instance's
// file as it is, keys cairn does not read reported with their lines, the environment winning over the
// file, a bad value stopping the start with file, line, section and key; and the real `cli.ts serve`
// and admin commands reading it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { ConfigError, loadConfig } from '../config.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-ini-'));
test.after(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, text);
  return file;
}

/** A small Forgejo instance's app.ini, as Forgejo's documentation writes one (the line numbers are asserted below). */
const forgejoIni = (
  db: { host: string; name: string; user: string; passwd: string },
  dataPath: string,
) => `APP_NAME = Forgejo: Beyond coding. We Forge.
RUN_MODE = prod
WORK_PATH = ${dataPath}

[server]
PROTOCOL = http
DOMAIN = git.example.com
HTTP_ADDR = 127.0.0.1
HTTP_PORT = 0
ROOT_URL = %(PROTOCOL)s://%(DOMAIN)s/
APP_DATA_PATH = ${dataPath}
SSH_DOMAIN = git.example.com
DISABLE_SSH = false
SSH_PORT = 2222
LFS_START_SERVER = true
LFS_JWT_SECRET = x4i2ZMNVsRBFXrqJb0jbQiC4Eem_vtWu0h2rtGaZNn8
OFFLINE_MODE = true

[database]
DB_TYPE = postgres
HOST = ${db.host}
NAME = ${db.name}
USER = ${db.user}
PASSWD = \`${db.passwd}\`
SSL_MODE = disable
LOG_SQL = false

[repository]
ROOT = ${dataPath}/forgejo-repositories

[security]
INSTALL_LOCK = true
SECRET_KEY = 2a0f6d1e6b3c4f5e8a9b0c1d2e3f4a5b
INTERNAL_TOKEN = eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.e30.x

[service]
DISABLE_REGISTRATION = true
REQUIRE_SIGNIN_VIEW = true
DEFAULT_KEEP_EMAIL_PRIVATE = true

[service.explore]
DISABLE_USERS_PAGE = true

[log]
MODE = console
LEVEL = Warn
ROOT_PATH = ${dataPath}/log

[lfs]
PATH = ${dataPath}/lfs
`;

test("a small Forgejo instance's app.ini works as it is: its values, [database] as a URL, unused keys reported with their lines", () => {
  const file = write(
    'forgejo.ini',
    forgejoIni({ host: 'db.example.com:5433', name: 'forgejo', user: 'forgejo', passwd: 'p#ss;w0rd' }, '/srv/forgejo'),
  );
  const c = loadConfig({}, {}, file);
  assert.is(c.configFile, file);
  assert.is(c.DEFAULT.APP_NAME, 'Forgejo: Beyond coding. We Forge.');
  assert.is(c.SERVER.HTTP_ADDR, '127.0.0.1');
  assert.is(c.appUrl, 'http://git.example.com/', "go-ini's %(KEY)s references");
  assert.is(c.dataPath, '/srv/forgejo');
  assert.is(c.repoRoot, '/srv/forgejo/forgejo-repositories');
  assert.is(c.SERVER.SSH_PORT, 2222);
  assert.is(c.SERVER.LFS_START_SERVER, true);
  assert.is(c.SECURITY.SECRET_KEY, '2a0f6d1e6b3c4f5e8a9b0c1d2e3f4a5b');
  assert.is(c.SERVICE.REQUIRE_SIGNIN_VIEW, true);
  assert.is(c.SERVICE.DEFAULT_KEEP_EMAIL_PRIVATE, true);
  assert.is(c.SERVICE_EXPLORE.DISABLE_USERS_PAGE, true, "a dotted section is the variable's SERVICE_EXPLORE");
  assert.is(c.LOG.LEVEL, 'warn', "Forgejo's level names");
  assert.is(c.DATABASE.URL, 'postgresql://forgejo:p%23ss%3Bw0rd@db.example.com:5433/forgejo', 'a backtick-quoted PASSWD keeps # and ;');
  assert.equal(
    c.fileNotices.map((n) => n.message),
    [
      'forgejo.ini:2: RUN_MODE is not used by cairn',
      'forgejo.ini:3: WORK_PATH is not used by cairn',
      'forgejo.ini:6: [server] PROTOCOL is not used by cairn',
      'forgejo.ini:7: [server] DOMAIN is not used by cairn',
      'forgejo.ini:13: [server] DISABLE_SSH is not used by cairn',
      'forgejo.ini:16: [server] LFS_JWT_SECRET is not used by cairn',
      'forgejo.ini:26: [database] LOG_SQL is not used by cairn',
      'forgejo.ini:32: [security] INSTALL_LOCK is not used by cairn',
      'forgejo.ini:34: [security] INTERNAL_TOKEN is not used by cairn',
      'forgejo.ini:37: [service] DISABLE_REGISTRATION is not used by cairn',
      'forgejo.ini:45: [log] MODE is not used by cairn',
      'forgejo.ini:47: [log] ROOT_PATH is not used by cairn',
      'forgejo.ini:49: section [lfs] is not used by cairn',
    ],
  );
  assert.equal(c.fileNotices[4], {
    file,
    line: 13,
    section: 'server',
    key: 'DISABLE_SSH',
    message: 'forgejo.ini:13: [server] DISABLE_SSH is not used by cairn',
  });
});

test('environment variables override the file; CAIRN_CONFIG names it', () => {
  const file = write('override.ini', '[server]\nHTTP_PORT = 4000\nROOT_URL = http://from-file.example/\n[quota]\nENABLED = true\n');
  const c = loadConfig({ CAIRN_CONFIG: file, CAIRN__SERVER__HTTP_PORT: '5000' });
  assert.is(c.SERVER.HTTP_PORT, 5000);
  assert.is(c.appUrl, 'http://from-file.example/');
  assert.is(c.QUOTA.ENABLED, true);
  assert.is(loadConfig({ CAIRN_CONFIG: file }, { SERVER__HTTP_PORT: '6000' }).SERVER.HTTP_PORT, 6000);
  assert.is(
    loadConfig({ CAIRN__DATABASE__URL: 'postgresql://u@elsewhere/db' }, {}, write('db.ini', '[database]\nDB_TYPE = postgres\nNAME = x\n'))
      .DATABASE.URL,
    'postgresql://u@elsewhere/db',
    'a URL wins over the Forgejo keys',
  );
  assert.is(loadConfig({}).configFile, null);
});

test('a bad value stops the start naming file, line, section and key', () => {
  const cases: [string, RegExp][] = [
    ['[server]\nHTTP_ADDR = 0.0.0.0\nHTTP_PORT = eighty\n', /^bad\.ini:3: \[server\] HTTP_PORT: "eighty" is not an integer$/],
    ['\n[quota]\n; a comment\nENABLED = maybe\n', /^bad\.ini:4: \[quota\] ENABLED: "maybe" is not a boolean/],
    ['[server]\nLFS_HTTP_AUTH_EXPIRY = soon\n', /^bad\.ini:2: \[server\] LFS_HTTP_AUTH_EXPIRY: "soon" is not a positive duration/],
    ['[server]\nHTTP_PORT = 70000\n', /^bad\.ini:2: \[server\] HTTP_PORT: 70000 is not a port number$/],
    ['[webhook]\nDELIVER_ATTEMPTS = 0\n', /^bad\.ini:2: \[webhook\] DELIVER_ATTEMPTS: must be at least 1$/],
    ['[log]\nLEVEL = loud\n', /^bad\.ini:2: \[log\] LEVEL: unknown level loud$/],
    ['[server]\nHTTP_PORT\n', /^bad\.ini:2: \[server\] HTTP_PORT: a setting is written KEY = value$/],
    [
      '[database]\nDB_TYPE = sqlite3\nPATH = data/forgejo.db\n',
      /^bad\.ini:2: \[database\] DB_TYPE: sqlite3 is not supported: cairn stores its data in PostgreSQL/,
    ],
    ['[database]\nDB_TYPE = postgres\nSSL_MODE = require\nNAME = x\n', /^bad\.ini:3: \[database\] SSL_MODE: "require" is not supported/],
    ['[database]\nHOST = 127.0.0.1\n', /^bad\.ini:2: \[database\] HOST: is set but DB_TYPE is not/],
  ];
  for (const [text, message] of cases) {
    const file = write('bad.ini', text);
    assert.throws(
      () => loadConfig({}, {}, file),
      (e: Error) => e instanceof ConfigError && message.test(e.message),
      `${JSON.stringify(text)} -> ${message}`,
    );
  }
  assert.throws(
    () => loadConfig({}, {}, path.join(tmp, 'missing.ini')),
    (e: Error) => e instanceof ConfigError && /missing\.ini: cannot read the configuration file \(ENOENT\)/.test(e.message),
  );
  // The environment keeps naming the variable.
  assert.throws(
    () => loadConfig({ CAIRN__SERVER__HTTP_PORT: 'eighty' }, {}, write('ok.ini', '[server]\nHTTP_PORT = 80\n')),
    /^CAIRN__SERVER__HTTP_PORT: "eighty"/,
  );
});

test('[database] HOST forms: host, host:port, [v6]:port and a socket directory', () => {
  const url = (host: string) =>
    loadConfig({}, {}, write('h.ini', `[database]\nDB_TYPE = postgres\nHOST = ${host}\nNAME = forgejo\nUSER = git\n`)).DATABASE.URL;
  assert.is(url('db'), 'postgresql://git@db:5432/forgejo');
  assert.is(url('db:6543'), 'postgresql://git@db:6543/forgejo');
  assert.is(url('[::1]:5433'), 'postgresql://git@[::1]:5433/forgejo');
  assert.is(url('/var/run/postgresql'), 'postgresql://git@%2Fvar%2Frun%2Fpostgresql:5432/forgejo');
});

interface Child {
  out: () => string;
  ended: () => boolean;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

function serve(args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, [path.join(root, 'cli.ts'), ...args], {
    cwd: tmp,
    env: { PATH: process.env.PATH ?? '', HOME: tmp, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let ended = false;
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      ended = true;
      resolve(code);
    }),
  );
  return {
    out: () => out,
    ended: () => ended,
    exited,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function until(what: string, check: () => boolean, child: Child, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end || child.ended()) throw new Error(`${what}: not within ${ms} ms or the process ended:\n${child.out()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('`cli.ts serve --config` and `admin --config` read the file; the environment wins; a bad file stops the start', async () => {
  const dataPath = path.join(tmp, 'instance');
  const base = process.env.CAIRN__DATABASE__URL;
  let dropDb = async (): Promise<void> => undefined;
  let text = forgejoIni({ host: '', name: '', user: '', passwd: '' }, dataPath);
  if (base) {
    // On PostgreSQL the file's [database] names a database of its own.
    const u = new URL(base);
    const name = `cairn_ini_${process.pid}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    dropDb = async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
    text = forgejoIni(
      { host: `${u.hostname}:${u.port || 5432}`, name, user: decodeURIComponent(u.username), passwd: decodeURIComponent(u.password) },
      dataPath,
    );
  } else {
    // The embedded database: the same file with DB_TYPE and its keys commented out (same lines).
    text = text.replace(/^(DB_TYPE|HOST|NAME|USER|PASSWD|SSL_MODE) = .*$/gm, '; $&');
  }
  const file = write('app.ini', text);
  const server = serve(['serve', '--config', file], { CAIRN__DEFAULT__APP_NAME: 'From the environment', CAIRN__LOG__LEVEL: 'info' });
  try {
    await until('listening', () => server.out().includes('cairn listening'), server);
    const url = /cairn listening on (http:\/\/\S+?)"/.exec(server.out())![1]!;
    const logged = server
      .out()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; line?: number; key?: string });
    const notice = logged.find((l) => l.msg === 'app.ini:13: [server] DISABLE_SSH is not used by cairn');
    assert.ok(notice, `no notice in:\n${server.out()}`);
    assert.is(notice!.line, 13);
    assert.ok(logged.some((l) => l.msg === 'app.ini:49: section [lfs] is not used by cairn'));
    const health = (await (await fetch(`${url}/api/healthz`)).json()) as { description: string };
    assert.is(health.description, 'From the environment', "CAIRN__DEFAULT__APP_NAME over the file's APP_NAME");
    assert.is((await fetch(`${url}/api/v1/version`)).status, 401, '[service] REQUIRE_SIGNIN_VIEW from the file');

    const run = promisify(execFile);
    const cli = (args: string[]) =>
      run(process.execPath, [path.join(root, 'cli.ts'), ...args], { cwd: tmp, env: { PATH: process.env.PATH ?? '', HOME: tmp } });
    const created = await cli([
      'admin',
      'user',
      'create',
      '--username',
      'inifile',
      '--password',
      'Passw0rd-ini',
      '--email',
      'ini@example.com',
      '--access-token',
      '--config',
      file,
    ]);
    const token = created.stdout.trim().split('\n').pop()!;
    const me = await fetch(`${url}/api/v1/user`, { headers: { Authorization: `token ${token}` } });
    assert.is(me.status, 200, 'the admin command reached the server the file describes');
    assert.match((await cli(['--config', file, 'admin', 'user', 'list'])).stdout, /\tinifile\tini@example\.com/);
    assert.not.ok(fs.existsSync(path.join(tmp, 'data')), 'nothing fell back to ./data');
  } finally {
    await server.stop();
    await dropDb();
  }

  const bad = serve(['serve', '--config', write('broken.ini', '[server]\nHTTP_ADDR = 127.0.0.1\nHTTP_PORT = eighty\n')], {});
  assert.is(await bad.exited, 1);
  assert.match(bad.out(), 'cairn: broken.ini:3: [server] HTTP_PORT: "eighty" is not an integer');
});

test.run();
