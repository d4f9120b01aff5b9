// The Cargo registry (Forgejo routers/api/packages/cargo): the real `cargo` publishes, resolves,
// fetches and yanks against the sparse index at `<ROOT>api/packages/<owner>/cargo/`, configured in a temporary
// CARGO_HOME (nothing reaches crates.io: the crates have no dependency from it), and raw requests pin the
// answers: a malformed or cut-short publish frame is 400 and stores nothing, a published version again is 409
// in Cargo's `{"errors":[{"detail"}]}` shape, and the token works as the whole Authorization header.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestUser } from '../helpers/fixtures.ts';
import { newOrg, setup, type Env } from './repo-setup.ts';
import { blobFiles as storedBlobs, spoolFiles as spooled } from '../helpers/package-store.ts';
import { requireTools } from '../helpers/tools.ts';

requireTools('cargo');

const run = promisify(execFile);

let env: Env;
let alice: TestUser;
let bob: TestUser;
let tmp: string;

const registry = (owner: string) => `${env.srv.url}/api/packages/${owner}/cargo`;

/** A CARGO_HOME naming `owner`'s registry `cairn`, with the token in credentials.toml. */
function cargoHome(owner: string, token: string): string {
  const home = fs.mkdtempSync(path.join(tmp, 'cargo-home-'));
  fs.writeFileSync(
    path.join(home, 'config.toml'),
    ['[registries.cairn]', `index = "sparse+${registry(owner)}/"`, '[registry]', 'global-credential-providers = ["cargo:token"]', ''].join(
      '\n',
    ),
  );
  fs.writeFileSync(path.join(home, 'credentials.toml'), `[registries.cairn]\ntoken = "${token}"\n`);
  return home;
}

/** Runs cargo in `cwd` with its own CARGO_HOME and target directory. */
async function cargo(cwd: string, home: string, args: string[]): Promise<{ ok: boolean; out: string }> {
  const childEnv: Record<string, string> = {};
  // `npm test` may run inside a Cargo build's environment; the child reads only its own CARGO_HOME.
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^CARGO_/i.test(k)) childEnv[k] = v;
  Object.assign(childEnv, {
    CARGO_HOME: home,
    CARGO_TARGET_DIR: path.join(tmp, 'target'),
    CARGO_REGISTRIES_CRATES_IO_PROTOCOL: 'sparse',
    CARGO_NET_OFFLINE: 'false',
    CARGO_TERM_COLOR: 'never',
  });
  if (!childEnv.RUSTUP_HOME && fs.existsSync(path.join(os.homedir(), '.rustup'))) childEnv.RUSTUP_HOME = path.join(os.homedir(), '.rustup');
  try {
    const r = await run('cargo', args, { cwd, env: childEnv, timeout: 180_000 });
    return { ok: true, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return { ok: false, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

function crateDir(name: string, version: string, extra = ''): string {
  const dir = fs.mkdtempSync(path.join(tmp, 'crate-'));
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(
    path.join(dir, 'Cargo.toml'),
    [
      '[package]',
      `name = "${name}"`,
      `version = "${version}"`,
      'edition = "2021"',
      `description = "the ${name} crate"`,
      'license = "MIT"',
      '',
      extra,
      '',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(dir, 'src', 'lib.rs'), `pub const WHO: &str = "${name}@${version}";\n`);
  return dir;
}

/** Blob files in the store, and what is left in its spool. */
const blobFiles = () => storedBlobs(env.srv.config.dataPath);
const spoolFiles = () => spooled(env.srv.config.dataPath);

/** Cargo's publish frame: u32 LE length, the JSON metadata, u32 LE length, the .crate bytes (lengths overridable). */
function frame(meta: unknown, crate: Buffer, o: { jsonLength?: number; crateLength?: number } = {}): Buffer {
  const json = Buffer.from(typeof meta === 'string' ? meta : JSON.stringify(meta));
  const a = Buffer.alloc(4);
  a.writeUInt32LE(o.jsonLength ?? json.length);
  const b = Buffer.alloc(4);
  b.writeUInt32LE(o.crateLength ?? crate.length);
  return Buffer.concat([a, json, b, crate]);
}
const meta = (name: string, vers: string, extra: Record<string, unknown> = {}) => ({
  name,
  vers,
  deps: [],
  features: {},
  authors: [],
  description: 'raw',
  license: 'MIT',
  ...extra,
});

async function raw(
  method: string,
  url: string,
  token?: string | null,
  body?: Buffer,
): Promise<{ status: number; text: string; json: any; headers: Headers }> {
  const headers: Record<string, string> = {};
  // As Cargo sends it: the token alone, no scheme.
  if (token) headers.Authorization = token;
  const r = await fetch(url, { method, headers, body: body ? new Uint8Array(body) : undefined });
  const text = await r.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: r.status, text, json, headers: r.headers };
}
const indexLines = async (owner: string, name: string, token?: string) => {
  const r = await raw(
    'GET',
    `${registry(owner)}/${name.length > 3 ? `${name.slice(0, 2)}/${name.slice(2, 4)}` : `${name.length}`}/${name}`,
    token,
  );
  return {
    status: r.status,
    lines: r.text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
  };
};

test.before(async () => {
  env = await setup();
  ({ alice, bob } = env);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-cargo-'));
});
test.after(async () => {
  await env.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('cargo CLI: publish two versions, a renamed dependency resolves and fetches, yank and unyank', async () => {
  const home = cargoHome(alice.name, alice.token);
  const features = '[features]\ndefault = ["std"]\nstd = []\n';
  const pub = await cargo(crateDir('cairn-hello', '0.1.0', features), home, [
    'publish',
    '--registry',
    'cairn',
    '--allow-dirty',
    '--no-verify',
  ]);
  assert.ok(pub.ok, pub.out);
  assert.ok(
    (await cargo(crateDir('cairn-hello', '0.2.0', features), home, ['publish', '--registry', 'cairn', '--allow-dirty', '--no-verify'])).ok,
  );

  const cfg = await raw('GET', `${registry(alice.name)}/config.json`);
  assert.is(cfg.status, 200, cfg.text);
  assert.equal(cfg.json, {
    dl: `${env.srv.config.appUrl}api/packages/${alice.name}/cargo/api/v1/crates`,
    api: `${env.srv.config.appUrl}api/packages/${alice.name}/cargo`,
  });

  const idx = await indexLines(alice.name, 'cairn-hello');
  assert.is(idx.status, 200);
  assert.equal(
    idx.lines.map((l) => l.vers),
    ['0.1.0', '0.2.0'],
  );
  const crate = Buffer.from(await (await fetch(`${registry(alice.name)}/api/v1/crates/cairn-hello/0.1.0/download`)).arrayBuffer());
  assert.equal(idx.lines[0], {
    name: 'cairn-hello',
    vers: '0.1.0',
    deps: [],
    cksum: createHash('sha256').update(crate).digest('hex'),
    features: { default: ['std'], std: [] },
    yanked: false,
    links: null,
  });

  // A crate depending on it under another name, from the `cairn` registry: published, then resolved and fetched.
  const app = crateDir('cairn-app', '1.0.0', '[dependencies]\nhello = { package = "cairn-hello", version = "0.1", registry = "cairn" }\n');
  const appPub = await cargo(app, home, ['publish', '--registry', 'cairn', '--allow-dirty', '--no-verify']);
  assert.ok(appPub.ok, appPub.out);
  const appIdx = await indexLines(alice.name, 'cairn-app');
  assert.equal(appIdx.lines[0].deps, [
    {
      name: 'hello',
      req: '^0.1',
      features: [],
      optional: false,
      default_features: true,
      target: null,
      kind: 'normal',
      registry: null,
      package: 'cairn-hello',
    },
  ]);
  fs.rmSync(path.join(app, 'Cargo.lock'), { force: true });
  const fetched = await cargo(app, home, ['fetch']);
  assert.ok(fetched.ok, fetched.out);
  assert.match(
    fs.readFileSync(path.join(app, 'Cargo.lock'), 'utf8'),
    /name = "cairn-hello"\nversion = "0\.1\.0"\nsource = "sparse\+http:\/\/127\.0\.0\.1/,
  );
  const cached = fs
    .readdirSync(path.join(home, 'registry', 'cache'))
    .flatMap((d) => fs.readdirSync(path.join(home, 'registry', 'cache', d)));
  assert.ok(cached.includes('cairn-hello-0.1.0.crate'), cached.join(', '));

  // Yanked, 0.1.0 no longer resolves for a new lock file; unyanked, it does again.
  const yank = await cargo(app, home, ['yank', '--registry', 'cairn', '--version', '0.1.0', 'cairn-hello']);
  assert.ok(yank.ok, yank.out);
  assert.equal(
    (await indexLines(alice.name, 'cairn-hello')).lines.map((l) => l.yanked),
    [true, false],
  );
  fs.rmSync(path.join(app, 'Cargo.lock'));
  const locked = await cargo(app, home, ['generate-lockfile']);
  assert.not.ok(locked.ok, locked.out);
  assert.ok((await cargo(app, home, ['yank', '--registry', 'cairn', '--version', '0.1.0', '--undo', 'cairn-hello'])).ok);
  assert.equal(
    (await indexLines(alice.name, 'cairn-hello')).lines.map((l) => l.yanked),
    [false, false],
  );
  assert.ok((await cargo(app, home, ['generate-lockfile'])).ok);

  const found = await raw('GET', `${registry(alice.name)}/api/v1/crates?q=hello`);
  assert.equal(found.json, {
    crates: [{ name: 'cairn-hello', max_version: '0.2.0', description: 'the cairn-hello crate' }],
    meta: { total: 1 },
  });
});

test('publish: a malformed or cut-short frame, a bad name or version 400 with nothing stored; the same version 409', async () => {
  const url = `${registry(alice.name)}/api/v1/crates/new`;
  const crate = Buffer.from('not really a crate');
  const before = blobFiles().length;
  const bad: [string, Buffer][] = [
    ['empty body', Buffer.alloc(0)],
    ['short length', Buffer.from([1, 0])],
    ['JSON cut short', frame(meta('framed', '1.0.0'), crate, { jsonLength: 10_000 }).subarray(0, 40)],
    ['not JSON', frame('{"name":', crate)],
    ['crate cut short', frame(meta('framed', '1.0.0'), crate, { crateLength: crate.length + 100 })],
    ['no crate length', frame(meta('framed', '1.0.0'), Buffer.alloc(0)).subarray(0, -4)],
    ['bad name', frame(meta('-framed', '1.0.0'), crate)],
    ['bad version', frame(meta('framed', '1.0'), crate)],
    ['bad deps', frame(meta('framed', '1.0.0', { deps: [{ name: 'x' }] }), crate)],
  ];
  for (const [what, body] of bad) {
    const r = await raw('PUT', url, alice.token, body);
    assert.is(r.status, 400, `${what}: ${r.text}`);
    assert.is(typeof r.json?.errors?.[0]?.detail, 'string', r.text);
  }
  assert.is(blobFiles().length, before, 'no blob stored');
  assert.equal(spoolFiles(), [], 'no spool file left');
  assert.is((await indexLines(alice.name, 'framed')).status, 404);

  const ok = await raw('PUT', url, alice.token, frame(meta('framed', '1.0.0'), crate));
  assert.is(ok.status, 200, ok.text);
  assert.equal(ok.json, { warnings: { invalid_categories: [], invalid_badges: [], other: [] } });
  const dup = await raw('PUT', url, alice.token, frame(meta('framed', '1.0.0'), Buffer.from('other bytes')));
  assert.is(dup.status, 409, dup.text);
  assert.equal(dup.json, { errors: [{ detail: 'package version already exists' }] });
  assert.is(blobFiles().length, before + 1);
  assert.equal(spoolFiles(), []);
  const dl = await fetch(`${registry(alice.name)}/api/v1/crates/framed/1.0.0/download`);
  assert.is(dl.status, 200);
  assert.equal(Buffer.from(await dl.arrayBuffer()), crate);

  const features = { default: ['serde'], serde: ['dep:serde', 'other?/std'], plain: [] };
  assert.is((await raw('PUT', url, alice.token, frame(meta('framed', '1.1.0', { features, links: 'z' }), crate))).status, 200);
  const line = (await indexLines(alice.name, 'framed')).lines[1];
  assert.equal(
    [line.features, line.features2, line.v, line.links],
    [{ default: ['serde'], plain: [] }, { serde: ['dep:serde', 'other?/std'] }, 2, 'z'],
  );
});

test("access: publish and yank need write access; a private owner's index says auth-required and needs read access", async () => {
  const url = `${registry(alice.name)}/api/v1/crates/new`;
  const body = frame(meta('guarded', '1.0.0'), Buffer.from('guarded'));
  const anon = await raw('PUT', url, null, body);
  assert.is(anon.status, 401, anon.text);
  assert.is((await raw('PUT', url, bob.token, body)).status, 401);
  assert.is((await indexLines(alice.name, 'guarded')).status, 404, 'nothing was stored');
  assert.is((await raw('PUT', url, `Bearer ${alice.token}`, body)).status, 200, 'a token with a scheme works too');
  assert.is((await raw('DELETE', `${registry(alice.name)}/api/v1/crates/guarded/1.0.0/yank`, bob.token)).status, 401);
  assert.is((await raw('DELETE', `${registry(alice.name)}/api/v1/crates/guarded/9.9.9/yank`, alice.token)).status, 404);
  const yank = await raw('DELETE', `${registry(alice.name)}/api/v1/crates/guarded/1.0.0/yank`, alice.token);
  assert.equal([yank.status, yank.json], [200, { ok: true }]);
  const unyank = await raw('PUT', `${registry(alice.name)}/api/v1/crates/guarded/1.0.0/unyank`, alice.token);
  assert.equal([unyank.status, unyank.json], [200, { ok: true }]);
  assert.is((await raw('GET', `${registry(alice.name)}/gx/ar/guarded`)).status, 404, 'the index path must match the name');

  const org = (await newOrg(env, alice, { visibility: 'private' })).name;
  assert.is(
    (await raw('PUT', `${registry(org)}/api/v1/crates/new`, alice.token, frame(meta('secret', '1.0.0'), Buffer.from('secret')))).status,
    200,
  );
  assert.is((await raw('GET', `${registry(org)}/config.json`)).status, 401);
  assert.is((await indexLines(org, 'secret')).status, 401);
  assert.is((await indexLines(org, 'secret', bob.token)).status, 401);
  const cfg = await raw('GET', `${registry(org)}/config.json`, alice.token);
  assert.is(cfg.json['auth-required'], true);
  assert.is((await indexLines(org, 'secret', alice.token)).lines.length, 1);

  // cargo itself: a 401 on config.json makes it send the token with every request of that registry.
  const home = cargoHome(org, alice.token);
  const app = crateDir('secret-app', '1.0.0', '[dependencies]\nsecret = { version = "1", registry = "cairn" }\n');
  const locked = await cargo(app, home, ['generate-lockfile']);
  assert.ok(locked.ok, locked.out);
  assert.match(fs.readFileSync(path.join(app, 'Cargo.lock'), 'utf8'), 'name = "secret"');
});

test.run();
