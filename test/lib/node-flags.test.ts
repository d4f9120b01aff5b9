// `cli.ts serve` runs under lib/runtime/node-flags.ts's heap settings however it is started (memory).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SERVE_NODE_FLAGS, missingServeFlags, withoutTsx } from '../../lib/runtime/node-flags.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

test('a flag given by name, with any value, on the command line or in NODE_OPTIONS, is not added again', () => {
  assert.equal(missingServeFlags([]), [...SERVE_NODE_FLAGS]);
  assert.equal(missingServeFlags(['--import', 'tsx', '--max-semi-space-size=64', '--heap-growing-percent=100']), []);
  assert.equal(missingServeFlags([], '--enable-source-maps --max_semi_space_size=8 --heap_growing_percent=20'), []);
  assert.equal(missingServeFlags(['--max-semi-space-size=64']), ['--heap-growing-percent=20']);
  assert.equal(missingServeFlags(['--max-old-space-size=512']), [...SERVE_NODE_FLAGS]);
});

test('npm start passes the flags itself, so it starts once, and runs the sources without tsx', () => {
  const start = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
    .start!;
  for (const f of SERVE_NODE_FLAGS) assert.ok(start.split(' ').includes(f), `${f} in ${start}`);
  assert.not.ok(start.includes('tsx'), start);
});

test("starting again drops tsx's loader and keeps every other flag", () => {
  assert.equal(withoutTsx(['--import', 'tsx']), []);
  assert.equal(withoutTsx(['--import=tsx', '--enable-source-maps']), ['--enable-source-maps']);
  assert.equal(withoutTsx(['--cpu-prof', '--import', 'tsx', '--import', './hooks.mjs']), ['--cpu-prof', '--import', './hooks.mjs']);
});

test('`cli.ts serve` started without the flags runs with them, in the same process', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-flags-'));
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
    const argv = fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
    for (const f of SERVE_NODE_FLAGS) assert.ok(argv.includes(f), argv.join(' '));
    assert.ok(argv.includes('serve'), argv.join(' '));
    assert.not.ok(argv.includes('tsx'), argv.join(' '));
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
