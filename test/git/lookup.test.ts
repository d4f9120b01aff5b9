import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runGit } from '../../git/exec.ts';
import { blobContent, lastCommitFor, lookupRef, ownCopy, readTree } from '../../git/lookup.ts';
import { resolveRef } from '../../git/repo.ts';
import { commitFiles } from '../../git/write.ts';
import { alice, commit, git, sandbox, text, type Sandbox } from './fixture.ts';

let sb: Sandbox;
test.before(async () => {
  sb = await sandbox();
});
test.after(async () => {
  await sb.cleanup();
});

const PATHS = ['a.txt', 'b.txt', 'dir', 'dir/x.txt', 'dir/y.txt', 'run.sh', 'gone.txt', 'side.txt', 'nope'];

/** What `git rev-list -1 <commit> -- <path>` prints, or null. */
async function revList(repo: string, sha: string, p: string): Promise<string | null> {
  return (await git(repo, 'rev-list', '-1', sha, '--', p)) || null;
}

/** A history with content and mode changes, a deletion, an empty commit and a merge; oldest first. */
async function history(repo: string): Promise<string[]> {
  const shas: string[] = [];
  shas.push(
    await commit(repo, [
      { op: 'create', path: 'a.txt', content: text('a') },
      { op: 'create', path: 'b.txt', content: text('b') },
      { op: 'create', path: 'dir/x.txt', content: text('x') },
      { op: 'create', path: 'run.sh', content: text('#!') },
      { op: 'create', path: 'gone.txt', content: text('g') },
    ]),
  );
  shas.push(await commit(repo, [{ op: 'update', path: 'b.txt', content: text('b2') }]));
  shas.push(await commit(repo, [{ op: 'create', path: 'dir/y.txt', content: text('y') }]));
  shas.push(await commit(repo, [{ op: 'update', path: 'run.sh', content: text('#!'), mode: '100755' }]));
  shas.push(await commit(repo, [{ op: 'delete', path: 'gone.txt' }]));
  const env = { GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@x', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@x' };
  const tip = shas[shas.length - 1]!;
  shas.push((await runGit(repo, ['commit-tree', `${tip}^{tree}`, '-p', tip, '-m', 'empty'], { env })).stdout.toString().trim());
  await runGit(repo, ['update-ref', 'refs/heads/main', shas[shas.length - 1]!]);
  const side = (
    await commitFiles(repo, {
      branch: 'side',
      parent: shas[2]!,
      expectedOld: null,
      ops: [{ op: 'create', path: 'side.txt', content: text('s') }],
      message: 'side',
      author: alice,
    })
  ).commitSha;
  const main = shas[shas.length - 1]!;
  const merged = await git(repo, 'merge-tree', '--write-tree', main, side);
  shas.push((await runGit(repo, ['commit-tree', merged, '-p', main, '-p', side, '-m', 'merge'], { env })).stdout.toString().trim());
  shas.push(await commit(repo, [{ op: 'update', path: 'a.txt', content: text('a2') }], 'after', 'main'));
  return shas;
}

test('lastCommitFor answers what rev-list answers, with the parents known first (each commit pushed alone) or not', async () => {
  for (const order of ['oldest first', 'newest first'] as const) {
    const repo = await sb.repo();
    const shas = await history(repo);
    if ((await git(repo, 'rev-parse', 'main')) !== shas[shas.length - 1])
      await runGit(repo, ['update-ref', 'refs/heads/main', shas[shas.length - 1]!]);
    const walk = order === 'oldest first' ? shas : [...shas].reverse();
    for (const sha of walk) {
      for (const p of PATHS)
        assert.is(await lastCommitFor(repo, sha, p), await revList(repo, sha, p), `${order}: ${p} at commit ${shas.indexOf(sha) + 1}`);
    }
  }
});

test("a kept small blob holds memory of its own, not a slab of Node's shared buffer pool", async () => {
  const small = Buffer.from('small');
  assert.ok(small.buffer.byteLength > small.length, 'Buffer.from pools small buffers');
  const own = ownCopy(small);
  assert.is(own.toString(), 'small');
  assert.is(own.buffer.byteLength, own.length);
  const repo = await sb.repo();
  const sha = await commit(repo, [{ op: 'create', path: 'tiny.txt', content: text('tiny') }]);
  const root = await readTree(repo, (await git(repo, 'rev-parse', `${sha}^{tree}`)).trim());
  const oid = root!.find((e) => e.name === 'tiny.txt')!.oid;
  await blobContent(repo, oid);
  const kept = await blobContent(repo, oid);
  assert.is(kept!.toString(), 'tiny');
  assert.is(kept!.buffer.byteLength, kept!.length);
});

// Refs are never cached: each change made by another process (git itself here) must be seen by the
// next lookup, loose or packed, and the answer must be for-each-ref's.
test('lookupRef answers what resolveRef (for-each-ref) answers, after every change of loose and packed refs', async () => {
  const repo = await sb.repo();
  const a = await commit(repo, [{ op: 'create', path: 'a.txt', content: text('a') }]);
  const b = await commit(repo, [{ op: 'create', path: 'b.txt', content: text('b') }]);
  const tree = await git(repo, 'rev-parse', `${b}^{tree}`);
  const names = ['main', 'dev', 'dev/x', 'v1', 'v2', 'tree', 'gone', a.slice(0, 10), 'link'];
  const same = async (when: string) => {
    for (const n of names) assert.equal(await lookupRef(repo, n), await resolveRef(repo, n), `${when}: ${n}`);
  };
  await same('one loose branch');
  await git(repo, 'update-ref', 'refs/heads/dev', a);
  await git(repo, 'tag', 'v1', a);
  await runGit(repo, ['tag', '-a', '-m', 'annotated', 'v2', b], { env: { GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@x' } });
  await git(repo, 'tag', 'tree', tree);
  await same('loose refs and tags');
  await git(repo, 'pack-refs', '--all');
  await same('all packed');
  await git(repo, 'update-ref', 'refs/heads/main', a);
  await same('main loose again, over its packed line');
  await git(repo, 'update-ref', '-d', 'refs/heads/dev');
  await git(repo, 'update-ref', 'refs/heads/dev/x', b);
  await same('dev deleted from packed-refs, dev/x loose');
  await git(repo, 'pack-refs', '--all');
  await git(repo, 'update-ref', '-d', 'refs/heads/dev/x');
  await git(repo, 'update-ref', 'refs/heads/dev', b);
  await git(repo, 'pack-refs', '--all');
  await same('packed again, rewritten three times');
  await git(repo, 'symbolic-ref', 'refs/heads/link', 'refs/heads/dev');
  await same('a symbolic ref');
});

test.run();
