// `cairn admin dump` and `restore` (lib/maintenance/dump.ts): an instance with users, repositories, issues, a
// release asset, an LFS object, a package and an avatar, dumped while pushes and API writes run, then
// restored into a fresh data directory and database, answers the same API reads, serves the same
// bytes, and every repository passes `git fsck`; what the load wrote is in the copy whole or not at all.
// On PostgreSQL the database goes through pg_dump and psql, and a json dump is restored into the
// embedded database; on the embedded database, the json dump into another embedded one.
import { createHash, randomBytes } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { loadConfig, type Config } from '../../config.ts';
import { openDatabase } from '../../model/db.ts';
import { dumpArgs, runAdmin } from '../../cli-admin.ts';
import { restoreInstance } from '../../lib/maintenance/dump.ts';
import { call } from '../helpers/client.ts';
import { makeRepo, makeUser, type TestUser } from '../helpers/fixtures.ts';
import { cloneUrl, commitFiles, mustGit, workDir } from '../helpers/git-cli.ts';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { requireTools } from '../helpers/tools.ts';
import { createScratchDb } from '../helpers/scratch-db.ts';

const base = process.env.CAIRN__DATABASE__URL;
if (base) requireTools('pg_dump');

let t: TestDb;
let srv: TestServer;
let cfg: Config;
let alice: TestUser;
let bob: TestUser;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-dump-test-'));
const LFS_BYTES = randomBytes(3000);
const LFS_OID = createHash('sha256').update(LFS_BYTES).digest('hex');
const ASSET = Buffer.from('release asset bytes\n');
const PACKAGE = randomBytes(2048);
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
const SETTINGS = { SERVER__LFS_START_SERVER: 'true' };
let releaseAssetUrl = '';

const as = (u: TestUser, method: string, p: string, body?: unknown) => call(srv.api, method, p, { token: u.token, body });
const basic = (u: TestUser) => `Basic ${Buffer.from(`${u.name}:${u.token}`).toString('base64')}`;
async function rejects(p: Promise<unknown>, message: RegExp): Promise<void> {
  try {
    await p;
  } catch (e) {
    assert.match((e as Error).message, message);
    return;
  }
  assert.unreachable(`resolved; expected ${message}`);
}
function must<T extends { status: number; text: string }>(r: T, status: number, what: string): T {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r;
}

test.before(async () => {
  t = await openTestDb();
  srv = await startServer(t, SETTINGS);
  cfg = { ...srv.config, DATABASE: { ...srv.config.DATABASE, URL: t.url ?? '' } };
  alice = await makeUser(t, srv.api);
  bob = await makeUser(t, srv.api);
  await makeRepo(srv.api, alice, { name: 'stable', auto_init: true, description: 'kept as it was' });
  await makeRepo(srv.api, alice, { name: 'busy', auto_init: true });
  await makeRepo(srv.api, bob, { name: 'private', auto_init: true, private: true });
  must(
    await as(alice, 'POST', `/repos/${alice.name}/stable/wiki/new`, {
      title: 'Home',
      content_base64: Buffer.from('wiki home').toString('base64'),
    }),
    201,
    'wiki',
  );
  for (let i = 1; i <= 3; i++) {
    const issue = must(
      await as(alice, 'POST', `/repos/${alice.name}/stable/issues`, { title: `issue ${i}`, body: `body ${i} ✓` }),
      201,
      'issue',
    );
    must(
      await as(bob, 'POST', `/repos/${alice.name}/stable/issues/${issue.json.number}/comments`, { body: `comment on ${i}` }),
      201,
      'comment',
    );
  }
  must(await as(alice, 'POST', `/repos/${alice.name}/stable/labels`, { name: 'bug', color: '#ee0701' }), 201, 'label');
  const release = must(
    await as(alice, 'POST', `/repos/${alice.name}/stable/releases`, {
      tag_name: 'v1.0',
      name: 'One',
      body: 'first',
      target_commitish: 'main',
    }),
    201,
    'release',
  );
  const fd = new FormData();
  fd.append('attachment', new Blob([new Uint8Array(ASSET)]), 'notes.txt');
  const asset = await fetch(`${srv.api}/repos/${alice.name}/stable/releases/${release.json.id}/assets?name=notes.txt`, {
    method: 'POST',
    headers: { Authorization: `token ${alice.token}` },
    body: fd,
  });
  assert.is(asset.status, 201, await asset.clone().text());
  releaseAssetUrl = ((await asset.json()) as { browser_download_url: string }).browser_download_url.replace(srv.config.appUrl, '');
  // An LFS object and the pointer file naming it.
  const put = await fetch(`${srv.url}/${alice.name}/stable.git/info/lfs/objects/${LFS_OID}/${LFS_BYTES.length}`, {
    method: 'PUT',
    headers: { Authorization: basic(alice) },
    body: new Uint8Array(LFS_BYTES),
  });
  assert.is(put.status, 200, await put.text());
  const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${LFS_OID}\nsize ${LFS_BYTES.length}\n`;
  must(
    await as(alice, 'POST', `/repos/${alice.name}/stable/contents/big.bin`, {
      content: Buffer.from(pointer).toString('base64'),
      message: 'LFS file',
    }),
    201,
    'pointer',
  );
  const pkg = await fetch(`${srv.url}/api/packages/${alice.name}/generic/tool/1.0.0/tool.bin`, {
    method: 'PUT',
    headers: { Authorization: basic(alice) },
    body: new Uint8Array(PACKAGE),
  });
  assert.is(pkg.status, 201, await pkg.text());
  must(await as(alice, 'POST', '/user/avatar', { image: PNG.toString('base64') }), 204, 'avatar');
});

test.after(async () => {
  await srv.close();
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The API reads compared between the instance and its restored copy, and the bytes it serves. */
const READS = () => [
  `/users/${alice.name}`,
  `/users/${bob.name}`,
  `/users/${bob.name}/repos`,
  `/repos/search?q=stable`,
  `/repos/${alice.name}/stable`,
  `/repos/${alice.name}/stable/branches`,
  `/repos/${alice.name}/stable/tags`,
  `/repos/${alice.name}/stable/commits?limit=10`,
  `/repos/${alice.name}/stable/contents/README.md`,
  `/repos/${alice.name}/stable/issues?state=all`,
  `/repos/${alice.name}/stable/issues/1/comments`,
  `/repos/${alice.name}/stable/labels`,
  `/repos/${alice.name}/stable/releases`,
  `/repos/${alice.name}/stable/wiki/pages`,
  `/packages/${alice.name}`,
  `/repos/${bob.name}/private`,
];
const BYTES = () =>
  [
    [`/api/v1/repos/${alice.name}/stable/media/big.bin`, LFS_BYTES],
    [`/${releaseAssetUrl}`, ASSET],
    [`/api/packages/${alice.name}/generic/tool/1.0.0/tool.bin`, PACKAGE],
  ] as const;

const normal = (s: TestServer, text: string) => text.split(s.url).join('ORIGIN').split(s.config.appUrl.replace(/\/$/, '')).join('ORIGIN');

async function readAll(s: TestServer, u: TestUser): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const p of READS()) {
    const r = await call(s.api, 'GET', p, { token: p.includes(bob.name) ? (u === alice ? bob.token : u.token) : u.token });
    out[p] = `${r.status} ${normal(s, r.text)}`;
  }
  const me = await call(s.api, 'GET', '/user', { token: u.token });
  const avatar = await fetch(me.json.avatar_url as string);
  out.avatar = `${avatar.status} ${createHash('sha256')
    .update(Buffer.from(await avatar.arrayBuffer()))
    .digest('hex')}`;
  return out;
}

interface Load {
  stop(): Promise<{ pushes: string[]; issues: number; during: number }>;
}

/** Pushes to `busy` and new issues in it, one after another each, until stopped; `during` counts those that overlapped `window`. */
function startLoad(window: { start: number; end: number }): Load {
  let stopping = false;
  const pushes: string[] = [];
  let issues = 0;
  let during = 0;
  const overlaps = (a: number, b: number) => a <= (window.end || Number.POSITIVE_INFINITY) && b >= window.start && window.start > 0;
  const dir = workDir('cairn-dump-load-');
  const pushing = (async () => {
    await mustGit(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'busy', [alice.name, alice.token]), dir);
    for (let i = 0; !stopping && i < 400; i++) {
      const a = Date.now();
      const sha = await commitFiles(dir, { [`load-${i}.txt`]: `push ${i}\n${randomBytes(512).toString('hex')}\n` }, `push ${i}`);
      await mustGit(dir, 'push', '-q', 'origin', 'HEAD:main');
      pushes.push(sha);
      if (overlaps(a, Date.now())) during++;
    }
  })();
  const writing = (async () => {
    for (let i = 0; !stopping && i < 400; i++) {
      const a = Date.now();
      must(await as(bob, 'POST', `/repos/${alice.name}/busy/issues`, { title: `load ${i}`, body: 'x'.repeat(200) }), 201, 'load issue');
      issues++;
      if (overlaps(a, Date.now())) during++;
    }
  })();
  return {
    async stop() {
      stopping = true;
      await Promise.all([pushing, writing]);
      fs.rmSync(dir, { recursive: true, force: true });
      return { pushes, issues, during };
    },
  };
}

/** Dumps under load; returns the archive, the lines the command printed and what the load did. */
async function dumpUnderLoad(file: string, format?: string) {
  const window = { start: 0, end: 0 };
  const load = startLoad(window);
  // Let the load get going before the dump starts.
  await new Promise((r) => setTimeout(r, 1500));
  window.start = Date.now();
  const out = await runAdmin(t.db.orm, cfg, ['dump', ...dumpArgs(['--file', file, ...(format ? ['--database-format', format] : [])], tmp)]);
  window.end = Date.now();
  const done = await load.stop();
  assert.is(out.code, 0, out.lines.join('\n'));
  assert.ok(fs.existsSync(file));
  assert.ok(done.during >= 2, `writes ran while the dump ran (${done.during})`);
  return { lines: out.lines, ...done };
}

/** A fresh target: a data directory and a database (PostgreSQL's new one, or the embedded one there). */
async function freshTarget(kind: 'postgresql' | 'embedded'): Promise<{ cfg: Config; drop(): Promise<void> }> {
  const dataPath = fs.mkdtempSync(path.join(tmp, 'restored-'));
  fs.rmSync(dataPath, { recursive: true });
  let url = '';
  let drop = async (): Promise<void> => undefined;
  if (kind === 'postgresql') {
    const scratch = await createScratchDb(base!, 'cairn_restore');
    url = scratch.url;
    drop = scratch.drop;
  }
  return { cfg: loadConfig({}, { SERVER__APP_DATA_PATH: dataPath, DATABASE__URL: url, ...SETTINGS }), drop };
}

async function restoreAndCompare(file: string, kind: 'postgresql' | 'embedded', load: { pushes: string[] }) {
  const target = await freshTarget(kind);
  const lines = await restoreInstance(target.cfg, file);
  assert.ok(
    lines.some((l) => l.startsWith('restored ')),
    lines.join('\n'),
  );
  const db = await openDatabase(target.cfg);
  const copy = await startServer(
    { db, dataPath: target.cfg.dataPath, url: target.cfg.DATABASE.URL, close: async () => undefined },
    { ...SETTINGS, DATABASE__URL: target.cfg.DATABASE.URL },
  );
  try {
    // What no write touched since the set-up reads the same, byte for byte but the address.
    for (const u of [alice, bob]) assert.equal(await readAll(copy, u), await readAll(srv, u));
    for (const [p, bytes] of BYTES()) {
      const r = await fetch(`${copy.url}${p}`, { headers: { Authorization: basic(alice) } });
      assert.is(r.status, 200, p);
      assert.ok(Buffer.from(await r.arrayBuffer()).equals(bytes), `${p}: the same bytes`);
    }
    // The busy repository: every issue in the copy is the original's as it is now (issues are only
    // created), numbered from 1 without a gap; its branch is a commit the load pushed, present in git.
    const numbers: number[] = [];
    for (let page = 1; ; page++) {
      const issues = (
        await call(copy.api, 'GET', `/repos/${alice.name}/busy/issues?state=all&type=issues&limit=50&page=${page}`, { token: alice.token })
      ).json as { number: number }[];
      numbers.push(...issues.map((i) => i.number));
      if (issues.length < 50) break;
    }
    numbers.sort((a, b) => a - b);
    assert.ok(numbers.length > 0);
    assert.equal(
      numbers,
      numbers.map((_, i) => i + 1),
      'issue numbers without a gap',
    );
    for (const n of numbers.slice(-5)) {
      const [a, b] = await Promise.all([
        call(srv.api, 'GET', `/repos/${alice.name}/busy/issues/${n}`, { token: alice.token }),
        call(copy.api, 'GET', `/repos/${alice.name}/busy/issues/${n}`, { token: alice.token }),
      ]);
      assert.is(normal(copy, b.text), normal(srv, a.text), `issue ${n}`);
    }
    const branch = (await call(copy.api, 'GET', `/repos/${alice.name}/busy/branches/main`, { token: alice.token })).json;
    const head = branch.commit.id as string;
    assert.ok(load.pushes.includes(head), `the copy's main (${head}) is a commit the load pushed`);
    const clone = workDir('cairn-dump-clone-');
    await mustGit(null, 'clone', '-q', cloneUrl(copy.url, alice.name, 'busy', [alice.name, alice.token]), clone);
    assert.is(await mustGit(clone, 'rev-parse', 'HEAD'), head);
    fs.rmSync(clone, { recursive: true, force: true });
    // Every repository of the copy, wikis included, is whole.
    let repos = 0;
    for (const owner of fs.readdirSync(target.cfg.repoRoot)) {
      for (const repo of fs.readdirSync(path.join(target.cfg.repoRoot, owner))) {
        const r = spawnSync('git', ['-C', path.join(target.cfg.repoRoot, owner, repo), 'fsck', '--full', '--strict', '--no-dangling'], {
          encoding: 'utf8',
        });
        assert.is(r.status, 0, `${owner}/${repo}: ${r.stderr}`);
        repos++;
      }
    }
    assert.is(repos, 4, 'stable, its wiki, busy and private');
  } finally {
    await copy.close();
    await db.close();
    await target.drop();
  }
}

test('a dump under load, restored into a fresh data directory and database of the same kind, reads the same', async () => {
  const file = path.join(tmp, 'same-kind.tar.gz');
  const dumped = await dumpUnderLoad(file);
  assert.match(
    dumped.lines[0]!,
    base ? /^database: pg_dump \(pg_dump \(PostgreSQL\) \d+/ : /^database: a logical export \(JSON per table\)/,
  );
  assert.match(dumped.lines.join('\n'), /repositories: 4, each with its refs as of the database snapshot/);
  const listing = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).split('\n');
  assert.ok(listing.includes('manifest.json'));
  assert.ok(listing.some((l) => l.startsWith(`repos/${alice.name}/stable.git/`)));
  assert.ok(listing.includes(`repos/${alice.name}/stable.wiki.git/packed-refs`));
  assert.ok(
    listing.some((l) => l.startsWith('data/lfs/')) &&
      listing.some((l) => l.startsWith('data/packages/')) &&
      listing.some((l) => l.startsWith('data/attachments/')) &&
      listing.some((l) => l.startsWith('data/avatars/')),
  );
  assert.ok(listing.includes('data/secret_key'));
  assert.not.ok(
    listing.some((l) => /^data\/(pglite|git-hooks|dump-tmp)\//.test(l)),
    'no database files, generated hooks or staging',
  );
  assert.equal(
    listing.filter((l) => /\/(refs|logs)\/heads\/./.test(l)),
    [],
    'refs are in packed-refs, as read, without reflogs',
  );
  await restoreAndCompare(file, base ? 'postgresql' : 'embedded', dumped);
});

test('a json dump of PostgreSQL restores into the embedded database', async () => {
  if (!base) return; // the embedded database's dump is json already: the test above
  const file = path.join(tmp, 'json.tar.gz');
  const dumped = await dumpUnderLoad(file, 'json');
  assert.match(dumped.lines[0]!, /^database: a logical export \(JSON per table\)/);
  await restoreAndCompare(file, 'embedded', dumped);
});

test('restore refuses a data directory or a database that is not empty, and a pg_dump into the embedded database', async () => {
  const file = path.join(tmp, 'refusals.tar.gz');
  const out = await runAdmin(t.db.orm, cfg, ['dump', '--file', file]);
  assert.is(out.code, 0, out.lines.join('\n'));
  const used = await freshTarget('embedded');
  fs.mkdirSync(used.cfg.dataPath, { recursive: true });
  fs.writeFileSync(path.join(used.cfg.dataPath, 'something'), 'x');
  await rejects(restoreInstance(used.cfg, file), /is not empty \(something\): restore needs an empty data directory/);
  assert.equal(fs.readdirSync(used.cfg.dataPath), ['something'], 'nothing touched');
  await rejects(restoreInstance((await freshTarget('embedded')).cfg, path.join(tmp, 'none.tar.gz')), /no such archive/);
  if (base) {
    const pgTarget = await freshTarget('postgresql');
    try {
      const c = new pg.Client({ connectionString: pgTarget.cfg.DATABASE.URL });
      await c.connect();
      await c.query('create table leftover (id int)');
      await c.end();
      await rejects(
        restoreInstance(pgTarget.cfg, file),
        /the database is not empty \(1 tables and sequences\): restore needs an empty database \(create a new one\)/,
      );
      assert.not.ok(
        fs.existsSync(pgTarget.cfg.dataPath) && fs.readdirSync(pgTarget.cfg.dataPath).length > 0,
        'the data directory is left empty',
      );
    } finally {
      await pgTarget.drop();
    }
    await rejects(restoreInstance((await freshTarget('embedded')).cfg, file), /holds a pg_dump of PostgreSQL: restore it into PostgreSQL/);
  }
});

test("the command line: the archive's path is made absolute where the command runs, by default Forgejo's name", () => {
  assert.equal(dumpArgs(['--file', 'x.tar.gz'], '/srv'), ['--file', '/srv/x.tar.gz']);
  assert.equal(dumpArgs(['--database-format', 'json'], '/srv', 1_700_000_000_000), [
    '--file',
    '/srv/cairn-dump-1700000000.tar.gz',
    '--database-format',
    'json',
  ]);
});

test.run();
