// Graceful shutdown (lib/runtime/shutdown.ts, cli.ts serve), with the server as the README starts it:
// `node cli.ts serve` in a process of its own. On SIGTERM it stops accepting, finishes what it had
// accepted (requests, a git push), closes the database and exits 0, saying so in its log:
// - under a load of reads and writes, no request the server accepted is lost: each one is answered
//   completely, or was never accepted (its connection refused, or reset before the server read it:
//   then its write is not in the database either), and every write answered 201 is there;
// - a push held in flight (CAIRN_PAUSEPOINT=push-finish, lib/runtime/failpoint.ts) when the signal
//   comes completes and git reports success, over HTTP and over SSH, while new connections are refused.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../model/db.ts';
import { cloneUrl, commitFiles, mustGit } from './helpers/git-cli.ts';
import { gitSshCommand, makeKeyPair } from './helpers/ssh.ts';
import { requireTools } from './helpers/tools.ts';
import net from 'node:net';
import { createScratchDb } from './helpers/scratch-db.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-graceful-'));
const dataPath = path.join(tmp, 'data');
let dbUrl = '';
let dropDb = async (): Promise<void> => undefined;

test.before(async () => {
  const base = process.env.CAIRN__DATABASE__URL;
  if (!base) return;
  const scratch = await createScratchDb(base, 'cairn_graceful');
  dbUrl = scratch.url;
  dropDb = scratch.drop;
});
test.after(async () => {
  await dropDb();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? '',
  HOME: tmp,
  CAIRN__SERVER__APP_DATA_PATH: dataPath,
  CAIRN__SERVER__HTTP_ADDR: '127.0.0.1',
  CAIRN__SERVER__HTTP_PORT: '0',
  CAIRN__DATABASE__URL: dbUrl,
  CAIRN__LOG__LEVEL: 'info',
  // One process: these are its own drain's promises (test/workers.test.ts drains several).
  CAIRN__SERVER__WORKERS: '1',
  ...extra,
});

interface Server {
  url: string;
  pid: number;
  out: () => string;
  exited: Promise<number | null>;
}

async function serve(extra: Record<string, string> = {}): Promise<Server> {
  const child = spawn(process.execPath, [path.join(root, 'cli.ts'), 'serve'], {
    cwd: tmp,
    env: env(extra),
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
  const end = Date.now() + 120_000;
  while (!out.includes('cairn listening')) {
    if (ended || Date.now() > end) throw new Error(`the server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const url = /cairn listening on (http:\/\/\S+?)"/.exec(out)![1]!;
  return { url, pid: child.pid!, out: () => out, exited };
}

/** The log's JSON lines. */
const logged = (s: Server) =>
  s
    .out()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg: string; drained?: boolean; signal?: string });

async function until(what: string, check: () => boolean, s: Server, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms:\n${s.out()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

type Outcome =
  | { kind: 'answered'; status: number; body: string; at: number }
  | { kind: 'refused' }
  | { kind: 'reset'; code: string; gotResponse: boolean };

/** One request on a connection of its own (no keep-alive: being accepted is the connection being accepted). */
function request(url: string, method: string, pathname: string, token: string, body?: unknown): Promise<Outcome> {
  return new Promise((resolve) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    let gotResponse = false;
    const req = http.request(
      `${url}${pathname}`,
      {
        method,
        agent: false,
        headers: {
          Authorization: `token ${token}`,
          ...(data ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } : {}),
        },
      },
      (res) => {
        gotResponse = true;
        let text = '';
        res.on('data', (d: Buffer) => {
          text += d.toString('utf8');
        });
        res.on('end', () => resolve({ kind: 'answered', status: res.statusCode ?? 0, body: text, at: Date.now() }));
        res.on('error', (e: NodeJS.ErrnoException) => resolve({ kind: 'reset', code: e.code ?? e.message, gotResponse }));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) =>
      resolve(e.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'reset', code: e.code ?? e.message, gotResponse }),
    );
    req.end(data);
  });
}

const run = promisify(execFile);
let token = '';
const OWNER = 'graceful';
const REPO = 'load';

test('under a load of reads and writes, SIGTERM loses no accepted request; exit 0; the log says shutdown began and ended', async () => {
  const s = await serve();
  const created = await run(
    process.execPath,
    [
      path.join(root, 'cli.ts'),
      'admin',
      'user',
      'create',
      '--username',
      OWNER,
      '--password',
      'Passw0rd-graceful',
      '--email',
      'g@example.com',
      '--access-token',
    ],
    { cwd: tmp, env: env() },
  );
  token = created.stdout.trim().split('\n').pop()!;
  const repo = await request(s.url, 'POST', '/api/v1/user/repos', token, { name: REPO, auto_init: true });
  assert.is(repo.kind === 'answered' && repo.status, 201, JSON.stringify(repo));

  const writes = new Map<string, Outcome>();
  const reads: Outcome[] = [];
  let seq = 0;
  let refused = false;
  const worker = async (w: number) => {
    while (!refused) {
      const title = `load ${w}-${++seq}`;
      const wrote = await request(s.url, 'POST', `/api/v1/repos/${OWNER}/${REPO}/issues`, token, { title });
      writes.set(title, wrote);
      const read = await request(s.url, 'GET', `/api/v1/repos/${OWNER}/${REPO}`, token);
      reads.push(read);
      if (wrote.kind === 'refused' || read.kind === 'refused') refused = true;
    }
  };
  const workers = Array.from({ length: 8 }, (_, w) => worker(w));
  // Load for a while, then the signal while requests are in flight.
  await until('some writes answered', () => [...writes.values()].filter((o) => o.kind === 'answered').length >= 20, s);
  const signalled = Date.now();
  process.kill(s.pid, 'SIGTERM');
  await Promise.all(workers);
  const code = await s.exited;
  assert.is(code, 0, s.out());

  const all = [...writes.values(), ...reads];
  for (const o of all) {
    if (o.kind === 'answered') assert.ok(o.status === 200 || o.status === 201, `answered ${o.status}: ${o.body}`);
    if (o.kind === 'answered') assert.not.throws(() => JSON.parse(o.body), 'a complete JSON body');
    if (o.kind === 'reset') assert.not.ok(o.gotResponse, `a response cut short (${o.code})`);
  }
  assert.ok(
    all.some((o) => o.kind === 'answered' && o.at > signalled),
    'requests in flight at the signal were answered after it',
  );
  assert.ok(
    all.some((o) => o.kind === 'refused'),
    'connections after the signal are refused',
  );
  const log = logged(s);
  const began = log.find((l) => l.msg.startsWith('shutdown began'));
  const ended = log.find((l) => l.msg.startsWith('shutdown ended'));
  assert.is(began?.signal, 'SIGTERM', s.out());
  assert.is(ended?.drained, true, s.out());

  // What the database holds, read with the server gone: every write answered 201, and no write that
  // was reset (never accepted).
  const cfg = loadConfig({}, { SERVER__APP_DATA_PATH: dataPath, DATABASE__URL: dbUrl });
  const db = await openDatabase(cfg);
  let titles: Set<string>;
  try {
    const rows = await db.orm.em.getConnection().execute<{ title: string }[]>("select title from issue where title like 'load %'");
    titles = new Set(rows.map((r) => r.title));
  } finally {
    await db.close();
  }
  let answered = 0;
  for (const [title, o] of writes) {
    if (o.kind === 'answered') {
      answered++;
      assert.ok(titles.has(title), `${title} was answered 201 but is not in the database`);
    } else assert.not.ok(titles.has(title), `${title} was never answered but is in the database`);
  }
  assert.ok(answered >= 20);
});

test('a push in flight at SIGTERM completes and git reports success; new connections are refused meanwhile', async () => {
  const s = await serve({ CAIRN_PAUSEPOINT: 'push-finish=3000' });
  const work = fs.mkdtempSync(path.join(tmp, 'wt-'));
  const remote = cloneUrl(s.url, OWNER, REPO, [OWNER, token]);
  await mustGit(null, 'clone', '-q', remote, work);
  const head = await commitFiles(work, { 'pushed.txt': 'pushed during a shutdown\n' }, 'pushed during a shutdown');
  const push = run('git', ['-C', work, 'push', '-q', 'origin', 'HEAD'], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }).then(
    () => ({ ok: true, out: '' }),
    (e: { stderr?: string; message: string }) => ({ ok: false, out: e.stderr ?? e.message }),
  );
  let pushEnded = false;
  void push.then(() => {
    pushEnded = true;
  });
  await until('the push reached its pause', () => s.out().includes('pausepoint push-finish'), s);
  process.kill(s.pid, 'SIGTERM');
  // The listening socket closes at the signal, while the push is still held.
  const end = Date.now() + 2000;
  let after = await request(s.url, 'GET', '/api/v1/version', token);
  // A connection the kernel had queued but the server not yet taken is reset when the socket closes.
  while (after.kind !== 'refused' && Date.now() < end) {
    if (after.kind === 'reset') assert.not.ok(after.gotResponse, 'a response cut short');
    after = await request(s.url, 'GET', '/api/v1/version', token);
  }
  assert.is(after.kind, 'refused', 'a new connection during the drain');
  assert.not.ok(pushEnded, 'refused while the push was still in flight');
  const pushed = await push;
  assert.ok(pushed.ok, `git push failed: ${pushed.out}\n${s.out()}`);
  assert.is(await s.exited, 0, s.out());
  assert.is(logged(s).find((l) => l.msg.startsWith('shutdown ended'))?.drained, true, s.out());
  const bare = path.join(dataPath, 'forgejo-repositories', OWNER, `${REPO}.git`);
  assert.is(await mustGit(null, '--git-dir', bare, 'rev-parse', 'refs/heads/main'), head);
});

test('a push over SSH in flight at SIGTERM completes and git reports success; the SSH port refuses new connections', async () => {
  requireTools('ssh', 'ssh-keygen');
  const key = await makeKeyPair(tmp, 'graceful-key');
  const s = await serve({
    CAIRN_PAUSEPOINT: 'push-finish=3000',
    CAIRN__SERVER__SSH_LISTEN_PORT: '0',
    CAIRN__SERVER__SSH_LISTEN_HOST: '127.0.0.1',
  });
  const port = Number(/"port":(\d+),"msg":"cairn ssh server listening/.exec(s.out())?.[1]);
  assert.ok(port > 0, s.out());
  const added = await request(s.url, 'POST', '/api/v1/user/keys', token, { title: 'graceful', key: key.publicKey });
  assert.is(added.kind === 'answered' && added.status, 201, JSON.stringify(added));
  const work = fs.mkdtempSync(path.join(tmp, 'wt-'));
  const sshEnv = { ...process.env, GIT_SSH_COMMAND: gitSshCommand(key, port), GIT_TERMINAL_PROMPT: '0' };
  await run('git', ['clone', '-q', `ssh://git@127.0.0.1:${port}/${OWNER}/${REPO}.git`, work], { env: sshEnv });
  const head = await commitFiles(work, { 'over-ssh.txt': 'pushed over SSH during a shutdown\n' }, 'over SSH during a shutdown');
  let pushEnded = false;
  const push = run('git', ['-C', work, 'push', '-q', 'origin', 'HEAD'], { env: sshEnv }).then(
    () => ({ ok: true, out: '' }),
    (e: { stderr?: string; message: string }) => ({ ok: false, out: e.stderr ?? e.message }),
  );
  void push.then(() => {
    pushEnded = true;
  });
  await until('the push reached its pause', () => s.out().includes('pausepoint push-finish'), s);
  process.kill(s.pid, 'SIGTERM');
  await until('shutdown began', () => s.out().includes('shutdown began'), s);
  const refused = await new Promise<boolean>((resolve) => {
    const c = net.connect(port, '127.0.0.1');
    c.once('connect', () => {
      c.destroy();
      resolve(false);
    });
    c.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
  assert.ok(refused, 'a new SSH connection during the drain is refused');
  assert.not.ok(pushEnded, 'refused while the push was still in flight');
  const pushed = await push;
  assert.ok(pushed.ok, `git push over SSH failed: ${pushed.out}\n${s.out()}`);
  assert.is(await s.exited, 0, s.out());
  assert.is(logged(s).find((l) => l.msg.startsWith('shutdown ended'))?.drained, true, s.out());
  const bare = path.join(dataPath, 'forgejo-repositories', OWNER, `${REPO}.git`);
  assert.is(await mustGit(null, '--git-dir', bare, 'rev-parse', 'refs/heads/main'), head);
});

test('GRACEFUL_HAMMER_TIME bounds the shutdown: work still running when it ends is cut, the log says so, exit 0', async () => {
  const s = await serve({ CAIRN_PAUSEPOINT: 'push-finish=20000', CAIRN__SERVER__GRACEFUL_HAMMER_TIME: '1s' });
  const work = fs.mkdtempSync(path.join(tmp, 'wt-'));
  await mustGit(null, 'clone', '-q', cloneUrl(s.url, OWNER, REPO, [OWNER, token]), work);
  await commitFiles(work, { 'cut.txt': 'held past the grace period\n' }, 'held past the grace period');
  const push = run('git', ['-C', work, 'push', '-q', 'origin', 'HEAD'], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }).then(
    () => true,
    () => false,
  );
  await until('the push reached its pause', () => s.out().includes('pausepoint push-finish'), s);
  const signalled = Date.now();
  process.kill(s.pid, 'SIGTERM');
  assert.is(await s.exited, 0, s.out());
  const took = Date.now() - signalled;
  assert.ok(took < 15_000, `the shutdown took ${took} ms with a 1 s grace period`);
  assert.is(logged(s).find((l) => l.msg.startsWith('shutdown ended'))?.drained, false, s.out());
  assert.not.ok(await push, 'the push held past the grace period was cut');
});

test('GRACEFUL_HAMMER_TIME is a duration', () => {
  assert.is(loadConfig({}, {}).gracefulHammerMs, 60_000, "Forgejo's default");
  assert.is(loadConfig({}, { SERVER__GRACEFUL_HAMMER_TIME: '2m' }).gracefulHammerMs, 120_000);
  assert.throws(
    () => loadConfig({}, { SERVER__GRACEFUL_HAMMER_TIME: 'soon' }),
    (e: unknown) => e instanceof ConfigError && /GRACEFUL_HAMMER_TIME/.test(String(e)),
  );
});

test.run();
