// Migrations from git URLs, pull mirrors (sync, interval, convert) and push mirrors; the
// [migrations] allow/block rules for remote addresses.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import zlib from 'node:zlib';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Repository } from '../../model/repo.ts';
import { Mirror, PushMirror } from '../../model/mirror.ts';
import { Label } from '../../model/label.ts';
import { openTestDb, startServer, type TestServer } from '../helpers/server.ts';
import { makeUser } from '../helpers/fixtures.ts';
import { call } from '../helpers/client.ts';
import { checked, exists, gitDir, newOrg, newRepo, setup, uniq, valid, validList, type Env } from './repo-setup.ts';
import type { TestUser } from '../helpers/fixtures.ts';

let env: Env;
let local: TestServer;
let scratch: string;
test.before(async () => {
  env = await setup();
  local = await startServer(env.db, { MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-mirror-src-'));
});
test.after(async () => {
  await local.close();
  await env.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const L = async (u: TestUser | undefined, method: string, p: string, body?: unknown) =>
  checked(await call(local.api, method, p, { token: u?.token, body }));
const git = (dir: string, ...args: string[]) => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8' }).trim();

/** A bare source repository outside cairn with one commit on `branch` (HEAD points there). */
function sourceRepo(name: string, branch = 'trunk'): string {
  const dir = path.join(scratch, `${name}.git`);
  execFileSync('git', ['init', '--bare', '--quiet', `--initial-branch=${branch}`, dir]);
  addCommit(dir, branch, 'first');
  execFileSync('git', ['--git-dir', dir, 'tag', 'v1', branch]);
  return dir;
}

function addCommit(dir: string, branch: string, text: string): string {
  const blob = execFileSync('git', ['--git-dir', dir, 'hash-object', '-w', '--stdin'], { input: text, encoding: 'utf8' }).trim();
  const tree = execFileSync('git', ['--git-dir', dir, 'mktree'], { input: `100644 blob ${blob}\tREADME.md\n`, encoding: 'utf8' }).trim();
  const heads = execFileSync('git', ['--git-dir', dir, 'for-each-ref', '--format=%(objectname)', `refs/heads/${branch}`], {
    encoding: 'utf8',
  }).trim();
  const parent = heads.split('\n')[0];
  const ids = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' };
  const args = ['--git-dir', dir, 'commit-tree', tree, '-m', text, ...(parent ? ['-p', parent] : [])];
  const commit = execFileSync('git', args, { encoding: 'utf8', env: ids }).trim();
  git(dir, 'update-ref', `refs/heads/${branch}`, commit);
  return commit;
}

test('POST /repos/migrate from a local file:// URL: 201, branches and tags, the remote HEAD as default branch', async () => {
  const { alice } = env;
  const src = sourceRepo(uniq('src'));
  fs.mkdirSync(src.replace(/\.git$/, '.wiki.git'));
  execFileSync('git', ['init', '--bare', '--quiet', '--initial-branch=main', src.replace(/\.git$/, '.wiki.git')]);
  addCommit(src.replace(/\.git$/, '.wiki.git'), 'main', 'wiki home');
  const name = uniq('mig');
  const r = await L(alice, 'POST', '/repos/migrate', {
    clone_addr: `file://${src}`,
    repo_name: name,
    description: 'migrated',
    wiki: true,
    service: 'git',
    issues: true,
  });
  assert.is(r.status, 201, r.text);
  valid('Repository', r.json);
  assert.is(r.json.full_name, `${alice.name}/${name}`);
  assert.is(r.json.mirror, false);
  assert.is(r.json.empty, false);
  assert.is(r.json.default_branch, 'trunk');
  assert.is(r.json.original_url, `file://${src}`);
  const dir = gitDir(env, alice.name, name);
  assert.is(git(dir, 'rev-parse', 'refs/heads/trunk'), git(src, 'rev-parse', 'refs/heads/trunk'));
  assert.is(git(dir, 'rev-parse', 'refs/tags/v1'), git(src, 'rev-parse', 'refs/tags/v1'));
  assert.is(
    spawnSync('git', ['--git-dir', dir, 'config', '--get-regexp', '^remote\\.'], { encoding: 'utf8' }).stdout.trim(),
    '',
    'no remote kept',
  );
  const wiki = dir.replace(/\.git$/, '.wiki.git');
  assert.is(git(wiki, 'rev-parse', 'refs/heads/main'), git(src.replace(/\.git$/, '.wiki.git'), 'rev-parse', 'refs/heads/main'));
});

/**
 * A minimal smart-HTTP git server for one directory of bare repositories, wanting Basic credentials
 * user:pw (so the test needs neither the network nor cairn's own git over HTTP).
 */
async function gitHttpServer(root: string, user: string, pw: string): Promise<{ url: string; close(): Promise<void> }> {
  const want = `Basic ${Buffer.from(`${user}:${pw}`).toString('base64')}`;
  const server = http.createServer((req, res) => {
    if (req.headers.authorization !== want) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="test"' }).end();
      return;
    }
    const u = new URL(req.url ?? '/', 'http://x');
    const m = /^\/([^/]+\.git)\/(info\/refs|git-upload-pack)$/.exec(u.pathname);
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    const dir = path.join(root, m[1]);
    if (m[2] === 'info/refs') {
      const refs = execFileSync('git', ['upload-pack', '--stateless-rpc', '--advertise-refs', dir]);
      res.writeHead(200, { 'Content-Type': 'application/x-git-upload-pack-advertisement' });
      res.end(Buffer.concat([Buffer.from('001e# service=git-upload-pack\n0000'), refs]));
      return;
    }
    const child = spawn('git', ['upload-pack', '--stateless-rpc', dir]);
    res.writeHead(200, { 'Content-Type': 'application/x-git-upload-pack-result' });
    const body = req.headers['content-encoding'] === 'gzip' ? req.pipe(zlib.createGunzip()) : req;
    body.pipe(child.stdin);
    child.stdout.pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('migrate over loopback HTTP with credentials; the credentials stay out of original_url and the git config', async () => {
  const { bob } = env;
  const src = sourceRepo(uniq('httpsrc'), 'main');
  const remote = await gitHttpServer(scratch, 'puller', 'pull-pw');
  const cloneUrl = `${remote.url}/${path.basename(src)}`;
  const denied = await L(bob, 'POST', '/repos/migrate', { clone_addr: cloneUrl, repo_name: uniq('nope') });
  assert.is(denied.status, 422, denied.text);
  assert.match(denied.json.message, /^(Authentication failed|Migration failed)/);
  const name = uniq('viahttp');
  const r = await L(bob, 'POST', '/repos/migrate', {
    clone_addr: cloneUrl,
    repo_name: name,
    auth_username: 'puller',
    auth_password: 'pull-pw',
    mirror: true,
  });
  assert.is(r.status, 201, r.text);
  assert.is(r.json.original_url, cloneUrl);
  const dir = gitDir(env, bob.name, name);
  assert.is(git(dir, 'rev-parse', 'refs/heads/main'), git(src, 'rev-parse', 'refs/heads/main'));
  assert.not.ok(fs.readFileSync(`${dir}/config`, 'utf8').includes('pull-pw'));
  const inUrl = await L(bob, 'POST', '/repos/migrate', {
    clone_addr: cloneUrl.replace('http://', 'http://puller:pull-pw@'),
    repo_name: uniq('inurl'),
  });
  assert.is(inUrl.status, 201, inUrl.text);
  assert.is(inUrl.json.original_url, cloneUrl, 'credentials in the address are taken out of it');
  // The mirror syncs with the sealed credentials.
  const next = addCommit(src, 'main', 'later');
  assert.is((await L(bob, 'POST', `/repos/${bob.name}/${name}/mirror-sync`)).status, 200);
  assert.is(git(dir, 'rev-parse', 'refs/heads/main'), next);
  await remote.close();
});

test('remote addresses: local files and local networks are refused by default (422); nothing is written', async () => {
  const { alice } = env;
  const src = sourceRepo(uniq('src'));
  const cases: [string, RegExp][] = [
    [`file://${src}`, /You are not allowed to import local repositories/],
    [src, /You are not allowed to import local repositories/],
    [`http://127.0.0.1:1/${alice.name}/x.git`, /You can not import from disallowed hosts/],
    ['http://10.1.2.3/x.git', /disallowed hosts/],
    ['ftp://example.com/x.git', /protocol is not allowed/],
  ];
  for (const [addr, message] of cases) {
    const name = uniq('refused');
    const r = await env.as(alice, 'POST', '/repos/migrate', { clone_addr: addr, repo_name: name });
    assert.is(r.status, 422, `${addr}: ${r.text}`);
    assert.match(r.json.message, message);
    assert.is(await env.db.db.orm.em.fork().count(Repository, { lowerName: name.toLowerCase() }), 0);
    assert.not.ok(exists(gitDir(env, alice.name, name)));
  }
  const missing = await L(alice, 'POST', '/repos/migrate', { clone_addr: `file://${scratch}/nope.git`, repo_name: uniq('m') });
  assert.is(missing.status, 422);
  assert.match(missing.json.message, /Invalid local path/);
  const blocked = await startServer(env.db, { MIGRATIONS__ALLOW_LOCALNETWORKS: 'true', MIGRATIONS__BLOCKED_DOMAINS: '127.0.0.0/8' });
  const b = await call(blocked.api, 'POST', '/repos/migrate', {
    token: alice.token,
    body: { clone_addr: `http://127.0.0.1:9/x.git`, repo_name: uniq('m') },
  });
  assert.is(b.status, 422, b.text);
  await blocked.close();
  const failing = await L(alice, 'POST', '/repos/migrate', { clone_addr: `file://${scratch}`, repo_name: uniq('m') });
  assert.is(failing.status, 422, 'git refuses a directory that is no repository');
  assert.match(failing.json.message, /^Migration failed/);
});

test('migrate: owner rules (another user 403, an organization one does not own 403, unknown 422); settings switches 403', async () => {
  const { alice, bob } = env;
  const src = sourceRepo(uniq('src'));
  const org = await newOrg(env, bob);
  const body = (extra: Record<string, unknown>) => ({ clone_addr: `file://${src}`, repo_name: uniq('m'), ...extra });
  assert.is((await L(alice, 'POST', '/repos/migrate', body({ repo_owner: bob.name }))).status, 403);
  assert.is((await L(alice, 'POST', '/repos/migrate', body({ repo_owner: org.name }))).status, 403);
  assert.is((await L(alice, 'POST', '/repos/migrate', body({ repo_owner: 'no-such-owner' }))).status, 422);
  const inOrg = await L(bob, 'POST', '/repos/migrate', body({ repo_owner: org.name }));
  assert.is(inOrg.status, 201, inOrg.text);
  assert.is(inOrg.json.owner.login, org.name);
  assert.is((await L(env.admin, 'POST', '/repos/migrate', body({ repo_owner: bob.name }))).status, 201);
  assert.is((await L(alice, 'POST', '/repos/migrate', body({ service: 'github', issues: true }))).status, 422);
  const off = await startServer(env.db, { MIGRATIONS__ALLOW_LOCALNETWORKS: 'true', REPOSITORY__DISABLE_MIGRATIONS: 'true' });
  assert.is((await call(off.api, 'POST', '/repos/migrate', { token: alice.token, body: body({}) })).status, 403);
  await off.close();
  const noMirrors = await startServer(env.db, { MIGRATIONS__ALLOW_LOCALNETWORKS: 'true', REPOSITORY__DISABLE_MIRRORS: 'true' });
  assert.is((await call(noMirrors.api, 'POST', '/repos/migrate', { token: alice.token, body: body({ mirror: true }) })).status, 403);
  await noMirrors.close();
});

test('pull mirror: mirror fields, mirror-sync fetches new commits, mirror_interval edits, convert makes it ordinary', async () => {
  const { alice, bob } = env;
  const src = sourceRepo(uniq('src'), 'main');
  const name = uniq('mirror');
  const bad = await L(alice, 'POST', '/repos/migrate', {
    clone_addr: `file://${src}`,
    repo_name: uniq('m'),
    mirror: true,
    mirror_interval: '1m',
  });
  assert.is(bad.status, 422, 'below the 10 minute minimum');
  const r = await L(alice, 'POST', '/repos/migrate', {
    clone_addr: `file://${src}`,
    repo_name: name,
    mirror: true,
    mirror_interval: '1h30m',
  });
  assert.is(r.status, 201, r.text);
  valid('Repository', r.json);
  assert.is(r.json.mirror, true);
  assert.is(r.json.mirror_interval, '1h30m0s');
  assert.not.equal(r.json.mirror_updated, '0001-01-01T00:00:00Z');
  assert.is(r.json.has_pull_requests, false);
  const full = `/repos/${alice.name}/${name}`;
  const dir = gitDir(env, alice.name, name);

  const next = addCommit(src, 'main', 'second');
  git(src, 'branch', 'feature', 'main');
  assert.is((await L(bob, 'POST', `${full}/mirror-sync`)).status, 403, 'needs write access');
  const sync = await L(alice, 'POST', `${full}/mirror-sync`);
  assert.is(sync.status, 200, sync.text);
  assert.is(git(dir, 'rev-parse', 'refs/heads/main'), next);
  assert.is(git(dir, 'rev-parse', 'refs/heads/feature'), next);
  git(src, 'branch', '-D', 'feature');
  await L(alice, 'POST', `${full}/mirror-sync`);
  assert.is(git(dir, 'for-each-ref', '--format=%(refname)', 'refs/heads/'), 'refs/heads/main', 'pruned');

  const edit = await L(alice, 'PATCH', full, { mirror_interval: '12h', enable_prune: false });
  assert.is(edit.status, 200, edit.text);
  assert.is(edit.json.mirror_interval, '12h0m0s');
  const em = env.db.db.orm.em.fork();
  assert.is((await em.findOneOrFail(Mirror, { repoId: r.json.id })).enablePrune, false);
  assert.is((await L(alice, 'PATCH', full, { mirror_interval: 'soon' })).status, 422);
  assert.is((await L(alice, 'PATCH', full, { archived: true })).status, 422, 'mirrors cannot be archived');

  const conv = await L(alice, 'POST', `${full}/convert`);
  assert.is(conv.status, 200, conv.text);
  valid('Repository', conv.json);
  assert.is(conv.json.mirror, false);
  assert.is(conv.json.mirror_interval, '');
  assert.is(await env.db.db.orm.em.fork().count(Mirror, { repoId: r.json.id }), 0);
  const again = await L(alice, 'POST', `${full}/convert`);
  assert.is(again.status, 422);
  assert.is(again.json.message, 'Repository is not a mirror');
  assert.is((await L(alice, 'POST', `${full}/mirror-sync`)).status, 400);
});

test('push mirrors: create (credentials sealed), list, get, sync pushes, delete; bad input refused', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const target = path.join(scratch, `${uniq('target')}.git`);
  execFileSync('git', ['init', '--bare', '--quiet', target]);
  const base = `/repos/${repo.full_name}/push_mirrors`;
  const created = await L(alice, 'POST', base, {
    remote_address: `file://${target}`,
    remote_username: 'pushuser',
    remote_password: 's3cret-pw',
    interval: '8h',
    sync_on_commit: true,
  });
  assert.is(created.status, 200, created.text);
  valid('PushMirror', created.json);
  assert.match(created.json.remote_name, /^remote_mirror_[0-9a-f]{10}$/);
  assert.is(created.json.interval, '8h0m0s');
  assert.is(created.json.last_update, null);
  assert.is(created.json.repo_name, repo.name);
  const row = await env.db.db.orm.em
    .fork()
    .findOneOrFail(PushMirror, { remoteName: created.json.remote_name }, { populate: ['credentials'] });
  assert.ok(row.credentials.length > 0);
  assert.not.ok(row.credentials.includes('s3cret-pw'), 'sealed at rest');

  const list = await L(alice, 'GET', base);
  validList('PushMirror', { ...list, json: list.json });
  assert.is(list.json.length, 1);
  assert.is((await L(alice, 'GET', `${base}/${created.json.remote_name}`)).json.remote_address, `file://${target}`);
  assert.is((await L(alice, 'GET', `${base}/nope`)).status, 404);
  assert.is((await L(bob, 'GET', base)).status, 403);

  const sync = await L(alice, 'POST', `/repos/${repo.full_name}/push_mirrors-sync`);
  assert.is(sync.status, 200, sync.text);
  assert.is(git(target, 'rev-parse', 'refs/heads/main'), git(gitDir(env, alice.name, repo.name), 'rev-parse', 'refs/heads/main'));
  const after = await L(alice, 'GET', `${base}/${created.json.remote_name}`);
  assert.not.equal(after.json.last_update, null);
  assert.is(after.json.last_error, '');

  for (const body of [
    { remote_address: `file://${target}`, interval: 'later' },
    { remote_address: `file://${target}`, interval: '1m' },
    { remote_address: `file://${target}`, interval: '8h', use_ssh: true },
  ]) {
    assert.is((await L(alice, 'POST', base, body)).status, 400, JSON.stringify(body));
  }
  assert.is(
    (await env.as(alice, 'POST', base, { remote_address: `file://${target}`, interval: '8h' })).status,
    422,
    'local targets need ALLOW_LOCALNETWORKS',
  );
  assert.is((await L(alice, 'DELETE', `${base}/${created.json.remote_name}`)).status, 204);
  assert.is((await L(alice, 'DELETE', `${base}/${created.json.remote_name}`)).status, 404);
  assert.equal((await L(alice, 'GET', base)).json, []);
});

test('migrate with labels from another instance of this API: labels imported page by page, token sent; other services refused', async () => {
  const { alice } = env;
  // A second instance with its own database: one embedded database serves one request at a time.
  const sourceDb = await openTestDb();
  const source = await startServer(sourceDb);
  try {
    const bob = await makeUser(sourceDb, source.api);
    const em = sourceDb.db.orm.em.fork();
    const here = () => env.db.db.orm.em.fork();
    const S = async (u: TestUser, method: string, p: string, body?: unknown) =>
      checked(await call(source.api, method, p, { token: u.token, body }));
    const pub = await S(bob, 'POST', '/user/repos', { name: uniq('lsrc'), auto_init: true, issue_labels: 'Default' });
    assert.is(pub.status, 201, pub.text);
    em.create(Label, {
      repoId: pub.json.id,
      orgId: 0,
      name: 'scope/old',
      color: '#abcdef',
      description: 'archived one',
      exclusive: true,
      isArchived: true,
      archivedAt: new Date(),
    });
    await em.flush();
    const srcLabels = (await em.find(Label, { repoId: pub.json.id }, { orderBy: { name: 'asc' } })).map((l) => [
      l.name,
      l.color,
      l.description,
      l.exclusive,
      l.isArchived,
    ]);
    assert.ok(srcLabels.length > 5);

    const name = uniq('lmig');
    const r = await L(alice, 'POST', '/repos/migrate', {
      clone_addr: `${source.url}/${bob.name}/${pub.json.name}.git`,
      repo_name: name,
      service: 'git',
      labels: true,
    });
    assert.is(r.status, 201, r.text);
    valid('Repository', r.json);
    assert.is(r.json.empty, false);
    const got = (await here().find(Label, { repoId: r.json.id }, { orderBy: { name: 'asc' } })).map((l) => [
      l.name,
      l.color,
      l.description,
      l.exclusive,
      l.isArchived,
    ]);
    assert.equal(got, srcLabels);
    const listed = await L(alice, 'GET', `/repos/${alice.name}/${name}/labels?limit=50`);
    assert.is(listed.status, 200, listed.text);
    validList('Label', listed);
    assert.is(listed.json.length, srcLabels.length);

    // A private source with more labels than one page: read with the token, every page.
    const priv = await S(bob, 'POST', '/user/repos', { name: uniq('lpriv'), auto_init: true, private: true });
    for (let i = 0; i < 57; i++)
      em.create(Label, { repoId: priv.json.id, orgId: 0, name: `l${String(i).padStart(2, '0')}`, color: '#00aa00' });
    await em.flush();
    const privUrl = `${source.url}/${bob.name}/${priv.json.name}.git`;
    const before = await here().count(Repository, {});
    const anon = await L(alice, 'POST', '/repos/migrate', { clone_addr: privUrl, repo_name: uniq('lp'), service: 'gitea', labels: true });
    assert.is(anon.status, 422, anon.text);
    assert.match(anon.json.message, /Authentication failed/, 'the clone comes first, as in Forgejo');
    assert.is(await here().count(Repository, {}), before, 'nothing written');
    const withToken = await L(alice, 'POST', '/repos/migrate', {
      clone_addr: privUrl,
      repo_name: uniq('lp'),
      service: 'gitea',
      labels: true,
      auth_token: bob.token,
    });
    assert.is(withToken.status, 201, withToken.text);
    assert.is(await here().count(Label, { repoId: withToken.json.id }), 57);

    const github = await L(alice, 'POST', '/repos/migrate', {
      clone_addr: `${source.url}/${bob.name}/${pub.json.name}.git`,
      repo_name: uniq('lr'),
      service: 'github',
      labels: true,
    });
    assert.is(github.status, 422);
    assert.match(github.json.message, /labels from github/);
    assert.is(await here().count(Repository, {}), before + 1, 'refusals write nothing');
    // Issues, milestones, releases and pulls from such a source: test/handlers/migrate-import.test.ts.

    const plain = await L(alice, 'POST', '/repos/migrate', {
      clone_addr: `file://${sourceRepo(uniq('plain'))}`,
      repo_name: uniq('lplain'),
      service: 'git',
      labels: true,
      issues: true,
    });
    assert.is(plain.status, 201, 'a plain git source ignores the options, as Forgejo');
    assert.is(await here().count(Label, { repoId: plain.json.id }), 0);

    const blocked = await env.as(alice, 'POST', '/repos/migrate', {
      clone_addr: `${source.url}/${bob.name}/${pub.json.name}.git`,
      repo_name: uniq('lb'),
      service: 'gitea',
      labels: true,
    });
    assert.is(blocked.status, 422, 'the API calls obey ALLOW_LOCALNETWORKS too');
    assert.match(blocked.json.message, /disallowed hosts/);
  } finally {
    await source.close();
    await sourceDb.close();
  }
});

test.run();
