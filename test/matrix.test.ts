// The guard matrix snapshot (STYLE.md, "Matrix"): every row flattened to one line and compared with
// the committed snapshot, so a permission change shows up as a reviewable diff.
// Regenerate with `UPDATE_SNAPSHOT=1 npx tsx test/matrix.test.ts`.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { routes } from '../routes.table.ts';
import { matrixJson, matrixLine, matrixMarkdown, packageMatrixJson } from '../table/matrix.ts';
import { packageRoutes } from '../table/packages.ts';

const file = path.join(path.dirname(new URL(import.meta.url).pathname), 'matrix.snapshot.txt');

test('the guard matrix, the API and the package registries, matches the committed snapshot', () => {
  const lines = [...matrixJson(routes), ...packageMatrixJson(packageRoutes)].map(matrixLine).join('\n') + '\n';
  if (process.env.UPDATE_SNAPSHOT) fs.writeFileSync(file, lines);
  const want = fs.readFileSync(file, 'utf8');
  const got = lines.split('\n');
  const diff = want
    .split('\n')
    .map((l, i) => (l === got[i] ? null : `line ${i + 1}\n  - ${l}\n  + ${got[i] ?? ''}`))
    .filter(Boolean);
  assert.equal(diff.slice(0, 10), [], `${diff.length} lines differ`);
  assert.is(got.length, want.split('\n').length);
});

test('the matrix lists every operation once, and every one is implemented (the handler registry says so)', () => {
  const m = matrixJson(routes);
  assert.is(m.length, 511);
  assert.equal(
    m.filter((r) => !r.implemented).map((r) => `${r.method} ${r.path}`),
    [],
    'every operation has a handler',
  );
  const tokens = m.find((r) => r.method === 'POST' && r.path === '/users/{username}/tokens')!;
  assert.equal(tokens.chain, ['USER', 'PUBLIC_ONLY(user)', 'USER_VISIBLE', 'SELF', 'BODY', 'BASIC', 'TOK']);
});

test('`npm run routes` has a Quota column: Q steps there, not among the guards', () => {
  const m = matrixJson(routes);
  const quota = m.filter((r) => r.quota.length);
  assert.ok(quota.length >= 19, `${quota.length} rows with quota checks`);
  for (const r of m) {
    assert.equal(
      r.quota,
      r.chain.filter((n) => n.startsWith('Q(')),
    );
    assert.not.ok(
      [...r.guards, ...r.context, ...r.gates].some((n) => n.startsWith('Q(')),
      `${r.method} ${r.path}`,
    );
  }
  const md = matrixMarkdown(routes).split('\n');
  assert.is(md[0], '| Method | Path | Scopes | Context | Gates | Guards | Quota | Query | Flag | Implemented | Kept |');
  const merge = md.find((l) => l.startsWith('| POST | /repos/{username}/{reponame}/pulls/{index}/merge |'))!;
  assert.is(merge.split(' | ')[6], 'Q(size:git:all, repo)');
});

test('`npm run routes` shows the rows whose answers are kept across requests (lib/http/answer-cache.ts): GETs only', () => {
  const m = matrixJson(routes);
  const kept = m.filter((r) => r.cached);
  assert.ok(kept.length >= 4, `${kept.length} rows kept`);
  for (const r of kept) assert.is(r.method, 'GET', r.path);
  assert.ok(kept.some((r) => r.path === '/repos/{username}/{reponame}' && r.handler === 'repos.get'));
  const line = matrixMarkdown(routes)
    .split('\n')
    .find((l) => l.startsWith('| GET | /user |'))!;
  assert.ok(line.endsWith('| yes | yes |'), line);
});

test.run();
