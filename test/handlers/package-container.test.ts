// The container registry (OCI distribution spec, Forgejo routers/api/packages/container):
// Debian's `skopeo` copies an OCI image layout to `<ROOT>v2/<owner>/<image>:<tag>` and back, inspects it and
// lists its tags, through Forgejo's token dance (`/v2/token`). Raw requests pin the rest: monolithic and
// chunked blob uploads, a wrong digest 400 with nothing stored, a manifest naming an unknown blob 404,
// manifests by tag and by digest, indexes, deletion, and the Bearer challenge.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestUser } from '../helpers/fixtures.ts';
import { newOrg, setup, valid, type Env } from './repo-setup.ts';
import { blobFiles as storedBlobs } from '../helpers/package-store.ts';
import { requireTools } from '../helpers/tools.ts';

requireTools('skopeo');

const run = promisify(execFile);

let env: Env;
let alice: TestUser;
let bob: TestUser;
let tmp: string;
let policy: string;

const digestOf = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const host = () => env.srv.url.replace(/^http:\/\//, '');

interface Blob {
  digest: string;
  bytes: Buffer;
  mediaType: string;
}
interface Image {
  config: Blob;
  layer: Blob;
  manifest: Blob;
}

/** An image of one layer holding `hello.txt`, as blobs. */
async function image(text: string): Promise<Image> {
  const src = fs.mkdtempSync(path.join(tmp, 'src-'));
  fs.writeFileSync(path.join(src, 'hello.txt'), text);
  const tarFile = path.join(tmp, `${path.basename(src)}.tar`);
  await run('tar', ['-cf', tarFile, '-C', src, 'hello.txt']);
  const tar = fs.readFileSync(tarFile);
  const layerBytes = zlib.gzipSync(tar);
  const layer = { digest: digestOf(layerBytes), bytes: layerBytes, mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip' };
  const configBytes = Buffer.from(
    JSON.stringify({ architecture: 'amd64', os: 'linux', config: {}, rootfs: { type: 'layers', diff_ids: [digestOf(tar)] } }),
  );
  const config = { digest: digestOf(configBytes), bytes: configBytes, mediaType: 'application/vnd.oci.image.config.v1+json' };
  const manifestBytes = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: config.mediaType, digest: config.digest, size: configBytes.length },
      layers: [{ mediaType: layer.mediaType, digest: layer.digest, size: layerBytes.length }],
    }),
  );
  return {
    config,
    layer,
    manifest: { digest: digestOf(manifestBytes), bytes: manifestBytes, mediaType: 'application/vnd.oci.image.manifest.v1+json' },
  };
}

/** Writes `img` as an OCI image layout directory with the tag `tag`. */
function ociLayout(img: Image, tag: string): string {
  const dir = fs.mkdtempSync(path.join(tmp, 'oci-'));
  fs.mkdirSync(path.join(dir, 'blobs', 'sha256'), { recursive: true });
  for (const b of [img.config, img.layer, img.manifest]) fs.writeFileSync(path.join(dir, 'blobs', 'sha256', b.digest.slice(7)), b.bytes);
  fs.writeFileSync(path.join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  fs.writeFileSync(
    path.join(dir, 'index.json'),
    JSON.stringify({
      schemaVersion: 2,
      manifests: [
        {
          mediaType: img.manifest.mediaType,
          digest: img.manifest.digest,
          size: img.manifest.bytes.length,
          annotations: { 'org.opencontainers.image.ref.name': tag },
        },
      ],
    }),
  );
  return dir;
}

async function skopeo(args: string[]): Promise<{ ok: boolean; out: string }> {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/proxy/i.test(k)) childEnv[k] = v;
  Object.assign(childEnv, { HOME: tmp, XDG_RUNTIME_DIR: tmp, REGISTRY_AUTH_FILE: path.join(tmp, 'auth.json') });
  try {
    const r = await run('skopeo', ['--policy', policy, ...args], { env: childEnv, timeout: 120_000 });
    return { ok: true, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return { ok: false, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

/** A registry token from `/v2/token`, as clients get one (Basic credentials, or none for anonymous). */
async function registryToken(u?: TestUser): Promise<string> {
  const headers: Record<string, string> = u ? { Authorization: `Basic ${Buffer.from(`${u.name}:${u.token}`).toString('base64')}` } : {};
  const r = await fetch(`${env.srv.url}/v2/token?service=container_registry&scope=*`, { headers });
  assert.is(r.status, 200);
  return ((await r.json()) as { token: string }).token;
}

async function req(method: string, p: string, token: string | null, body?: Buffer | string, headers: Record<string, string> = {}) {
  const h: Record<string, string> = { ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  const r = await fetch(`${env.srv.url}${p}`, {
    method,
    headers: h,
    body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
  });
  const bytes = Buffer.from(await r.arrayBuffer());
  let json: any = null;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    /* not JSON */
  }
  return { status: r.status, headers: r.headers, bytes, json };
}

/** Blob files in the store (temporary spool files excluded). */
const blobFiles = () => storedBlobs(env.srv.config.dataPath);

test.before(async () => {
  env = await setup();
  ({ alice, bob } = env);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-oci-'));
  policy = path.join(tmp, 'policy.json');
  fs.writeFileSync(policy, JSON.stringify({ default: [{ type: 'insecureAcceptAnything' }] }));
});
test.after(async () => {
  await env.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('skopeo: copy an OCI layout to the registry and back, inspect it, list its tags', async () => {
  const img = await image('hello from cairn\n');
  const src = ociLayout(img, 'v1');
  const ref = `docker://${host()}/${alice.name}/demo/app:v1`;
  const up = await skopeo(['copy', '--dest-tls-verify=false', '--dest-creds', `${alice.name}:${alice.token}`, `oci:${src}:v1`, ref]);
  assert.ok(up.ok, up.out);

  const inspect = await skopeo(['inspect', '--tls-verify=false', '--creds', `${alice.name}:${alice.token}`, ref]);
  assert.ok(inspect.ok, inspect.out);
  const info = JSON.parse(inspect.out) as { Digest: string; Layers: string[]; Os: string };
  assert.is(info.Digest, img.manifest.digest);
  assert.equal(info.Layers, [img.layer.digest]);
  assert.is(info.Os, 'linux');

  const out = path.join(tmp, 'pulled');
  const down = await skopeo(['copy', '--src-tls-verify=false', '--src-creds', `${alice.name}:${alice.token}`, ref, `oci:${out}:v1`]);
  assert.ok(down.ok, down.out);
  for (const b of [img.config, img.layer, img.manifest]) {
    assert.ok(fs.readFileSync(path.join(out, 'blobs', 'sha256', b.digest.slice(7))).equals(b.bytes), b.digest);
  }

  // A second tag of the same image, then the tag list.
  assert.ok(
    (
      await skopeo([
        'copy',
        '--dest-tls-verify=false',
        '--dest-creds',
        `${alice.name}:${alice.token}`,
        `oci:${src}:v1`,
        ref.replace(':v1', ':latest'),
      ])
    ).ok,
  );
  const tags = await skopeo([
    'list-tags',
    '--tls-verify=false',
    '--creds',
    `${alice.name}:${alice.token}`,
    `docker://${host()}/${alice.name}/demo/app`,
  ]);
  assert.ok(tags.ok, tags.out);
  assert.equal(JSON.parse(tags.out).Tags, ['latest', 'v1']);

  // Public owner: anonymous pulls work through the anonymous token; the API lists the tags, not the uploads.
  const anon = await skopeo(['inspect', '--tls-verify=false', '--no-creds', ref]);
  assert.ok(anon.ok, anon.out);
  const listed = await env.as(alice, 'GET', `/packages/${alice.name}?type=container`);
  for (const p of listed.json) valid('Package', p);
  assert.equal(listed.json.map((p: { name: string; version: string }) => `${p.name}:${p.version}`).sort(), [
    'demo/app:latest',
    'demo/app:v1',
  ]);
});

test('blob uploads: monolithic and chunked; wrong digest 400 and nothing stored; out-of-order chunk 416', async () => {
  const token = await registryToken(alice);
  const base = `/v2/${alice.name}/blobs-test`;
  const before = blobFiles().length;
  const data = Buffer.from('some layer bytes');
  const wrong = await req('POST', `${base}/blobs/uploads/?digest=${digestOf('other')}`, token, data);
  assert.is(wrong.status, 400);
  assert.is(wrong.json.errors[0].code, 'DIGEST_INVALID');
  assert.is(blobFiles().length, before, 'nothing stored');
  assert.is((await req('HEAD', `${base}/blobs/${digestOf(data)}`, token)).status, 404);

  const mono = await req('POST', `${base}/blobs/uploads/?digest=${digestOf(data)}`, token, data);
  assert.is(mono.status, 201);
  assert.is(mono.headers.get('docker-content-digest'), digestOf(data));
  const head = await req('HEAD', `${base}/blobs/${digestOf(data)}`, token);
  assert.is(head.status, 200);
  assert.is(head.headers.get('content-length'), String(data.length));
  assert.ok((await req('GET', `${base}/blobs/${digestOf(data)}`, token)).bytes.equals(data));

  // Chunked: POST opens a session, PATCHes append in order, PUT ?digest= ends it.
  const big = Buffer.concat([Buffer.alloc(70_000, 1), Buffer.alloc(70_000, 2)]);
  const open = await req('POST', `${base}/blobs/uploads/`, token);
  assert.is(open.status, 202);
  const location = open.headers.get('location')!;
  assert.match(location, `${base}/blobs/uploads/`);
  const c1 = await req('PATCH', location, token, big.subarray(0, 70_000), {
    'Content-Range': '0-69999',
    'Content-Type': 'application/octet-stream',
  });
  assert.is(c1.status, 202);
  assert.is(c1.headers.get('range'), '0-69999');
  assert.is((await req('PATCH', location, token, big.subarray(70_000), { 'Content-Range': '5-9' })).status, 416);
  assert.is((await req('PATCH', location, token, big.subarray(70_000), { 'Content-Range': '70000-139999' })).status, 202);
  assert.is((await req('GET', location, token)).headers.get('range'), '0-140000');
  const badEnd = await req('PUT', `${location}?digest=${digestOf('nope')}`, token);
  assert.is(badEnd.status, 400);
  assert.is((await req('HEAD', `${base}/blobs/${digestOf(big)}`, token)).status, 404);
  const open2 = await req('POST', `${base}/blobs/uploads/`, token);
  const loc2 = open2.headers.get('location')!;
  assert.is((await req('PATCH', loc2, token, big.subarray(0, 100), { 'Content-Range': '0-99' })).status, 202);
  const end = await req('PUT', `${loc2}?digest=${digestOf(big)}`, token, big.subarray(100));
  assert.is(end.status, 201);
  assert.ok((await req('GET', `${base}/blobs/${digestOf(big)}`, token)).bytes.equals(big));
  assert.is((await req('GET', loc2, token)).status, 404, 'the finished session is gone');
  assert.is((await req('DELETE', location, token)).status, 204, 'the failed session can be cancelled');
});

test('manifests: unknown blob 404, digest mismatch 400, by tag and digest, index, delete', async () => {
  const token = await registryToken(alice);
  const base = `/v2/${alice.name}/manifests-test`;
  const img = await image('manifest test\n');
  const put = (ref: string, m: Blob) => req('PUT', `${base}/manifests/${ref}`, token, m.bytes, { 'Content-Type': m.mediaType });
  const missing = await put('v1', img.manifest);
  assert.is(missing.status, 404);
  assert.is(missing.json.errors[0].code, 'BLOB_UNKNOWN');
  for (const b of [img.config, img.layer])
    assert.is((await req('POST', `${base}/blobs/uploads/?digest=${b.digest}`, token, b.bytes)).status, 201);
  assert.is((await put(digestOf('other'), img.manifest)).status, 400);
  assert.is(
    (await req('PUT', `${base}/manifests/v1`, token, '{"schemaVersion":2}', { 'Content-Type': 'application/x-unknown' })).status,
    400,
  );

  const ok = await put('v1', img.manifest);
  assert.is(ok.status, 201);
  assert.is(ok.headers.get('docker-content-digest'), img.manifest.digest);
  for (const ref of ['v1', img.manifest.digest]) {
    const got = await req('GET', `${base}/manifests/${ref}`, token);
    assert.is(got.status, 200, ref);
    assert.is(got.headers.get('content-type'), img.manifest.mediaType);
    assert.is(got.headers.get('docker-content-digest'), img.manifest.digest);
    assert.ok(got.bytes.equals(img.manifest.bytes));
  }
  // An index naming the manifest, pushed by tag.
  const index = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests: [
        {
          mediaType: img.manifest.mediaType,
          digest: img.manifest.digest,
          size: img.manifest.bytes.length,
          platform: { architecture: 'amd64', os: 'linux' },
        },
      ],
    }),
  );
  const unknownIndex = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests: [{ digest: digestOf('x'), size: 1 }],
    }),
  );
  assert.is(
    (await put('multi', { digest: digestOf(unknownIndex), bytes: unknownIndex, mediaType: 'application/vnd.oci.image.index.v1+json' }))
      .status,
    404,
  );
  assert.is(
    (await put('multi', { digest: digestOf(index), bytes: index, mediaType: 'application/vnd.oci.image.index.v1+json' })).status,
    201,
  );
  assert.equal((await req('GET', `${base}/tags/list`, token)).json, { name: `${alice.name}/manifests-test`, tags: ['multi', 'v1'] });
  const page = await req('GET', `${base}/tags/list?n=1`, token);
  assert.equal(page.json.tags, ['multi']);
  assert.match(page.headers.get('link') ?? '', 'last=multi');

  assert.is((await req('DELETE', `${base}/manifests/v1`, token)).status, 202);
  assert.is((await req('GET', `${base}/manifests/v1`, token)).status, 404);
  assert.is((await req('GET', `${base}/manifests/multi`, token)).status, 200);
  assert.is((await req('DELETE', `${base}/manifests/v1`, token)).status, 404);
});

test('auth: no token 401 with the Bearer challenge; foreign push 401; private owner hidden; bad token 401', async () => {
  const none = await req('GET', '/v2/', null);
  assert.is(none.status, 401);
  assert.match(none.headers.get('www-authenticate') ?? '', `Bearer realm="${env.srv.url}/v2/token",service="container_registry",scope="*"`);
  assert.is(none.json.errors[0].code, 'UNAUTHORIZED');
  assert.is((await req('GET', '/v2/', await registryToken())).status, 200, 'an anonymous token opens /v2/');
  assert.is((await req('GET', '/v2/', 'cairn-oci.forged.x')).status, 401);
  const wrong = await fetch(`${env.srv.url}/v2/token`, {
    headers: { Authorization: `Basic ${Buffer.from(`${alice.name}:nope`).toString('base64')}` },
  });
  assert.is(wrong.status, 401);

  const data = Buffer.from('x');
  const bobToken = await registryToken(bob);
  const foreign = await req('POST', `/v2/${alice.name}/img/blobs/uploads/?digest=${digestOf(data)}`, bobToken, data);
  assert.is(foreign.status, 401);
  assert.is((await req('POST', `/v2/${alice.name}/img/blobs/uploads/?digest=${digestOf(data)}`, await registryToken(), data)).status, 401);
  assert.is(
    (await req('POST', `/v2/${alice.name}/Bad_Name/blobs/uploads/?digest=${digestOf(data)}`, await registryToken(alice), data)).status,
    400,
  );

  const org = (await newOrg(env, alice, { visibility: 'private' })).name;
  const aliceToken = await registryToken(alice);
  assert.is((await req('POST', `/v2/${org}/img/blobs/uploads/?digest=${digestOf(data)}`, aliceToken, data)).status, 201);
  assert.is((await req('HEAD', `/v2/${org}/img/blobs/${digestOf(data)}`, aliceToken)).status, 200);
  assert.is((await req('HEAD', `/v2/${org}/img/blobs/${digestOf(data)}`, bobToken)).status, 401);
  assert.is((await req('HEAD', `/v2/${org}/img/blobs/${digestOf(data)}`, await registryToken())).status, 401);
});

test.run();
