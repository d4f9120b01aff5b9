// Imports point down only (issue 12): the layers of README's "How it fits together", from the top:
//   entry      cli.ts, cli-admin.ts, server.ts
//   table      routes.table.ts, table/ (the table's types, matrix and OpenAPI), interpreter.ts
//   guards     guards/
//   handlers   handlers/, and the transports outside the table: git-http.ts, git-ssh.ts, git-lfs.ts
//   lib        lib/ (lib/api/: the converters to Forgejo's API types)
//   model      model/, config.ts
//   git        git/
// A module may import its own layer or any layer below. The one arrow upwards the design wants: the
// table machinery names the handlers (handlers/index.ts), which only it and the entry points import.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const LAYERS = ['entry', 'table', 'guards', 'handlers', 'lib', 'model', 'git'] as const;
type Layer = (typeof LAYERS)[number];

function layerOf(file: string): Layer | null {
  if (['cli.ts', 'cli-admin.ts', 'server.ts'].includes(file)) return 'entry';
  if (file === 'routes.table.ts' || file === 'interpreter.ts' || file.startsWith('table/')) return 'table';
  if (file.startsWith('guards/')) return 'guards';
  if (file.startsWith('handlers/') || ['git-http.ts', 'git-ssh.ts', 'git-lfs.ts'].includes(file)) return 'handlers';
  if (file.startsWith('lib/')) return 'lib';
  if (file.startsWith('model/') || file === 'config.ts') return 'model';
  if (file.startsWith('git/')) return 'git';
  return null;
}

/** Every import of the application's sources (not tests, benchmarks or tools), resolved to a file. */
function imports(): { from: string; to: string }[] {
  const files = execFileSync('git', ['ls-files', '*.ts'], { cwd: root, encoding: 'utf8' }).split('\n')
    .filter((f) => f && layerOf(f) !== null && fs.existsSync(path.join(root, f)));
  const out: { from: string; to: string }[] = [];
  for (const from of files) {
    const text = fs.readFileSync(path.join(root, from), 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      out.push({ from, to: path.normalize(path.join(path.dirname(from), m[1]!)) });
    }
  }
  return out;
}

test('every import points to its own layer or one below', () => {
  const rank = (f: string) => LAYERS.indexOf(layerOf(f)!);
  const upwards = imports()
    .filter(({ from, to }) => layerOf(to) !== null && rank(to) < rank(from))
    .filter(({ from, to }) => !(layerOf(from) === 'table' && to === 'handlers/index.ts'))
    .map(({ from, to }) => `${from} -> ${to}`);
  assert.equal(upwards, []);
});

test('handlers/index.ts is imported by the table machinery and the entry points only', () => {
  const importers = imports().filter(({ to }) => to === 'handlers/index.ts').map(({ from }) => from);
  assert.ok(importers.length > 0);
  assert.equal(importers.filter((f) => !['table', 'entry'].includes(layerOf(f)!)), []);
});

test('the check sees an arrow upwards when there is one', () => {
  // The rank order itself, so that a broken classification cannot pass silently.
  assert.ok(LAYERS.indexOf('lib') > LAYERS.indexOf('guards'));
  assert.is(layerOf('lib/api/repo.ts'), 'lib');
  assert.is(layerOf('model/issue.ts'), 'model');
  assert.is(layerOf('test/layers.test.ts'), null);
  assert.ok(imports().some(({ from, to }) => from === 'lib/api/repo-json.ts' && to === 'lib/api/repo.ts'));
});

test.run();
