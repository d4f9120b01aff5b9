import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runGit } from '../../git/exec.ts';
import { countHistory, historyPage } from '../../git/history.ts';
import { alice, bob, commit, git, sandbox, text, type Sandbox } from './fixture.ts';

let sb: Sandbox;
test.before(async () => {
  sb = await sandbox();
});
test.after(async () => {
  await sb.cleanup();
});

/** Linear commits, a merge of a side branch (dates out of order: bob's commits are older) and more after it; oldest first. */
async function history(repo: string): Promise<string[]> {
  const shas: string[] = [];
  for (let i = 0; i < 4; i++) shas.push(await commit(repo, [{ op: 'create', path: `m${i}.txt`, content: text(`${i}`) }], `main ${i}`));
  await runGit(repo, ['update-ref', 'refs/heads/side', shas[3]!]);
  for (let i = 0; i < 2; i++)
    shas.push(await commit(repo, [{ op: 'create', path: `s${i}.txt`, content: text(`${i}`) }], `side ${i}`, 'side', bob));
  shas.push(await commit(repo, [{ op: 'create', path: 'm4.txt', content: text('4') }], 'main 4'));
  const env = { GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@x', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@x' };
  const main = shas[6]!;
  const tree = await git(repo, 'merge-tree', '--write-tree', main, shas[5]!);
  const merge = (await runGit(repo, ['commit-tree', tree, '-p', main, '-p', shas[5]!, '-m', 'merge'], { env })).stdout.toString().trim();
  await runGit(repo, ['update-ref', 'refs/heads/main', merge]);
  shas.push(merge);
  for (let i = 0; i < 3; i++)
    shas.push(
      await commit(repo, [{ op: 'create', path: `after${i}.txt`, content: text(`${i}`) }], `after ${i}`, 'main', i === 1 ? bob : alice),
    );
  return shas;
}

// The total and the first page of a commit with one parent follow from the parent's when they are
// known (git/history.ts): each must be what rev-list prints, whichever was asked first.
test('countHistory and historyPage answer what rev-list answers, parents known first or not', async () => {
  for (const order of ['oldest first', 'newest first'] as const) {
    const repo = await sb.repo();
    const shas = await history(repo);
    for (const sha of order === 'oldest first' ? shas : [...shas].reverse()) {
      const at = `${order}: commit ${shas.indexOf(sha) + 1}`;
      assert.is(await countHistory(repo, { commit: sha }), Number(await git(repo, 'rev-list', '--count', sha)), at);
      for (const limit of [1, 2, 5, 50]) {
        const want = (await git(repo, 'rev-list', `--max-count=${limit}`, sha)).split('\n').filter((s) => s !== '');
        assert.equal(await historyPage(repo, { commit: sha }, 0, limit), want, `${at}, limit ${limit}`);
        const skipped = (await git(repo, 'rev-list', '--skip=2', `--max-count=${limit}`, sha)).split('\n').filter((s) => s !== '');
        assert.equal(await historyPage(repo, { commit: sha }, 2, limit), skipped, `${at}, skip 2, limit ${limit}`);
      }
    }
  }
});

test.run();
