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
import { commands, PktReader, rawHttpPush } from '../helpers/raw-push.ts';
import { clockConnection, everyConnection, startDbProxy, type DbProxy } from '../helpers/db-proxy.ts';
import type { RunningSsh } from '../../transports/git-ssh.ts';
import { gitDir, newRepo, setup, type Env } from './repo-setup.ts';

let env: Env;
let other: CairnProcess | null = null;
/** On PostgreSQL: a third process whose every connection goes through a proxy that can fail. */
let proxy: DbProxy | null = null;
let faulty: CairnProcess | null = null;
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
  if (env.db.url) {
    other = await startCairnProcess(env.db.dataPath, { DATABASE__URL: env.db.url });
    const u = new URL(env.db.url);
    proxy = await startDbProxy({ host: u.hostname, port: Number(u.port || 5432) });
    faulty = await startCairnProcess(env.db.dataPath, { DATABASE__URL: proxy.via(env.db.url) });
  }
});
test.after(async () => {
  await faulty?.close();
  await proxy?.close();
  await other?.close();
  await ssh.close();
  await env.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

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

/** Readers with kept answers: this process, and another one on PostgreSQL. */
const readers = () => [env.srv.api, ...(other ? [other.api] : [])];

/** Makes sure each reader keeps the branch's answer (asked twice). */
async function warm(fullName: string, old: string, apis = readers()) {
  for (const api of apis)
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
    const push = await rawHttpPush(`${env.srv.url}/${repo.full_name}.git`, [env.alice.name, env.alice.token], commands(old, sha, pack));
    assert.is(push.status, 200);
    const reader = push.output;
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

const branchOf = async (api: string, fullName: string) => {
  const r = await call(api, 'GET', `/repos/${fullName}/branches/main`, { token: env.alice.token });
  return r.status === 200 ? (r.json.commit.id as string) : `status ${r.status}`;
};
const b64 = (s: string) => Buffer.from(s).toString('base64');

test('[PostgreSQL] the clock connection cut and refused: a file changed and a push are announced through the pool', async () => {
  if (!proxy || !faulty) return; // the embedded database's clock is in the process and cannot fail
  const repo = await newRepo(env, env.alice, { auto_init: true, readme: 'Default' });
  const file = `/repos/${repo.full_name}/contents/README.md`;
  const first = await call(faulty.api, 'GET', file, { token: env.alice.token });
  assert.is(first.status, 200, first.text);
  const { old } = await nextCommit(repo.full_name);
  await warm(repo.full_name, old, [...readers(), faulty.api]);
  await call(env.srv.api, 'GET', file, { token: env.alice.token });
  proxy.refuse(clockConnection);
  proxy.cut(clockConnection);
  try {
    const put = await call(faulty.api, 'PUT', file, {
      token: env.alice.token,
      body: { content: b64('changed'), sha: first.json.sha, message: 'edit' },
    });
    assert.is(put.status, 200, put.text);
    const sha = put.json.commit.sha as string;
    for (const api of [env.srv.api, faulty.api]) assert.is(await branchOf(api, repo.full_name), sha, `${api} after the file changed`);
    const read = await call(env.srv.api, 'GET', file, { token: env.alice.token });
    assert.is(Buffer.from(read.json.content, 'base64').toString(), 'changed');

    // A raw push through the same process, read at once through this one.
    const next = await nextCommit(repo.full_name);
    await warm(repo.full_name, next.old, [env.srv.api]);
    const push = await rawHttpPush(
      `${faulty.url}/${repo.full_name}.git`,
      [env.alice.name, env.alice.token],
      commands(next.old, next.sha, next.pack),
    );
    assert.equal(await push.output.report(), ['unpack ok', 'ok refs/heads/main']);
    assert.is(await branchOf(env.srv.api, repo.full_name), next.sha, 'after the push');
  } finally {
    proxy.refuse(null);
  }
});

test('[PostgreSQL] the database gone while a push moves its ref: the report says so, the log says so, and no process serves the old branch once it is back', async () => {
  if (!proxy || !faulty) return; // the embedded database's clock is in the process and cannot fail
  const p = proxy;
  const repo = await newRepo(env, env.alice, { auto_init: true, readme: 'Default' });
  const { old, sha, pack } = await nextCommit(repo.full_name);
  await warm(repo.full_name, old, [...readers(), faulty.api]);
  const logged = faulty.log().length;
  let report: string[];
  try {
    // The push is authenticated and receive-pack started; then every connection goes.
    const push = await rawHttpPush(
      `${faulty.url}/${repo.full_name}.git`,
      [env.alice.name, env.alice.token],
      commands(old, sha, pack),
      async () => {
        // receive-pack has begun to receive the pack (its quarantine exists): the push was authenticated.
        const bare = gitDir(env, env.alice.name, repo.name);
        for (let i = 0; i < 500 && !fs.readdirSync(path.join(bare, 'objects')).some((n) => n.includes('incoming')); i++)
          await new Promise((resolve) => setTimeout(resolve, 20));
        p.refuse(everyConnection);
        p.cut(everyConnection);
      },
    );
    report = await push.output.report();
  } finally {
    p.refuse(null);
  }
  assert.is(report[0], 'unpack ok');
  assert.match(report[1] ?? '', /^ng refs\/heads\/main .*not announced/);
  // The log line is written before the report goes out; the process's log reaches us on its own pipe.
  for (let i = 0; i < 100 && !/push not announced/.test(faulty.log().slice(logged)); i++) await new Promise((r) => setTimeout(r, 50));
  assert.match(faulty.log().slice(logged), /push not announced/);
  // The process that could not announce sends no kept answer until it has: each answer is the new branch.
  for (let i = 0; i < 20; i++) {
    const got = await branchOf(faulty.api, repo.full_name);
    if (got.startsWith('status 5')) continue;
    assert.is(got, sha, `read ${i + 1} through the process that pushed`);
  }
  // The others hear of it as soon as the announcement is made, within a few seconds.
  const until = Date.now() + 10_000;
  let seen = '';
  while (Date.now() < until) {
    seen = await branchOf(env.srv.api, repo.full_name);
    if (seen === sha) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.is(seen, sha, 'another process, once the database is back');
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
