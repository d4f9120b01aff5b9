// Git LFS with Debian's real git-lfs client over HTTP and over SSH (git-lfs-authenticate): track,
// push, clone with smudge, locks, media downloads, access refusals, quota, and bad input that must
// leave nothing behind (Forgejo services/lfs/server.go, locks.go; routers/api/v1/repo/file.go).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call } from '../helpers/client.ts';
import { makeRepo, makeUser, type TestUser } from '../helpers/fixtures.ts';
import { cloneUrl, workDir } from '../helpers/git-cli.ts';
import { gitSshCommand, makeKeyPair, run, scpUrl, startSsh, type KeyPair, type Ran } from '../helpers/ssh.ts';
import type { RunningSsh } from '../../transports/git-ssh.ts';
import { requireTools } from '../helpers/tools.ts';

requireTools('git-lfs', 'ssh', 'ssh-keygen');

const LFS = 'application/vnd.git-lfs+json';
let db: TestDb;
let srv: TestServer;
let ssh: RunningSsh;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let tmp: string;
let home: string;
let aliceKey: KeyPair;

const api = (method: string, p: string, o: { token?: string; body?: unknown } = {}) => call(srv.api, method, p, o);
const dir = (name: string) => path.join(tmp, name);
const lfsDir = () => path.join(srv.config.dataPath, 'lfs');
const objectFile = (oid: string) => path.join(lfsDir(), oid.slice(0, 2), oid.slice(2, 4), oid);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const basic = (u: TestUser) => `Basic ${Buffer.from(`${u.name}:${u.token}`).toString('base64')}`;
const lfsUrl = (owner: string, repo: string, rest: string) => `${srv.url}/${owner}/${repo}.git/info/lfs${rest}`;

/** git (and git-lfs) with a HOME whose global config has the LFS filters, and no prompts. */
function git(args: string[], cwd?: string, env: Record<string, string> = {}): Promise<Ran> {
  return run('git', args, { cwd, env: { HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', ...env } });
}
async function mustGit(args: string[], cwd?: string, env: Record<string, string> = {}): Promise<string> {
  const r = await git(args, cwd, env);
  assert.is(r.code, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}
const overSsh = (key: KeyPair) => ({ GIT_SSH_COMMAND: gitSshCommand(key, ssh.port) });

/** A work tree with `*.bin` tracked by LFS and one binary file committed; returns the file's bytes. */
async function lfsCommit(work: string, file: string, bytes: Buffer): Promise<void> {
  await mustGit(['lfs', 'track', '*.bin'], work);
  fs.writeFileSync(path.join(work, file), bytes);
  await mustGit(['add', '.gitattributes', file], work);
  await mustGit(['commit', '-q', '-m', `add ${file}`], work);
}

test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db, { SERVER__LFS_START_SERVER: 'true', SERVER__LFS_MAX_FILE_SIZE: String(8 * 1024 * 1024) });
  ssh = await startSsh(db, srv);
  alice = await makeUser(db, srv.api);
  bob = await makeUser(db, srv.api);
  carol = await makeUser(db, srv.api);
  tmp = workDir();
  home = dir('home');
  fs.mkdirSync(home);
  await mustGit(['lfs', 'install', '--skip-repo']);
  fs.mkdirSync(dir('keys'));
  aliceKey = await makeKeyPair(dir('keys'), 'alice');
  assert.is((await api('POST', '/user/keys', { token: alice.token, body: { title: 'alice', key: aliceKey.publicKey } })).status, 201);
  await makeRepo(srv.api, alice, { name: 'big', auto_init: true, private: true });
  await api('PUT', `/repos/${alice.name}/big/collaborators/${bob.name}`, { token: alice.token, body: { permission: 'write' } });
  await api('PUT', `/repos/${alice.name}/big/collaborators/${carol.name}`, { token: alice.token, body: { permission: 'read' } });
});
test.after(async () => {
  await ssh.close();
  await srv.close();
  await db.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('git lfs push over HTTP stores the object by sha256; a fresh clone smudges it back byte for byte', async () => {
  const bytes = randomBytes(3 * 1024 * 1024 + 17);
  const oid = sha256(bytes);
  await mustGit(['clone', '-q', cloneUrl(srv.url, alice.name, 'big', [alice.name, alice.token]), dir('push')]);
  await lfsCommit(dir('push'), 'data.bin', bytes);
  await mustGit(['push', '-q', 'origin', 'HEAD:main'], dir('push'));
  assert.ok(fs.readFileSync(objectFile(oid)).equals(bytes));
  // Git holds the pointer only.
  const pointer = await mustGit(['cat-file', '-p', 'HEAD:data.bin'], dir('push'));
  assert.match(pointer, `oid sha256:${oid}`);
  await mustGit(['clone', '-q', cloneUrl(srv.url, alice.name, 'big', [bob.name, bob.token]), dir('smudged')]);
  assert.ok(fs.readFileSync(path.join(dir('smudged'), 'data.bin')).equals(bytes));
  // No temporary file is left in the store.
  const leftovers = fs.readdirSync(lfsDir(), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.tmp'));
  assert.equal(leftovers, []);
});

test('the media route and download_url serve the LFS object, raw and contents the pointer (Forgejo behaviour)', async () => {
  const bytes = fs.readFileSync(path.join(dir('smudged'), 'data.bin'));
  const oid = sha256(bytes);
  const media = await fetch(`${srv.api}/repos/${alice.name}/big/media/data.bin`, { headers: { Authorization: `token ${alice.token}` } });
  assert.is(media.status, 200);
  assert.is(media.headers.get('etag'), `"${oid}"`);
  assert.is(media.headers.get('content-length'), String(bytes.length));
  assert.ok(Buffer.from(await media.arrayBuffer()).equals(bytes));
  const cached = await fetch(`${srv.api}/repos/${alice.name}/big/media/data.bin`, {
    headers: { Authorization: `token ${alice.token}`, 'If-None-Match': `"${oid}"` },
  });
  assert.is(cached.status, 304);
  const raw = await fetch(`${srv.api}/repos/${alice.name}/big/raw/data.bin`, { headers: { Authorization: `token ${alice.token}` } });
  assert.match(await raw.text(), `oid sha256:${oid}`);
  const contents = await api('GET', `/repos/${alice.name}/big/contents/data.bin`, { token: alice.token });
  assert.is(contents.status, 200);
  assert.match(Buffer.from(contents.json.content, 'base64').toString('utf8'), `oid sha256:${oid}`);
  // Its download_url (Forgejo's web raw link) serves the object, as Forgejo's ServeBlobOrLFS does.
  const download = await fetch(contents.json.download_url, { headers: { Authorization: `token ${alice.token}` } });
  assert.is(download.status, 200, contents.json.download_url);
  assert.ok(Buffer.from(await download.arrayBuffer()).equals(bytes));
  // A file that is not a pointer is served as it is.
  const readme = await fetch(`${srv.api}/repos/${alice.name}/big/media/README.md`, { headers: { Authorization: `token ${alice.token}` } });
  assert.is(await readme.text(), '# big\n\n');
  // Someone who cannot read the repository gets "not found".
  const stranger = await makeUser(db, srv.api);
  assert.is(
    (await fetch(`${srv.api}/repos/${alice.name}/big/media/data.bin`, { headers: { Authorization: `token ${stranger.token}` } })).status,
    404,
  );
});

test('locks: create, list, conflict, only the owner unlocks unless forced', async () => {
  const lock = await git(['lfs', 'lock', 'data.bin'], dir('push'));
  assert.is(lock.code, 0, lock.stderr);
  const locks = await mustGit(['lfs', 'locks'], dir('push'));
  assert.match(locks, 'data.bin');
  assert.match(locks, alice.name);
  // Bob (a writer) cannot take the same path, nor unlock Alice's lock without --force.
  const again = await git(['lfs', 'lock', 'data.bin'], dir('smudged'));
  assert.is.not(again.code, 0);
  const refused = await git(['lfs', 'unlock', 'data.bin'], dir('smudged'));
  assert.is.not(refused.code, 0);
  assert.match(refused.stderr, "user doesn't own lock");
  assert.match(await mustGit(['lfs', 'locks'], dir('push')), 'data.bin');
  const forced = await git(['lfs', 'unlock', '--force', 'data.bin'], dir('smudged'));
  assert.is(forced.code, 0, forced.stderr);
  assert.is(await mustGit(['lfs', 'locks'], dir('push')), '');
  // The same rules through the API: a conflict answers 409 with the existing lock.
  const post = (u: TestUser, p: string) =>
    fetch(lfsUrl(alice.name, 'big', '/locks'), {
      method: 'POST',
      headers: { Authorization: basic(u), Accept: LFS, 'Content-Type': LFS },
      body: JSON.stringify({ path: p }),
    });
  const [a, b] = await Promise.all([post(alice, 'docs/spec.bin'), post(bob, 'docs/../docs/spec.bin')]);
  assert.equal([a.status, b.status].sort(), [201, 409]);
  const loser = a.status === 409 ? await a.json() : await b.json();
  assert.is(loser.message, 'already created lock');
  assert.is(loser.lock.path, 'docs/spec.bin');
  // A reader may list locks but not take one.
  const list = await fetch(lfsUrl(alice.name, 'big', '/locks'), { headers: { Authorization: basic(carol), Accept: LFS } });
  assert.is(list.status, 200);
  assert.is((await list.json()).locks.length, 1);
  assert.is((await post(carol, 'other.bin')).status, 403);
});

test('a user without write access cannot push LFS objects; nothing is stored', async () => {
  const bytes = randomBytes(64 * 1024);
  await mustGit(['clone', '-q', cloneUrl(srv.url, alice.name, 'big', [carol.name, carol.token]), dir('carol')]);
  await lfsCommit(dir('carol'), 'carol.bin', bytes);
  const push = await git(['push', 'origin', 'HEAD:main'], dir('carol'));
  assert.is.not(push.code, 0);
  assert.not.ok(fs.existsSync(objectFile(sha256(bytes))));
  // Directly, the upload is refused before a byte is read.
  const put = await fetch(lfsUrl(alice.name, 'big', `/objects/${sha256(bytes)}/${bytes.length}`), {
    method: 'PUT',
    headers: { Authorization: basic(carol) },
    body: new Uint8Array(bytes),
  });
  assert.is(put.status, 403);
  assert.not.ok(fs.existsSync(objectFile(sha256(bytes))));
});

test('over SSH git-lfs authenticates with git-lfs-authenticate: push and clone with smudge', async () => {
  await makeRepo(srv.api, alice, { name: 'viassh', auto_init: true, private: true });
  const bytes = randomBytes(1024 * 1024 + 3);
  await mustGit(['clone', '-q', scpUrl(alice.name, 'viassh'), dir('ssh-push')], undefined, overSsh(aliceKey));
  await lfsCommit(dir('ssh-push'), 'ssh.bin', bytes);
  await mustGit(['push', '-q', 'origin', 'HEAD:main'], dir('ssh-push'), overSsh(aliceKey));
  assert.ok(fs.readFileSync(objectFile(sha256(bytes))).equals(bytes));
  await mustGit(['clone', '-q', scpUrl(alice.name, 'viassh'), dir('ssh-clone')], undefined, overSsh(aliceKey));
  assert.ok(fs.readFileSync(path.join(dir('ssh-clone'), 'ssh.bin')).equals(bytes));
  // A read-only deploy key downloads but may not upload.
  const key = await makeKeyPair(dir('keys'), 'ro');
  assert.is(
    (
      await api('POST', `/repos/${alice.name}/viassh/keys`, {
        token: alice.token,
        body: { title: 'ro', key: key.publicKey, read_only: true },
      })
    ).status,
    201,
  );
  await mustGit(['clone', '-q', scpUrl(alice.name, 'viassh'), dir('ssh-ro')], undefined, overSsh(key));
  assert.ok(fs.readFileSync(path.join(dir('ssh-ro'), 'ssh.bin')).equals(bytes));
  const auth = await run('ssh', [
    ...gitSshCommand(key, ssh.port).split(' ').slice(1),
    'git@127.0.0.1',
    `git-lfs-authenticate ${alice.name}/viassh upload`,
  ]);
  assert.is(auth.code, 1);
  assert.match(auth.stderr, 'is not authorized to write');
  // A download token does not upload.
  const down = await run('ssh', [
    ...gitSshCommand(key, ssh.port).split(' ').slice(1),
    'git@127.0.0.1',
    `git-lfs-authenticate ${alice.name}/viassh download`,
  ]);
  assert.is(down.code, 0, down.stderr);
  const token = JSON.parse(down.stdout) as { href: string; header: { Authorization: string } };
  assert.is(token.href, lfsUrl(alice.name, 'viassh', ''));
  const blob = randomBytes(10);
  const put = await fetch(`${token.href}/objects/${sha256(blob)}/10`, { method: 'PUT', headers: token.header, body: new Uint8Array(blob) });
  assert.is(put.status, 401);
  const batch = await fetch(`${token.href}/objects/batch`, {
    method: 'POST',
    headers: { ...token.header, Accept: LFS, 'Content-Type': LFS },
    body: JSON.stringify({ operation: 'download', objects: [{ oid: sha256(bytes), size: bytes.length }] }),
  });
  assert.is(batch.status, 200);
  assert.ok((await batch.json()).objects[0].actions.download);
});

test('bad input: wrong oid, wrong size, oversize objects, malformed JSON, wrong media type, unknown repository', async () => {
  const bytes = randomBytes(1000);
  const oid = sha256(bytes);
  const put = (o: string, size: number, body: Buffer) =>
    fetch(lfsUrl(alice.name, 'big', `/objects/${o}/${size}`), {
      method: 'PUT',
      headers: { Authorization: basic(alice) },
      body: new Uint8Array(body),
    });
  const wrongOid = await put('0'.repeat(64), 1000, bytes);
  assert.is(wrongOid.status, 422);
  assert.is((await wrongOid.json()).message, 'Content hash does not match OID');
  assert.is((await put(oid, 999, bytes)).status, 422);
  assert.is((await put(oid, 1001, bytes)).status, 422);
  assert.is((await put('not-an-oid', 1000, bytes)).status, 422);
  assert.not.ok(fs.existsSync(objectFile(oid)));
  assert.not.ok(fs.existsSync(objectFile('0'.repeat(64))));
  const big = 9 * 1024 * 1024;
  assert.is((await put(oid, big, bytes)).status, 413);
  const batch = (body: string, accept = LFS, owner = alice.name, repo = 'big') =>
    fetch(lfsUrl(owner, repo, '/objects/batch'), {
      method: 'POST',
      headers: { Authorization: basic(alice), Accept: accept, 'Content-Type': LFS },
      body,
    });
  const over = await (
    await batch(
      JSON.stringify({
        operation: 'upload',
        objects: [
          { oid, size: big },
          { oid: 'x', size: 1 },
        ],
      }),
    )
  ).json();
  assert.equal(over.objects[0].error, { code: 422, message: `Size must be less than or equal to ${8 * 1024 * 1024}` });
  assert.equal(over.objects[1].error, { code: 422, message: 'Oid or size are invalid' });
  assert.is((await batch('{not json')).status, 400);
  assert.is((await batch(JSON.stringify({ operation: 'steal', objects: [] }))).status, 400);
  assert.is((await batch(JSON.stringify({ operation: 'download', objects: [] }), 'application/json')).status, 415);
  assert.is((await batch(JSON.stringify({ operation: 'download', objects: [] }), LFS, alice.name, 'nope')).status, 404);
  const anonymous = await fetch(lfsUrl(alice.name, 'big', '/objects/batch'), {
    method: 'POST',
    headers: { Accept: LFS },
    body: JSON.stringify({ operation: 'download', objects: [] }),
  });
  assert.is(anonymous.status, 401);
  assert.match(anonymous.headers.get('www-authenticate') ?? '', 'Basic');
  // A correct upload then links the object; the batch answers it needs no upload.
  assert.is((await put(oid, 1000, bytes)).status, 200);
  const done = await (await batch(JSON.stringify({ operation: 'upload', objects: [{ oid, size: 1000 }] }))).json();
  assert.equal(done.objects[0], { oid, size: 1000 });
});

test("LFS bytes count in the owner's quota, and an upload over it answers 413", async () => {
  const admin = await makeUser(db, srv.api, { admin: true });
  const quota = await startServer(db, { SERVER__LFS_START_SERVER: 'true', QUOTA__ENABLED: 'true' });
  const q = (method: string, p: string, body?: unknown) => call(quota.api, method, p, { token: admin.token, body });
  assert.is((await q('POST', '/admin/quota/rules', { name: 'lfs-tiny', limit: 1024, subjects: ['size:git:lfs'] })).status, 201);
  assert.is((await q('POST', '/admin/quota/groups', { name: 'tiny', rules: [{ name: 'lfs-tiny' }] })).status, 201);
  assert.is((await q('PUT', `/admin/quota/groups/tiny/users/${alice.name}`)).status, 204);
  const used = await q('GET', `/admin/users/${alice.name}/quota`);
  assert.ok(used.json.used.size.git.LFS >= 3 * 1024 * 1024, JSON.stringify(used.json.used));
  const bytes = randomBytes(100);
  const r = await fetch(`${quota.url}/${alice.name}/big.git/info/lfs/objects/${sha256(bytes)}/100`, {
    method: 'PUT',
    headers: { Authorization: basic(alice) },
    body: new Uint8Array(bytes),
  });
  assert.is(r.status, 413);
  assert.is((await r.json()).message, 'quota exceeded');
  await quota.close();
});

test.run();
