// Git over HTTP against a real server: clone, fetch, shallow and protocol v2 clones, pushes, auth
// and token scopes, archived repositories, protection rules on push, and the repository record after
// a push (Forgejo routers/web/repo/githttp.go, routers/private/hook_pre_receive.go).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call } from '../helpers/client.ts';
import { makeRepo, makeToken, makeUser, type TestUser } from '../helpers/fixtures.ts';
import { cloneUrl, commitFiles, git, mustGit, workDir } from '../helpers/git-cli.ts';
import { ApiSchemas, validateResponse } from '../../model/schemas/index.ts';

let db: TestDb;
let srv: TestServer;
let alice: TestUser;
let bob: TestUser;
let tmp: string;

const valid = (schema: keyof typeof ApiSchemas, value: unknown) => {
  const r = validateResponse(ApiSchemas[schema], value);
  assert.ok(r.ok, JSON.stringify(r));
};
const api = (method: string, p: string, o: { token?: string; body?: unknown } = {}) => call(srv.api, method, p, o);
const head = (repo: string, ref: string) =>
  mustGit(
    null,
    `--git-dir=${path.join(srv.config.repoRoot, alice.name.toLowerCase(), `${repo}.git`)}`,
    'rev-parse',
    '--verify',
    '--quiet',
    ref,
  ).catch(() => null);
const dir = (name: string) => path.join(tmp, name);
const creds = (u: TestUser, secret = u.token): [string, string] => [u.name, secret];

test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
  alice = await makeUser(db, srv.api);
  bob = await makeUser(db, srv.api);
  tmp = workDir();
  await makeRepo(srv.api, alice, { name: 'pub', auto_init: true });
  await makeRepo(srv.api, alice, { name: 'priv', auto_init: true, private: true });
  await makeRepo(srv.api, alice, { name: 'empty' });
});
test.after(async () => {
  await srv.close();
  await db.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('an anonymous clone of a public repository works, with and without .git, protocol v0 and v2', async () => {
  await mustGit(null, '-c', 'protocol.version=2', 'clone', '-q', cloneUrl(srv.url, alice.name, 'pub'), dir('pub-v2'));
  await mustGit(null, '-c', 'protocol.version=0', 'clone', '-q', cloneUrl(srv.url, alice.name, 'pub', null, ''), dir('pub-v0'));
  assert.is(fs.readFileSync(path.join(dir('pub-v2'), 'README.md'), 'utf8'), '# pub\n\n');
  assert.is(await mustGit(dir('pub-v0'), 'rev-parse', 'HEAD'), await head('pub', 'refs/heads/main'));
});

test('a shallow clone fetches one commit; a partial clone fetches blobs on demand', async () => {
  await mustGit(null, 'clone', '-q', '--depth', '1', cloneUrl(srv.url, alice.name, 'pub'), dir('shallow'));
  assert.is(await mustGit(dir('shallow'), 'rev-list', '--count', 'HEAD'), '1');
  assert.is(await mustGit(dir('shallow'), 'rev-parse', '--is-shallow-repository'), 'true');
  await mustGit(null, 'clone', '-q', '--filter=blob:none', cloneUrl(srv.url, alice.name, 'pub'), dir('partial'));
  assert.is(await mustGit(dir('partial'), 'config', 'remote.origin.partialclonefilter'), 'blob:none');
  assert.is(fs.readFileSync(path.join(dir('partial'), 'README.md'), 'utf8'), '# pub\n\n');
});

test('private repositories: 401 with a Basic challenge without credentials, 404 for outsiders, clone with a token', async () => {
  const anon = await fetch(`${srv.url}/${alice.name}/priv.git/info/refs?service=git-upload-pack`);
  assert.is(anon.status, 401);
  assert.is(anon.headers.get('www-authenticate'), 'Basic realm="cairn"');
  // An unknown repository looks the same to an anonymous caller.
  const unknown = await fetch(`${srv.url}/${alice.name}/nope.git/info/refs?service=git-upload-pack`);
  assert.is(unknown.status, 401);
  const auth = (u: TestUser) => ({ Authorization: `Basic ${Buffer.from(`${u.name}:${u.token}`).toString('base64')}` });
  assert.is((await fetch(`${srv.url}/${alice.name}/priv.git/info/refs?service=git-upload-pack`, { headers: auth(bob) })).status, 404);
  assert.is((await fetch(`${srv.url}/${alice.name}/nope.git/info/refs?service=git-upload-pack`, { headers: auth(alice) })).status, 404);
  const ok = await fetch(`${srv.url}/${alice.name}/priv.git/info/refs?service=git-upload-pack`, { headers: auth(alice) });
  assert.is(ok.status, 200);
  assert.is(ok.headers.get('content-type'), 'application/x-git-upload-pack-advertisement');
  assert.is((await git(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'priv'), dir('priv-anon'))).ok, false);
  assert.is((await git(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'priv', creds(bob)), dir('priv-bob'))).ok, false);
  await mustGit(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'priv', creds(alice)), dir('priv-alice'));
  // The password works as well as a token.
  await mustGit(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'priv', creds(alice, alice.password)), dir('priv-pw'));
  assert.ok(fs.existsSync(path.join(dir('priv-alice'), 'README.md')));
});

test('token scopes: read:repository fetches but cannot push; public-only tokens do not see private repositories', async () => {
  const read = await makeToken(srv.api, alice, ['read:repository']);
  const user = await makeToken(srv.api, alice, ['write:user']);
  const publicOnly = await makeToken(srv.api, alice, ['public-only', 'write:repository']);
  await mustGit(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'priv', creds(alice, read)), dir('priv-read'));
  const before = await head('priv', 'refs/heads/main');
  await commitFiles(dir('priv-read'), { 'x.txt': 'x\n' }, 'x');
  const push = await git(dir('priv-read'), 'push', 'origin', 'HEAD:main');
  assert.is(push.ok, false);
  assert.match(push.out, '403');
  assert.is(await head('priv', 'refs/heads/main'), before);
  assert.is((await git(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'priv', creds(alice, user)), dir('priv-user'))).ok, false);
  const po = await fetch(`${srv.url}/${alice.name}/priv.git/info/refs?service=git-upload-pack`, {
    headers: { Authorization: `token ${publicOnly}` },
  });
  assert.is(po.status, 404);
});

test('pushes need write access: anonymous 401, readers 403, and nothing moves', async () => {
  await mustGit(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'pub'), dir('pub-anon-push'));
  await commitFiles(dir('pub-anon-push'), { 'y.txt': 'y\n' }, 'y');
  const before = await head('pub', 'refs/heads/main');
  const anon = await fetch(`${srv.url}/${alice.name}/pub.git/info/refs?service=git-receive-pack`);
  assert.is(anon.status, 401);
  assert.is((await git(dir('pub-anon-push'), 'push', 'origin', 'HEAD:main')).ok, false);
  const asBob = await git(dir('pub-anon-push'), 'push', cloneUrl(srv.url, alice.name, 'pub', creds(bob)), 'HEAD:main');
  assert.is(asBob.ok, false);
  assert.match(asBob.out, '403');
  assert.is(await head('pub', 'refs/heads/main'), before);
});

test('the first push fills an empty repository: branches, tags, default branch, size, and the git-data routes', async () => {
  const before = await api('GET', `/repos/${alice.name}/empty`, { token: alice.token });
  assert.is(before.json.empty, true);
  await mustGit(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'empty', creds(alice)), dir('empty'));
  const first = await commitFiles(dir('empty'), { 'src/main.go': 'package main\n', 'README.md': '# empty\n' }, 'first');
  const second = await commitFiles(dir('empty'), { 'src/util.go': 'package main\n\nfunc f() {}\n' }, 'second');
  await mustGit(dir('empty'), 'tag', '-a', 'v1.0', '-m', 'version one');
  await mustGit(dir('empty'), 'push', '-q', 'origin', 'HEAD:refs/heads/trunk', 'HEAD~1:refs/heads/feature', 'v1.0');
  const after = await api('GET', `/repos/${alice.name}/empty`, { token: alice.token });
  valid('Repository', after.json);
  assert.is(after.json.empty, false);
  // The configured `main` does not exist, so the first pushed branch became the default.
  assert.is(after.json.default_branch, 'trunk');
  assert.ok(after.json.size > 0);
  const branches = await api('GET', `/repos/${alice.name}/empty/branches`, { token: alice.token });
  assert.is(branches.status, 200);
  for (const b of branches.json) valid('Branch', b);
  assert.equal(branches.json.map((b: { name: string }) => b.name).sort(), ['feature', 'trunk']);
  assert.is(branches.json.find((b: { name: string }) => b.name === 'feature').commit.id, first);
  const tag = await api('GET', `/repos/${alice.name}/empty/tags/v1.0`, { token: alice.token });
  valid('Tag', tag.json);
  assert.is(tag.json.commit.sha, second);
  assert.is(tag.json.message, 'version one');
  const annotated = await api('GET', `/repos/${alice.name}/empty/git/tags/${tag.json.id}`, { token: alice.token });
  valid('AnnotatedTag', annotated.json);
  assert.is(annotated.json.object.sha, second);
  assert.is(annotated.json.tagger.name, 'Tester');
  const commits = await api('GET', `/repos/${alice.name}/empty/commits?sha=trunk`, { token: alice.token });
  assert.equal(
    commits.json.map((c: { sha: string }) => c.sha),
    [second, first],
  );
  const refs = await api('GET', `/repos/${alice.name}/empty/git/refs`, { token: alice.token });
  assert.equal(
    refs.json.map((r: { ref: string }) => r.ref),
    ['refs/heads/feature', 'refs/heads/trunk', 'refs/tags/v1.0'],
  );
  for (const r of refs.json) valid('Reference', r);
});

test('files written through the contents API arrive with git pull', async () => {
  await mustGit(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'pub', creds(alice)), dir('pub-pull'));
  const r = await api('POST', `/repos/${alice.name}/pub/contents/notes/api.txt`, {
    token: alice.token,
    body: { content: Buffer.from('from the API\n').toString('base64'), message: 'via api' },
  });
  assert.is(r.status, 201);
  valid('FileResponse', r.json);
  await mustGit(dir('pub-pull'), 'pull', '-q', '--ff-only');
  assert.is(fs.readFileSync(path.join(dir('pub-pull'), 'notes/api.txt'), 'utf8'), 'from the API\n');
  assert.is(await mustGit(dir('pub-pull'), 'log', '-1', '--format=%s'), 'via api');
});

test('protected branches on push: allowlist, force push, deletion; protected tags', async () => {
  await makeRepo(srv.api, alice, { name: 'guarded', auto_init: true });
  await api('PUT', `/repos/${alice.name}/guarded/collaborators/${bob.name}`, { token: alice.token, body: { permission: 'write' } });
  const rule = await api('POST', `/repos/${alice.name}/guarded/branch_protections`, {
    token: alice.token,
    body: { rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [alice.name] },
  });
  assert.is(rule.status, 201);
  await mustGit(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'guarded', creds(bob)), dir('g-bob'));
  await commitFiles(dir('g-bob'), { 'b.txt': 'bob\n' }, 'bob');
  const start = await head('guarded', 'refs/heads/main');
  const denied = await git(dir('g-bob'), 'push', 'origin', 'HEAD:main');
  assert.is(denied.ok, false);
  assert.match(denied.out, 'Not allowed to push to protected branch main');
  assert.is(await head('guarded', 'refs/heads/main'), start);
  // Bob may push other branches.
  await mustGit(dir('g-bob'), 'push', '-q', 'origin', 'HEAD:refs/heads/bob-work');
  // Alice is on the allowlist; a fast-forward goes through, a force push does not.
  await mustGit(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'guarded', creds(alice)), dir('g-alice'));
  const next = await commitFiles(dir('g-alice'), { 'a.txt': 'alice\n' }, 'alice');
  await mustGit(dir('g-alice'), 'push', '-q', 'origin', 'HEAD:main');
  assert.is(await head('guarded', 'refs/heads/main'), next);
  await mustGit(dir('g-alice'), 'reset', '-q', '--hard', 'HEAD~1');
  await commitFiles(dir('g-alice'), { 'c.txt': 'rewrite\n' }, 'rewrite');
  const force = await git(dir('g-alice'), 'push', '-f', 'origin', 'HEAD:main');
  assert.is(force.ok, false);
  assert.match(force.out, 'protected from force push');
  const del = await git(dir('g-alice'), 'push', 'origin', ':main');
  assert.is(del.ok, false);
  assert.match(del.out, 'protected from deletion');
  assert.is(await head('guarded', 'refs/heads/main'), next);
  // Tag protection: release tags are Alice's.
  const tp = await api('POST', `/repos/${alice.name}/guarded/tag_protections`, {
    token: alice.token,
    body: { name_pattern: 'v*', whitelist_usernames: [alice.name] },
  });
  assert.is(tp.status, 201);
  await mustGit(dir('g-bob'), 'tag', 'v9');
  const tagPush = await git(dir('g-bob'), 'push', 'origin', 'v9');
  assert.is(tagPush.ok, false);
  assert.match(tagPush.out, 'Tag v9 is protected');
  assert.is(await head('guarded', 'refs/tags/v9'), null);
  await mustGit(dir('g-bob'), 'tag', 'nightly');
  await mustGit(dir('g-bob'), 'push', '-q', 'origin', 'nightly');
  assert.ok(await head('guarded', 'refs/tags/nightly'));
});

test('archived repositories are read-only over git', async () => {
  await makeRepo(srv.api, alice, { name: 'old', auto_init: true });
  assert.is((await api('PATCH', `/repos/${alice.name}/old`, { token: alice.token, body: { archived: true } })).status, 200);
  await mustGit(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'old', creds(alice)), dir('old'));
  await commitFiles(dir('old'), { 'z.txt': 'z\n' }, 'z');
  const before = await head('old', 'refs/heads/main');
  const push = await git(dir('old'), 'push', 'origin', 'HEAD:main');
  assert.is(push.ok, false);
  assert.match(push.out, '403');
  assert.is(await head('old', 'refs/heads/main'), before);
});

test('a fetch after new commits only transfers what is new, and the repository stays consistent', async () => {
  await mustGit(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'pub', creds(alice)), dir('pub-a'));
  await mustGit(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'pub', creds(alice)), dir('pub-b'));
  const c = await commitFiles(dir('pub-a'), { 'fetched.txt': 'f\n' }, 'to fetch');
  await mustGit(dir('pub-a'), 'push', '-q', 'origin', 'HEAD:main');
  await mustGit(dir('pub-b'), 'fetch', '-q', 'origin');
  assert.is(await mustGit(dir('pub-b'), 'rev-parse', 'origin/main'), c);
  await mustGit(null, `--git-dir=${path.join(srv.config.repoRoot, alice.name.toLowerCase(), 'pub.git')}`, 'fsck', '--strict');
});

test('a renamed repository answers 301 to its new path for whoever can see it (git follows it); 404/401 otherwise', async () => {
  await makeRepo(srv.api, alice, { name: 'before-pub', auto_init: true });
  await makeRepo(srv.api, alice, { name: 'before-priv', auto_init: true, private: true });
  for (const [from, to] of [
    ['before-pub', 'after-pub'],
    ['before-priv', 'after-priv'],
  ]) {
    const r = await api('PATCH', `/repos/${alice.name}/${from}`, { token: alice.token, body: { name: to } });
    assert.is(r.status, 200, r.text);
  }
  const refs = (repo: string, suffix = '.git', auth?: [string, string]) =>
    fetch(`${srv.url}/${alice.name}/${repo}${suffix}/info/refs?service=git-upload-pack`, {
      redirect: 'manual',
      headers: auth ? { Authorization: `Basic ${Buffer.from(auth.join(':')).toString('base64')}` } : {},
    });
  const pub = await refs('before-pub');
  assert.is(pub.status, 301);
  assert.is(pub.headers.get('location'), `/${alice.name}/after-pub.git/info/refs?service=git-upload-pack`);
  assert.is((await refs('before-pub', '')).headers.get('location'), `/${alice.name}/after-pub/info/refs?service=git-upload-pack`);
  await mustGit(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'before-pub'), dir('renamed-pub'));
  assert.is(await mustGit(dir('renamed-pub'), 'rev-parse', 'HEAD'), await head('after-pub', 'refs/heads/main'));

  assert.is((await refs('before-priv')).status, 401, 'anonymous callers are asked for credentials');
  assert.is((await refs('before-priv', '.git', creds(bob))).status, 404, 'outsiders learn nothing');
  const own = await refs('before-priv', '.git', creds(alice));
  assert.is(own.status, 301);
  assert.is(own.headers.get('location'), `/${alice.name}/after-priv.git/info/refs?service=git-upload-pack`);
  assert.is((await refs('never-existed', '.git', creds(alice))).status, 404);
});

test.run();
