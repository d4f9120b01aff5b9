import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readObject } from '../../git/cat-file.ts';
import { getTree, lsTree, parseTreeObject } from '../../git/trees.ts';
import { commit, git, sandbox, text, type Sandbox } from './fixture.ts';

let sb: Sandbox;
let repo: string;
let head: string;
test.before(async () => {
  sb = await sandbox();
  repo = await sb.repo();
  head = await commit(repo, [
    { op: 'create', path: 'README.md', content: text('hello\n') },
    { op: 'create', path: 'src/a.ts', content: text('aaaa') },
    { op: 'create', path: 'src/sub/b.ts', content: text('bb') },
    { op: 'create', path: 'run.sh', content: text('#!/bin/sh\n'), mode: '100755' },
    { op: 'create', path: 'link', content: text('README.md'), mode: '120000' },
    { op: 'create', path: 'tab here.txt', content: text('') },
  ]);
});
test.after(async () => {
  await sb.cleanup();
});

test('lsTree lists the root with modes, types and sizes', async () => {
  const entries = await lsTree(repo, 'main');
  assert.equal(
    entries?.map((e) => [e.path, e.mode, e.type, e.size]),
    [
      ['README.md', '100644', 'blob', 6],
      ['link', '120000', 'blob', 9],
      ['run.sh', '100755', 'blob', 10],
      ['src', '040000', 'tree', null],
      ['tab here.txt', '100644', 'blob', 0],
    ],
  );
  assert.is(entries?.[0]?.oid, await git(repo, 'rev-parse', 'main:README.md'));
});

test('lsTree recursive, with trees, and by path', async () => {
  assert.equal(
    (await lsTree(repo, 'main', { recursive: true }))?.map((e) => e.path),
    ['README.md', 'link', 'run.sh', 'src/a.ts', 'src/sub/b.ts', 'tab here.txt'],
  );
  assert.equal(
    (await lsTree(repo, 'main', { recursive: true, withTrees: true }))?.map((e) => e.path),
    ['README.md', 'link', 'run.sh', 'src', 'src/a.ts', 'src/sub', 'src/sub/b.ts', 'tab here.txt'],
  );
  assert.equal(
    (await lsTree(repo, 'main', { path: 'src/' }))?.map((e) => e.path),
    ['src/a.ts', 'src/sub'],
  );
  assert.equal(
    (await lsTree(repo, 'main', { path: 'src' }))?.map((e) => e.type),
    ['tree'],
  );
  assert.equal(
    (await lsTree(repo, 'main', { path: 'src/sub/b.ts' }))?.map((e) => e.size),
    [2],
  );
  assert.equal(await lsTree(repo, 'main', { path: 'nope' }), []);
  assert.equal(
    (await lsTree(repo, 'main:src'))?.map((e) => e.path),
    ['a.ts', 'sub'],
  );
  assert.is(await lsTree(repo, 'nope'), null);
  assert.is(await lsTree(repo, 'main:README.md'), null);
});

test('getTree has the Forgejo shape and pages', async () => {
  const t = await getTree(repo, 'main');
  assert.is(t?.sha, head); // a commit id stays the commit id, as in Forgejo
  assert.is(t?.total_count, 5);
  assert.is(t?.truncated, false);
  assert.is(t?.page, 1);
  assert.equal(t?.entries[3], { path: 'src', mode: '040000', type: 'tree', size: 0, sha: await git(repo, 'rev-parse', 'main:src') });

  const rec = await getTree(repo, head, { recursive: true, page: 2, perPage: 3 });
  assert.is(rec?.total_count, 8);
  assert.is(rec?.truncated, true);
  assert.equal(
    rec?.entries.map((e) => e.path),
    ['src', 'src/a.ts', 'src/sub'],
  );
  const last = await getTree(repo, head, { recursive: true, page: 3, perPage: 3 });
  assert.is(last?.truncated, false);
  assert.equal(
    last?.entries.map((e) => e.path),
    ['src/sub/b.ts', 'tab here.txt'],
  );
  const past = await getTree(repo, head, { recursive: true, page: 9, perPage: 3 });
  assert.equal(past?.entries, []);
  assert.is(past?.truncated, false);

  const treeSha = await git(repo, 'rev-parse', 'main:src');
  const sub = await getTree(repo, treeSha, { perPage: 5000, page: -1 });
  assert.is(sub?.sha, treeSha);
  assert.is(sub?.page, 1);
  assert.equal(
    sub?.entries.map((e) => e.path),
    ['a.ts', 'sub'],
  );
  assert.is(await getTree(repo, 'nope'), null);
  assert.is(await getTree(repo, await git(repo, 'rev-parse', 'main:README.md')), null);
});

test('parseTreeObject reads a raw tree', async () => {
  const raw = await readObject(repo, 'main^{tree}');
  const entries = parseTreeObject(raw?.content ?? Buffer.alloc(0), 20);
  const listed = await lsTree(repo, 'main');
  assert.equal(
    entries.map((e) => [e.name, e.mode, e.type, e.oid]),
    listed?.map((e) => [e.path, e.mode, e.type, e.oid]),
  );
});

test.run();
