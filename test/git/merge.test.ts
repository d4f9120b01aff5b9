import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { GitError } from '../../git/errors.ts';
import { isAncestor, mergeBase, mergeTree } from '../../git/merge.ts';
import { lsTree } from '../../git/trees.ts';
import { commitFiles } from '../../git/write.ts';
import { alice, commit, sandbox, text, type Sandbox } from './fixture.ts';

let sb: Sandbox;
test.before(async () => {
  sb = await sandbox();
});
test.after(async () => {
  await sb.cleanup();
});

async function branchFrom(repo: string, branch: string, parent: string, path: string, content: string): Promise<string> {
  const ops = [{ op: 'update' as const, path, content: text(content) }];
  return (await commitFiles(repo, { branch, parent, expectedOld: null, ops, message: branch, author: alice })).commitSha;
}

test('clean merge, conflicting merge, merge base and ancestry', async () => {
  const repo = await sb.repo();
  const base = await commit(repo, [
    { op: 'create', path: 'a.txt', content: text('a\n') },
    { op: 'create', path: 'b.txt', content: text('b\n') },
    { op: 'create', path: 'c.txt', content: text('c\n') },
  ]);
  const left = await branchFrom(repo, 'left', base, 'a.txt', 'A\n');
  const right = await branchFrom(repo, 'right', base, 'b.txt', 'B\n');
  await branchFrom(repo, 'clash', base, 'a.txt', 'other\n');

  const clean = await mergeTree(repo, left, right);
  assert.is(clean.clean, true);
  const merged = await lsTree(repo, clean.tree);
  assert.equal(
    merged?.map((e) => e.path),
    ['a.txt', 'b.txt', 'c.txt'],
  );

  const conflicted = await mergeTree(repo, 'left', 'clash');
  assert.is(conflicted.clean, false);
  if (!conflicted.clean) assert.equal(conflicted.conflicts, ['a.txt']);

  assert.is(await mergeBase(repo, left, right), base);
  assert.ok(await isAncestor(repo, base, left));
  assert.not.ok(await isAncestor(repo, left, right));
  assert.ok(await isAncestor(repo, left, left));
});

test('unrelated histories', async () => {
  const repo = await sb.repo();
  const one = await commit(repo, [{ op: 'create', path: 'x', content: text('1') }]);
  const two = await commit(repo, [{ op: 'create', path: 'y', content: text('2') }], 'o', 'orphan');
  assert.is(await mergeBase(repo, one, two), null);
  const err = await mergeTree(repo, one, two).catch((e: unknown) => e);
  assert.instance(err, GitError);
  const res = await mergeTree(repo, one, two, { allowUnrelated: true });
  assert.is(res.clean, true);
  const unknown = await mergeBase(repo, one, 'nope').catch((e: unknown) => e);
  assert.instance(unknown, GitError);
});

test.run();
