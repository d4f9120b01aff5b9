// Packages: real uploads through the generic registry (`/api/packages/<owner>/generic/...`, Forgejo
// routers/api/packages/generic), then the API routes of the spec's Packages section — listing, one
// version, its files, deletion, repository links — with the owner-access guards, token scopes and
// public-only tokens. Every JSON body is checked against Forgejo's schemas.
import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeToken, makeUser, type TestUser } from '../helpers/fixtures.ts';
import { newOrg, newRepo, setup, uniq, valid, validList, type Env } from './repo-setup.ts';
import { blobFiles as storedBlobs } from '../helpers/package-store.ts';

let env: Env;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let outsider: TestUser; // in no team of privOrg
let privOrg: string; // private organization of alice: bob writes (write team), carol reads (read team)

const registry = (owner: string, rest: string) => `${env.srv.url}/api/packages/${owner}/generic/${rest}`;

interface RawRes {
  status: number;
  text: string;
  headers: Headers;
}
async function raw(
  method: string,
  url: string,
  opts: { token?: string; basic?: [string, string]; body?: Buffer | string } = {},
): Promise<RawRes> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.Authorization = `token ${opts.token}`;
  if (opts.basic) headers.Authorization = `Basic ${Buffer.from(opts.basic.join(':')).toString('base64')}`;
  const body = typeof opts.body === 'string' || opts.body === undefined ? opts.body : new Uint8Array(opts.body);
  const r = await fetch(url, { method, headers, body });
  return { status: r.status, text: await r.text(), headers: r.headers };
}
const put = (owner: string, rest: string, body: Buffer | string, token?: string) => raw('PUT', registry(owner, rest), { token, body });

/** Blob files in the store (temporary spool files excluded). */
const blobFiles = () => storedBlobs(env.srv.config.dataPath);
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

test.before(async () => {
  env = await setup();
  ({ alice, bob, carol } = env);
  outsider = await makeUser(env.db, env.srv.api);
  privOrg = (await newOrg(env, alice, { visibility: 'private' })).name;
  for (const [u, permission] of [
    [bob, 'write'],
    [carol, 'read'],
  ] as const) {
    const t = await env.as(alice, 'POST', `/orgs/${privOrg}/teams`, { name: uniq('t'), permission, units: ['repo.code', 'repo.packages'] });
    assert.is(t.status, 201, t.text);
    assert.is((await env.as(alice, 'PUT', `/teams/${t.json.id}/members/${u.name}`)).status, 204);
  }
});
test.after(async () => {
  await env.close();
});

test('generic registry: upload 201, download the same bytes, duplicate file 409, other files join the version', async () => {
  const body = Buffer.from('hello package\n');
  const up = await put(alice.name, 'tool/1.0.0/tool.bin', body, alice.token);
  assert.is(up.status, 201, up.text);
  const dl = await fetch(registry(alice.name, 'tool/1.0.0/tool.bin'));
  assert.is(dl.status, 200);
  assert.is(dl.headers.get('content-type'), 'application/octet-stream');
  assert.ok(Buffer.from(await dl.arrayBuffer()).equals(body));
  // Name and file name compare case-insensitively, so this is the same file.
  const dup = await put(alice.name, 'TOOL/1.0.0/TOOL.bin', 'other bytes', alice.token);
  assert.is(dup.status, 409, dup.text);
  const files = await env.as(alice, 'GET', `/packages/${alice.name}/generic/tool/1.0.0/files`);
  assert.is(files.status, 200);
  validList('PackageFile', files);
  assert.equal(
    files.json.map((f: { name: string }) => f.name),
    ['tool.bin'],
    'the 409 added nothing',
  );
  assert.is((await put(alice.name, 'tool/1.0.0/tool.sig', 'sig', alice.token)).status, 201);
  const after = await env.as(alice, 'GET', `/packages/${alice.name}/generic/tool/1.0.0/files`);
  assert.equal(
    after.json.map((f: { name: string }) => f.name),
    ['tool.bin', 'tool.sig'],
  );
  const head = await fetch(registry(alice.name, 'tool/1.0.0/tool.bin'), { method: 'HEAD' });
  assert.is(head.status, 200);
  assert.is(head.headers.get('content-length'), String(body.length));
});

test('generic registry: bad names 400, unknown owner or file 404, nothing stored for a refused upload', async () => {
  const before = blobFiles().length;
  for (const rest of ['bad name/1.0.0/f.bin', 'ok/1.0.0/a%2Fb', 'ok/%201.0/f.bin', 'ok/1.0.0/%20f.bin', '+/1.0/f.bin']) {
    const r = await put(alice.name, rest, 'x', alice.token);
    assert.is(r.status, 400, `${rest}: ${r.status} ${r.text}`);
  }
  assert.is((await put(uniq('nobody'), 'ok/1.0.0/f.bin', 'x', alice.token)).status, 404);
  assert.is((await raw('GET', registry(alice.name, 'tool/1.0.0/missing.bin'))).status, 404);
  assert.is((await raw('GET', registry(alice.name, 'tool/9.9.9/tool.bin'))).status, 404);
  assert.is(
    (await raw('GET', `${env.srv.url}/api/packages/${alice.name}/npm/x/1.0.0/f.tgz`)).status,
    404,
    'only the generic registry exists',
  );
  assert.is(blobFiles().length, before);
  const list = await env.as(alice, 'GET', `/packages/${alice.name}/?q=ok`);
  assert.equal(list.json, []);
});

test('generic registry: anonymous and foreign uploads get 401 with a Basic challenge; nothing is written', async () => {
  const anon = await put(alice.name, 'intrude/1.0/x.bin', 'x');
  assert.is(anon.status, 401);
  assert.match(anon.headers.get('www-authenticate') ?? '', /^Basic /);
  const foreign = await put(alice.name, 'intrude/1.0/x.bin', 'x', bob.token);
  assert.is(foreign.status, 401);
  const list = await env.as(alice, 'GET', `/packages/${alice.name}/?q=intrude`);
  assert.equal(list.json, []);
  // A password works as on the API.
  const basic = await raw('PUT', registry(alice.name, 'viabasic/1.0/x.bin'), { basic: [alice.name, alice.password], body: 'x' });
  assert.is(basic.status, 201, basic.text);
});

test('GET /packages/{owner}: Package shape, type and q filters, paging headers', async () => {
  const name = uniq('lib');
  for (const v of ['1.0.0', '1.1.0', '2.0.0'])
    assert.is((await put(alice.name, `${name}/${v}/${name}.tgz`, `${name}-${v}`, alice.token)).status, 201);
  const all = await env.as(bob, 'GET', `/packages/${alice.name}?q=${name.toUpperCase()}`);
  assert.is(all.status, 200, all.text);
  validList('Package', all);
  assert.equal(
    all.json.map((p: { version: string }) => p.version),
    ['2.0.0', '1.1.0', '1.0.0'],
    'newest first',
  );
  const p = all.json[0];
  assert.is(p.type, 'generic');
  assert.is(p.name, name);
  assert.is(p.owner.login, alice.name);
  assert.is(p.creator.login, alice.name);
  assert.is(p.repository, null);
  assert.is(p.html_url, `${env.srv.url}/${alice.name}/-/packages/generic/${name}/2.0.0`);
  assert.is(all.headers.get('x-total-count'), '3');
  const paged = await env.as(bob, 'GET', `/packages/${alice.name}/?q=${name}&limit=2&page=2`);
  assert.equal(
    paged.json.map((x: { version: string }) => x.version),
    ['1.0.0'],
  );
  assert.is(paged.headers.get('x-total-count'), '3');
  assert.match(paged.headers.get('link') ?? '', /rel="first"/);
  assert.equal((await env.as(bob, 'GET', `/packages/${alice.name}/?q=${name}&type=npm`)).json, []);
  assert.is((await env.as(bob, 'GET', `/packages/${alice.name}/?q=${name}&type=generic`)).json.length, 3);
  // `_` is not a wildcard.
  assert.equal((await env.as(bob, 'GET', `/packages/${alice.name}/?q=${name.replace(/x/, '_')}`)).json, []);
  assert.is((await env.as(bob, 'GET', `/packages/${uniq('nobody')}/`)).status, 404);
});

test('GET /packages/{owner}/{type}/{name}/{version} and /files: the version, its files with hashes; unknown 404', async () => {
  const name = uniq('hashes');
  const body = Buffer.from('the bytes to hash');
  assert.is((await put(alice.name, `${name}/0.1/data.bin`, body, alice.token)).status, 201);
  const item = await env.as(bob, 'GET', `/packages/${alice.name}/generic/${name}/0.1`);
  assert.is(item.status, 200, item.text);
  valid('Package', item.json);
  assert.is(item.json.version, '0.1');
  const files = await env.as(bob, 'GET', `/packages/${alice.name}/generic/${name}/0.1/files`);
  validList('PackageFile', files);
  const [f] = files.json;
  assert.is(f.name, 'data.bin');
  assert.is(f.Size, body.length);
  assert.is(f.sha256, sha256(body));
  assert.is(f.sha512, createHash('sha512').update(body).digest('hex'));
  assert.is(f.sha1, createHash('sha1').update(body).digest('hex'));
  assert.is(f.md5, createHash('md5').update(body).digest('hex'));
  assert.is((await env.as(bob, 'GET', `/packages/${alice.name}/generic/${name}/0.2`)).status, 404);
  assert.is((await env.as(bob, 'GET', `/packages/${alice.name}/npm/${name}/0.1`)).status, 404);
  assert.is((await env.as(bob, 'GET', `/packages/${alice.name}/generic/${name}/0.2/files`)).status, 404);
});

test('private organization: members read (and writers upload), outsiders get 403 on the API and 401 on the registry', async () => {
  const name = uniq('secret');
  assert.is((await put(privOrg, `${name}/1.0/s.bin`, 'secret', bob.token)).status, 201, 'a write-team member uploads');
  assert.is((await put(privOrg, `${name}/1.0/c.bin`, 'nope', carol.token)).status, 401, 'a read-team member may not');
  const byCarol = await env.as(carol, 'GET', `/packages/${privOrg}/`);
  assert.is(byCarol.status, 200);
  assert.equal(
    byCarol.json.map((p: { name: string }) => p.name),
    [name],
  );
  assert.is((await raw('GET', registry(privOrg, `${name}/1.0/s.bin`), { token: carol.token })).status, 200);
  for (const who of [outsider.token, undefined]) {
    const list = await env.as(who, 'GET', `/packages/${privOrg}/`);
    assert.is(list.status, 403, list.text);
    assert.is(list.json.message, 'user should have specific permission or be a site admin');
    assert.is((await env.as(who, 'GET', `/packages/${privOrg}/generic/${name}/1.0`)).status, 403);
    assert.is((await raw('GET', registry(privOrg, `${name}/1.0/s.bin`), { token: who })).status, 401);
  }
  // Nor may a reader delete: PKGWRITE.
  const del = await env.as(carol, 'DELETE', `/packages/${privOrg}/generic/${name}/1.0`);
  assert.is(del.status, 403);
  assert.is((await env.as(alice, 'GET', `/packages/${privOrg}/generic/${name}/1.0`)).status, 200, 'still there');
  // The site admin reads everything.
  assert.is((await env.as(env.admin, 'GET', `/packages/${privOrg}/generic/${name}/1.0`)).status, 200);
});

test('token scopes: read:package reads, write:package writes; other scopes are refused (403 API, 401 registry)', async () => {
  const name = uniq('scoped');
  const readTok = await makeToken(env.srv.api, alice, ['read:package']);
  const writeTok = await makeToken(env.srv.api, alice, ['write:package']);
  const repoTok = await makeToken(env.srv.api, alice, ['write:repository']);
  assert.is((await put(alice.name, `${name}/1/a.bin`, 'a', readTok)).status, 401);
  assert.is((await put(alice.name, `${name}/1/a.bin`, 'a', repoTok)).status, 401);
  assert.is((await put(alice.name, `${name}/1/a.bin`, 'a', writeTok)).status, 201);
  assert.is((await raw('GET', registry(alice.name, `${name}/1/a.bin`), { token: readTok })).status, 200);
  assert.is(
    (await raw('GET', registry(alice.name, `${name}/1/a.bin`), { token: repoTok })).status,
    401,
    'a token must hold a package scope even for public packages',
  );
  assert.is((await env.as(readTok, 'GET', `/packages/${alice.name}/generic/${name}/1`)).status, 200);
  const noScope = await env.as(repoTok, 'GET', `/packages/${alice.name}/`);
  assert.is(noScope.status, 403);
  assert.is(noScope.json.message, 'token does not have at least one of required scope(s): [read:package]');
  const del = await env.as(readTok, 'DELETE', `/packages/${alice.name}/generic/${name}/1`);
  assert.is(del.status, 403);
  assert.is(del.json.message, 'token does not have at least one of required scope(s): [write:package]');
  assert.is((await raw('DELETE', registry(alice.name, `${name}/1`), { token: readTok })).status, 401);
  assert.is((await env.as(alice, 'GET', `/packages/${alice.name}/generic/${name}/1`)).status, 200, 'not deleted');
  assert.is((await env.as(writeTok, 'DELETE', `/packages/${alice.name}/generic/${name}/1`)).status, 204);
});

test('public-only tokens: package routes of a non-public owner are 403 (token scope is limited to public packages)', async () => {
  const name = uniq('po');
  assert.is((await put(privOrg, `${name}/1/a.bin`, 'a', alice.token)).status, 201);
  assert.is((await put(alice.name, `${name}/1/a.bin`, 'a', alice.token)).status, 201);
  const po = await makeToken(env.srv.api, alice, ['public-only', 'write:package']);
  for (const p of [`/packages/${privOrg}/`, `/packages/${privOrg}/generic/${name}/1`, `/packages/${privOrg}/generic/${name}/1/files`]) {
    const r = await env.as(po, 'GET', p);
    assert.is(r.status, 403, `${p}: ${r.text}`);
    assert.is(r.json.message, 'token scope is limited to public packages');
  }
  const reg = await raw('GET', registry(privOrg, `${name}/1/a.bin`), { token: po });
  assert.is(reg.status, 403);
  assert.is(reg.text, 'token scope is limited to public packages');
  assert.is((await put(privOrg, `${name}/2/a.bin`, 'a', po)).status, 403);
  assert.is((await env.as(po, 'GET', `/packages/${alice.name}/generic/${name}/1`)).status, 200, 'a public owner is fine');
  assert.is((await put(alice.name, `${name}/2/a.bin`, 'a', po)).status, 201);
});

test('DELETE a version: 204, its files and their unshared blobs go; the package goes with its last version', async () => {
  const name = uniq('gone');
  const shared = `shared bytes ${name}`;
  assert.is((await put(alice.name, `${name}/1/a.bin`, shared, alice.token)).status, 201);
  assert.is((await put(alice.name, `${name}/1/own.bin`, `own ${name}`, alice.token)).status, 201);
  assert.is((await put(alice.name, `${name}/2/b.bin`, shared, alice.token)).status, 201);
  const blobs = blobFiles();
  assert.is(blobs.filter((b) => b === sha256(shared)).length, 1, 'one blob for two files of the same bytes');
  assert.ok(blobs.includes(sha256(`own ${name}`)));
  const del = await env.as(alice, 'DELETE', `/packages/${alice.name}/generic/${name}/1`);
  assert.is(del.status, 204, del.text);
  assert.is((await env.as(alice, 'GET', `/packages/${alice.name}/generic/${name}/1`)).status, 404);
  assert.is((await raw('GET', registry(alice.name, `${name}/1/a.bin`))).status, 404);
  assert.ok(!blobFiles().includes(sha256(`own ${name}`)), 'the unshared blob is removed');
  assert.ok(blobFiles().includes(sha256(shared)), 'the shared blob stays for version 2');
  const left = await raw('GET', registry(alice.name, `${name}/2/b.bin`));
  assert.is(left.status, 200);
  assert.is(left.text, shared);
  assert.is((await env.as(alice, 'DELETE', `/packages/${alice.name}/generic/${name}/2`)).status, 204);
  assert.ok(!blobFiles().includes(sha256(shared)), 'the last reference took the blob');
  assert.equal((await env.as(alice, 'GET', `/packages/${alice.name}/?q=${name}`)).json, []);
  assert.is((await env.as(alice, 'DELETE', `/packages/${alice.name}/generic/${name}/2`)).status, 404);
  // Uploading the same bytes again stores them anew.
  assert.is((await put(alice.name, `${name}/3/c.bin`, shared, alice.token)).status, 201);
  assert.is((await raw('GET', registry(alice.name, `${name}/3/c.bin`))).text, shared);
});

test('generic registry DELETE: a file (204; the last one takes the version) and a version (204); unknown 404', async () => {
  const name = uniq('regdel');
  assert.is((await put(alice.name, `${name}/1/a.bin`, 'a1', alice.token)).status, 201);
  assert.is((await put(alice.name, `${name}/1/b.bin`, 'b1', alice.token)).status, 201);
  assert.is((await raw('DELETE', registry(alice.name, `${name}/1/a.bin`), { token: bob.token })).status, 401);
  assert.is((await raw('DELETE', registry(alice.name, `${name}/1/a.bin`), { token: alice.token })).status, 204);
  const files = await env.as(alice, 'GET', `/packages/${alice.name}/generic/${name}/1/files`);
  assert.equal(
    files.json.map((f: { name: string }) => f.name),
    ['b.bin'],
  );
  assert.is((await raw('DELETE', registry(alice.name, `${name}/1/a.bin`), { token: alice.token })).status, 404);
  assert.is((await raw('DELETE', registry(alice.name, `${name}/1/b.bin`), { token: alice.token })).status, 204);
  assert.is((await env.as(alice, 'GET', `/packages/${alice.name}/generic/${name}/1`)).status, 404, 'the last file took the version');
  assert.is((await put(alice.name, `${name}/2/a.bin`, 'a2', alice.token)).status, 201);
  assert.is((await raw('DELETE', registry(alice.name, `${name}/2`), { token: alice.token })).status, 204);
  assert.is((await raw('DELETE', registry(alice.name, `${name}/2`), { token: alice.token })).status, 404);
  assert.ok(!blobFiles().includes(sha256('a2')));
});

test('link and unlink: 201; unknown package or repository 404; the Package shows the repository the caller can read', async () => {
  const name = uniq('linked');
  assert.is((await put(alice.name, `${name}/1/a.bin`, 'l', alice.token)).status, 201);
  const repo = await newRepo(env, alice, { private: true });
  const link = (pkg: string, r: string, who: TestUser | string = alice) =>
    env.as(who, 'POST', `/packages/${alice.name}/generic/${pkg}/-/link/${r}`);
  assert.is((await link(uniq('nopkg'), repo.name)).status, 404);
  assert.is((await link(name, uniq('norepo'))).status, 404);
  const denied = await link(name, repo.name, bob);
  assert.is(denied.status, 403, "PKGWRITE: bob cannot write alice's packages");
  assert.is((await env.as(undefined, 'POST', `/packages/${alice.name}/generic/${name}/-/link/${repo.name}`)).status, 401);
  const ok = await link(name, repo.name.toUpperCase());
  assert.is(ok.status, 201, ok.text);
  const mine = await env.as(alice, 'GET', `/packages/${alice.name}/generic/${name}/1`);
  valid('Package', mine.json);
  assert.is(mine.json.repository?.full_name, repo.full_name);
  const theirs = await env.as(bob, 'GET', `/packages/${alice.name}/generic/${name}/1`);
  valid('Package', theirs.json);
  assert.is(theirs.json.repository, null, 'bob cannot read the private repository');
  assert.is((await env.as(alice, 'POST', `/packages/${alice.name}/generic/${uniq('nopkg')}/-/unlink`)).status, 404);
  assert.is((await env.as(bob, 'POST', `/packages/${alice.name}/generic/${name}/-/unlink`)).status, 403);
  const un = await env.as(alice, 'POST', `/packages/${alice.name}/generic/${name}/-/unlink`);
  assert.is(un.status, 201, un.text);
  assert.is((await env.as(alice, 'GET', `/packages/${alice.name}/generic/${name}/1`)).json.repository, null);
  // An organization's package links only to the organization's repositories.
  const orgPkg = uniq('orglinked');
  assert.is((await put(privOrg, `${orgPkg}/1/a.bin`, 'o', alice.token)).status, 201);
  assert.is((await env.as(alice, 'POST', `/packages/${privOrg}/generic/${orgPkg}/-/link/${repo.name}`)).status, 404);
});

test('owners and repositories going away: a deleted repository unlinks; an owner with packages is kept unless purged', async () => {
  const name = uniq('survivor');
  assert.is((await put(alice.name, `${name}/1/a.bin`, 'keep me', alice.token)).status, 201);
  const repo = await newRepo(env, alice);
  assert.is((await env.as(alice, 'POST', `/packages/${alice.name}/generic/${name}/-/link/${repo.name}`)).status, 201);
  assert.is((await env.as(alice, 'DELETE', `/repos/${repo.full_name}`)).status, 204);
  const item = await env.as(alice, 'GET', `/packages/${alice.name}/generic/${name}/1`);
  assert.is(item.status, 200);
  assert.is(item.json.repository, null);

  const dave = await makeUser(env.db, env.srv.api);
  const bytes = `dave's ${uniq('b')}`;
  assert.is((await put(dave.name, `${name}/1/d.bin`, bytes, dave.token)).status, 201);
  const refused = await env.as(env.admin, 'DELETE', `/admin/users/${dave.name}`);
  assert.is(refused.status, 422);
  assert.is(refused.json.message, `user still has ownership of packages [uid: ${dave.id}]`);
  assert.ok(blobFiles().includes(sha256(bytes)));
  assert.is((await env.as(env.admin, 'DELETE', `/admin/users/${dave.name}?purge=true`)).status, 204);
  assert.ok(!blobFiles().includes(sha256(bytes)), 'purging removed the packages and their blobs');

  const org = (await newOrg(env, alice)).name;
  assert.is((await put(org, `${name}/1/o.bin`, 'org bytes', alice.token)).status, 201);
  const orgRefused = await env.as(alice, 'DELETE', `/orgs/${org}`);
  assert.is(orgRefused.status, 422);
  assert.is((await env.as(alice, 'DELETE', `/packages/${org}/generic/${name}/1`)).status, 204);
  assert.is((await env.as(alice, 'DELETE', `/orgs/${org}`)).status, 204);
});

test('quota: an uploader over the packages quota gets 413 and nothing is stored', async () => {
  const q = await setup({ QUOTA__ENABLED: 'true' });
  try {
    const admin = (method: string, p: string, body?: unknown) => q.as(q.admin, method, p, body);
    const grp = uniq('grp');
    assert.is(
      (
        await admin('POST', '/admin/quota/groups', {
          name: grp,
          rules: [{ name: uniq('rule'), limit: 10, subjects: ['size:assets:packages:all'] }],
        })
      ).status,
      201,
    );
    assert.is((await admin('PUT', `/admin/quota/groups/${grp}/users/${q.alice.name}`)).status, 204);
    const url = (rest: string) => `${q.srv.url}/api/packages/${q.alice.name}/generic/${rest}`;
    assert.is(
      (await raw('PUT', url('big/1/a.bin'), { token: q.alice.token, body: 'twelve bytes' })).status,
      201,
      'under the limit before the upload',
    );
    const over = await raw('PUT', url('big/1/b.bin'), { token: q.alice.token, body: 'more' });
    assert.is(over.status, 413);
    assert.is(over.text, 'quota exceeded');
    const files = await q.as(q.alice, 'GET', `/packages/${q.alice.name}/generic/big/1/files`);
    assert.equal(
      files.json.map((f: { name: string }) => f.name),
      ['a.bin'],
    );
    assert.is(
      (await raw('PUT', `${q.srv.url}/api/packages/${q.bob.name}/generic/big/1/b.bin`, { token: q.bob.token, body: 'more' })).status,
      201,
      'bob has no quota group',
    );

    // The other registries check the same quota before reading the upload.
    const tgz = Buffer.from('tarball');
    const npmDoc = JSON.stringify({
      name: 'big',
      'dist-tags': { latest: '1.0.0' },
      versions: {
        '1.0.0': { name: 'big', version: '1.0.0', dist: { integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}` } },
      },
      _attachments: { 'big-1.0.0.tgz': { data: tgz.toString('base64') } },
    });
    const npm = await raw('PUT', `${q.srv.url}/api/packages/${q.alice.name}/npm/big`, { token: q.alice.token, body: npmDoc });
    assert.is(npm.status, 413, npm.text);
    const form = new FormData();
    for (const [k, v] of [
      ['name', 'big'],
      ['version', '1.0'],
      ['sha256_digest', sha256(tgz)],
    ])
      form.append(k, v);
    form.append('content', new Blob([new Uint8Array(tgz)]), 'big-1.0.tar.gz');
    const pypi = await fetch(`${q.srv.url}/api/packages/${q.alice.name}/pypi/`, {
      method: 'POST',
      headers: { Authorization: `token ${q.alice.token}` },
      body: form,
    });
    assert.is(pypi.status, 413, await pypi.text());
    const crateMeta = Buffer.from(JSON.stringify({ name: 'big', vers: '1.0.0', deps: [], features: {} }));
    const u32 = (n: number) => {
      const b = Buffer.alloc(4);
      b.writeUInt32LE(n);
      return b;
    };
    const crateFrame = Buffer.concat([u32(crateMeta.length), crateMeta, u32(tgz.length), tgz]);
    const crate = await fetch(`${q.srv.url}/api/packages/${q.alice.name}/cargo/api/v1/crates/new`, {
      method: 'PUT',
      headers: { Authorization: q.alice.token },
      body: new Uint8Array(crateFrame),
    });
    assert.is(crate.status, 413, await crate.text());
    const jar = await raw('PUT', `${q.srv.url}/api/packages/${q.alice.name}/maven/com/example/big/1.0/big-1.0.jar`, {
      token: q.alice.token,
      body: tgz,
    });
    assert.is(jar.status, 413, jar.text);
    const t = await fetch(`${q.srv.url}/v2/token`, { headers: { Authorization: `token ${q.alice.token}` } });
    const bearer = `Bearer ${((await t.json()) as { token: string }).token}`;
    const oci = await fetch(`${q.srv.url}/v2/${q.alice.name}/big/blobs/uploads/?digest=sha256:${sha256(tgz)}`, {
      method: 'POST',
      headers: { Authorization: bearer },
      body: new Uint8Array(tgz),
    });
    assert.is(oci.status, 413, await oci.text());
    const listed = await q.as(q.alice, 'GET', `/packages/${q.alice.name}`);
    assert.equal(
      listed.json.map((p: { type: string }) => p.type),
      ['generic'],
      'only the generic file stored before the limit',
    );
  } finally {
    await q.close();
  }
});

test.run();
