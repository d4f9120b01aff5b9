import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runGit } from '../../git/exec.ts';
import { lastCommitFor } from '../../git/lookup.ts';
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
  shas.push(await commit(repo, [{ op: 'create', path: 'a.txt', content: text('a') }, { op: 'create', path: 'b.txt', content: text('b') }, { op: 'create', path: 'dir/x.txt', content: text('x') }, { op: 'create', path: 'run.sh', content: text('#!') }, { op: 'create', path: 'gone.txt', content: text('g') }]));
  shas.push(await commit(repo, [{ op: 'update', path: 'b.txt', content: text('b2') }]));
  shas.push(await commit(repo, [{ op: 'create', path: 'dir/y.txt', content: text('y') }]));
  shas.push(await commit(repo, [{ op: 'update', path: 'run.sh', content: text('#!'), mode: '100755' }]));
  shas.push(await commit(repo, [{ op: 'delete', path: 'gone.txt' }]));
  const env = { GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@x', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@x' };
  const tip = shas[shas.length - 1]!;
  shas.push((await runGit(repo, ['commit-tree', `${tip}^{tree}`, '-p', tip, '-m', 'empty'], { env })).stdout.toString().trim());
  await runGit(repo, ['update-ref', 'refs/heads/main', shas[shas.length - 1]!]);
  const side = (await commitFiles(repo, { branch: 'side', parent: shas[2]!, expectedOld: null, ops: [{ op: 'create', path: 'side.txt', content: text('s') }], message: 'side', author: alice })).commitSha;
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
    if (await git(repo, 'rev-parse', 'main') !== shas[shas.length - 1]) await runGit(repo, ['update-ref', 'refs/heads/main', shas[shas.length - 1]!]);
    const walk = order === 'oldest first' ? shas : [...shas].reverse();
    for (const sha of walk) {
      for (const p of PATHS) assert.is(await lastCommitFor(repo, sha, p), await revList(repo, sha, p), `${order}: ${p} at commit ${shas.indexOf(sha) + 1}`);
    }
  }
});

test.run();
