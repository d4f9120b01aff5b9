// Forks (into a user or an organization) and fork sync.
import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Repository } from '../../model/repo.ts';
import { exists, gitDir, newOrg, newRepo, setup, uniq, valid, validList, type Env } from './repo-setup.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

const git = (dir: string, ...args: string[]) => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8' }).trim();

/** A new commit on `branch` of the bare repository at `dir`, made with plumbing. */
function commitTo(dir: string, branch: string, text: string): string {
  const blob = execFileSync('git', ['--git-dir', dir, 'hash-object', '-w', '--stdin'], { input: text, encoding: 'utf8' }).trim();
  const tree = execFileSync('git', ['--git-dir', dir, 'mktree'], { input: `100644 blob ${blob}\tfile.txt\n`, encoding: 'utf8' }).trim();
  const parent = git(dir, 'rev-parse', `refs/heads/${branch}`);
  const env2 = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' };
  const commit = execFileSync('git', ['--git-dir', dir, 'commit-tree', tree, '-p', parent, '-m', text], {
    encoding: 'utf8',
    env: env2,
  }).trim();
  git(dir, 'update-ref', `refs/heads/${branch}`, commit, parent);
  return commit;
}

test('POST {R}/forks: 202, git objects copied, fork/parent fields, counts; GET {R}/forks lists it', async () => {
  const { alice, bob } = env;
  const base = await newRepo(env, alice, { auto_init: true, description: 'base' });
  const r = await env.as(bob, 'POST', `/repos/${base.full_name}/forks`, {});
  assert.is(r.status, 202, r.text);
  valid('Repository', r.json);
  assert.is(r.json.fork, true);
  assert.is(r.json.name, base.name);
  assert.is(r.json.owner.login, bob.name);
  assert.is(r.json.description, 'base');
  assert.is(r.json.parent.full_name, base.full_name);
  assert.is(r.json.empty, false);
  assert.is(r.json.has_issues, false, 'forks start with code and pulls only');
  assert.is(r.json.has_pull_requests, true);
  assert.is(
    git(gitDir(env, bob.name, base.name), 'rev-parse', 'refs/heads/main'),
    git(gitDir(env, alice.name, base.name), 'rev-parse', 'refs/heads/main'),
  );
  assert.is((await env.as(alice, 'GET', `/repos/${base.full_name}`)).json.forks_count, 1);
  const forks = await env.as(alice, 'GET', `/repos/${base.full_name}/forks`);
  validList('Repository', forks);
  assert.equal(
    forks.json.map((f: { full_name: string }) => f.full_name),
    [`${bob.name}/${base.name}`],
  );
  const again = await env.as(bob, 'POST', `/repos/${base.full_name}/forks`, { name: uniq('again') });
  assert.is(again.status, 409, 'one fork per owner');
});

test('fork into an organization with a name; 403 where the caller may not create, 422 for an unknown one', async () => {
  const { alice, bob, carol } = env;
  const base = await newRepo(env, alice, { auto_init: true });
  const org = await newOrg(env, bob);
  const name = uniq('forked');
  const r = await env.as(bob, 'POST', `/repos/${base.full_name}/forks`, { organization: org.name, name });
  assert.is(r.status, 202, r.text);
  assert.is(r.json.full_name, `${org.name}/${name}`);
  const denied = await env.as(carol, 'POST', `/repos/${base.full_name}/forks`, { organization: org.name, name: uniq('n') });
  assert.is(denied.status, 403);
  assert.is((await env.as(carol, 'POST', `/repos/${base.full_name}/forks`, { organization: 'no-such-org' })).status, 422);
  const bad = uniq('bad');
  assert.is((await env.as(carol, 'POST', `/repos/${base.full_name}/forks`, { name: `${bad}.git` })).status, 422);
  assert.is(await env.db.db.orm.em.fork().count(Repository, { lowerName: `${bad}.git` }), 0);
  assert.not.ok(exists(gitDir(env, carol.name, `${bad}.git`)));
});

test('a private repository forks private, and its fork stays out of listings for others', async () => {
  const { alice, bob, carol } = env;
  const base = await newRepo(env, alice, { private: true, auto_init: true });
  await env.as(alice, 'PUT', `/repos/${base.full_name}/collaborators/${bob.name}`, { permission: 'read' });
  const f = await env.as(bob, 'POST', `/repos/${base.full_name}/forks`, {});
  assert.is(f.status, 202, f.text);
  assert.is(f.json.private, true);
  assert.is((await env.as(carol, 'GET', `/repos/${base.full_name}/forks`)).status, 404);
  assert.equal((await env.as(alice, 'GET', `/repos/${base.full_name}/forks`)).json, []);
});

test('deleting the base repository leaves its forks as ordinary repositories', async () => {
  const { alice, bob } = env;
  const base = await newRepo(env, alice, { auto_init: true });
  const f = await env.as(bob, 'POST', `/repos/${base.full_name}/forks`, {});
  assert.is((await env.as(alice, 'DELETE', `/repos/${base.full_name}`)).status, 204);
  const now = await env.as(bob, 'GET', `/repos/${f.json.full_name}`);
  assert.is(now.json.fork, false);
  assert.is(now.json.parent, null);
});

test('sync_fork: info, fast-forward from the base, 409 when diverged, 400 for a non-fork, 404 for a missing branch', async () => {
  const { alice, bob } = env;
  const base = await newRepo(env, alice, { auto_init: true });
  const fork = (await env.as(bob, 'POST', `/repos/${base.full_name}/forks`, { name: uniq('sf') })).json;
  const baseDir = gitDir(env, alice.name, base.name);
  const forkDir = gitDir(env, bob.name, fork.name);
  const c1 = commitTo(baseDir, 'main', 'one');
  commitTo(baseDir, 'main', 'two');
  const head = git(baseDir, 'rev-parse', 'refs/heads/main');
  const info = await env.as(bob, 'GET', `/repos/${fork.full_name}/sync_fork`);
  assert.is(info.status, 200, info.text);
  valid('SyncForkInfo', info.json);
  assert.equal(info.json, {
    allowed: true,
    fork_commit: git(forkDir, 'rev-parse', 'refs/heads/main'),
    base_commit: head,
    commits_behind: 2,
  });
  assert.is((await env.as(bob, 'GET', `/repos/${fork.full_name}/sync_fork/main`)).json.commits_behind, 2);
  assert.is((await env.as(env.carol, 'POST', `/repos/${fork.full_name}/sync_fork`)).status, 403, 'needs write access');
  const sync = await env.as(bob, 'POST', `/repos/${fork.full_name}/sync_fork/main`);
  assert.is(sync.status, 204, sync.text);
  assert.is(git(forkDir, 'rev-parse', 'refs/heads/main'), head);
  assert.equal((await env.as(bob, 'GET', `/repos/${fork.full_name}/sync_fork`)).json, {
    allowed: false,
    fork_commit: head,
    base_commit: head,
    commits_behind: 0,
  });
  assert.ok(c1);

  commitTo(forkDir, 'main', 'fork only');
  commitTo(baseDir, 'main', 'base only');
  const mine = git(forkDir, 'rev-parse', 'refs/heads/main');
  assert.is((await env.as(bob, 'GET', `/repos/${fork.full_name}/sync_fork`)).json.allowed, false);
  assert.is((await env.as(bob, 'POST', `/repos/${fork.full_name}/sync_fork`)).status, 409);
  assert.is(git(forkDir, 'rev-parse', 'refs/heads/main'), mine, 'the diverged branch is untouched');
  assert.is((await env.as(bob, 'GET', `/repos/${fork.full_name}/sync_fork/nope`)).status, 404);
  const notFork = await env.as(alice, 'GET', `/repos/${base.full_name}/sync_fork`);
  assert.is(notFork.status, 400);
  assert.is(notFork.json.message, 'The Repo must be a fork');
});

test.run();
