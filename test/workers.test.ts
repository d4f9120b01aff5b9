// Worker processes (lib/runtime/workers.ts, cli.ts serve), with the server as the README starts it:
// `node cli.ts serve` in a process of its own, [server] WORKERS = 2, [metrics] ENABLED, SSH on.
// On PostgreSQL: migrations are applied once, by the primary; requests over fresh connections are
// answered by two different worker pids (GET /metrics covers all workers); git pushes over HTTP and
// SSH; a worker killed with SIGKILL is replaced and the port keeps answering; SIGTERM to the primary
// drains every worker and exits 0. With the embedded database (no CAIRN__DATABASE__URL) the same
// setting gives one process, which says so in its log.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { cloneUrl, commitFiles, mustGit } from './helpers/git-cli.ts';
import { gitSshCommand, makeKeyPair } from './helpers/ssh.ts';
import { requireTools } from './helpers/tools.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-workers-'));
const dataPath = path.join(tmp, 'data');
const base = process.env.CAIRN__DATABASE__URL ?? '';
let dbUrl = '';
const dbName = `cairn_workers_${process.pid}`;
const run = promisify(execFile);

test.before(async () => {
  if (!base) return;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${dbName}`;
  dbUrl = u.toString();
});
test.after(async () => {
  if (base) {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`drop database if exists ${dbName} with (force)`);
    await c.end();
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

const env = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? '',
  HOME: tmp,
  CAIRN__SERVER__APP_DATA_PATH: dataPath,
  CAIRN__SERVER__HTTP_ADDR: '127.0.0.1',
  CAIRN__SERVER__HTTP_PORT: '0',
  CAIRN__SERVER__SSH_LISTEN_PORT: '0',
  CAIRN__SERVER__SSH_LISTEN_HOST: '127.0.0.1',
  CAIRN__SERVER__WORKERS: '2',
  CAIRN__METRICS__ENABLED: 'true',
  CAIRN__DATABASE__URL: dbUrl,
  CAIRN__LOG__LEVEL: 'info',
});

interface Line {
  msg: string;
  pid: number;
  drained?: boolean;
  workerPid?: number;
  port?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function start(extra: Record<string, string> = {}) {
  const child = spawn(process.execPath, [path.join(root, 'cli.ts'), 'serve'], {
    cwd: tmp,
    env: { ...env(), ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = () =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Line);
  const until = async (what: string, check: () => boolean, ms = 90_000) => {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms:\n${out}`);
      await sleep(50);
    }
  };
  return { child, out: () => out, exited, lines, until };
}

let token = '';

/**
 * The primary says it serves with two workers, and both workers' "listening" lines have arrived: each
 * process writes its log asynchronously (pino's default destination), so a worker's line may reach the
 * pipe after the primary's line about it.
 */
const servesWithTwo = (out: string) =>
  out.includes('cairn serves with 2 worker processes') && (out.match(/cairn listening on /g) ?? []).length >= 2;

test('WORKERS=2: on PostgreSQL two workers share the ports, a dead one is replaced, SIGTERM exits 0; embedded: one process', async () => {
  requireTools('ssh', 'ssh-keygen');
  const { child, exited, lines, until, out } = start();
  try {
    const multi = dbUrl !== '';
    await until('serving', () => (multi ? servesWithTwo(out()) : out().includes('cairn listening')));
    const url = /cairn listening on (http:\/\/\S+?)"/.exec(out())![1]!;
    const ready = () => lines().filter((l) => l.msg === 'worker ready');
    if (!multi) {
      assert.ok(out().includes('embedded database: one process'), out());
      assert.is(ready().length, 0);
      assert.is(new Set(lines().map((l) => l.pid)).size, 1, 'one process logs');
    } else {
      assert.is(lines().filter((l) => l.msg === 'migrations applied').length, 1, 'migrations applied once');
      assert.is(ready().length, 2);
      const primary = child.pid!;
      const workers = ready().map((l) => l.workerPid!);
      assert.ok(!workers.includes(primary));
      const listening = lines().filter((l) => l.msg.startsWith('cairn listening'));
      assert.equal(new Set(listening.map((l) => l.pid)), new Set(workers), 'every worker listens, the primary does not');
    }

    // Requests on fresh connections are spread over the workers; /metrics (asked of either) sums them.
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${url}/api/v1/version`, { headers: { Connection: 'close' } });
      assert.is(res.status, 200);
    }
    const byPid = async () => {
      const text = await (await fetch(`${url}/metrics`, { headers: { Connection: 'close' } })).text();
      return new Map(
        [...text.matchAll(/^cairn_worker_http_requests_total\{pid="(\d+)"\} (\d+)$/gm)].map((m) => [Number(m[1]), Number(m[2])]),
      );
    };
    const counts = await byPid();
    assert.is(
      [...counts.values()].reduce((a, b) => a + b, 0),
      10,
      `every request counted once: ${JSON.stringify([...counts])}`,
    );
    assert.is(counts.size, multi ? 2 : 1, `answered by ${counts.size} processes`);

    // Git over HTTP and over SSH (an admin command goes to the primary's socket).
    const created = await run(
      process.execPath,
      [
        path.join(root, 'cli.ts'),
        'admin',
        'user',
        'create',
        '--username',
        'wk',
        '--password',
        'Passw0rd-workers',
        '--email',
        'w@example.com',
        '--access-token',
      ],
      { cwd: tmp, env: env() },
    );
    token = created.stdout.trim().split('\n').pop()!;
    const api = (p: string, body: unknown) =>
      fetch(`${url}/api/v1${p}`, {
        method: 'POST',
        headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json', Connection: 'close' },
        body: JSON.stringify(body),
      });
    assert.is((await api('/user/repos', { name: 'r', auto_init: true })).status, 201);
    const work = fs.mkdtempSync(path.join(tmp, 'wt-'));
    await mustGit(null, 'clone', '-q', cloneUrl(url, 'wk', 'r', ['wk', token]), work);
    const overHttp = await commitFiles(work, { 'a.txt': 'over HTTP\n' }, 'over HTTP');
    await mustGit(work, 'push', '-q', 'origin', 'HEAD');
    const key = await makeKeyPair(tmp, 'workers-key');
    assert.is((await api('/user/keys', { title: 'k', key: key.publicKey })).status, 201);
    const port = lines().find((l) => l.msg.startsWith('cairn ssh server listening'))!.port!;
    const sshEnv = { ...process.env, GIT_SSH_COMMAND: gitSshCommand(key, port), GIT_TERMINAL_PROMPT: '0' };
    const viaSsh = fs.mkdtempSync(path.join(tmp, 'wt-'));
    await run('git', ['clone', '-q', `ssh://git@127.0.0.1:${port}/wk/r.git`, viaSsh], { env: sshEnv });
    assert.is(await mustGit(viaSsh, 'rev-parse', 'HEAD'), overHttp);
    const overSsh = await commitFiles(viaSsh, { 'b.txt': 'over SSH\n' }, 'over SSH');
    await run('git', ['-C', viaSsh, 'push', '-q', 'origin', 'HEAD'], { env: sshEnv });
    const bare = path.join(dataPath, 'forgejo-repositories', 'wk', 'r.git');
    assert.is(await mustGit(null, '--git-dir', bare, 'rev-parse', 'HEAD'), overSsh);

    // The instance gauges are read from the database once per scrape, not summed over the workers.
    const scrape = await (await fetch(`${url}/metrics`, { headers: { Connection: 'close' } })).text();
    assert.match(scrape, /^gitea_users 1$/m);

    if (multi) {
      // A worker killed outright is replaced; the port answers throughout.
      const victim = ready()[0]!.workerPid!;
      process.kill(victim, 'SIGKILL');
      await until('a replacement', () => ready().length === 3 && out().includes('a worker died'));
      for (let i = 0; i < 6; i++) assert.is((await fetch(`${url}/api/v1/version`, { headers: { Connection: 'close' } })).status, 200);
      assert.not.ok((await byPid()).has(victim));
    }

    child.kill('SIGTERM');
    assert.is(await exited, 0, out());
    const ended = multi ? 'shutdown ended: every worker finished' : 'shutdown ended: everything in flight finished';
    assert.ok(out().includes(ended), out());
    if (multi) assert.is(lines().filter((l) => l.msg === 'shutdown ended: everything in flight finished').length, 2, out());
  } finally {
    child.kill('SIGKILL');
  }
});

test('WORKERS=2: a push held past GRACEFUL_HAMMER_TIME is cut; the primary exits 0 and says a worker did not drain', async () => {
  if (!dbUrl) return; // the embedded database's drain is graceful-shutdown.test.ts's
  const { child, exited, lines, until, out } = start({ CAIRN_PAUSEPOINT: 'push-finish=20000', CAIRN__SERVER__GRACEFUL_HAMMER_TIME: '1s' });
  try {
    await until('serving', () => servesWithTwo(out()));
    const url = /cairn listening on (http:\/\/\S+?)"/.exec(out())![1]!;
    const work = fs.mkdtempSync(path.join(tmp, 'wt-'));
    await mustGit(null, 'clone', '-q', cloneUrl(url, 'wk', 'r', ['wk', token]), work);
    await commitFiles(work, { 'cut.txt': 'held past the grace period\n' }, 'held past the grace period');
    const push = run('git', ['-C', work, 'push', '-q', 'origin', 'HEAD'], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }).then(
      () => true,
      () => false,
    );
    await until('the push reached its pause', () => out().includes('pausepoint push-finish'));
    const signalled = Date.now();
    child.kill('SIGTERM');
    assert.is(await exited, 0, out());
    assert.ok(Date.now() - signalled < 15_000, 'bounded by the grace period');
    const primary = lines().find((l) => l.pid === child.pid && l.msg.startsWith('shutdown ended'));
    assert.is(primary?.drained, false, out());
    assert.not.ok(await push, 'the push held past the grace period was cut');
  } finally {
    child.kill('SIGKILL');
  }
});

test.run();
