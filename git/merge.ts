import { GitError } from './errors.ts';
import { assertSafeArg, runGit } from './exec.ts';

export type MergeTreeResult = { clean: true; tree: string } | { clean: false; tree: string; conflicts: string[] };

/**
 * Merges two commits in memory (`git merge-tree --write-tree`, git >= 2.38). The tree of a
 * conflicted merge holds conflict markers and is only good for display.
 */
export async function mergeTree(
  repoPath: string,
  ours: string,
  theirs: string,
  opts: { allowUnrelated?: boolean } = {},
): Promise<MergeTreeResult> {
  assertSafeArg(ours, 'revision');
  assertSafeArg(theirs, 'revision');
  const args = ['merge-tree', '--write-tree', '--name-only', '--no-messages', '-z'];
  if (opts.allowUnrelated) args.push('--allow-unrelated-histories');
  const { stdout, code } = await runGit(repoPath, [...args, ours, theirs], { okCodes: [0, 1] });
  const [tree = '', ...rest] = stdout.toString('utf8').split('\0');
  if (!/^[0-9a-f]{40,64}$/.test(tree)) throw new GitError(`merge-tree: unexpected output`, code, '', args);
  if (code === 0) return { clean: true, tree };
  return { clean: false, tree, conflicts: [...new Set(rest.filter((p) => p !== ''))] };
}

/** The best common ancestor, or null when the histories are unrelated. */
export async function mergeBase(repoPath: string, a: string, b: string): Promise<string | null> {
  assertSafeArg(a, 'revision');
  assertSafeArg(b, 'revision');
  const { stdout, code } = await runGit(repoPath, ['merge-base', a, b], { okCodes: [0, 1] });
  return code === 0 ? stdout.toString('utf8').trim() : null;
}

/** Whether `ancestor` is reachable from `descendant` (a commit is its own ancestor). */
export async function isAncestor(repoPath: string, ancestor: string, descendant: string): Promise<boolean> {
  assertSafeArg(ancestor, 'revision');
  assertSafeArg(descendant, 'revision');
  const { code } = await runGit(repoPath, ['merge-base', '--is-ancestor', ancestor, descendant], { okCodes: [0, 1] });
  return code === 0;
}
