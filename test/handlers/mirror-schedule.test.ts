// The mirror scheduler (lib/mirrors/schedule.ts): pull mirrors fetch when their interval has elapsed,
// push mirrors push on their interval and after refs move (sync_on_commit), interval 0 disables, and
// a due mirror is claimed by one tick only. Tests call the tick directly.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Mirror, PushMirror } from '../../model/mirror.ts';
import { Repository } from '../../model/repo.ts';
import { mirrorTick } from '../../lib/mirrors/schedule.ts';
import { SecretBox } from '../../lib/auth/secretbox.ts';
import { repoPathFor, type Services } from '../../lib/http/services.ts';
import { secretKey } from '../../server.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { call } from '../helpers/client.ts';
import { cloneUrl, commitFiles, mustGit, workDir } from '../helpers/git-cli.ts';
import { checked, gitDir, newRepo, setup, uniq, valid, type Env } from './repo-setup.ts';
import type { TestUser } from '../helpers/fixtures.ts';

let env: Env;
let local: TestServer;
let scratch: string;
let services: Services;
test.before(async () => {
  env = await setup();
  local = await startServer(env.db, { MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-sched-'));
  services = { log: pino({ level: 'silent' }), secrets: new SecretBox(secretKey(local.config)), repoPath: repoPathFor(local.config) };
});
test.after(async () => {
  await local.close();
  await env.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const L = async (u: TestUser, method: string, p: string, body?: unknown) =>
  checked(await call(local.api, method, p, { token: u.token, body }));
const git = (dir: string, ...args: string[]) => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8' }).trim();
const root = () => env.db.db.orm.em;
const tick = () => mirrorTick(root(), services);
const past = new Date(Date.now() - 60_000);

function addCommit(dir: string, branch: string, text: string): string {
  const blob = execFileSync('git', ['--git-dir', dir, 'hash-object', '-w', '--stdin'], { input: text, encoding: 'utf8' }).trim();
  const tree = execFileSync('git', ['--git-dir', dir, 'mktree'], { input: `100644 blob ${blob}\tREADME.md\n`, encoding: 'utf8' }).trim();
  const parent = git(dir, 'for-each-ref', '--format=%(objectname)', `refs/heads/${branch}`);
  const ids = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' };
  const commit = execFileSync('git', ['--git-dir', dir, 'commit-tree', tree, '-m', text, ...(parent ? ['-p', parent] : [])], {
    encoding: 'utf8',
    env: ids,
  }).trim();
  git(dir, 'update-ref', `refs/heads/${branch}`, commit);
  return commit;
}

function sourceRepo(): string {
  const dir = path.join(scratch, `${uniq('src')}.git`);
  execFileSync('git', ['init', '--bare', '--quiet', '--initial-branch=main', dir]);
  addCommit(dir, 'main', 'first');
  return dir;
}

async function pullMirror(u: TestUser, interval: string) {
  const src = sourceRepo();
  const r = await L(u, 'POST', '/repos/migrate', {
    clone_addr: `file://${src}`,
    repo_name: uniq('pm'),
    mirror: true,
    mirror_interval: interval,
  });
  assert.is(r.status, 201, r.text);
  valid('Repository', r.json);
  return { src, repo: r.json as { id: number; name: string; full_name: string; mirror_updated: string } };
}

const mirrorRow = (repoId: number) => root().fork().findOneOrFail(Mirror, { repoId });
const makeDue = (repoId: number) => root().fork().nativeUpdate(Mirror, { repoId }, { nextUpdateAt: past });

test('a pull mirror is fetched once its interval has elapsed; mirror_updated, size and next time move', async () => {
  const { alice } = env;
  const { src, repo } = await pullMirror(alice, '10m');
  const dir = gitDir(env, alice.name, repo.name);
  const before = await mirrorRow(repo.id);
  assert.ok(before.nextUpdateAt && Math.abs(before.nextUpdateAt.getTime() - (Date.now() + 600_000)) < 60_000, 'due in 10 minutes');
  const next = addCommit(src, 'main', 'second');

  assert.equal(await tick(), { pulled: 0, pushed: 0, failed: 0 }, 'not due yet');
  assert.is.not(git(dir, 'rev-parse', 'refs/heads/main'), next);

  await makeDue(repo.id);
  await new Promise((r) => setTimeout(r, 1100));
  const sizeBefore = (await root().fork().findOneOrFail(Repository, { id: repo.id })).size;
  assert.equal(await tick(), { pulled: 1, pushed: 0, failed: 0 });
  assert.is(git(dir, 'rev-parse', 'refs/heads/main'), next);
  const after = await mirrorRow(repo.id);
  assert.ok(after.nextUpdateAt && after.nextUpdateAt.getTime() > Date.now() + 500_000, 'the next fetch is an interval away');
  assert.is(after.lastError, '');
  const got = await L(alice, 'GET', `/repos/${repo.full_name}`);
  valid('Repository', got.json);
  assert.ok(Date.parse(got.json.mirror_updated) > Date.parse(repo.mirror_updated), 'mirror_updated moved');
  assert.ok((await root().fork().findOneOrFail(Repository, { id: repo.id })).size >= sizeBefore);
  assert.equal(await tick(), { pulled: 0, pushed: 0, failed: 0 }, 'fetched once');
});

test('interval 0 disables scheduling; a fetch failure is recorded as the last error and retried on the interval', async () => {
  const { alice } = env;
  const { src, repo } = await pullMirror(alice, '0');
  assert.is((await mirrorRow(repo.id)).nextUpdateAt, null);
  addCommit(src, 'main', 'second');
  assert.equal(await tick(), { pulled: 0, pushed: 0, failed: 0 });

  const broken = await pullMirror(alice, '10m');
  fs.rmSync(broken.src, { recursive: true, force: true });
  await makeDue(broken.repo.id);
  assert.equal(await tick(), { pulled: 0, pushed: 0, failed: 1 });
  const row = await mirrorRow(broken.repo.id);
  assert.match(row.lastError, /does not appear to be a git repository|not found|No such/i);
  assert.ok(row.nextUpdateAt && row.nextUpdateAt.getTime() > Date.now() + 500_000);
});

test('a mirror of an empty repository takes the first fetched branch as default branch and is no longer empty', async () => {
  const { alice } = env;
  const src = path.join(scratch, `${uniq('empty')}.git`);
  execFileSync('git', ['init', '--bare', '--quiet', '--initial-branch=main', src]);
  const r = await L(alice, 'POST', '/repos/migrate', {
    clone_addr: `file://${src}`,
    repo_name: uniq('em'),
    mirror: true,
    mirror_interval: '10m',
  });
  assert.is(r.status, 201, r.text);
  assert.is(r.json.empty, true);
  const commit = addCommit(src, 'trunk', 'first');
  await makeDue(r.json.id);
  assert.equal(await tick(), { pulled: 1, pushed: 0, failed: 0 });
  const got = await L(alice, 'GET', `/repos/${r.json.full_name}`);
  valid('Repository', got.json);
  assert.is(got.json.empty, false);
  assert.is(got.json.default_branch, 'trunk');
  assert.is(git(gitDir(env, alice.name, r.json.name), 'rev-parse', 'HEAD'), commit);
});

test('a due mirror is claimed by one tick only, even when ticks run at the same time', async () => {
  const { alice } = env;
  const { src, repo } = await pullMirror(alice, '10m');
  const next = addCommit(src, 'main', 'second');
  await makeDue(repo.id);
  const results = await Promise.all([tick(), tick(), tick()]);
  assert.is(
    results.reduce((n, r) => n + r.pulled, 0),
    1,
    JSON.stringify(results),
  );
  assert.is(git(gitDir(env, alice.name, repo.name), 'rev-parse', 'refs/heads/main'), next);
});

async function pushMirror(u: TestUser, repoName: string, body: Record<string, unknown>) {
  const target = path.join(scratch, `${uniq('target')}.git`);
  execFileSync('git', ['init', '--bare', '--quiet', target]);
  const r = await L(u, 'POST', `/repos/${u.name}/${repoName}/push_mirrors`, { remote_address: `file://${target}`, ...body });
  assert.is(r.status, 200, r.text);
  valid('PushMirror', r.json);
  return { target, remoteName: r.json.remote_name as string };
}
const pushRow = (remoteName: string) => root().fork().findOneOrFail(PushMirror, { remoteName });
const head = (dir: string, ref = 'refs/heads/main') =>
  execFileSync('git', ['--git-dir', dir, 'for-each-ref', '--format=%(objectname)', ref], { encoding: 'utf8' }).trim();

test('push mirrors with an interval are pushed when due', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const { target, remoteName } = await pushMirror(alice, repo.name, { interval: '8h', sync_on_commit: false });
  const row = await pushRow(remoteName);
  assert.ok(row.nextUpdateAt && row.nextUpdateAt.getTime() > Date.now() + 7 * 3_600_000);
  assert.equal(await tick(), { pulled: 0, pushed: 0, failed: 0 });
  assert.is(head(target), '');

  await root().fork().nativeUpdate(PushMirror, { remoteName }, { nextUpdateAt: past });
  assert.equal(await tick(), { pulled: 0, pushed: 1, failed: 0 });
  assert.is(head(target), head(gitDir(env, alice.name, repo.name)));
  const after = await L(alice, 'GET', `/repos/${repo.full_name}/push_mirrors/${remoteName}`);
  valid('PushMirror', after.json);
  assert.not.equal(after.json.last_update, null);
  assert.is(after.json.last_error, '');
  assert.ok((await pushRow(remoteName)).nextUpdateAt!.getTime() > Date.now() + 7 * 3_600_000);
});

test('sync_on_commit: API writes and git pushes make the push mirror due; the push runs outside the request', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const onCommit = await pushMirror(alice, repo.name, { interval: '0', sync_on_commit: true });
  const manual = await pushMirror(alice, repo.name, { interval: '0', sync_on_commit: false });
  const dir = gitDir(env, alice.name, repo.name);
  assert.is((await pushRow(onCommit.remoteName)).nextUpdateAt, null, 'interval 0: only commits schedule it');

  const put = await L(alice, 'POST', `/repos/${repo.full_name}/contents/a.txt`, {
    content: Buffer.from('a').toString('base64'),
    message: 'add a',
  });
  assert.is(put.status, 201, put.text);
  valid('FileResponse', put.json);
  assert.is(head(onCommit.target), '', 'not pushed inside the request');
  assert.ok((await pushRow(onCommit.remoteName)).nextUpdateAt!.getTime() <= Date.now());
  assert.is((await pushRow(manual.remoteName)).nextUpdateAt, null);
  assert.equal(await tick(), { pulled: 0, pushed: 1, failed: 0 });
  assert.is(head(onCommit.target), head(dir));
  assert.is(head(manual.target), '');
  assert.is((await pushRow(onCommit.remoteName)).nextUpdateAt, null);

  const br = await L(alice, 'POST', `/repos/${repo.full_name}/branches`, { new_branch_name: 'side' });
  assert.is(br.status, 201, br.text);
  valid('Branch', br.json);
  assert.equal(await tick(), { pulled: 0, pushed: 1, failed: 0 });
  assert.is(head(onCommit.target, 'refs/heads/side'), head(dir, 'refs/heads/side'));

  const wt = workDir();
  await mustGit(null, 'clone', '-q', cloneUrl(local.url, alice.name, repo.name, [alice.name, alice.token]), `${wt}/c`);
  await commitFiles(`${wt}/c`, { 'b.txt': 'b' }, 'add b');
  await mustGit(`${wt}/c`, 'push', '-q', 'origin', 'main');
  fs.rmSync(wt, { recursive: true, force: true });
  assert.ok((await pushRow(onCommit.remoteName)).nextUpdateAt!.getTime() <= Date.now(), 'a git push marks it due');
  assert.equal(await tick(), { pulled: 0, pushed: 1, failed: 0 });
  assert.is(head(onCommit.target), head(dir));
});

test('a failing push never fails the write; the error is the push mirror last_error', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const { target, remoteName } = await pushMirror(alice, repo.name, { interval: '0', sync_on_commit: true });
  fs.rmSync(target, { recursive: true, force: true });
  fs.writeFileSync(target, 'not a repository');
  const put = await L(alice, 'POST', `/repos/${repo.full_name}/contents/a.txt`, {
    content: Buffer.from('a').toString('base64'),
    message: 'add a',
  });
  assert.is(put.status, 201, put.text);
  assert.equal(await tick(), { pulled: 0, pushed: 0, failed: 1 });
  const got = await L(alice, 'GET', `/repos/${repo.full_name}/push_mirrors/${remoteName}`);
  valid('PushMirror', got.json);
  assert.ok(got.json.last_error.length > 0, got.text);
  assert.is((await pushRow(remoteName)).nextUpdateAt, null, 'retried on the next commit');
});

test.run();
