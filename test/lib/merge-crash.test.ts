// kill -9 during a merge, for real: `cli.ts serve` as its own process on the embedded
// database is killed by the `merge-moved` failpoint (lib/runtime/failpoint.ts) right after git moved the base
// branch and before the database recorded the merge. After a restart the pull is merged, with the
// commit git has, and merging again answers 405 and adds nothing (lib/pulls/merge-recovery.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mustGit } from '../helpers/git-cli.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-crash-'));
const baseEnv = {
  PATH: process.env.PATH ?? '',
  HOME: os.tmpdir(),
  CAIRN__SERVER__APP_DATA_PATH: dir,
  CAIRN__SERVER__HTTP_PORT: '0',
  CAIRN__SERVER__HTTP_ADDR: '127.0.0.1',
};

interface Running {
  child: ChildProcess;
  url: string;
  out: () => string;
  exited: Promise<number | null>;
}

async function serve(extra: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'cli.ts'), 'serve'], {
    cwd: root,
    env: { ...baseEnv, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const m = /cairn listening on (http:\/\/[^\s"]+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.stderr!.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
    void exited.then((code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  return { child, url, out: () => out, exited };
}

async function stop(r: Running) {
  if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGTERM');
  await r.exited;
}

function adminToken(): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = [
      '--import',
      'tsx',
      path.join(root, 'cli.ts'),
      'admin',
      'user',
      'create',
      '--username',
      'crash',
      '--password',
      'Passw0rd!x',
      '--email',
      'crash@example.com',
      '--access-token',
    ];
    const child = spawn(process.execPath, args, { cwd: root, env: baseEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
    child.once('exit', (code) => (code === 0 ? resolve(out.trim().split('\n').pop()!.trim()) : reject(new Error(out))));
  });
}

async function api(r: Running, token: string, method: string, p: string, body?: unknown) {
  const res = await fetch(`${r.url}/api/v1${p}`, {
    method,
    headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : null };
}

const gitDir = `--git-dir=${path.join(dir, 'forgejo-repositories', 'crash', 'demo.git')}`;
const tipOf = async (branch: string) => (await mustGit(null, gitDir, 'rev-parse', `refs/heads/${branch}`)).trim();
const b64 = (s: string) => Buffer.from(s).toString('base64');

test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('killed right after git moved the base branch: after a restart the pull is merged, and a second merge is 405', async () => {
  let server = await serve({ CAIRN_FAILPOINT: 'merge-moved' });
  let token: string;
  try {
    token = await adminToken();
    assert.is((await api(server, token, 'POST', '/user/repos', { name: 'demo', auto_init: true })).status, 201);
    assert.is(
      (await api(server, token, 'POST', '/repos/crash/demo/contents/topic.txt', { content: b64('topic'), new_branch: 'topic' })).status,
      201,
    );
    assert.is((await api(server, token, 'POST', '/repos/crash/demo/contents/main.txt', { content: b64('main') })).status, 201);
    assert.is((await api(server, token, 'POST', '/repos/crash/demo/pulls', { head: 'topic', base: 'main', title: 'topic' })).status, 201);
    const head = await tipOf('topic');
    const before = await tipOf('main');
    // The merge kills the server: the request never gets an answer.
    const answered = await api(server, token, 'POST', '/repos/crash/demo/pulls/1/merge', { Do: 'merge' }).then(
      () => true,
      () => false,
    );
    assert.not.ok(answered);
    await server.exited;
    assert.is(server.child.signalCode, 'SIGKILL');
    const merged = await tipOf('main');
    assert.is.not(merged, before, 'git moved before the kill');
    assert.ok((await mustGit(null, gitDir, 'rev-list', '--parents', '-n', '1', merged)).includes(head));

    server = await serve();
    assert.match(server.out(), /merges interrupted by a crash recorded/);
    const pr = await api(server, token, 'GET', '/repos/crash/demo/pulls/1');
    assert.is(pr.json.merged, true, pr.text);
    assert.is(pr.json.state, 'closed');
    assert.is(pr.json.merge_commit_sha, merged);
    const again = await api(server, token, 'POST', '/repos/crash/demo/pulls/1/merge', { Do: 'merge' });
    assert.is(again.status, 405, again.text);
    assert.is(await tipOf('main'), merged, 'no second merge commit');
    assert.is((await mustGit(null, gitDir, 'fsck', '--no-dangling')).trim(), '');
  } finally {
    await stop(server);
  }
});

test.run();
