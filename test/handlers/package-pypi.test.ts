// The PyPI registry (Forgejo routers/api/packages/pypi): uploads through the multipart
// form twine sends, the PEP 503 simple index with `#sha256=` links and `data-requires-python`, and the real
// `pip install --index-url …` against it. A wrong digest, a bad name or version is 400 and stores nothing;
// the same file again is 409.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestUser } from '../helpers/fixtures.ts';
import { newOrg, setup, valid, type Env } from './repo-setup.ts';
import { blobFiles as storedBlobs, spoolFiles as spooled } from '../helpers/package-store.ts';

const run = promisify(execFile);

let env: Env;
let alice: TestUser;
let bob: TestUser;
let tmp: string;

const registry = (owner: string) => `${env.srv.url}/api/packages/${owner}/pypi`;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

// A minimal pure-Python wheel: the module, METADATA, WHEEL and RECORD (what pip needs to install it).
const WHEEL_SCRIPT = `
import sys, zipfile
out, dist, version, module, body = sys.argv[1:6]
info = f"{dist}-{version}.dist-info"
files = {
  f"{module}/__init__.py": body,
  f"{info}/METADATA": f"Metadata-Version: 2.1\\nName: {dist}\\nVersion: {version}\\n",
  f"{info}/WHEEL": "Wheel-Version: 1.0\\nGenerator: cairn-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
record = "".join(f"{n},,\\n" for n in files) + f"{info}/RECORD,,\\n"
with zipfile.ZipFile(out, "w") as z:
  for n, c in files.items():
    z.writestr(n, c)
  z.writestr(f"{info}/RECORD", record)
`;
import { requireTools } from '../helpers/tools.ts';

requireTools('pip');

async function wheel(dist: string, version: string, body: string): Promise<{ file: string; name: string; bytes: Buffer }> {
  const name = `${dist}-${version}-py3-none-any.whl`;
  const file = path.join(tmp, name);
  await run('python3', ['-c', WHEEL_SCRIPT, file, dist, version, dist, body]);
  return { file, name, bytes: fs.readFileSync(file) };
}

/** The multipart form twine's `upload` sends; `fields` override or add to it. */
async function upload(
  owner: string,
  token: string | null,
  w: { name: string; bytes: Buffer },
  fields: Record<string, string | string[]> = {},
  withContent = true,
) {
  const form = new FormData();
  const base: Record<string, string | string[]> = {
    ':action': 'file_upload',
    protocol_version: '1',
    metadata_version: '2.1',
    filetype: 'bdist_wheel',
    pyversion: 'py3',
    md5_digest: createHash('md5').update(w.bytes).digest('hex'),
    sha256_digest: sha256(w.bytes),
    summary: 'a demo',
    author: 'Alice',
    license: 'MIT',
    ...fields,
  };
  for (const [k, v] of Object.entries(base)) for (const x of Array.isArray(v) ? v : [v]) form.append(k, x);
  if (withContent) form.append('content', new Blob([new Uint8Array(w.bytes)], { type: 'application/octet-stream' }), w.name);
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Basic ${Buffer.from(`__token__:${token}`).toString('base64')}`;
  const r = await fetch(`${registry(owner)}/`, { method: 'POST', headers, body: form });
  return { status: r.status, text: await r.text(), headers: r.headers };
}

/** Runs pip against the owner's simple index with the token in the URL, as twine/pip users configure it. */
async function pipInstall(owner: string, token: string, target: string, spec: string) {
  const index = `${registry(owner)}/simple/`.replace('://', `://__token__:${token}@`);
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(PIP_|npm_)/i.test(k) && !/proxy/i.test(k)) childEnv[k] = v;
  Object.assign(childEnv, { HOME: tmp, PIP_CONFIG_FILE: os.devNull, PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INPUT: '1' });
  try {
    const r = await run(
      'python3',
      ['-m', 'pip', 'install', '--index-url', index, '--target', target, '--no-cache-dir', '--no-deps', spec],
      { env: childEnv, timeout: 120_000 },
    );
    return { ok: true, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return { ok: false, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

/** Blob files in the store (temporary spool files excluded). */
const blobFiles = () => storedBlobs(env.srv.config.dataPath);
const spoolFiles = () => spooled(env.srv.config.dataPath);

test.before(async () => {
  env = await setup();
  ({ alice, bob } = env);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-pypi-'));
});
test.after(async () => {
  await env.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('pip installs what the twine form uploaded; the index links files with #sha256= and data-requires-python', async () => {
  const org = (await newOrg(env, alice, { visibility: 'private' })).name;
  const w1 = await wheel('cairn_demo', '1.0.0', 'VALUE = "one"\n');
  const w2 = await wheel('cairn_demo', '2.0.0', 'VALUE = "two"\n');
  const up1 = await upload(org, alice.token, w1, {
    name: 'cairn_demo',
    version: '1.0.0',
    requires_python: '>=3.7',
    project_urls: ['Homepage, https://example.com/demo'],
  });
  assert.is(up1.status, 201, up1.text);
  // 2.0.0 needs a Python that does not exist: pip must skip it by its data-requires-python.
  assert.is((await upload(org, alice.token, w2, { name: 'cairn.demo', version: '2.0.0', requires_python: '>=4' })).status, 201);

  const index = await fetch(`${registry(org)}/simple/cairn-demo/`, { headers: { Authorization: `token ${alice.token}` } });
  assert.is(index.status, 200);
  assert.match(index.headers.get('content-type') ?? '', 'text/html');
  const html = await index.text();
  assert.match(
    html,
    `<a href="${registry(org)}/files/cairn-demo/1.0.0/${w1.name}#sha256=${sha256(w1.bytes)}" data-requires-python="&#62;=3.7">${w1.name}</a>`,
  );
  assert.match(html, `/files/cairn-demo/2.0.0/${w2.name}#sha256=${sha256(w2.bytes)}" data-requires-python="&#62;=4"`);
  // Name normalisation: `Cairn_Demo` is the same project.
  assert.is((await fetch(`${registry(org)}/simple/Cairn_Demo`, { headers: { Authorization: `token ${alice.token}` } })).status, 200);

  const json = await fetch(`${registry(org)}/simple/cairn-demo/`, {
    headers: { Authorization: `token ${alice.token}`, Accept: 'application/vnd.pypi.simple.v1+json' },
  });
  const doc = (await json.json()) as {
    name: string;
    versions: string[];
    files: { filename: string; hashes: { sha256: string }; 'requires-python': string }[];
  };
  assert.equal(doc.versions, ['1.0.0', '2.0.0']);
  assert.equal(
    doc.files.map((f) => [f.filename, f.hashes.sha256, f['requires-python']]),
    [
      [w1.name, sha256(w1.bytes), '>=3.7'],
      [w2.name, sha256(w2.bytes), '>=4'],
    ],
  );

  const target = fs.mkdtempSync(path.join(tmp, 'site-'));
  const pip = await pipInstall(org, alice.token, target, 'cairn-demo');
  assert.ok(pip.ok, pip.out);
  assert.is(fs.readFileSync(path.join(target, 'cairn_demo/__init__.py'), 'utf8'), 'VALUE = "one"\n');
  assert.ok(fs.existsSync(path.join(target, 'cairn_demo-1.0.0.dist-info/METADATA')));

  const dl = await fetch(`${registry(org)}/files/cairn-demo/1.0.0/${w1.name}`, { headers: { Authorization: `token ${alice.token}` } });
  assert.ok(Buffer.from(await dl.arrayBuffer()).equals(w1.bytes));

  const listed = await env.as(alice, 'GET', `/packages/${org}?type=pypi`);
  assert.is(listed.status, 200);
  for (const p of listed.json) valid('Package', p);
  assert.equal(listed.json.map((p: { name: string; version: string }) => `${p.name}@${p.version}`).sort(), [
    'cairn-demo@1.0.0',
    'cairn-demo@2.0.0',
  ]);
  const files = await env.as(alice, 'GET', `/packages/${org}/pypi/cairn-demo/1.0.0/files`);
  assert.equal(
    files.json.map((f: { name: string; sha256: string }) => [f.name, f.sha256]),
    [[w1.name, sha256(w1.bytes)]],
  );
});

test('upload: wrong sha256_digest, no content, bad name or version 400 with nothing stored; the same file 409, another file joins', async () => {
  const w = await wheel('checked', '1.0.0', 'X = 1\n');
  const before = blobFiles().length;
  const bad: [Record<string, string>, boolean][] = [
    [{ name: 'checked', version: '1.0.0', sha256_digest: sha256(Buffer.from('other')) }, true],
    [{ name: 'checked', version: '1.0.0', sha256_digest: '' }, true],
    [{ name: 'checked', version: '1.0.0' }, false],
    [{ name: '-checked', version: '1.0.0' }, true],
    [{ name: 'checked', version: 'one.two' }, true],
  ];
  for (const [fields, withContent] of bad) {
    const r = await upload(alice.name, alice.token, w, fields, withContent);
    assert.is(r.status, 400, `${r.text} for ${JSON.stringify(fields)}`);
  }
  assert.is(blobFiles().length, before, 'no blob stored');
  assert.equal(spoolFiles(), [], 'no spool file left');
  assert.is((await fetch(`${registry(alice.name)}/simple/checked/`)).status, 404);

  assert.is((await upload(alice.name, alice.token, w, { name: 'checked', version: '1.0.0' })).status, 201);
  assert.is((await upload(alice.name, alice.token, w, { name: 'checked', version: '1.0.0' })).status, 409);
  const sdist = { name: 'checked-1.0.0.tar.gz', bytes: Buffer.from('not really a tarball') };
  assert.is((await upload(alice.name, alice.token, sdist, { name: 'checked', version: '1.0.0', filetype: 'sdist' })).status, 201);
  const html = await (await fetch(`${registry(alice.name)}/simple/checked/`)).text();
  assert.match(html, `>${w.name}</a>`);
  assert.match(html, `#sha256=${sha256(sdist.bytes)}">checked-1.0.0.tar.gz</a>`);
  assert.not.match(html, 'data-requires-python', 'none was given');
  assert.equal(spoolFiles(), []);
});

test("access: anonymous or foreign upload 401 with a challenge; a public owner's index is public, a private one's is not", async () => {
  const w = await wheel('guarded', '1.0.0', 'X = 1\n');
  const anon = await upload(alice.name, null, w, { name: 'guarded', version: '1.0.0' });
  assert.is(anon.status, 401);
  assert.match(anon.headers.get('www-authenticate') ?? '', /^Basic/);
  assert.is((await upload(alice.name, bob.token, w, { name: 'guarded', version: '1.0.0' })).status, 401);
  assert.is((await fetch(`${registry(alice.name)}/simple/guarded/`)).status, 404, 'nothing was stored');
  assert.is((await upload(alice.name, alice.token, w, { name: 'guarded', version: '1.0.0' })).status, 201);
  assert.is((await fetch(`${registry(alice.name)}/simple/guarded/`)).status, 200);
  assert.is((await fetch(`${registry(alice.name)}/files/guarded/1.0.0/${w.name}`)).status, 200);

  const org = (await newOrg(env, alice, { visibility: 'private' })).name;
  assert.is((await upload(org, alice.token, w, { name: 'guarded', version: '1.0.0' })).status, 201);
  assert.is((await fetch(`${registry(org)}/simple/guarded/`)).status, 401);
  const target = fs.mkdtempSync(path.join(tmp, 'site-'));
  const pip = await pipInstall(org, bob.token, target, 'guarded');
  assert.not.ok(pip.ok, "bob may not read the private organization's packages");
});

test.run();
