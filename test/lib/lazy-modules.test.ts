// Packages only some requests need are loaded by the first of them, not by every server at its start
// (memory): each one loaded stays in the heap for the process's life.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/** The node_modules packages loaded by importing what `cli.ts serve` imports at its start. */
function packagesAtStart(): Set<string> {
  // A module hook in the child lists every URL it loads.
  const hook = `data:text/javascript,${encodeURIComponent(`
    import { registerHooks } from 'node:module';
    registerHooks({ load(url, ctx, next) { process.stderr.write('LOADED ' + url + '\\n'); return next(url, ctx); } });
  `)}`;
  const script = `await import(${JSON.stringify(path.join(root, 'server.ts'))}); await import(${JSON.stringify(path.join(root, 'model', 'db.ts'))});`;
  const r = spawnSync(process.execPath, ['--import', hook, '--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
  assert.is(r.status, 0, r.stderr.slice(-2000));
  const out = new Set<string>();
  for (const m of r.stderr.matchAll(/^LOADED .*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)) out.add(m[1]!);
  return out;
}

test('koa-body, zod and formidable (multipart uploads), openpgp and PGlite are not loaded at start', () => {
  const loaded = packagesAtStart();
  assert.ok(loaded.has('koa') && loaded.has('co-body'), [...loaded].join(' '));
  for (const p of ['koa-body', 'zod', 'formidable', 'openpgp', '@electric-sql/pglite'])
    assert.not.ok(loaded.has(p), `${p} loaded at start`);
});

test.run();
