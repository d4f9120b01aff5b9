// Malformed input outside the route table: git over HTTP, attachment and avatar downloads, the package
// registry, the credentials every API request reads, and bodies the JSON parser itself struggles
// with. No 5xx; malformed names are 4xx (a name that holds NUL names nothing).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { fuzzWorld, type FuzzWorld } from '../helpers/fuzz-fixtures.ts';
import { SEED } from '../helpers/fuzz.ts';

let w: FuzzWorld;
test.before(async () => {
  w = await fuzzWorld();
});
test.after(async () => {
  await w?.close();
});

interface Probe {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  expect: '4xx' | 'not5xx';
}

async function run(probes: Probe[]): Promise<string[]> {
  const failures: string[] = [];
  for (const p of probes) {
    const r = await fetch(`${w.srv.url}${p.url}`, { method: p.method, headers: p.headers, body: p.body, redirect: 'manual' });
    const text = await r.text();
    if (r.status >= 500 || (p.expect === '4xx' && (r.status < 400 || r.status > 499)))
      failures.push(`${r.status} ${p.method} ${p.url.slice(0, 120)} → ${text.slice(0, 200)}`);
  }
  return failures;
}

const basic = (user: string, pass: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` });
const token = () => ({ Authorization: `token ${w.admin.token}` });
/** Path segments that no stored name can equal, or that only look like numbers or traversal. */
const SEGMENTS = ['%00', 'a%00b', '%ED%A0%80', '%FF', '%C0%80', '..', '%2E%2E', 'a%2Fb', 'a'.repeat(300), '99999999999999999999'];
const segment = fc.constantFrom(...SEGMENTS);

test('git over HTTP: NUL and odd names in owner and repository never reach a 5xx', async () => {
  const A = w.admin.name;
  const probes: Probe[] = [
    { method: 'GET', url: '/%00/fuzzrepo.git/info/refs?service=git-upload-pack', expect: '4xx' },
    { method: 'GET', url: `/${A}/fuzzrepo%00.git/info/refs?service=git-upload-pack`, expect: '4xx' },
    { method: 'GET', url: `/${A}/fuzzrepo.git/info/refs?service=git-upload-pack`, headers: basic('a\u0000b', 'x'), expect: '4xx' },
    { method: 'GET', url: `/${A}/fuzzrepo.git/info/refs?service=git-upload-pack%00`, expect: '4xx' },
    { method: 'GET', url: `/${A}/fuzzrepo.git/info/refs?service=git-upload-pack&token=%00`, expect: 'not5xx' },
  ];
  for (const [owner, repo] of fc.sample(fc.tuple(segment, segment), { seed: SEED, numRuns: 10 })) {
    probes.push({ method: 'GET', url: `/${owner}/${repo}.git/info/refs?service=git-upload-pack`, headers: token(), expect: 'not5xx' });
    probes.push({
      method: 'POST',
      url: `/${owner}/${repo}.git/git-upload-pack`,
      headers: { ...token(), 'Content-Type': 'application/x-git-upload-pack-request' },
      body: '0000',
      expect: 'not5xx',
    });
  }
  assert.equal(await run(probes), []);
});

test('attachment and avatar downloads: NUL in any segment is a 404, never a 5xx', async () => {
  const A = w.admin.name;
  const probes: Probe[] = [
    { method: 'GET', url: '/attachments/%00', expect: '4xx' },
    { method: 'GET', url: `/${A}/fuzzrepo/releases/download/v1%00/fuzz.txt`, expect: '4xx' },
    { method: 'GET', url: `/%00/fuzzrepo/releases/download/v1/fuzz.txt`, expect: '4xx' },
    { method: 'GET', url: `/${A}/fuzzrepo%00/releases/download/v1/fuzz.txt`, expect: '4xx' },
    { method: 'GET', url: `/${A}/fuzzrepo/releases/download/v1/fuzz%00.txt`, expect: '4xx' },
    { method: 'GET', url: '/avatars/%00', expect: '4xx' },
    { method: 'GET', url: '/avatars/..%2F..%2Fsecret_key', expect: '4xx' },
    { method: 'GET', url: '/repo-avatars/%00', expect: '4xx' },
  ];
  for (const [a, b, c] of fc.sample(fc.tuple(segment, segment, segment), { seed: SEED, numRuns: 10 })) {
    probes.push({ method: 'GET', url: `/${a}/${b}/releases/download/${c}/fuzz.txt`, headers: token(), expect: 'not5xx' });
    probes.push({ method: 'GET', url: `/attachments/${a}`, headers: token(), expect: 'not5xx' });
    probes.push({ method: 'GET', url: `/avatars/${a}`, expect: 'not5xx' });
  }
  assert.equal(await run(probes), []);
});

test('package registry: NUL and over-long owner, name, version and file name are 4xx', async () => {
  const A = w.admin.name;
  const long = 'a'.repeat(300);
  const probes: Probe[] = [];
  for (const path of [
    `%00/generic/p/1/f`,
    `${A}/generic/p%00/1/f`,
    `${A}/generic/p/1%00/f`,
    `${A}/generic/p/1/f%00`,
    `${A}/generic/${long}/1/f`,
    `${A}/generic/p/${long}/f`,
    `${A}/generic/p/1/${long}`,
  ]) {
    probes.push({ method: 'PUT', url: `/api/packages/${path}`, headers: token(), body: 'x', expect: '4xx' });
    probes.push({ method: 'GET', url: `/api/packages/${path}`, headers: token(), expect: '4xx' });
    probes.push({ method: 'DELETE', url: `/api/packages/${path}`, headers: token(), expect: '4xx' });
  }
  for (const [a, b, c] of fc.sample(fc.tuple(segment, segment, segment), { seed: SEED, numRuns: 10 })) {
    probes.push({ method: 'PUT', url: `/api/packages/${A}/generic/${a}/${b}/${c}`, headers: token(), body: 'x', expect: 'not5xx' });
  }
  assert.equal(await run(probes), []);
});

test('npm, PyPI, Cargo and Maven registries: odd names, versions, tags and bodies never reach a 5xx', async () => {
  const A = w.admin.name;
  const json = { ...token(), 'Content-Type': 'application/json' };
  const doc = (name: string, version: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      name,
      'dist-tags': { latest: version },
      versions: {
        [version]: {
          name,
          version,
          dist: { integrity: `sha512-${createHash('sha512').update(Buffer.from('AAAA', 'base64')).digest('base64')}` },
          ...extra,
        },
      },
      _attachments: { 'a.tgz': { data: 'AAAA' } },
    });
  const probes: Probe[] = [
    { method: 'PUT', url: `/api/packages/${A}/npm/p`, headers: json, body: doc('p', '1.0.0', { description: 'a\u0000b' }), expect: '4xx' },
    { method: 'PUT', url: `/api/packages/${A}/npm/p`, headers: json, body: doc('p', '1.0.0', { description: '\ud800' }), expect: '4xx' },
    { method: 'PUT', url: `/api/packages/${A}/npm/p`, headers: json, body: '['.repeat(200000), expect: '4xx' },
    { method: 'PUT', url: `/api/packages/${A}/npm/p`, headers: json, body: doc('p', '9'.repeat(400)), expect: '4xx' },
    { method: 'PUT', url: `/api/packages/${A}/npm/p`, headers: json, body: doc('p', '99999999999999999999.0.0'), expect: '4xx' },
    { method: 'PUT', url: `/api/packages/${A}/npm/-/package/p/dist-tags/t`, headers: json, body: '"1.0\u0000"', expect: 'not5xx' },
    { method: 'GET', url: `/api/packages/${A}/npm/-/v1/search?text=%00`, expect: '4xx' },
    { method: 'GET', url: `/api/packages/${A}/npm/-/v1/search?from=-5&size=99999999999999999999`, expect: 'not5xx' },
    {
      method: 'POST',
      url: `/api/packages/${A}/pypi/`,
      headers: { ...token(), 'Content-Type': 'multipart/form-data; boundary=x' },
      body: '--x\r\nbroken',
      expect: '4xx',
    },
    { method: 'POST', url: `/api/packages/${A}/pypi/`, headers: { ...token(), 'Content-Type': 'text/plain' }, body: 'x', expect: '4xx' },
    ...[
      '',
      '\u0000\u0000\u0000\u0000',
      '\u0002\u0000\u0000\u0000{}',
      '\u0002\u0000\u0000\u0000[]\u0000\u0000\u0000\u0000',
      '\u0003\u0000\u0000\u0000"\u0000"',
      '\u00ff\u00ff\u00ff\u00ff',
    ].map((body) => ({ method: 'PUT', url: `/api/packages/${A}/cargo/api/v1/crates/new`, headers: token(), body, expect: '4xx' as const })),
    { method: 'GET', url: `/api/packages/${A}/cargo/api/v1/crates?q=%00`, expect: '4xx' },
    { method: 'GET', url: `/api/packages/${A}/cargo/api/v1/crates?per_page=99999999999999999999`, expect: 'not5xx' },
    ...[
      '<project><name>a\u0000b</name></project>',
      '<project><name>&#0;</name></project>',
      '<project>',
      '<project></projec>',
      '<?xml version="1.0"?>',
      '<project a=b/>',
      '<project/><project/>',
      `${'<a>'.repeat(5000)}`,
      '\u0000',
    ].map((body) => ({
      method: 'PUT',
      url: `/api/packages/${A}/maven/com/odd/p/1.0/p-1.0.pom`,
      headers: token(),
      body,
      expect: '4xx' as const,
    })),
    {
      method: 'PUT',
      url: `/api/packages/${A}/maven/com/odd/p/1.0/p-1.0.jar.sha1`,
      headers: token(),
      body: 'x'.repeat(5000),
      expect: '4xx',
    },
  ];
  for (const [a, b, c] of fc.sample(fc.tuple(segment, segment, segment), { seed: SEED, numRuns: 10 })) {
    probes.push({ method: 'GET', url: `/api/packages/${A}/npm/${a}`, expect: 'not5xx' });
    probes.push({ method: 'GET', url: `/api/packages/${A}/npm/@${a}/${b}/-/${c}`, expect: 'not5xx' });
    probes.push({ method: 'DELETE', url: `/api/packages/${A}/npm/${a}/-/${b}/${c}/-rev/1`, headers: token(), expect: 'not5xx' });
    probes.push({
      method: 'PUT',
      url: `/api/packages/${A}/npm/-/package/${a}/dist-tags/${b}`,
      headers: json,
      body: '"1.0.0"',
      expect: 'not5xx',
    });
    probes.push({ method: 'GET', url: `/api/packages/${A}/pypi/simple/${a}`, expect: 'not5xx' });
    probes.push({ method: 'GET', url: `/api/packages/${A}/pypi/files/${a}/${b}/${c}`, expect: 'not5xx' });
    probes.push({ method: 'GET', url: `/api/packages/${A}/cargo/${a}/${b}/${c}`, expect: 'not5xx' });
    probes.push({ method: 'GET', url: `/api/packages/${A}/cargo/api/v1/crates/${a}/${b}/download`, expect: 'not5xx' });
    probes.push({ method: 'DELETE', url: `/api/packages/${A}/cargo/api/v1/crates/${a}/${b}/yank`, headers: token(), expect: 'not5xx' });
    probes.push({ method: 'GET', url: `/api/packages/${A}/maven/${a}/${b}/${c}`, expect: 'not5xx' });
    probes.push({ method: 'PUT', url: `/api/packages/${A}/maven/${a}/${b}/${c}`, headers: token(), body: 'x', expect: 'not5xx' });
    probes.push({ method: 'PUT', url: `/api/packages/${A}/maven/${a}/${b}/1.0/${c}.sha1`, headers: token(), body: 'x', expect: 'not5xx' });
  }
  // Form fields no stored text can hold, or too long, in each place the upload reads.
  for (const [field, value] of [
    ['name', 'a\u0000b'],
    ['name', 'x'.repeat(300)],
    ['version', '1.0\u0000'],
    ['summary', '\u0000'],
    ['license', 'x\u0000'],
    ['sha256_digest', '\u0000'],
  ]) {
    const form = new FormData();
    for (const [k, v] of [
      ['name', 'odd'],
      ['version', '1.0'],
      ['sha256_digest', '2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881'],
      [field, value],
    ])
      form.set(k, v);
    form.append('content', new Blob(['x']), 'f.whl');
    const r = new Request('http://x/', { method: 'POST', body: form });
    probes.push({
      method: 'POST',
      url: `/api/packages/${A}/pypi/`,
      headers: { ...token(), 'Content-Type': r.headers.get('content-type')! },
      body: await r.text(),
      expect: '4xx',
    });
  }
  assert.equal(await run(probes), []);
});

test('container registry: odd images, digests, references, sessions and manifests never reach a 5xx', async () => {
  const A = w.admin.name;
  const t = await fetch(`${w.srv.url}/v2/token`, { headers: basic(A, w.admin.token) });
  const bearer = { Authorization: `Bearer ${((await t.json()) as { token: string }).token}` };
  const manifest = (body: string) => ({
    method: 'PUT',
    url: `/v2/${A}/img/manifests/v1`,
    headers: { ...bearer, 'Content-Type': 'application/vnd.oci.image.manifest.v1+json' },
    body,
    expect: '4xx' as const,
  });
  const probes: Probe[] = [
    manifest('not json'),
    manifest('['.repeat(200000)),
    manifest('{"config":{"digest":"\\u0000"},"layers":[]}'),
    manifest('{"config":{"digest":"sha256:' + 'a'.repeat(64) + '"},"layers":"x"}'),
    manifest('{"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[{"digest":5}]}'),
    { method: 'PUT', url: `/v2/${A}/img/manifests/${'x'.repeat(300)}`, headers: bearer, body: '{}', expect: '4xx' },
    { method: 'POST', url: `/v2/${A}/img/blobs/uploads/?digest=%00`, headers: bearer, body: 'x', expect: '4xx' },
    { method: 'GET', url: '/v2/', headers: { Authorization: 'Bearer cairn-oci.%%%.%%%' }, expect: '4xx' },
    {
      method: 'GET',
      url: '/v2/',
      headers: { Authorization: `Bearer cairn-oci.${Buffer.from('{"u":1}').toString('base64url')}.AAAA` },
      expect: '4xx',
    },
  ];
  for (const [a, b] of fc.sample(fc.tuple(segment, segment), { seed: SEED, numRuns: 10 })) {
    probes.push({ method: 'GET', url: `/v2/${a}/img/tags/list`, headers: bearer, expect: 'not5xx' });
    probes.push({ method: 'GET', url: `/v2/${A}/${a}/manifests/${b}`, headers: bearer, expect: 'not5xx' });
    probes.push({ method: 'HEAD', url: `/v2/${A}/img/blobs/${a}`, headers: bearer, expect: 'not5xx' });
    probes.push({
      method: 'PATCH',
      url: `/v2/${A}/img/blobs/uploads/${a}`,
      headers: { ...bearer, 'Content-Range': b },
      body: 'x',
      expect: 'not5xx',
    });
    probes.push({ method: 'DELETE', url: `/v2/${A}/img/manifests/${a}`, headers: bearer, expect: 'not5xx' });
    probes.push({ method: 'DELETE', url: `/v2/${A}/img/blobs/${a}`, headers: bearer, expect: 'not5xx' });
  }
  assert.equal(await run(probes), []);
});

test('credentials: a Basic user name or a query token with NUL is a 401, sudo with NUL a 422', async () => {
  const r1 = await fetch(`${w.srv.api}/user`, { headers: basic('a\u0000b', 'x') });
  assert.is(r1.status, 401, await r1.text());
  const r2 = await fetch(`${w.srv.api}/user`, { headers: basic(`${w.admin.name}\u0000`, w.admin.password) });
  assert.is(r2.status, 401, await r2.text());
  const r3 = await fetch(`${w.srv.api}/user?token=%00`);
  assert.ok(r3.status === 401 || r3.status === 422, `${r3.status} ${await r3.text()}`);
  const r4 = await fetch(`${w.srv.api}/user?sudo=a%00`, { headers: token() });
  const text = await r4.text();
  assert.is(r4.status, 422, text);
  assert.equal(JSON.parse(text), { message: '[sudo]: Invalid', url: `${w.srv.config.appUrl}api/swagger` });
});

test('bodies nested deeper than any validator should recurse into are 4xx', async () => {
  const url = `${w.srv.api}/repos/${w.admin.name}/fuzzrepo/issues`;
  const headers = { ...token(), 'Content-Type': 'application/json' };
  for (const body of [
    '['.repeat(100_000),
    `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`,
    `{"title":"t","labels":${'['.repeat(40)}${']'.repeat(40)}}`,
  ]) {
    const r = await fetch(url, { method: 'POST', headers, body });
    const text = await r.text();
    assert.ok(r.status >= 400 && r.status < 500, `${r.status} for ${body.slice(0, 30)}… → ${text.slice(0, 200)}`);
  }
});

test.run();
