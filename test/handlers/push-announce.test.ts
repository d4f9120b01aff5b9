// A push is announced before its client can learn that it succeeded (lib/transport/push-report.ts):
// a raw client that stops reading at the report's flush (`ok refs/heads/main`, flush), as libgit2,
// go-git and JGit do, and reads the branch at once through a server with kept answers sees the new
// commit: over HTTP and over SSH, through this process and, on PostgreSQL, through another process.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { call } from '../helpers/client.ts';
import { commitFiles, cloneUrl, mustGit, workDir } from '../helpers/git-cli.ts';
import { startCairnProcess, type CairnProcess } from '../helpers/cairn-process.ts';
import { makeKeyPair, sshOptions, startSsh, type KeyPair } from '../helpers/ssh.ts';
import { requireTools } from '../helpers/tools.ts';
import { runGit } from '../../git/exec.ts';
import type { RunningSsh } from '../../git-ssh.ts';
import { gitDir, newRepo, setup, type Env } from './repo-setup.ts';

let env: Env;
let other: CairnProcess | null = null;
let ssh: RunningSsh;
let key: KeyPair;
let tmp: string;

test.before(async () => {
  requireTools('ssh', 'ssh-keygen');
  env = await setup();
  ssh = await startSsh(env.db, env.srv);
  tmp = workDir('cairn-announce-');
  key = await makeKeyPair(tmp, 'alice');
  const k = await env.as(env.alice, 'POST', '/user/keys', { title: 'alice', key: key.publicKey });
  assert.is(k.status, 201, k.text);
  if (env.db.url) other = await startCairnProcess(env.db.dataPath, { DATABASE__URL: env.db.url });
});
test.after(async () => {
  await other?.close();
  await ssh.close();
  await env.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const pkt = (s: string | Buffer) => {
  const b = typeof s === 'string' ? Buffer.from(s) : s;
  return Buffer.concat([Buffer.from((b.length + 4).toString(16).padStart(4, '0')), b]);
};

/**
 * Reads pkt-lines from a byte source until `done` says so: a small parser for both the advertisement
 * (ends at a flush) and a side-band report (ends at the inner flush after the ref lines).
 */
class PktReader {
  private buf = Buffer.alloc(0);
  private waiting: (() => void) | null = null;
  private ended = false;
  feed(b: Buffer) {
    this.buf = Buffer.concat([this.buf, b]);
    this.waiting?.();
  }
  end() {
    this.ended = true;
    this.waiting?.();
  }
  /** The next packet's payload, or null for a flush. */
  async next(): Promise<Buffer | null> {
    for (;;) {
      if (this.buf.length >= 4) {
        const len = parseInt(this.buf.subarray(0, 4).toString('latin1'), 16);
        if (len === 0) {
          this.buf = this.buf.subarray(4);
          return null;
        }
        if (this.buf.length >= len) {
          const p = this.buf.subarray(4, len);
          this.buf = this.buf.subarray(len);
          return p;
        }
      }
      if (this.ended) throw new Error('the output ended before the report');
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
      this.waiting = null;
    }
  }
  /** The report's lines, read from side-band 1 up to its own flush (and nothing after it). */
  async report(): Promise<string[]> {
    let inner = Buffer.alloc(0);
    for (;;) {
      const p = await this.next();
      if (p === null) throw new Error('the output ended at a flush before the report ended');
      if (p[0] !== 1) continue;
      inner = Buffer.concat([inner, p.subarray(1)]);
      const lines: string[] = [];
      for (let i = 0; i + 4 <= inner.length; ) {
        const len = parseInt(inner.subarray(i, i + 4).toString('latin1'), 16);
        if (len === 0) return lines;
        if (i + len > inner.length) break;
        lines.push(
          inner
            .subarray(i + 4, i + len)
            .toString('utf8')
            .trim(),
        );
        i += len;
      }
    }
  }
}

/** A new commit on the repository's main branch, in a clone: its sha, the old one and its pack. */
async function nextCommit(fullName: string) {
  const dir = workDir('cairn-announce-wt-');
  await mustGit(
    null,
    'clone',
    '-q',
    cloneUrl(env.srv.url, env.alice.name, fullName.split('/')[1]!, [env.alice.name, env.alice.token]),
    dir,
  );
  const old = await mustGit(dir, 'rev-parse', 'HEAD');
  const sha = await commitFiles(dir, { 'pushed.txt': `${Date.now()}` }, 'pushed raw');
  const pack = (await runGit(null, ['-C', dir, 'pack-objects', '--stdout', '--revs', '-q'], { input: `${sha}\n^${old}\n` })).stdout;
  fs.rmSync(dir, { recursive: true, force: true });
  // receive-pack's own work after its report (`maintenance run --auto`) made long: the pushed pack is
  // kept as a second pack, which is one too many, so a repack runs in the foreground.
  const bare = gitDir(env, env.alice.name, fullName.split('/')[1]!);
  await runGit(bare, ['repack', '-a', '-d', '-q']);
  for (const [k, v] of Object.entries({ 'receive.unpackLimit': '1', 'gc.autoPackLimit': '1', 'gc.autoDetach': 'false' }))
    await runGit(bare, ['config', k, v]);
  return { old, sha, pack };
}

const commands = (old: string, sha: string, pack: Buffer) =>
  Buffer.concat([pkt(`${old} ${sha} refs/heads/main\0report-status side-band-64k agent=raw-test\n`), Buffer.from('0000'), pack]);

/** Readers with kept answers: this process, and another one on PostgreSQL. */
const readers = () => [env.srv.api, ...(other ? [other.api] : [])];

/** Makes sure each reader keeps the branch's answer (asked twice), then returns a check of it. */
async function warm(fullName: string, old: string) {
  for (const api of readers())
    for (let i = 0; i < 2; i++) {
      const r = await call(api, 'GET', `/repos/${fullName}/branches/main`, { token: env.alice.token });
      assert.is(r.json.commit.id, old);
    }
}

async function readAtOnce(fullName: string, sha: string, how: string) {
  const got = await Promise.all(readers().map((api) => call(api, 'GET', `/repos/${fullName}/branches/main`, { token: env.alice.token })));
  got.forEach((r, i) => assert.is(r.json.commit.id, sha, `${how}: read through ${i === 0 ? 'this process' : 'another process'}`));
}

test('a raw smart-HTTP push that stops reading at the report: the branch read at once shows the push, in every process', async () => {
  for (let round = 0; round < 3; round++) {
    const repo = await newRepo(env, env.alice, { auto_init: true, readme: 'Default' });
    const { old, sha, pack } = await nextCommit(repo.full_name);
    await warm(repo.full_name, old);
    const res = await fetch(`${env.srv.url}/${repo.full_name}.git/git-receive-pack`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-git-receive-pack-request',
        Authorization: `Basic ${Buffer.from(`${env.alice.name}:${env.alice.token}`).toString('base64')}`,
      },
      body: commands(old, sha, pack),
    });
    assert.is(res.status, 200);
    const reader = new PktReader();
    const body = res.body!.getReader();
    void (async () => {
      for (;;) {
        const { done, value } = await body.read();
        if (done) return reader.end();
        reader.feed(Buffer.from(value));
      }
    })().catch(() => reader.end());
    const report = await reader.report();
    assert.equal(report, ['unpack ok', 'ok refs/heads/main']);
    await readAtOnce(repo.full_name, sha, `HTTP round ${round + 1}`);
  }
});

test('a raw push over SSH that stops reading at the report: the branch read at once shows the push, in every process', async () => {
  for (let round = 0; round < 3; round++) {
    const repo = await newRepo(env, env.alice, { auto_init: true, readme: 'Default' });
    const { old, sha, pack } = await nextCommit(repo.full_name);
    const child = spawn('ssh', [...sshOptions(key, ssh.port), 'git@127.0.0.1', `git-receive-pack '${repo.full_name}.git'`], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const reader = new PktReader();
    child.stdout.on('data', (d: Buffer) => reader.feed(d));
    child.stdout.on('end', () => reader.end());
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    try {
      // The advertisement, up to its flush.
      for (;;) if ((await reader.next()) === null) break;
      // Kept only now: signing in wrote the key's last use, which makes earlier answers be made again.
      await warm(repo.full_name, old);
      child.stdin.write(commands(old, sha, pack));
      const report = await reader.report();
      assert.equal(report, ['unpack ok', 'ok refs/heads/main'], stderr);
      await readAtOnce(repo.full_name, sha, `SSH round ${round + 1}`);
    } finally {
      child.stdin.end();
      await new Promise<void>((resolve) => (child.exitCode === null ? child.once('exit', () => resolve()) : resolve()));
    }
  }
});

test('the git client pushes as before over HTTP: a push, a push of nothing, and a rejected push', async () => {
  const repo = await newRepo(env, env.alice, { auto_init: true, readme: 'Default' });
  const dir = workDir('cairn-announce-wt-');
  try {
    await mustGit(null, 'clone', '-q', cloneUrl(env.srv.url, env.alice.name, repo.name, [env.alice.name, env.alice.token]), dir);
    const sha = await commitFiles(dir, { 'a.txt': 'a' }, 'a');
    await mustGit(dir, 'push', '-q', 'origin', 'HEAD:main');
    assert.match(await mustGit(dir, 'push', 'origin', 'HEAD:main'), /up-to-date/);
    await mustGit(dir, 'reset', '-q', '--hard', 'HEAD~1');
    await commitFiles(dir, { 'b.txt': 'b' }, 'b');
    const refused = await runGit(null, ['-C', dir, 'push', 'origin', 'HEAD:main'], { okCodes: [0, 1] });
    assert.is(refused.code, 1);
    const branch = await call(env.srv.api, 'GET', `/repos/${repo.full_name}/branches/main`, { token: env.alice.token });
    assert.is(branch.json.commit.id, sha);
    assert.ok(path.isAbsolute(dir));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
