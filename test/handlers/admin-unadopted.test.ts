// Unadopted repositories: bare repositories under the repository root without a record are listed
// (pattern, paging), adopted (a private record read from git) or deleted; existing records are never
// touched. Bare repositories are made with the git command line, as an admin would have them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeUser } from '../helpers/fixtures.ts';
import { gitDir, newOrg, newRepo, setup, uniq, valid, type Env } from './repo-setup.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

const ids = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' };
const git = (dir: string, ...args: string[]) => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', env: ids }).trim();

/** `git init --bare` at `<root>/<owner>/<name>.git`, with a commit on each of `branches`. */
function bareRepo(owner: string, name: string, opts: { branches?: string[]; head?: string; format?: 'sha1' | 'sha256' } = {}): string {
  const dir = gitDir(env, owner, name);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  execFileSync('git', [
    'init',
    '--bare',
    '--quiet',
    `--object-format=${opts.format ?? 'sha1'}`,
    `--initial-branch=${opts.head ?? 'main'}`,
    dir,
  ]);
  for (const b of opts.branches ?? []) {
    const blob = execFileSync('git', ['--git-dir', dir, 'hash-object', '-w', '--stdin'], { input: b, encoding: 'utf8' }).trim();
    const tree = execFileSync('git', ['--git-dir', dir, 'mktree'], { input: `100644 blob ${blob}\tREADME.md\n`, encoding: 'utf8' }).trim();
    git(dir, 'update-ref', `refs/heads/${b}`, git(dir, 'commit-tree', tree, '-m', b));
  }
  return dir;
}

const listed = async (query = '') => {
  const r = await env.as(env.admin, 'GET', `/admin/unadopted${query}`);
  assert.is(r.status, 200, r.text);
  assert.ok(Array.isArray(r.json) && r.json.every((s: unknown) => typeof s === 'string'), r.text);
  return r;
};

test('GET /admin/unadopted: directories without a record, of existing owners, lower-case usable names only', async () => {
  const u = await makeUser(env.db, env.srv.api);
  const owner = u.name.toLowerCase();
  const kept = await newRepo(env, u);
  bareRepo(owner, 'loose-a');
  bareRepo(owner, 'loose-b', { branches: ['main'] });
  bareRepo(owner, 'loose-a.wiki');
  fs.mkdirSync(path.join(env.srv.config.repoRoot, owner, 'notarepo'), { recursive: true });
  bareRepo('nobody-owns-this', 'orphan');
  const all = (await listed()).json as string[];
  assert.ok(all.includes(`${owner}/loose-a`));
  assert.ok(all.includes(`${owner}/loose-b`));
  assert.not.ok(all.includes(`${owner}/${kept.name.toLowerCase()}`), 'a repository with a record is adopted');
  assert.not.ok(
    all.some((s) => s.endsWith('.wiki') || s.endsWith('notarepo') || s.startsWith('nobody-owns-this/')),
    all.join(),
  );
  const mine = await listed(`?pattern=${owner}`);
  assert.equal(mine.json, [`${owner}/loose-a`, `${owner}/loose-b`]);
  assert.is(mine.headers.get('x-total-count'), '2');
  assert.equal((await listed(`?pattern=${owner}/*-b`)).json, [`${owner}/loose-b`]);
  assert.equal((await listed(`?query=${owner}/loose-?`)).json, [`${owner}/loose-a`, `${owner}/loose-b`], 'Forgejo reads `query` too');
  const page2 = await listed(`?pattern=${owner}&limit=1&page=2`);
  assert.equal(page2.json, [`${owner}/loose-b`]);
  assert.is(page2.headers.get('x-total-count'), '2');
});

test('only site admins: 401 anonymous, 403 for others; nothing adopted or deleted', async () => {
  const u = await makeUser(env.db, env.srv.api);
  const dir = bareRepo(u.name, 'guarded');
  assert.is((await env.as(undefined, 'GET', '/admin/unadopted')).status, 401);
  assert.is((await env.as(u, 'GET', '/admin/unadopted')).status, 403);
  assert.is((await env.as(u, 'POST', `/admin/unadopted/${u.name}/guarded`)).status, 403);
  assert.is((await env.as(u, 'DELETE', `/admin/unadopted/${u.name}/guarded`)).status, 403);
  assert.ok(fs.existsSync(dir));
  assert.is((await env.as(u, 'GET', `/repos/${u.name}/guarded`)).status, 404);
});

test('POST adopts: a private record whose default branch, emptiness, size and object format come from git', async () => {
  const u = await makeUser(env.db, env.srv.api);
  // HEAD names a branch that does not exist: Forgejo falls back to the default branch, master, main, the first one.
  const dir = bareRepo(u.name, 'adopt-me', { branches: ['dev', 'master'], head: 'gone' });
  const r = await env.as(env.admin, 'POST', `/admin/unadopted/${u.name}/adopt-me`);
  assert.is(r.status, 204, r.text);
  const repo = await env.as(u, 'GET', `/repos/${u.name}/adopt-me`);
  assert.is(repo.status, 200);
  valid('Repository', repo.json);
  assert.is(repo.json.private, true);
  assert.is(repo.json.empty, false);
  assert.is(repo.json.default_branch, 'master');
  assert.ok(repo.json.size > 0);
  assert.is(git(dir, 'symbolic-ref', 'HEAD'), 'refs/heads/master');
  assert.is(git(dir, 'config', 'transfer.fsckObjects'), 'true');
  const branches = await env.as(u, 'GET', `/repos/${u.name}/adopt-me/branches`);
  assert.equal(branches.json.map((b: { name: string }) => b.name).sort(), ['dev', 'master']);
  assert.not.ok((await listed(`?pattern=${u.name.toLowerCase()}`)).json.length);
  // Adopting again: the record exists (Forgejo answers 404), nothing changes.
  assert.is((await env.as(env.admin, 'POST', `/admin/unadopted/${u.name}/adopt-me`)).status, 404);
});

test('POST adopts an empty repository on its HEAD branch, and sha256 repositories, also for organizations', async () => {
  const { alice } = env;
  const org = await newOrg(env, alice);
  bareRepo(org.name, 'empty-one', { head: 'trunk' });
  assert.is((await env.as(env.admin, 'POST', `/admin/unadopted/${org.name}/empty-one`)).status, 204);
  const empty = await env.as(alice, 'GET', `/repos/${org.name}/empty-one`);
  assert.is(empty.status, 200, empty.text);
  assert.is(empty.json.empty, true);
  assert.is(empty.json.default_branch, env.srv.config.REPOSITORY.DEFAULT_BRANCH);
  const sha = await makeUser(env.db, env.srv.api);
  let sha256 = true;
  try {
    bareRepo(sha.name, 'wide', { branches: ['main'], format: 'sha256' });
  } catch {
    sha256 = false;
  }
  if (sha256) {
    assert.is((await env.as(env.admin, 'POST', `/admin/unadopted/${sha.name}/wide`)).status, 204);
    const wide = await env.as(sha, 'GET', `/repos/${sha.name}/wide`);
    assert.is(wide.json.object_format_name, 'sha256');
    assert.is(wide.json.default_branch, 'main');
  }
});

test('POST and DELETE: 404 for a missing owner, a missing directory or an existing record; 422 for a wiki or unusable name', async () => {
  const { alice } = env;
  const kept = await newRepo(env, alice, { auto_init: true });
  bareRepo(alice.name, `${kept.name.toLowerCase()}x`);
  for (const method of ['POST', 'DELETE']) {
    assert.is((await env.as(env.admin, method, `/admin/unadopted/${uniq('ghost')}/x`)).status, 404);
    assert.is((await env.as(env.admin, method, `/admin/unadopted/${alice.name}/${uniq('none')}`)).status, 404);
    const existing = await env.as(env.admin, method, `/admin/unadopted/${alice.name}/${kept.name}`);
    assert.is(existing.status, 404);
    valid('APINotFound', existing.json);
  }
  assert.ok(fs.existsSync(gitDir(env, alice.name, kept.name)), 'a repository with a record keeps its files');
  assert.is((await env.as(alice, 'GET', `/repos/${kept.full_name}/branches`)).status, 200);
  const withWiki = await newRepo(env, alice);
  const wiki = bareRepo(alice.name, `${withWiki.name}.wiki`);
  const refused = await env.as(env.admin, 'DELETE', `/admin/unadopted/${alice.name}/${withWiki.name}.wiki`);
  assert.is(refused.status, 422, refused.text);
  assert.ok(fs.existsSync(wiki), 'a wiki is never deleted as an unadopted repository');
  assert.is((await env.as(env.admin, 'POST', `/admin/unadopted/${alice.name}/${withWiki.name}.wiki`)).status, 422);
});

test('DELETE removes the files of an unadopted repository', async () => {
  const u = await makeUser(env.db, env.srv.api);
  const dir = bareRepo(u.name, 'drop-me', { branches: ['main'] });
  const r = await env.as(env.admin, 'DELETE', `/admin/unadopted/${u.name}/drop-me`);
  assert.is(r.status, 204, r.text);
  assert.not.ok(fs.existsSync(dir));
  assert.is((await env.as(env.admin, 'DELETE', `/admin/unadopted/${u.name}/drop-me`)).status, 404);
  assert.is((await env.as(u, 'GET', `/repos/${u.name}/drop-me`)).status, 404);
});

test.run();
