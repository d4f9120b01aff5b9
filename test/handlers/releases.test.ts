// Releases, release assets and their downloads (Forgejo's routers/api/v1/repo/{release,release_tags,
// release_attachment}.go, routers/web/repo/attachment.go).
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checked, newRepo, setup, uniq, valid, validList, type Env } from './repo-setup.ts';
import { makeToken, type TestUser } from '../helpers/fixtures.ts';
import type { Res } from '../helpers/client.ts';
import { startServer } from '../helpers/server.ts';
import { Attachment } from '../../model/attachment.ts';
import { Release } from '../../model/release.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

type Repo = Awaited<ReturnType<typeof newRepo>>;
const em = () => env.db.db.orm.em.fork();
const storeDir = () => path.join(env.srv.config.dataPath, 'attachments');

/** Every stored attachment file (the upload staging directory excluded). */
function storedFiles(): string[] {
  if (!fs.existsSync(storeDir())) return [];
  return fs
    .readdirSync(storeDir(), { recursive: true, encoding: 'utf8' })
    .filter((f) => !f.startsWith('tmp') && fs.statSync(path.join(storeDir(), f)).isFile());
}
const stagedFiles = () => (fs.existsSync(path.join(storeDir(), 'tmp')) ? fs.readdirSync(path.join(storeDir(), 'tmp')) : []);

interface Upload {
  file?: { name: string; data: Buffer | string };
  fields?: Record<string, string>;
  query?: string;
  token?: string;
  base?: string;
}

/** A multipart POST as clients send it (FormData with the file in `attachment`). */
async function upload(p: string, o: Upload): Promise<Res> {
  const fd = new FormData();
  if (o.file) fd.append('attachment', new Blob([typeof o.file.data === 'string' ? o.file.data : new Uint8Array(o.file.data)]), o.file.name);
  for (const [k, v] of Object.entries(o.fields ?? {})) fd.append(k, v);
  const r = await fetch(`${o.base ?? env.srv.api}${p}${o.query ? `?${o.query}` : ''}`, {
    method: 'POST',
    headers: o.token ? { Authorization: `token ${o.token}` } : {},
    body: fd,
  });
  const text = await r.text();
  const json = (r.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : undefined;
  return checked({ status: r.status, headers: r.headers, text, json });
}

/** A download outside the API (absolute URL), with optional credentials. */
async function download(url: string, token?: string, headers: Record<string, string> = {}) {
  const r = await fetch(url, { headers: { ...headers, ...(token ? { Authorization: `token ${token}` } : {}) }, redirect: 'manual' });
  return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
}

async function collaborator(repo: Repo, owner: TestUser, u: TestUser, permission: 'read' | 'write' | 'admin') {
  const r = await env.as(owner, 'PUT', `/repos/${repo.full_name}/collaborators/${u.name}`, { permission });
  assert.is(r.status, 204, r.text);
}

async function newRelease(repo: Repo, u: TestUser, body: Record<string, unknown>) {
  const r = await env.as(u, 'POST', `/repos/${repo.full_name}/releases`, body);
  assert.is(r.status, 201, r.text);
  valid('Release', r.json);
  return r.json;
}

const releaseCounter = async (repo: Repo, u: TestUser) => (await env.as(u, 'GET', `/repos/${repo.full_name}`)).json.release_counter;
const tagExists = async (repo: Repo, u: TestUser, tag: string) =>
  (await env.as(u, 'GET', `/repos/${repo.full_name}/tags/${tag}`)).status === 200;

test('create: 201 api.Release; the tag is created on the default branch; name defaults to the tag (spec)', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const r = await newRelease(repo, alice, { tag_name: 'v1.0', body: 'notes' });
  const api = `${env.srv.api}/repos/${repo.full_name}/releases/${r.id}`;
  const html = `${env.srv.url}/${repo.full_name}`;
  assert.equal(
    { ...r, id: 0, created_at: '', published_at: '', author: null },
    {
      id: 0,
      tag_name: 'v1.0',
      target_commitish: 'main',
      name: 'v1.0',
      body: 'notes',
      url: api,
      html_url: `${html}/releases/tag/v1.0`,
      tarball_url: `${html}/archive/v1.0.tar.gz`,
      zipball_url: `${html}/archive/v1.0.zip`,
      hide_archive_links: false,
      upload_url: `${api}/assets`,
      draft: false,
      prerelease: false,
      created_at: '',
      published_at: '',
      author: null,
      assets: [],
      archive_download_count: { zip: 0, tar_gz: 0 },
    },
  );
  assert.is(r.author.login, alice.name);
  assert.ok(await tagExists(repo, alice, 'v1.0'));
  const row = await em().findOneOrFail(Release, { id: r.id });
  const head = (await env.as(alice, 'GET', `/repos/${repo.full_name}/branches/main`)).json.commit.id;
  assert.equal([row.sha1, row.numCommits], [head, 1]);
  assert.is(await releaseCounter(repo, alice), 1);

  const gh = await env.api('GET', `/repos/${repo.full_name}/releases/${r.id}`, {
    token: alice.token,
    headers: { Accept: 'application/vnd.github+json' },
  });
  assert.is(gh.json.upload_url, `${api}/assets{?name,label}`);
  const named = await newRelease(repo, alice, { tag_name: 'v1.1', name: 'Second', target_commitish: 'main', prerelease: true });
  assert.equal([named.name, named.prerelease], ['Second', true]);
});

test('create: an existing release of the tag is 409; an existing tag is reused; bad input is 4xx and writes nothing', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const base = `/repos/${repo.full_name}/releases`;
  await newRelease(repo, alice, { tag_name: 'v1' });
  const dup = await env.as(alice, 'POST', base, { tag_name: 'V1' });
  assert.is(dup.status, 409, dup.text);

  const tag = await env.as(alice, 'POST', `/repos/${repo.full_name}/tags`, { tag_name: 'pre-existing', message: 'annotated' });
  assert.is(tag.status, 201, tag.text);
  const onTag = await newRelease(repo, alice, { tag_name: 'pre-existing', target_commitish: 'does-not-matter' });
  assert.is(onTag.tag_name, 'pre-existing');
  assert.is((await em().findOneOrFail(Release, { id: onTag.id })).sha1, tag.json.commit.sha, 'sha1 is the tagged commit');

  for (const [body, status] of [
    [{}, 422],
    [{ tag_name: '' }, 422],
    [{ tag_name: 'a..b' }, 422],
    [{ tag_name: 'x'.repeat(256) }, 422],
    [{ tag_name: 'v9', target_commitish: 'no-such-branch' }, 404],
    [{ tag_name: 5 }, 422],
  ] as const) {
    const r = await env.as(alice, 'POST', base, body);
    assert.is(r.status, status, `${JSON.stringify(body)} ${r.text}`);
  }
  assert.not.ok(await tagExists(repo, alice, 'v9'));
  assert.is((await env.as(alice, 'GET', base)).headers.get('x-total-count'), '2');

  const empty = await newRepo(env, alice);
  const e = await env.as(alice, 'POST', `/repos/${empty.full_name}/releases`, { tag_name: 'v1' });
  assert.is(e.status, 422, e.text);
  assert.is(e.json.message, 'repo is empty');
});

test('drafts: no tag until published; hidden from readers (list, get, by tag, assets); release_counter counts published ones', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  await collaborator(repo, alice, bob, 'read');
  await collaborator(repo, alice, carol, 'write');
  const base = `/repos/${repo.full_name}/releases`;
  const d = await newRelease(repo, alice, { tag_name: 'v2-draft', draft: true });
  assert.is(d.draft, true);
  assert.not.ok(await tagExists(repo, alice, 'v2-draft'));
  assert.is((await em().findOneOrFail(Release, { id: d.id })).sha1, '');
  assert.is(await releaseCounter(repo, alice), 0);

  for (const p of [`${base}/${d.id}`, `${base}/tags/v2-draft`, `${base}/${d.id}/assets`]) {
    assert.is((await env.as(bob, 'GET', p)).status, 404, p);
    assert.is((await env.as(carol, 'GET', p)).status, 200, p);
  }
  const readerList = await env.as(bob, 'GET', base);
  assert.equal(readerList.json, []);
  assert.is(readerList.headers.get('x-total-count'), '0');
  assert.is((await env.as(bob, 'GET', `${base}?draft=true`)).json.length, 0, 'a reader asking for drafts gets none');
  assert.is((await env.as(carol, 'GET', base)).json.length, 1);

  const pub = await env.as(carol, 'PATCH', `${base}/${d.id}`, { draft: false });
  assert.is(pub.status, 200, pub.text);
  valid('Release', pub.json);
  assert.is(pub.json.draft, false);
  assert.ok(await tagExists(repo, alice, 'v2-draft'), 'publishing a draft creates its tag');
  assert.is(await releaseCounter(repo, alice), 1);
  assert.is((await env.as(bob, 'GET', `${base}/${d.id}`)).status, 200);
});

test('list: newest first, draft / pre-release / q filters, paging; latest skips drafts and pre-releases', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const base = `/repos/${repo.full_name}/releases`;
  assert.is((await env.as(alice, 'GET', `${base}/latest`)).status, 404);
  const a = await newRelease(repo, alice, { tag_name: 'v1', name: 'Alpha', body: 'first cut' });
  const b = await newRelease(repo, alice, { tag_name: 'v2-rc', name: 'Beta', prerelease: true });
  const c = await newRelease(repo, alice, { tag_name: 'v3', name: 'Gamma', draft: true });
  // created_at has second precision; order the rows explicitly, as time would.
  const m = em();
  for (const [id, sec] of [
    [a.id, 1],
    [b.id, 2],
    [c.id, 3],
  ])
    await m.nativeUpdate(Release, { id }, { createdAt: new Date(Date.UTC(2024, 0, 1, 0, 0, sec)) });

  const all = await env.as(alice, 'GET', base);
  validList('Release', all);
  assert.equal(
    all.json.map((r: any) => r.tag_name),
    ['v3', 'v2-rc', 'v1'],
  );
  const ids = async (q: string, u = alice) => (await env.as(u, 'GET', `${base}?${q}`)).json.map((r: any) => r.tag_name);
  assert.equal(await ids('draft=true'), ['v3']);
  assert.equal(await ids('draft=false'), ['v2-rc', 'v1']);
  assert.equal(await ids('pre-release=true'), ['v2-rc']);
  assert.equal(await ids('pre-release=false&draft=false'), ['v1']);
  assert.equal(await ids('q=ALPH'), ['v1']);
  assert.equal(await ids('q=cut'), ['v1']);
  assert.equal(await ids('q=rc'), ['v2-rc']);
  assert.equal(await ids('q=%25'), [], '`%` is matched literally');
  assert.equal(await ids('draft=maybe'), ['v3', 'v2-rc', 'v1'], 'an unparsable filter is ignored');
  const page = await env.as(alice, 'GET', `${base}?limit=1&page=2`);
  assert.equal(
    page.json.map((r: any) => r.tag_name),
    ['v2-rc'],
  );
  assert.is(page.headers.get('x-total-count'), '3');
  assert.match(page.headers.get('link') ?? '', 'rel="next"');
  assert.equal(await ids('', bob), ['v2-rc', 'v1'], 'anyone may read a public repository; drafts stay hidden');

  const latest = await env.as(bob, 'GET', `${base}/latest`);
  assert.is(latest.status, 200);
  valid('Release', latest.json);
  assert.is(latest.json.tag_name, 'v1');
  const byTag = await env.as(bob, 'GET', `${base}/tags/v1`);
  assert.is(byTag.json.id, a.id);
  assert.is((await env.as(bob, 'GET', `${base}/tags/nope`)).status, 404);
  assert.is((await env.as(bob, 'GET', `${base}/999999`)).status, 404);
  assert.is((await env.as(bob, 'GET', `${base}/abc`)).status, 404);
});

test('permissions: readers cannot write (403), outsiders of a private repository get 404, anonymous reads public', async () => {
  const { alice, bob, carol } = env;
  const pub = await newRepo(env, alice, { auto_init: true });
  await collaborator(pub, alice, bob, 'read');
  const r = await newRelease(pub, alice, { tag_name: 'v1' });
  const base = `/repos/${pub.full_name}/releases`;
  for (const [method, p, body] of [
    ['POST', base, { tag_name: 'v2' }],
    ['PATCH', `${base}/${r.id}`, { name: 'x' }],
    ['DELETE', `${base}/${r.id}`, undefined],
    ['DELETE', `${base}/tags/v1`, undefined],
  ] as const) {
    const res = await env.as(bob, method, p, body);
    assert.is(res.status, 403, `${method} ${p} ${res.text}`);
  }
  assert.is((await env.as(undefined, 'POST', base, { tag_name: 'v2' })).status, 401);
  assert.is((await env.as(undefined, 'GET', base)).json.length, 1);
  assert.is((await env.as(alice, 'GET', `${base}/${r.id}`)).json.name, 'v1', 'nothing changed');

  const priv = await newRepo(env, alice, { auto_init: true, private: true });
  const pr = await newRelease(priv, alice, { tag_name: 'v1' });
  for (const p of [
    `/repos/${priv.full_name}/releases`,
    `/repos/${priv.full_name}/releases/${pr.id}`,
    `/repos/${priv.full_name}/releases/latest`,
  ]) {
    assert.is((await env.as(carol, 'GET', p)).status, 404, p);
    assert.is((await env.as(undefined, 'GET', p)).status, 404, p);
  }
});

test('edit: only given non-empty fields change; renaming onto another release is 409; archived repositories refuse writes (423)', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const base = `/repos/${repo.full_name}/releases`;
  const r = await newRelease(repo, alice, { tag_name: 'v1', name: 'One', body: 'keep' });
  await newRelease(repo, alice, { tag_name: 'v2' });
  const e = await env.as(alice, 'PATCH', `${base}/${r.id}`, { name: 'Uno', body: '', prerelease: true, hide_archive_links: true });
  assert.is(e.status, 200, e.text);
  valid('Release', e.json);
  assert.equal(
    [e.json.name, e.json.body, e.json.prerelease, e.json.hide_archive_links, e.json.tag_name],
    ['Uno', 'keep', true, true, 'v1'],
  );
  assert.is((await env.as(alice, 'PATCH', `${base}/${r.id}`, { tag_name: 'v2' })).status, 409);
  const moved = await env.as(alice, 'PATCH', `${base}/${r.id}`, { tag_name: 'v1.0.1' });
  assert.is(moved.status, 200, moved.text);
  assert.is(moved.json.html_url, `${env.srv.url}/${repo.full_name}/releases/tag/v1.0.1`);
  assert.ok(await tagExists(repo, alice, 'v1.0.1'), 'a published release gets its new tag');
  assert.ok(await tagExists(repo, alice, 'v1'), 'the old tag stays');
  assert.is((await env.as(alice, 'PATCH', `${base}/${r.id}`, { tag_name: 'bad..name' })).status, 422);
  assert.is((await env.as(alice, 'PATCH', `${base}/424242`, { name: 'x' })).status, 404);

  assert.is((await env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { archived: true })).status, 200);
  const locked = await env.as(alice, 'POST', base, { tag_name: 'v3' });
  assert.is(locked.status, 423, locked.text);
  assert.is((await env.as(alice, 'PATCH', `${base}/${r.id}`, { name: 'later' })).status, 423);
  assert.not.ok(await tagExists(repo, alice, 'v3'));
});

test('tag protection: a release may not create a protected tag for a user the rule does not list (422, nothing written)', async () => {
  const { alice, carol } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  await collaborator(repo, alice, carol, 'write');
  const prot = await env.as(alice, 'POST', `/repos/${repo.full_name}/tag_protections`, {
    name_pattern: 'v*',
    whitelist_usernames: [alice.name],
  });
  assert.is(prot.status, 201, prot.text);
  const base = `/repos/${repo.full_name}/releases`;
  const denied = await env.as(carol, 'POST', base, { tag_name: 'v1' });
  assert.is(denied.status, 422, denied.text);
  assert.not.ok(await tagExists(repo, alice, 'v1'));
  assert.is((await env.as(alice, 'GET', base)).json.length, 0);
  assert.is((await env.as(carol, 'POST', base, { tag_name: 'v1', draft: true })).status, 201, 'a draft creates no tag');
  assert.is((await env.as(carol, 'POST', base, { tag_name: 'other' })).status, 201);
  await newRelease(repo, alice, { tag_name: 'v2' });
  assert.ok(await tagExists(repo, alice, 'v2'));
});

test('delete: the release and its assets (rows and files) go, the tag stays; by id and by tag', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const base = `/repos/${repo.full_name}/releases`;
  const r = await newRelease(repo, alice, { tag_name: 'v1' });
  const up = await upload(`${base}/${r.id}/assets`, { token: alice.token, file: { name: 'a.bin', data: 'abc' } });
  assert.is(up.status, 201, up.text);
  const file = path.join(storeDir(), up.json.uuid[0], up.json.uuid[1], up.json.uuid);
  assert.ok(fs.existsSync(file));
  assert.is(await releaseCounter(repo, alice), 1);
  assert.is((await env.as(alice, 'DELETE', `${base}/${r.id}`)).status, 204);
  assert.not.ok(fs.existsSync(file), 'the bytes are removed with the row');
  assert.is(await em().count(Attachment, { releaseId: r.id }), 0);
  assert.is((await env.as(alice, 'GET', `${base}/${r.id}`)).status, 404);
  assert.ok(await tagExists(repo, alice, 'v1'));
  assert.is(await releaseCounter(repo, alice), 0);

  const again = await newRelease(repo, alice, { tag_name: 'v1' });
  const tagOfRelease = await env.as(alice, 'DELETE', `/repos/${repo.full_name}/tags/v1`);
  assert.is(tagOfRelease.status, 409, 'the tag of a release is not deleted directly (Forgejo DeleteTag)');
  assert.is(tagOfRelease.json.message, 'a tag attached to a release cannot be deleted directly');
  assert.ok(await tagExists(repo, alice, 'v1'));
  assert.is((await env.as(alice, 'DELETE', `${base}/tags/v1`)).status, 204);
  assert.is((await env.as(alice, 'GET', `${base}/${again.id}`)).status, 404);
  assert.is((await env.as(alice, 'DELETE', `${base}/tags/v1`)).status, 404);
  assert.is((await env.as(alice, 'DELETE', `${base}/tags/never`)).status, 404);
  assert.ok(await tagExists(repo, alice, 'v1'));
  assert.is((await env.as(alice, 'DELETE', `/repos/${repo.full_name}/tags/v1`)).status, 204, 'without its release the tag goes');
  assert.not.ok(await tagExists(repo, alice, 'v1'));
});

test('assets: multipart upload (name from the query or the file), list with release download URLs, get, edit (201), delete', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const r = await newRelease(repo, alice, { tag_name: 'v1.0' });
  const base = `/repos/${repo.full_name}/releases/${r.id}/assets`;
  const a = await upload(base, { token: alice.token, file: { name: 'tool-linux.tar.gz', data: Buffer.from([0x1f, 0x8b, 8, 0]) } });
  assert.is(a.status, 201, a.text);
  valid('Attachment', a.json);
  assert.equal(
    { ...a.json, id: 0, uuid: '', created_at: '' },
    {
      id: 0,
      name: 'tool-linux.tar.gz',
      size: 4,
      download_count: 0,
      created_at: '',
      uuid: '',
      browser_download_url: `${env.srv.url}/attachments/${a.json.uuid}`,
      type: 'attachment',
    },
  );
  const b = await upload(base, {
    token: alice.token,
    query: 'name=checksums%20file.txt',
    file: { name: 'ignored.txt', data: 'sha256  x\n' },
  });
  assert.is(b.status, 201, b.text);
  assert.is(b.json.name, 'checksums file.txt');

  const list = await env.as(alice, 'GET', base);
  validList('Attachment', list);
  const dl = `${env.srv.url}/${repo.full_name}/releases/download/v1.0/`;
  assert.equal(
    list.json.map((x: any) => [x.name, x.browser_download_url]),
    [
      ['checksums file.txt', `${dl}checksums%20file.txt`],
      ['tool-linux.tar.gz', `${dl}tool-linux.tar.gz`],
    ],
  );
  const rel = await env.as(alice, 'GET', `/repos/${repo.full_name}/releases/${r.id}`);
  assert.equal(rel.json.assets, list.json);

  const got = await env.as(alice, 'GET', `${base}/${a.json.id}`);
  assert.is(got.status, 200);
  assert.equal(got.json, a.json);
  const ed = await env.as(alice, 'PATCH', `${base}/${a.json.id}`, { name: 'tool.tgz' });
  assert.is(ed.status, 201, ed.text);
  valid('Attachment', ed.json);
  assert.is(ed.json.name, 'tool.tgz');
  assert.is(
    (await env.as(alice, 'PATCH', `${base}/${a.json.id}`, { browser_download_url: 'https://example.com/x' })).status,
    400,
    'not external',
  );

  const other = await newRelease(repo, alice, { tag_name: 'v2' });
  assert.is(
    (await env.as(alice, 'GET', `/repos/${repo.full_name}/releases/${other.id}/assets/${a.json.id}`)).status,
    404,
    'asset of another release',
  );
  assert.is((await env.as(alice, 'GET', `${base}/999999`)).status, 404);
  assert.is((await env.as(alice, 'DELETE', `${base}/${a.json.id}`)).status, 204);
  assert.is((await env.as(alice, 'GET', `${base}/${a.json.id}`)).status, 404);
  assert.is((await env.as(alice, 'GET', base)).json.length, 1);
});

test('assets: external URLs (Forgejo 9), and 400 for both/neither/bad URL; nothing written', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const r = await newRelease(repo, alice, { tag_name: 'v1' });
  const base = `/repos/${repo.full_name}/releases/${r.id}/assets`;
  const ext = await upload(base, { token: alice.token, fields: { external_url: 'https://mirror.example.com/files/app-1.0.zip' } });
  assert.is(ext.status, 201, ext.text);
  valid('Attachment', ext.json);
  assert.equal(
    [ext.json.name, ext.json.type, ext.json.browser_download_url, ext.json.size],
    ['app-1.0.zip', 'external', 'https://mirror.example.com/files/app-1.0.zip', 0],
  );
  const named = await upload(base, { token: alice.token, query: 'name=Docs', fields: { external_url: 'https://docs.example.com' } });
  assert.equal([named.json.name, named.json.type], ['Docs', 'external']);
  const host = await upload(base, { token: alice.token, fields: { external_url: 'https://docs.example.com/' } });
  assert.is(host.json.name, 'docs.example.com');

  const ed = await env.as(alice, 'PATCH', `${base}/${ext.json.id}`, {
    browser_download_url: 'https://mirror.example.com/files/app-1.0.1.zip',
  });
  assert.is(ed.status, 201, ed.text);
  assert.is(ed.json.browser_download_url, 'https://mirror.example.com/files/app-1.0.1.zip');
  assert.is((await env.as(alice, 'PATCH', `${base}/${ext.json.id}`, { browser_download_url: 'javascript:alert(1)' })).status, 400);

  const files = storedFiles().length;
  for (const o of [
    { file: { name: 'x.txt', data: 'x' }, fields: { external_url: 'https://example.com/x' } },
    {},
    { fields: { external_url: 'ftp://example.com/x' } },
    { fields: { external_url: 'not a url' } },
  ] as Upload[]) {
    const res = await upload(base, { token: alice.token, ...o });
    assert.is(res.status, 400, `${JSON.stringify(o)} ${res.text}`);
  }
  const json = await env.as(alice, 'POST', base, { external_url: 'https://example.com/x' });
  assert.is(json.status, 422, 'a JSON body is not a multipart upload');
  assert.is((await env.as(alice, 'GET', base)).json.length, 3);
  assert.is(storedFiles().length, files);
  assert.equal(stagedFiles(), [], 'no temporary upload is left behind');

  // The download of an external asset redirects to it.
  const go = await download(`${env.srv.url}/attachments/${ext.json.uuid}`);
  assert.is(go.status, 303);
  assert.is(go.headers.get('location'), 'https://mirror.example.com/files/app-1.0.1.zip');
});

test('assets: readers cannot upload (403); uploads to drafts, unknown releases and without a file are refused', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  await collaborator(repo, alice, bob, 'read');
  const r = await newRelease(repo, alice, { tag_name: 'v1' });
  const base = `/repos/${repo.full_name}/releases/${r.id}/assets`;
  const before = storedFiles().length;
  const denied = await upload(base, { token: bob.token, file: { name: 'x.txt', data: 'x' } });
  assert.is(denied.status, 403, denied.text);
  assert.is((await upload(base, { file: { name: 'x.txt', data: 'x' } })).status, 401);
  assert.is(
    (await upload(`/repos/${repo.full_name}/releases/999999/assets`, { token: alice.token, file: { name: 'x.txt', data: 'x' } })).status,
    404,
  );
  const up = await upload(base, { token: alice.token, file: { name: 'x.txt', data: 'x' } });
  assert.is((await env.as(bob, 'PATCH', `${base}/${up.json.id}`, { name: 'y' })).status, 403);
  assert.is((await env.as(bob, 'DELETE', `${base}/${up.json.id}`)).status, 403);
  assert.is((await env.as(bob, 'GET', `${base}/${up.json.id}`)).json.name, 'x.txt');
  assert.is(storedFiles().length, before + 1);
  assert.equal(stagedFiles(), []);
});

test('downloads: bytes with Content-Disposition, counted; release URL and `latest`; private and draft assets are 404 to others', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice, { auto_init: true, private: true });
  await collaborator(repo, alice, bob, 'read');
  const r = await newRelease(repo, alice, { tag_name: 'v1' });
  const base = `/repos/${repo.full_name}/releases/${r.id}/assets`;
  const data = Buffer.from('#!/bin/sh\necho hello\n');
  const a = await upload(base, { token: alice.token, file: { name: 'hello ü.sh', data } });
  assert.is(a.status, 201, a.text);

  const byUuid = await download(a.json.browser_download_url, bob.token);
  assert.is(byUuid.status, 200);
  assert.equal(byUuid.body, data);
  assert.is(byUuid.headers.get('content-type'), 'application/octet-stream');
  assert.is(byUuid.headers.get('content-disposition'), `attachment; filename="hello _.sh"; filename*=UTF-8''hello%20%C3%BC.sh`);
  assert.is(byUuid.headers.get('etag'), `"${a.json.uuid}"`);
  const rel = `${env.srv.url}/${repo.full_name}/releases/download/v1/${encodeURIComponent('hello ü.sh')}`;
  const byRelease = await download(rel, alice.token);
  assert.is(byRelease.status, 200);
  assert.equal(byRelease.body, data);
  const latest = await download(
    `${env.srv.url}/${repo.full_name}/releases/download/latest/${encodeURIComponent('hello ü.sh')}`,
    alice.token,
  );
  assert.is(latest.status, 200);
  assert.is((await download(a.json.browser_download_url, bob.token, { 'If-None-Match': `"${a.json.uuid}"` })).status, 304);
  const counted = await env.as(alice, 'GET', `${base}/${a.json.id}`);
  assert.is(counted.json.download_count, 4);

  for (const who of [carol.token, undefined]) {
    assert.is((await download(a.json.browser_download_url, who)).status, 404);
    assert.is((await download(rel, who)).status, 404);
  }
  assert.is((await download(`${env.srv.url}/attachments/00000000-0000-4000-8000-000000000000`, alice.token)).status, 404);
  assert.is((await download(`${env.srv.url}/attachments/not-a-uuid`, alice.token)).status, 404);
  assert.is((await download(`${env.srv.url}/${repo.full_name}/releases/download/v1/nope.sh`, alice.token)).status, 404);
  const issueOnly = await makeToken(env.srv.api, alice, ['read:issue']);
  assert.is((await download(a.json.browser_download_url, issueOnly)).status, 403, 'a release asset needs read:repository');
  const repoRead = await makeToken(env.srv.api, alice, ['read:repository']);
  assert.is((await download(a.json.browser_download_url, repoRead)).status, 200);

  const draft = await newRelease(repo, alice, { tag_name: 'v2', draft: true });
  const d = await upload(`/repos/${repo.full_name}/releases/${draft.id}/assets`, {
    token: alice.token,
    file: { name: 'pic.png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  });
  assert.is(d.status, 201, d.text);
  assert.is((await download(d.json.browser_download_url, bob.token)).status, 404, 'a draft asset is hidden from readers');
  assert.is((await download(`${env.srv.url}/${repo.full_name}/releases/download/v2/pic.png`, bob.token)).status, 404);
  const own = await download(d.json.browser_download_url, alice.token);
  assert.is(own.status, 200);
  assert.is(own.headers.get('content-type'), 'image/png');
  assert.match(own.headers.get('content-disposition') ?? '', /^inline; /);
  assert.is((await env.as(bob, 'GET', `/repos/${repo.full_name}/releases/${draft.id}/assets/${d.json.id}`)).status, 404);
});

test('limits: over [attachment] MAX_SIZE is 413, a forbidden release type is 400, attachments off is 404; nothing is left behind', async () => {
  const { alice } = env;
  const srv = await startServer(env.db, { ATTACHMENT__MAX_SIZE: '1', REPOSITORY_RELEASE__ALLOWED_TYPES: '.zip,image/*' });
  const repo = await newRepo(env, alice, { auto_init: true });
  const r = await newRelease(repo, alice, { tag_name: 'v1' });
  const p = `/repos/${repo.full_name}/releases/${r.id}/assets`;
  const before = storedFiles().length;
  try {
    // The server answers before the client has sent everything; a client may see the connection close instead.
    const big = await upload(p, {
      base: srv.api,
      token: alice.token,
      file: { name: 'big.zip', data: Buffer.alloc(1024 * 1024 + 10, 1) },
    }).catch((e: Error) => e);
    if (!(big instanceof Error)) assert.is(big.status, 413, big.text);
    const exe = await upload(p, { base: srv.api, token: alice.token, file: { name: 'tool.exe', data: 'MZ\0\0' } });
    assert.is(exe.status, 400, exe.text);
    assert.match(exe.json.message, 'not allowed');
    const png = await upload(p, {
      base: srv.api,
      token: alice.token,
      file: { name: 'shot', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]) },
    });
    assert.is(png.status, 201, `image/* by content: ${png.text}`);
    const zip = await upload(p, { base: srv.api, token: alice.token, file: { name: 'a.ZIP', data: 'not really' } });
    assert.is(zip.status, 201, `.zip by extension: ${zip.text}`);
  } finally {
    await srv.close();
  }
  assert.is(storedFiles().length, before + 2);
  assert.equal((await env.as(alice, 'GET', p)).json.map((x: any) => x.name).sort(), ['a.ZIP', 'shot']);
  await new Promise((res) => setTimeout(res, 50));
  assert.equal(stagedFiles(), []);

  const off = await startServer(env.db, { ATTACHMENT__ENABLED: 'false' });
  try {
    const res = await upload(p, { base: off.api, token: alice.token, file: { name: 'x.zip', data: 'x' } });
    assert.is(res.status, 404, res.text);
  } finally {
    await off.close();
  }
  assert.is(storedFiles().length, before + 2);
});

test('release_counter follows creates, publishes, drafts and deletes; bare tag records are never listed', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const base = `/repos/${repo.full_name}/releases`;
  const a = await newRelease(repo, alice, { tag_name: 'a' });
  const b = await newRelease(repo, alice, { tag_name: 'b', prerelease: true });
  assert.is(await releaseCounter(repo, alice), 2);
  await env.as(alice, 'PATCH', `${base}/${b.id}`, { draft: true });
  assert.is(await releaseCounter(repo, alice), 1);
  // A tag record (as a tag sync writes them) is no release, and becomes one when a release names its tag.
  const m = em();
  m.create(Release, { repoId: repo.id, tagName: 'c', lowerTagName: 'c', isTag: true, publisherId: alice.id });
  await m.flush();
  const tagRow = await m.findOneOrFail(Release, { lowerTagName: 'c', repoId: repo.id });
  assert.is((await env.as(alice, 'GET', base)).json.length, 2);
  assert.is((await env.as(alice, 'GET', `${base}/${tagRow.id}`)).status, 404);
  assert.is((await env.as(alice, 'GET', `${base}/tags/c`)).status, 404);
  assert.is((await env.as(alice, 'DELETE', `${base}/tags/c`)).status, 404);
  const c = await newRelease(repo, alice, { tag_name: 'c', name: uniq('n') });
  assert.is(c.id, tagRow.id, 'the tag record becomes the release');
  assert.is(await releaseCounter(repo, alice), 2);
  await env.as(alice, 'DELETE', `${base}/${a.id}`);
  assert.is(await releaseCounter(repo, alice), 1);
});

test.run();
