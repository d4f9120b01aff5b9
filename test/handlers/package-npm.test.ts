// The npm registry (Forgejo routers/api/packages/npm): the real `npm` CLI publishes,
// installs, manages dist-tags and unpublishes against `<ROOT>api/packages/<owner>/npm/`, and raw requests
// pin Forgejo's answers: a tarball that fails its integrity, a bad name, version or tag is 400 and stores
// nothing; a published version again is 409; scoped names work as `@scope/name` and `@scope%2fname`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeToken, type TestUser } from '../helpers/fixtures.ts';
import { newOrg, newRepo, setup, valid, type Env } from './repo-setup.ts';
import { blobFiles as storedBlobs } from '../helpers/package-store.ts';

const run = promisify(execFile);

let env: Env;
let alice: TestUser;
let bob: TestUser;
let tmp: string;

const registry = (owner: string) => `${env.srv.url}/api/packages/${owner}/npm/`;

/** Runs the npm CLI in `cwd` with a private user config, cache and HOME: nothing but loopback is reached. */
async function npm(cwd: string, rc: string, args: string[]): Promise<{ ok: boolean; out: string }> {
  const childEnv: Record<string, string> = {};
  // `npm test` exports npm_config_* settings; the child must read only its own .npmrc.
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^npm_/i.test(k)) childEnv[k] = v;
  Object.assign(childEnv, {
    HOME: tmp,
    npm_config_userconfig: rc,
    npm_config_cache: path.join(tmp, 'cache'),
    npm_config_update_notifier: 'false',
  });
  try {
    const r = await run('npm', [...args, '--no-audit', '--no-fund'], { cwd, env: childEnv, timeout: 120_000 });
    return { ok: true, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return { ok: false, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

/**
 * A .npmrc pointing the default registry (and `@scope`) at the owner's registry with the token; with
 * `scopeOnly`, only `@scope` is served here (the default registry stays npmjs.org, never reached).
 */
function npmrc(owner: string, token: string, scope?: string, scopeOnly = false): string {
  const url = registry(owner);
  const file = path.join(tmp, `npmrc-${owner}-${scope ?? 'none'}${scopeOnly ? '-only' : ''}`);
  const auth = `//${url.replace(/^https?:\/\//, '')}:_authToken=${token}`;
  fs.writeFileSync(file, [scopeOnly ? '' : `registry=${url}`, scope ? `${scope}:registry=${url}` : '', auth, ''].join('\n'));
  return file;
}

function packageDir(name: string, version: string, extra: Record<string, unknown> = {}): string {
  const dir = fs.mkdtempSync(path.join(tmp, 'pkg-'));
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name, version, description: `the ${name} package`, main: 'index.js', license: 'MIT', ...extra }),
  );
  fs.writeFileSync(path.join(dir, 'index.js'), `module.exports = ${JSON.stringify(`${name}@${version}`)};\n`);
  return dir;
}

/** Blob files in the store (temporary spool files excluded). */
const blobFiles = () => storedBlobs(env.srv.config.dataPath);

// A real (tiny) npm tarball: package/package.json inside a gzipped tar, built once with `npm pack`.
let tarball: Buffer;

/** npm's publish document for `name@version` carrying `data`, with the digests npm computes unless overridden. */
function publishDoc(
  name: string,
  version: string,
  data: Buffer,
  o: { integrity?: string; shasum?: string; tags?: Record<string, string>; repository?: unknown } = {},
) {
  const integrity = o.integrity ?? `sha512-${createHash('sha512').update(data).digest('base64')}`;
  const shasum = o.shasum ?? createHash('sha1').update(data).digest('hex');
  const base = name.includes('/') ? name.split('/')[1] : name;
  return JSON.stringify({
    _id: name,
    name,
    description: 'raw',
    'dist-tags': o.tags ?? { latest: version },
    versions: {
      [version]: {
        name,
        version,
        description: 'raw',
        author: { name: 'Alice' },
        dist: { integrity, shasum },
        ...(o.repository ? { repository: o.repository } : {}),
      },
    },
    _attachments: {
      [`${base}-${version}.tgz`]: { content_type: 'application/octet-stream', data: data.toString('base64'), length: data.length },
    },
  });
}

async function raw(method: string, url: string, token?: string, body?: string): Promise<{ status: number; text: string; json: any }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const r = await fetch(url, { method, headers, body });
  const text = await r.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: r.status, text, json };
}

test.before(async () => {
  env = await setup({ API__MAX_BODY_SIZE: '1' });
  ({ alice, bob } = env);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-npm-'));
  const dir = packageDir('packed', '0.0.1');
  const packed = await run('npm', ['pack', '--silent', '--pack-destination', tmp], {
    cwd: dir,
    env: { ...process.env, HOME: tmp, npm_config_cache: path.join(tmp, 'cache') },
  });
  tarball = fs.readFileSync(path.join(tmp, packed.stdout.trim().split('\n').pop()!));
});
test.after(async () => {
  await env.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('npm CLI: publish, install, dist-tag add/ls/rm, unpublish a version then the package', async () => {
  const rc = npmrc(alice.name, alice.token);
  const pub = await npm(packageDir('hello-cairn', '1.0.0'), rc, ['publish']);
  assert.ok(pub.ok, pub.out);
  assert.ok((await npm(packageDir('hello-cairn', '1.1.0-beta.1'), rc, ['publish', '--tag', 'next'])).ok);

  // The package document as npm reads it.
  const doc = await raw('GET', `${registry(alice.name)}hello-cairn`);
  assert.is(doc.status, 200, doc.text);
  assert.equal(doc.json['dist-tags'], { latest: '1.0.0', next: '1.1.0-beta.1' });
  assert.equal(Object.keys(doc.json.versions), ['1.0.0', '1.1.0-beta.1']);
  const v1 = doc.json.versions['1.0.0'];
  assert.is(v1._id, 'hello-cairn@1.0.0');
  assert.is(v1.description, 'the hello-cairn package');
  assert.is(v1.dist.tarball, `${registry(alice.name)}hello-cairn/-/1.0.0/hello-cairn-1.0.0.tgz`);
  const tgz = Buffer.from(await (await fetch(v1.dist.tarball)).arrayBuffer());
  assert.is(v1.dist.shasum, createHash('sha1').update(tgz).digest('hex'));
  assert.is(v1.dist.integrity, `sha512-${createHash('sha512').update(tgz).digest('base64')}`);

  // Install into another directory: npm resolves `latest`, downloads, checks the integrity.
  const app = fs.mkdtempSync(path.join(tmp, 'app-'));
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  const inst = await npm(app, rc, ['install', 'hello-cairn']);
  assert.ok(inst.ok, inst.out);
  assert.is(fs.readFileSync(path.join(app, 'node_modules/hello-cairn/index.js'), 'utf8'), 'module.exports = "hello-cairn@1.0.0";\n');
  const next = await npm(app, rc, ['install', 'hello-cairn@next']);
  assert.ok(next.ok, next.out);
  assert.match(fs.readFileSync(path.join(app, 'node_modules/hello-cairn/index.js'), 'utf8'), 'hello-cairn@1.1.0-beta.1');

  // Dist-tags.
  assert.ok((await npm(app, rc, ['dist-tag', 'add', 'hello-cairn@1.0.0', 'stable'])).ok);
  const ls = await npm(app, rc, ['dist-tag', 'ls', 'hello-cairn']);
  assert.ok(ls.ok, ls.out);
  assert.match(ls.out, 'stable: 1.0.0');
  assert.match(ls.out, 'next: 1.1.0-beta.1');
  assert.match(ls.out, 'latest: 1.0.0');
  assert.ok((await npm(app, rc, ['dist-tag', 'rm', 'hello-cairn', 'stable'])).ok);
  const ls2 = await npm(app, rc, ['dist-tag', 'ls', 'hello-cairn']);
  assert.not.match(ls2.out, 'stable');

  // The API lists the versions as type npm.
  const listed = await env.as(alice, 'GET', `/packages/${alice.name}?type=npm`);
  assert.is(listed.status, 200);
  for (const p of listed.json) valid('Package', p);
  assert.equal(listed.json.map((p: { name: string; version: string }) => `${p.name}@${p.version}`).sort(), [
    'hello-cairn@1.0.0',
    'hello-cairn@1.1.0-beta.1',
  ]);

  // Unpublish one version, then the whole package.
  const un1 = await npm(app, rc, ['unpublish', 'hello-cairn@1.0.0', '--force']);
  assert.ok(un1.ok, un1.out);
  const after = await raw('GET', `${registry(alice.name)}hello-cairn`);
  assert.equal(Object.keys(after.json.versions), ['1.1.0-beta.1']);
  assert.is((await fetch(v1.dist.tarball)).status, 404);
  const un2 = await npm(app, rc, ['unpublish', 'hello-cairn', '--force']);
  assert.ok(un2.ok, un2.out);
  assert.is((await raw('GET', `${registry(alice.name)}hello-cairn`)).status, 404);
  assert.equal((await env.as(alice, 'GET', `/packages/${alice.name}?type=npm`)).json, []);
});

for (const c of [
  { name: 'plain-lib', rc: () => npmrc(alice.name, alice.token) },
  { name: '@solo/lib', rc: () => npmrc(alice.name, alice.token, '@solo', true) },
]) {
  test(`npm CLI: unpublish ${c.name}@version drops the version, its tarball and blob; the last version takes the package`, async () => {
    const rc = c.rc();
    const blobsBefore = blobFiles().length;
    for (const v of ['1.0.0', '1.1.0']) {
      const pub = await npm(packageDir(c.name, v), rc, ['publish']);
      assert.ok(pub.ok, pub.out);
    }
    assert.is(blobFiles().length, blobsBefore + 2);
    const docUrl = `${registry(alice.name)}${encodeURIComponent(c.name)}`;
    const doc = await raw('GET', docUrl);
    const tarballOf = (v: string) => doc.json.versions[v].dist.tarball as string;
    assert.is((await fetch(tarballOf('1.1.0'))).status, 200);

    // npm 11 sends the packument without 1.1.0 (PUT <name>/-rev/undefined), then DELETEs the tarball
    // by its path below the registry (doubled when the default registry is another one).
    const app = fs.mkdtempSync(path.join(tmp, 'app-'));
    const un = await npm(app, rc, ['unpublish', `${c.name}@1.1.0`]);
    assert.ok(un.ok, un.out);
    assert.match(un.out, `- ${c.name}@1.1.0`);
    const after = await raw('GET', docUrl);
    assert.is(after.status, 200, after.text);
    assert.equal(Object.keys(after.json.versions), ['1.0.0']);
    assert.equal(after.json['dist-tags'], { latest: '1.0.0' });
    assert.is((await fetch(tarballOf('1.1.0'))).status, 404);
    assert.is((await fetch(tarballOf('1.0.0'))).status, 200);
    assert.is(blobFiles().length, blobsBefore + 1, 'the blob only 1.1.0 used is gone');
    const ls = await npm(app, rc, ['dist-tag', 'ls', c.name]);
    assert.ok(ls.ok, ls.out);
    assert.match(ls.out, 'latest: 1.0.0');
    const api = await env.as(alice, 'GET', `/packages/${alice.name}?type=npm&q=${encodeURIComponent(c.name)}`);
    assert.equal(
      api.json.map((p: { version: string }) => p.version),
      ['1.0.0'],
    );

    // The last version: npm asks for --force, then the package goes away, as on npmjs.org.
    const refused = await npm(app, rc, ['unpublish', `${c.name}@1.0.0`]);
    assert.not.ok(refused.ok, refused.out);
    const last = await npm(app, rc, ['unpublish', `${c.name}@1.0.0`, '--force']);
    assert.ok(last.ok, last.out);
    assert.is((await raw('GET', docUrl)).status, 404);
    assert.is((await fetch(tarballOf('1.0.0'))).status, 404);
    assert.is(blobFiles().length, blobsBefore);
    assert.equal((await env.as(alice, 'GET', `/packages/${alice.name}?type=npm&q=${encodeURIComponent(c.name)}`)).json, []);
  });
}

test('unpublish over HTTP: a packument PUT must name the package and list its versions; write access; the doubled tarball path', async () => {
  const url = `${registry(alice.name)}kept`;
  for (const v of ['1.0.0', '1.1.0', '1.2.0'])
    assert.is((await raw('PUT', url, alice.token, publishDoc('kept', v, Buffer.concat([tarball, Buffer.from(v)])))).status, 201);
  const packument = (await raw('GET', url)).json;
  const without = (v: string) => {
    const versions = { ...packument.versions };
    delete versions[v];
    return { ...packument, versions };
  };
  const refused: [string, string | undefined, string, number][] = [
    ['not JSON', alice.token, 'not json', 400],
    ['no versions', alice.token, JSON.stringify({ ...packument, versions: undefined }), 400],
    ['versions not an object', alice.token, JSON.stringify({ ...packument, versions: ['1.0.0'] }), 400],
    ["another package's name", alice.token, JSON.stringify({ ...without('1.2.0'), name: 'other', _id: 'other' }), 400],
    ['a version-like dist-tag', alice.token, JSON.stringify({ ...without('1.2.0'), 'dist-tags': { '1.0': '1.0.0' } }), 400],
    ['no write access', bob.token, JSON.stringify(without('1.2.0')), 401],
    ['anonymous', undefined, JSON.stringify(without('1.2.0')), 401],
  ];
  for (const [name, token, body, status] of refused) {
    const r = await raw('PUT', `${url}/-rev/undefined`, token, body);
    assert.is(r.status, status, `${name}: ${r.text}`);
  }
  assert.equal(Object.keys((await raw('GET', url)).json.versions), ['1.0.0', '1.1.0', '1.2.0'], 'nothing was removed');

  // The same packument again changes nothing; one without 1.2.0 removes it and moves `latest` as it says.
  assert.is((await raw('PUT', `${url}/-rev/undefined`, alice.token, JSON.stringify(packument))).status, 200);
  assert.equal(Object.keys((await raw('GET', url)).json.versions), ['1.0.0', '1.1.0', '1.2.0']);
  const drop = await raw(
    'PUT',
    `${url}/-rev/undefined`,
    alice.token,
    JSON.stringify({ ...without('1.2.0'), 'dist-tags': { latest: '1.1.0' } }),
  );
  assert.is(drop.status, 200, drop.text);
  const now = (await raw('GET', url)).json;
  assert.equal(Object.keys(now.versions), ['1.0.0', '1.1.0']);
  assert.equal(now['dist-tags'], { latest: '1.1.0' });
  assert.equal((await raw('GET', `${registry(alice.name)}-/package/kept/dist-tags`)).json, { latest: '1.1.0' });

  // The tarball DELETE npm sends when it resolves the tarball's path against another registry.
  const doubled = (owner: string, v: string) => `${registry(alice.name)}api/packages/${owner}/npm/kept/-/${v}/kept-${v}.tgz/-rev/undefined`;
  assert.is((await raw('DELETE', doubled(bob.name, '1.1.0'), alice.token)).status, 404, "another owner's path names nothing here");
  assert.is((await raw('DELETE', doubled(alice.name, '1.1.0'), bob.token)).status, 401);
  assert.is((await raw('GET', doubled(alice.name, '1.1.0'), alice.token)).status, 404, 'only the DELETE is answered there');
  assert.equal(Object.keys((await raw('GET', url)).json.versions), ['1.0.0', '1.1.0']);
  const del = await raw('DELETE', doubled(alice.name, '1.1.0'), alice.token);
  assert.is(del.status, 200, del.text);
  assert.equal(Object.keys((await raw('GET', url)).json.versions), ['1.0.0']);
  assert.is((await raw('DELETE', doubled(alice.name, '1.1.0'), alice.token)).status, 404, 'already gone');
  assert.is((await raw('DELETE', `${url}/-rev/undefined`, alice.token)).status, 200);
  assert.is((await raw('GET', url)).status, 404);
});

test('npm CLI: a scoped package publishes and installs; @scope%2fname and @scope/name name it', async () => {
  const rc = npmrc(alice.name, alice.token, '@demo');
  const pub = await npm(packageDir('@demo/greet', '2.0.0'), rc, ['publish']);
  assert.ok(pub.ok, pub.out);
  const app = fs.mkdtempSync(path.join(tmp, 'app-'));
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  const inst = await npm(app, rc, ['install', '@demo/greet']);
  assert.ok(inst.ok, inst.out);
  assert.is(fs.readFileSync(path.join(app, 'node_modules/@demo/greet/index.js'), 'utf8'), 'module.exports = "@demo/greet@2.0.0";\n');
  for (const name of ['@demo%2fgreet', '@demo%2Fgreet', '@demo/greet']) {
    const r = await raw('GET', `${registry(alice.name)}${name}`);
    assert.is(r.status, 200, name);
    assert.is(r.json.name, '@demo/greet');
    assert.is(r.json.versions['2.0.0'].dist.tarball, `${registry(alice.name)}%40demo%2Fgreet/-/2.0.0/greet-2.0.0.tgz`);
  }
  assert.is((await fetch(`${registry(alice.name)}@demo/greet/-/greet-2.0.0.tgz`)).status, 200, 'download by file name');
  const tags = await raw('GET', `${registry(alice.name)}-/package/@demo%2fgreet/dist-tags`);
  assert.equal(tags.json, { latest: '2.0.0' });
  const found = await npm(app, rc, ['search', 'greet', '--json']);
  assert.ok(found.ok, found.out);
  assert.equal(
    JSON.parse(found.out).map((p: { name: string; version: string }) => `${p.name}@${p.version}`),
    ['@demo/greet@2.0.0'],
  );
  const api = await env.as(alice, 'GET', `/packages/${alice.name}/npm/${encodeURIComponent('@demo/greet')}/2.0.0`);
  assert.is(api.status, 200, api.text);
  valid('Package', api.json);
  assert.is(api.json.name, '@demo/greet');
});

test('publish: wrong integrity or shasum, bad name, version, tag or attachment 400 and nothing stored; same version 409', async () => {
  const url = `${registry(alice.name)}raw-pkg`;
  const before = blobFiles().length;
  const bad = [
    publishDoc('raw-pkg', '1.0.0', tarball, { integrity: `sha512-${createHash('sha512').update('other').digest('base64')}` }),
    publishDoc('raw-pkg', '1.0.0', tarball, { shasum: createHash('sha1').update('other').digest('hex') }),
    publishDoc('raw-pkg', '1.0.0', tarball, { integrity: 'md5-AAAA' }),
    publishDoc('Raw Pkg', '1.0.0', tarball),
    publishDoc('raw-pkg', 'one', tarball),
    publishDoc('raw-pkg', '1.0.0', tarball, { tags: { '1.0': '1.0.0' } }),
    publishDoc('raw-pkg', '1.0.0', tarball).replace(/"data":"[^"]*"/, '"data":"not base64!"'),
    '{"versions": {}}',
    'not json',
  ];
  for (const body of bad) {
    const r = await raw('PUT', url, alice.token, body);
    assert.is(r.status, 400, `${r.text} for ${body.slice(0, 80)}`);
    assert.type(r.json?.error, 'string');
  }
  assert.is(blobFiles().length, before, 'no blob stored');
  assert.is((await raw('GET', url)).status, 404, 'no package stored');

  const ok = await raw('PUT', url, alice.token, publishDoc('raw-pkg', '1.0.0', tarball));
  assert.is(ok.status, 201, ok.text);
  const dup = await raw('PUT', url, alice.token, publishDoc('raw-pkg', '1.0.0', tarball));
  assert.is(dup.status, 409, dup.text);
  // `v1.0.0` is the same version once parsed, as Forgejo's semver reading makes it.
  assert.is((await raw('PUT', url, alice.token, publishDoc('raw-pkg', 'v1.0.0', tarball))).status, 409);
  assert.equal(Object.keys((await raw('GET', url)).json.versions), ['1.0.0']);
  const dl = await fetch(`${url}/-/1.0.0/raw-pkg-1.0.0.tgz`);
  assert.ok(Buffer.from(await dl.arrayBuffer()).equals(tarball));

  // A body over [api] MAX_BODY_SIZE (1 MiB here) is 413.
  const big = Buffer.alloc(1024 * 1024, 7);
  const tooBig = await raw('PUT', `${registry(alice.name)}big-pkg`, alice.token, publishDoc('big-pkg', '1.0.0', big));
  assert.is(tooBig.status, 413, tooBig.text);
  assert.is((await raw('GET', `${registry(alice.name)}big-pkg`)).status, 404);
});

test('access: anonymous or foreign publish 401 with a challenge, read-only token 401; private owner hidden from anonymous', async () => {
  const url = `${registry(alice.name)}guarded`;
  const anon = await fetch(url, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: publishDoc('guarded', '1.0.0', tarball),
  });
  assert.is(anon.status, 401);
  assert.match(anon.headers.get('www-authenticate') ?? '', /^Basic/);
  assert.is((await raw('PUT', url, bob.token, publishDoc('guarded', '1.0.0', tarball))).status, 401);
  const readOnly = await makeToken(env.srv.api, alice, ['read:package']);
  assert.is((await raw('PUT', url, readOnly, publishDoc('guarded', '1.0.0', tarball))).status, 401);
  assert.is((await raw('GET', url)).status, 404, 'nothing was published');

  const org = (await newOrg(env, alice, { visibility: 'private' })).name;
  assert.is((await raw('PUT', `${registry(org)}secret`, alice.token, publishDoc('secret', '1.0.0', tarball))).status, 201);
  assert.is((await raw('GET', `${registry(org)}secret`)).status, 401);
  assert.is((await raw('GET', `${registry(org)}secret`, bob.token)).status, 401);
  assert.is((await raw('GET', `${registry(org)}secret`, alice.token)).status, 200);
});

test('dist-tags over HTTP: version-like tag 400, unknown version 404; a repository URL of this instance links the package', async () => {
  const repo = await newRepo(env, alice);
  const url = `${registry(alice.name)}tagged`;
  const pub = await raw(
    'PUT',
    url,
    alice.token,
    publishDoc('tagged', '1.0.0', tarball, { repository: { type: 'git', url: `git+${env.srv.url}/${alice.name}/${repo.name}.git` } }),
  );
  assert.is(pub.status, 201, pub.text);
  const tags = `${registry(alice.name)}-/package/tagged/dist-tags`;
  assert.is((await raw('PUT', `${tags}/1.0`, alice.token, '"1.0.0"')).status, 400);
  assert.is((await raw('PUT', `${tags}/v1`, alice.token, '"1.0.0"')).status, 400);
  assert.is((await raw('PUT', `${tags}/beta`, alice.token, '"9.9.9"')).status, 404);
  assert.is((await raw('PUT', `${tags}/beta`, alice.token, '"1.0.0"')).status, 200);
  assert.is((await raw('PUT', `${tags}/beta`, bob.token, '"1.0.0"')).status, 401);
  assert.equal((await raw('GET', tags)).json, { latest: '1.0.0', beta: '1.0.0' });
  assert.is((await raw('DELETE', `${tags}/1.0`, alice.token)).status, 400);
  assert.is((await raw('DELETE', `${tags}/nothing`, alice.token)).status, 200);
  assert.is((await raw('DELETE', `${tags}/beta`, alice.token)).status, 200);
  assert.equal((await raw('GET', tags)).json, { latest: '1.0.0' });

  const shown = await env.as(alice, 'GET', `/packages/${alice.name}/npm/tagged/1.0.0`);
  assert.is(shown.status, 200, shown.text);
  assert.is(shown.json.repository?.name, repo.name);

  const found = await raw('GET', `${registry(alice.name)}-/v1/search?text=tagg&from=0&size=10`);
  assert.is(found.status, 200);
  assert.is(found.json.total, 1);
  assert.is(found.json.objects[0].package.name, 'tagged');
  assert.is(found.json.objects[0].package.scope, 'unscoped');
  assert.is((await raw('GET', `${registry(alice.name)}-/v1/search?text=tagg&from=1&size=10`)).json.objects.length, 0);
});

test.run();
