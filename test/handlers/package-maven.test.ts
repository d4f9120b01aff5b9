// The Maven registry (Forgejo routers/api/packages/maven): the real `mvn` deploys with the
// deploy plugin's deploy-file and resolves with the dependency plugin's get against
// `<ROOT>api/packages/<owner>/maven`, fully offline: a temporary settings.xml mirrors `central` to Debian's
// /usr/share/maven-repo (where the plugins come from), with an empty local repository for each run and the
// registry as a server with the user's credentials. Raw requests pin the answers: the computed
// maven-metadata.xml and checksums, a wrong checksum 400 with nothing stored, a release file again 409, a
// POM that is not XML 400, and the access rules shared with the other registries.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import yazl from 'yazl';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestUser } from '../helpers/fixtures.ts';
import { newOrg, newRepo, setup, valid, type Env } from './repo-setup.ts';
import { blobFiles as storedBlobs, spoolFiles as spooled } from '../helpers/package-store.ts';
import { requireTools } from '../helpers/tools.ts';

requireTools('mvn');

const run = promisify(execFile);

const DEBIAN_REPO = '/usr/share/maven-repo';

/** The newest version of a plugin Debian ships (libmaven-deploy-plugin-java, ...), named explicitly as Maven needs offline. */
function plugin(artifact: string, goal: string): string {
  const dir = path.join(DEBIAN_REPO, 'org/apache/maven/plugins', artifact);
  const versions = (fs.existsSync(dir) ? fs.readdirSync(dir) : []).filter((v) => /^\d+(\.\d+)*$/.test(v));
  const newest = versions.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).pop();
  if (!newest) throw new Error(`${dir}: no version installed (.ci/run installs the Debian package)`);
  return `org.apache.maven.plugins:${artifact}:${newest}:${goal}`;
}
const DEPLOY = plugin('maven-deploy-plugin', 'deploy-file');
const GET = plugin('maven-dependency-plugin', 'get');

let env: Env;
let alice: TestUser;
let bob: TestUser;
let tmp: string;

const registry = (owner: string) => `${env.srv.url}/api/packages/${owner}/maven`;
const hash = (algo: string, b: Buffer | string) => createHash(algo).update(b).digest('hex');

/** A small jar (a zip with a manifest and one entry). */
async function jar(body: string): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('Manifest-Version: 1.0\r\n\r\n'), 'META-INF/MANIFEST.MF', { mtime: new Date(0) });
  zip.addBuffer(Buffer.from(body), 'demo/VALUE.txt', { mtime: new Date(0) });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const pom = (group: string, artifact: string, version: string) => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>${group}</groupId>
  <artifactId>${artifact}</artifactId>
  <version>${version}</version>
  <packaging>jar</packaging>
  <name>Demo &amp; co</name>
  <description><![CDATA[the <demo> artifact]]></description>
  <url>https://example.com/demo</url>
  <licenses><license><name>MIT</name></license></licenses>
</project>
`;

/** settings.xml: Debian's repository stands in for `central`, the registry is server `cairn` with these credentials. */
function settings(user: string, password: string): { file: string; local: string } {
  const dir = fs.mkdtempSync(path.join(tmp, 'm2-'));
  const local = path.join(dir, 'repository');
  const file = path.join(dir, 'settings.xml');
  fs.writeFileSync(
    file,
    `<settings>
  <localRepository>${local}</localRepository>
  <offline>false</offline>
  <mirrors><mirror><id>debian</id><mirrorOf>central</mirrorOf><url>file://${DEBIAN_REPO}</url></mirror></mirrors>
  <servers><server><id>cairn</id><username>${user}</username><password>${password}</password></server></servers>
</settings>
`,
  );
  return { file, local };
}

async function mvn(s: { file: string }, args: string[]): Promise<{ ok: boolean; out: string }> {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(MAVEN_|M2_|npm_)/i.test(k) && !/proxy/i.test(k)) childEnv[k] = v;
  childEnv.HOME = tmp;
  try {
    const r = await run('mvn', ['-B', '--no-transfer-progress', '-s', s.file, ...args], {
      cwd: tmp,
      env: childEnv,
      timeout: 180_000,
      maxBuffer: 16 << 20,
    });
    return { ok: true, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return {
      ok: false,
      out: `${err.stdout ?? ''}${err.stderr ?? ''}`
        .split('\n')
        .filter((l) => /ERROR|FAIL|Upload|Download/.test(l))
        .join('\n'),
    };
  }
}

function deployFile(s: { file: string }, owner: string, file: string, coords: { g: string; a: string; v: string }, pomFile?: string) {
  return mvn(s, [
    DEPLOY,
    `-Dfile=${file}`,
    `-DgroupId=${coords.g}`,
    `-DartifactId=${coords.a}`,
    `-Dversion=${coords.v}`,
    '-Dpackaging=jar',
    `-Durl=${registry(owner)}`,
    '-DrepositoryId=cairn',
    ...(pomFile ? [`-DpomFile=${pomFile}`] : ['-DgeneratePom=true']),
  ]);
}

function resolve(s: { file: string }, owner: string, artifact: string) {
  return mvn(s, [GET, `-Dartifact=${artifact}`, `-DremoteRepositories=cairn::default::${registry(owner)}`, '-Dtransitive=false']);
}

async function raw(method: string, url: string, opts: { token?: string | null; body?: Buffer | string; basic?: [string, string] } = {}) {
  const headers: Record<string, string> = {};
  if (opts.token) headers.Authorization = `token ${opts.token}`;
  if (opts.basic) headers.Authorization = `Basic ${Buffer.from(opts.basic.join(':')).toString('base64')}`;
  const body = typeof opts.body === 'string' || opts.body === undefined ? opts.body : new Uint8Array(opts.body);
  const r = await fetch(url, { method, headers, body });
  return { status: r.status, text: await r.text(), headers: r.headers };
}

/** Blob files in the store, and what is left in its spool. */
const blobFiles = () => storedBlobs(env.srv.config.dataPath);
const spoolFiles = () => spooled(env.srv.config.dataPath);

test.before(async () => {
  env = await setup();
  ({ alice, bob } = env);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-maven-'));
});
test.after(async () => {
  await env.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('mvn deploy-file then dependency:get from an empty local repository gives the same bytes; a release again fails', async () => {
  const org = (await newOrg(env, alice, { visibility: 'private' })).name;
  const s = settings(alice.name, alice.password);
  const coords = { g: 'org.cairn.demo', a: 'demo-lib', v: '1.0.0' };
  const jar1 = path.join(tmp, 'demo-1.jar');
  fs.writeFileSync(jar1, await jar('one'));
  const pomFile = path.join(tmp, 'demo-1.pom');
  fs.writeFileSync(pomFile, pom(coords.g, coords.a, '1.0.0'));
  const d1 = await deployFile(s, org, jar1, coords, pomFile);
  assert.ok(d1.ok, d1.out);
  const jar2 = path.join(tmp, 'demo-2.jar');
  fs.writeFileSync(jar2, await jar('two'));
  const d2 = await deployFile(s, org, jar2, { ...coords, v: '2.0.0' });
  assert.ok(d2.ok, d2.out);
  const again = await deployFile(s, org, jar2, { ...coords, v: '2.0.0' });
  assert.not.ok(again.ok, 'a release cannot be deployed twice');
  assert.match(again.out, '409');

  const meta = await raw('GET', `${registry(org)}/org/cairn/demo/demo-lib/maven-metadata.xml`, { token: alice.token });
  assert.is(meta.status, 200);
  assert.is(
    meta.text,
    '<?xml version="1.0" encoding="UTF-8"?>\n<metadata><groupId>org.cairn.demo</groupId><artifactId>demo-lib</artifactId>' +
      '<versioning><release>2.0.0</release><latest>2.0.0</latest><versions><version>1.0.0</version><version>2.0.0</version></versions></versioning></metadata>',
  );

  // An empty local repository and credentials from settings.xml (the owner is private: Maven answers the challenge).
  const r = settings(alice.name, alice.token);
  const got = await resolve(r, org, `${coords.g}:${coords.a}:1.0.0`);
  assert.ok(got.ok, got.out);
  const local = path.join(r.local, 'org/cairn/demo/demo-lib/1.0.0');
  assert.ok(fs.readFileSync(path.join(local, 'demo-lib-1.0.0.jar')).equals(fs.readFileSync(jar1)));
  assert.is(fs.readFileSync(path.join(local, 'demo-lib-1.0.0.pom'), 'utf8'), fs.readFileSync(pomFile, 'utf8'));
  assert.not.ok(
    (await resolve(settings(bob.name, bob.token), org, `${coords.g}:${coords.a}:1.0.0`)).ok,
    "bob may not read the private organization's packages",
  );

  const listed = await env.as(alice, 'GET', `/packages/${org}?type=maven`);
  assert.is(listed.status, 200);
  for (const p of listed.json) valid('Package', p);
  assert.equal(listed.json.map((p: { name: string; version: string }) => `${p.name}@${p.version}`).sort(), [
    'org.cairn.demo:demo-lib@1.0.0',
    'org.cairn.demo:demo-lib@2.0.0',
  ]);
  const files = await env.as(alice, 'GET', `/packages/${org}/maven/org.cairn.demo:demo-lib/1.0.0/files`);
  assert.equal(
    files.json.map((f: { name: string }) => f.name).sort(),
    ['demo-lib-1.0.0.jar', 'demo-lib-1.0.0.pom'],
    'checksums are checked, not stored',
  );
});

test('mvn deploys a SNAPSHOT twice (its maven-metadata.xml replaced) and resolves the newest build', async () => {
  const s = settings(alice.name, alice.token);
  const coords = { g: 'org.cairn.snap', a: 'snap', v: '0.1-SNAPSHOT' };
  const first = path.join(tmp, 'snap-1.jar');
  fs.writeFileSync(first, await jar('first'));
  const d1 = await deployFile(s, alice.name, first, coords);
  assert.ok(d1.ok, d1.out);
  const second = path.join(tmp, 'snap-2.jar');
  fs.writeFileSync(second, await jar('second'));
  const d2 = await deployFile(s, alice.name, second, coords);
  assert.ok(d2.ok, d2.out);

  const versionMeta = await raw('GET', `${registry(alice.name)}/org/cairn/snap/snap/0.1-SNAPSHOT/maven-metadata.xml`);
  assert.is(versionMeta.status, 200);
  assert.match(versionMeta.text, '<buildNumber>2</buildNumber>');
  const sha1 = await raw('GET', `${registry(alice.name)}/org/cairn/snap/snap/0.1-SNAPSHOT/maven-metadata.xml.sha1`);
  assert.is(sha1.text, hash('sha1', versionMeta.text));
  const artifactMeta = await raw('GET', `${registry(alice.name)}/org/cairn/snap/snap/maven-metadata.xml`);
  assert.match(artifactMeta.text, '<latest>0.1-SNAPSHOT</latest>');
  assert.not.match(artifactMeta.text, '<release>', 'a SNAPSHOT is no release');

  const r = settings(alice.name, alice.token);
  const got = await resolve(r, alice.name, `${coords.g}:${coords.a}:${coords.v}`);
  assert.ok(got.ok, got.out);
  assert.ok(fs.readFileSync(path.join(r.local, 'org/cairn/snap/snap/0.1-SNAPSHOT/snap-0.1-SNAPSHOT.jar')).equals(fs.readFileSync(second)));
});

test('raw: files, computed checksums and metadata; a wrong checksum 400 and a malformed POM 400 store nothing; a release file again 409', async () => {
  const base = `${registry(alice.name)}/com/example/raw/1.0`;
  const opts = { token: alice.token };
  const bytes = await jar('raw');
  assert.is((await raw('PUT', `${base}/raw-1.0.jar`, { ...opts, body: bytes })).status, 201);
  for (const algo of ['md5', 'sha1', 'sha256', 'sha512']) {
    const got = await raw('GET', `${base}/raw-1.0.jar.${algo}`);
    assert.equal([got.status, got.text], [200, hash(algo, bytes)]);
    assert.is((await raw('PUT', `${base}/raw-1.0.jar.${algo}`, { ...opts, body: hash(algo, bytes) })).status, 200);
  }
  const dl = await fetch(`${base}/raw-1.0.jar`);
  assert.is(dl.headers.get('content-type'), 'application/java-archive');
  assert.ok(Buffer.from(await dl.arrayBuffer()).equals(bytes));
  const head = await fetch(`${base}/raw-1.0.jar`, { method: 'HEAD' });
  assert.equal([head.status, head.headers.get('content-length')], [200, String(bytes.length)]);

  const before = blobFiles().length;
  const mismatch = await raw('PUT', `${base}/raw-1.0.jar.sha1`, { ...opts, body: hash('sha1', 'other') });
  assert.equal([mismatch.status, mismatch.text], [400, 'hash mismatch']);
  assert.is((await raw('PUT', `${base}/missing-1.0.jar.sha1`, { ...opts, body: hash('sha1', 'x') })).status, 404);
  assert.is((await raw('PUT', `${base}/raw-1.0.pom`, { ...opts, body: '<project><groupId>com.example</groupId>' })).status, 400);
  assert.is((await raw('PUT', `${base}/raw-1.0.pom`, { ...opts, body: '<!DOCTYPE x [<!ENTITY a "b">]><project/>' })).status, 400);
  assert.is((await raw('PUT', `${base}/raw-1.0.pom`, { ...opts, body: '<metadata/>' })).status, 400, 'the root must be <project>');
  const dup = await raw('PUT', `${base}/raw-1.0.jar`, { ...opts, body: await jar('changed') });
  assert.is(dup.status, 409);
  assert.is(blobFiles().length, before, 'no blob stored');
  assert.equal(spoolFiles(), [], 'no spool file left');
  assert.ok(Buffer.from(await (await fetch(`${base}/raw-1.0.jar`)).arrayBuffer()).equals(bytes), 'the first upload stays');

  assert.is((await raw('PUT', `${base}/raw-1.0.pom`, { ...opts, body: pom('com.example', 'raw', '1.0') })).status, 201);
  const pomGet = await fetch(`${base}/raw-1.0.pom`);
  assert.match(pomGet.headers.get('content-type') ?? '', /^text\/xml/);
  const files = await env.as(alice, 'GET', `/packages/${alice.name}/maven/com.example:raw/1.0/files`);
  assert.equal(
    files.json.map((f: { name: string }) => f.name),
    ['raw-1.0.jar', 'raw-1.0.pom'],
  );

  // The artifact's maven-metadata.xml is computed: an upload of it is accepted and ignored.
  const metaUrl = `${registry(alice.name)}/com/example/raw/maven-metadata.xml`;
  assert.is((await raw('PUT', metaUrl, { ...opts, body: '<metadata>ignored</metadata>' })).status, 200);
  const meta = await raw('GET', metaUrl);
  assert.match(meta.headers.get('content-type') ?? '', 'text/xml');
  assert.match(meta.text, '<versions><version>1.0</version></versions>');
  assert.is((await raw('GET', `${metaUrl}.sha256`)).text, hash('sha256', meta.text));
  assert.ok(meta.headers.get('last-modified'));

  assert.is((await raw('GET', `${base}/raw-1.0.war`)).status, 404);
  assert.is((await raw('GET', `${base}/RAW-1.0.jar`)).status, 404, 'file names match case-sensitively');
  assert.is((await raw('GET', `${registry(alice.name)}/com/example/none/maven-metadata.xml`)).status, 404);
  assert.is((await raw('GET', `${registry(alice.name)}/com/example/raw/9.9/raw-9.9.jar`)).status, 404);
  for (const bad of [
    'raw.jar',
    'x/raw.jar',
    'com/exa%3Ample/raw/1.0/raw-1.0.jar',
    'com/example/raw/1%3F0/raw-1.0.jar',
    'com/example/r%2Aw/1.0/raw.jar',
  ]) {
    assert.is((await raw('PUT', `${registry(alice.name)}/${bad}`, { ...opts, body: 'x' })).status, 400, bad);
  }
  assert.is((await raw('DELETE', `${base}/raw-1.0.jar`, opts)).status, 404, "Forgejo's maven registry has no DELETE");
});

test('files of one new version uploaded at once are all stored; the same file at once is stored once', async () => {
  const base = `${registry(alice.name)}/com/example/race/1.0`;
  const names = ['race-1.0.jar', 'race-1.0-sources.jar', 'race-1.0-javadoc.jar', 'race-1.0-tests.jar', 'race-1.0.zip'];
  const puts = await Promise.all(names.map((n) => raw('PUT', `${base}/${n}`, { token: alice.token, body: `bytes of ${n}` })));
  assert.equal(
    puts.map((x) => x.status),
    names.map(() => 201),
    puts.map((x) => x.text).join(),
  );
  const same = await Promise.all(
    [1, 2, 3].map(() => raw('PUT', `${base}/race-1.0.pom`, { token: alice.token, body: pom('com.example', 'race', '1.0') })),
  );
  assert.equal(same.map((x) => x.status).sort(), [201, 409, 409]);
  const files = await env.as(alice, 'GET', `/packages/${alice.name}/maven/com.example:race/1.0/files`);
  assert.equal(files.json.map((f: { name: string }) => f.name).sort(), [...names, 'race-1.0.pom'].sort());
  assert.equal(spoolFiles(), []);
});

test('/api/v1/packages: a Maven version shown, linked to a repository and deleted; the metadata follows', async () => {
  const base = `${registry(alice.name)}/com/example/api`;
  for (const v of ['1.0', '1.1'])
    assert.is((await raw('PUT', `${base}/${v}/api-${v}.pom`, { token: alice.token, body: pom('com.example', 'api', v) })).status, 201);
  const item = await env.as(alice, 'GET', `/packages/${alice.name}/maven/com.example:api/1.0`);
  assert.is(item.status, 200);
  valid('Package', item.json);
  assert.equal([item.json.type, item.json.name, item.json.version], ['maven', 'com.example:api', '1.0']);
  const repo = await newRepo(env, alice);
  assert.is((await env.as(alice, 'POST', `/packages/${alice.name}/maven/com.example:api/-/link/${repo.name}`)).status, 201);
  assert.is((await env.as(alice, 'GET', `/packages/${alice.name}/maven/com.example:api/1.1`)).json.repository?.name, repo.name);
  assert.is((await env.as(alice, 'DELETE', `/packages/${alice.name}/maven/com.example:api/1.1`)).status, 204);
  const meta = await raw('GET', `${base}/maven-metadata.xml`);
  assert.match(meta.text, '<release>1.0</release><latest>1.0</latest><versions><version>1.0</version></versions>');
  assert.is((await raw('GET', `${base}/1.1/api-1.1.pom`)).status, 404);
});

test('a POM over [api] MAX_BODY_SIZE is 413 and stores nothing; other files are streamed whatever their size', async () => {
  const small = await setup({ API__MAX_BODY_SIZE: '1' });
  try {
    const base = `${small.srv.url}/api/packages/${small.alice.name}/maven/com/example/big/1.0`;
    const big = pom('com.example', 'big', '1.0').replace('</project>', `<description>${'x'.repeat(1 << 20)}</description></project>`);
    const r = await raw('PUT', `${base}/big-1.0.pom`, { token: small.alice.token, body: big });
    assert.is(r.status, 413, r.text);
    const jarBytes = Buffer.alloc(3 << 20, 7);
    assert.is((await raw('PUT', `${base}/big-1.0.jar`, { token: small.alice.token, body: jarBytes })).status, 201);
    assert.is((await raw('GET', `${base}/big-1.0.jar.sha256`)).text, hash('sha256', jarBytes));
    const files = await small.as(small.alice, 'GET', `/packages/${small.alice.name}/maven/com.example:big/1.0/files`);
    assert.equal(
      files.json.map((f: { name: string }) => f.name),
      ['big-1.0.jar'],
    );
  } finally {
    await small.close();
  }
});

test('access: anonymous or foreign deploys 401 with a Basic challenge; a password works; a private owner reads need access', async () => {
  const url = `${registry(alice.name)}/com/example/guarded/1.0/guarded-1.0.jar`;
  const anon = await raw('PUT', url, { body: 'x' });
  assert.is(anon.status, 401);
  assert.match(anon.headers.get('www-authenticate') ?? '', /^Basic/);
  assert.is((await raw('PUT', url, { token: bob.token, body: 'x' })).status, 401);
  assert.is((await raw('GET', url)).status, 404, 'nothing was stored');
  assert.is((await raw('PUT', url, { basic: [alice.name, alice.password], body: 'x' })).status, 201);
  assert.is((await raw('GET', url)).status, 200, "a public owner's packages are public");

  const org = (await newOrg(env, alice, { visibility: 'private' })).name;
  const secret = `${registry(org)}/com/example/secret/1.0/secret-1.0.jar`;
  assert.is((await raw('PUT', secret, { token: alice.token, body: 'secret' })).status, 201);
  const hidden = await raw('GET', secret);
  assert.is(hidden.status, 401);
  assert.match(hidden.headers.get('www-authenticate') ?? '', /^Basic/);
  assert.is((await raw('GET', secret, { token: bob.token })).status, 401);
  assert.is((await raw('GET', `${registry(org)}/com/example/secret/maven-metadata.xml`, { token: bob.token })).status, 401);
  assert.is((await raw('GET', secret, { basic: [alice.name, alice.token] })).text, 'secret', 'a token works as the Basic password');
});

test.run();
