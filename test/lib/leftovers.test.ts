// What a killed process leaves behind (partial uploads, git's push quarantine, a
// migration's staged clone) is removed at start; nothing else is, and a process that may share the
// data with a live one removes only day-old leftovers. The serving lock tells the two cases apart through the database.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../config.ts';
import { removeLeftovers, STALE_MS } from '../../lib/maintenance/leftovers.ts';
import { takeServingLock } from '../../lib/runtime/serving-lock.ts';
import { openTestDb } from '../helpers/server.ts';

function tree(root: string, files: string[]): void {
  for (const f of files) {
    const p = path.join(root, f);
    if (f.endsWith('/')) fs.mkdirSync(p, { recursive: true });
    else {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, 'x');
    }
  }
}

const LEFTOVERS = [
  'attachments/tmp/6f1c0a6d2e8b4c31a7d0e3f2b9c8d7e1',
  'packages/tmp/0b7e5f3c-1d2a-4e6b-9c8d-7a6b5c4d3e2f',
  'forgejo-repositories/alice/demo.git/objects/tmp_objdir-incoming-Ab12Cd/pack/tmp_pack_XyZ123',
  'forgejo-repositories/alice/demo.wiki.git/objects/incoming-9a8B7c/',
  'forgejo-repositories/org/other.git/objects/tmp_objdir-incoming-q1w2e3/',
  // A migration's staged clone and a release asset it downloaded, left by a process killed before the
  // repository was written (lib/mirrors/mirrors.ts, lib/mirrors/migrate-import.ts).
  'forgejo-repositories/.migrating/3c2b1a09-8f7e-4d6c-b5a4-938271605f4e/',
  'attachments/tmp/migrate-9e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b4',
];
const KEPT = [
  'attachments/6/f/6f1c0a6d-2e8b-4c31-a7d0-e3f2b9c8d7e1',
  'packages/ab/ab12',
  'forgejo-repositories/alice/demo.git/objects/ab/cdef0123',
  'forgejo-repositories/alice/demo.git/objects/pack/pack-1234.pack',
  'forgejo-repositories/alice/demo.git/objects/info/',
  'forgejo-repositories/alice/demo.git/refs/heads/incoming-x',
  'forgejo-repositories/alice/notes/objects/incoming-1/',
  'forgejo-repositories/alice/demo.git/objects/incoming/',
];

function dataDir(): { dir: string; cfg: ReturnType<typeof loadConfig> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-leftovers-'));
  tree(dir, [...LEFTOVERS, ...KEPT]);
  return { dir, cfg: loadConfig({}, { SERVER__APP_DATA_PATH: dir }) };
}
const exists = (dir: string, f: string) => fs.existsSync(path.join(dir, f));

test('alone: every leftover goes, however recent; nothing else is touched', async () => {
  const { dir, cfg } = dataDir();
  const removed = await removeLeftovers(cfg, { alone: true });
  assert.is(removed.length, LEFTOVERS.length, removed.join('\n'));
  for (const f of LEFTOVERS) assert.not.ok(exists(dir, f), f);
  for (const f of KEPT) assert.ok(exists(dir, f), f);
  assert.ok(exists(dir, 'attachments/tmp'), 'the spool directory itself stays');
  assert.equal(await removeLeftovers(cfg, { alone: true }), [], 'a second run finds nothing');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('not alone: only leftovers untouched for a day go (another process may be writing the rest)', async () => {
  const { dir, cfg } = dataDir();
  const old = new Date(Date.now() - STALE_MS - 60_000);
  const [stale, ...fresh] = LEFTOVERS;
  fs.utimesSync(path.join(dir, stale), old, old);
  const removed = await removeLeftovers(cfg, { alone: false });
  assert.equal(removed, [path.join(dir, stale)]);
  for (const f of fresh) assert.ok(exists(dir, f), f);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a missing data directory is no error', async () => {
  const cfg = loadConfig({}, { SERVER__APP_DATA_PATH: path.join(os.tmpdir(), 'cairn-does-not-exist-x7') });
  assert.equal(await removeLeftovers(cfg, { alone: true }), []);
});

test('serving lock: the first process is alone, a second is not, and after both stop the next one is', async () => {
  const t = await openTestDb();
  const url = String(t.db.orm.config.get('clientUrl') ?? '');
  const cfg = loadConfig({}, { SERVER__APP_DATA_PATH: t.dataPath, DATABASE__URL: process.env.CAIRN__DATABASE__URL ? url : '' });
  const first = await takeServingLock(t.db.orm, cfg);
  assert.ok(first.alone);
  if (cfg.DATABASE.URL) {
    const second = await takeServingLock(t.db.orm, cfg);
    assert.not.ok(second.alone, 'another process holds the lock');
    await first.release();
    const third = await takeServingLock(t.db.orm, cfg);
    assert.not.ok(third.alone, 'the second one still serves');
    await second.release();
    await third.release();
    const last = await takeServingLock(t.db.orm, cfg);
    assert.ok(last.alone);
    await last.release();
  } else {
    await first.release();
  }
  await t.close();
});

test('`cli.ts serve` removes them before it listens', async () => {
  const { dir } = dataDir();
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
  // The embedded database: this test needs no server, and such a process is alone by construction.
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: os.tmpdir(),
    CAIRN__SERVER__APP_DATA_PATH: dir,
    CAIRN__SERVER__HTTP_PORT: '0',
    CAIRN__SERVER__HTTP_ADDR: '127.0.0.1',
  };
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'cli.ts'), 'serve'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      if (out.includes('cairn listening')) resolve();
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  try {
    await listening;
    for (const f of LEFTOVERS) assert.not.ok(exists(dir, f), f);
    for (const f of KEPT) assert.ok(exists(dir, f), f);
    assert.ok(out.includes(`"removed":${LEFTOVERS.length}`), out);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
