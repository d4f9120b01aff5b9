// Git work of pull requests, all without a work tree: the head ref kept in the base repository,
// ahead/behind counts and diff stats, and the merge styles built from merge-tree + commit-tree
// (forgejo-facts 10.1, 10.4). Nothing here moves a branch; callers do that with a compare-and-swap.
import path from 'node:path';
import type { Readable } from 'node:stream';
import { getCommit, diffFiles, sumStats, type Commit } from './commits.ts';
import { GitError, RefConflictError } from './errors.ts';
import { assertSafeArg, gitStream, runGit } from './exec.ts';
import { commitMessageText, identityEnv, systemIdentityEnv, validateIdentity, type Identity } from './identity.ts';
import { Lru } from './lru.ts';
import { assertBranchName } from './refname.ts';
import { fetchFrom } from './remote.ts';

/** Where the base repository keeps a pull request's head commit (forgejo-facts 10.1). */
export const pullHeadRef = (index: number) => `refs/pull/${index}/head`;

/** Points refs/pull/<n>/head of the base repository at `oid` (which must already be there). */
export async function setPullHeadRef(repoPath: string, index: number, oid: string): Promise<void> {
  assertSafeArg(oid, 'revision');
  await runGit(repoPath, ['update-ref', pullHeadRef(index), oid], { env: systemIdentityEnv() });
}

/**
 * Copies a fork's branch into the base repository as refs/pull/<n>/head (objects included) and
 * returns the commit it now names. A local fetch: both repositories live under the same root.
 */
export async function fetchPullHead(basePath: string, headPath: string, branch: string, index: number): Promise<string> {
  assertBranchName(branch);
  await fetchFrom(basePath, headPath, [`+refs/heads/${branch}:${pullHeadRef(index)}`]);
  const { stdout } = await runGit(basePath, ['rev-parse', '--verify', '--end-of-options', `${pullHeadRef(index)}^{commit}`]);
  return stdout.toString('utf8').trim();
}

/** Commits only in `head` and only in `base` (`rev-list --left-right --count base...head`). */
export async function aheadBehind(repoPath: string, base: string, head: string): Promise<{ ahead: number; behind: number }> {
  assertSafeArg(base, 'revision');
  assertSafeArg(head, 'revision');
  const { stdout } = await runGit(repoPath, ['rev-list', '--left-right', '--count', '--end-of-options', `${base}...${head}`, '--']);
  const [behind = '0', ahead = '0'] = stdout.toString('utf8').trim().split(/\s+/);
  return { ahead: Number(ahead), behind: Number(behind) };
}

/** Commits in `head` not in `base`, newest first (what a pull request would bring). */
export async function rangeCommits(
  repoPath: string,
  base: string,
  head: string,
  opts: { reverse?: boolean; noMerges?: boolean } = {},
): Promise<string[]> {
  assertSafeArg(base, 'revision');
  assertSafeArg(head, 'revision');
  const args = ['rev-list'];
  if (opts.reverse) args.push('--reverse', '--topo-order');
  if (opts.noMerges) args.push('--no-merges');
  const { stdout } = await runGit(repoPath, [...args, '--end-of-options', head, `^${base}`, '--']);
  return stdout
    .toString('utf8')
    .split('\n')
    .filter((s) => s !== '');
}

const shortStats = new Lru<string, { files: number; additions: number; deletions: number }>(5_000);

/** Changed files and line counts from `from` to `to` (both full commit ids, so the answer is cached). */
export function diffShortStat(
  repoPath: string,
  from: string,
  to: string,
): Promise<{ files: number; additions: number; deletions: number }> {
  return shortStats.getOr(`${path.resolve(repoPath)}\0${from}\0${to}`, async () => {
    const files = await diffFiles(repoPath, from, to);
    const s = sumStats(files);
    return { files: files.length, additions: s.additions, deletions: s.deletions };
  });
}

/** `git diff base...head` (from their merge base) as plain text. */
export function diffStream(repoPath: string, mergeBase: string, head: string, opts: { binary?: boolean } = {}): Readable {
  assertSafeArg(mergeBase, 'revision');
  assertSafeArg(head, 'revision');
  return gitStream(repoPath, ['diff', '-p', '-M', ...(opts.binary ? ['--full-index', '--binary'] : []), mergeBase, head, '--']);
}

/** The pull request's commits as a `format-patch --binary` series, oldest first (Forgejo's GetPatch). */
export function patchStream(repoPath: string, mergeBase: string, head: string): Readable {
  assertSafeArg(mergeBase, 'revision');
  assertSafeArg(head, 'revision');
  return gitStream(repoPath, ['format-patch', '--no-signature', '--binary', '--stdout', `${mergeBase}..${head}`]);
}

export interface NewCommit {
  tree: string;
  parents: string[];
  message: string;
  author: Identity;
  committer: Identity;
}

/** Writes a commit object (nothing points at it yet). */
export async function commitTree(repoPath: string, c: NewCommit): Promise<string> {
  validateIdentity(c.author, 'author');
  validateIdentity(c.committer, 'committer');
  assertSafeArg(c.tree, 'tree');
  const args = ['commit-tree', c.tree];
  for (const p of c.parents) {
    assertSafeArg(p, 'revision');
    args.push('-p', p);
  }
  const { stdout } = await runGit(repoPath, args, { env: identityEnv(c.author, c.committer), input: commitMessageText(c.message) });
  return stdout.toString('utf8').trim();
}

export type TreeMerge =
  | { kind: 'clean'; tree: string }
  | { kind: 'conflict'; files: string[]; stdout: string }
  | { kind: 'unrelated'; stderr: string };

/**
 * A three-way merge of two commits in memory (`merge-tree --write-tree`, git >= 2.38). Unrelated
 * histories are reported, not merged, as `git merge` refuses them.
 */
export async function mergeCommits(repoPath: string, ours: string, theirs: string): Promise<TreeMerge> {
  assertSafeArg(ours, 'revision');
  assertSafeArg(theirs, 'revision');
  const args = ['merge-tree', '--write-tree', '--name-only', '-z', ours, theirs];
  const { stdout, stderr, code } = await runGit(repoPath, args, { okCodes: [0, 1, 128] });
  if (code === 128) {
    if (/unrelated histories/.test(stderr)) return { kind: 'unrelated', stderr: stderr.trim() };
    throw new GitError(`merge-tree failed: ${stderr.trim()}`, code, stderr, args);
  }
  // -z output: the tree, then (on conflict) NUL-separated conflicted paths, an empty field, messages.
  const text = stdout.toString('utf8');
  const fields = text.split('\0');
  const tree = fields[0] ?? '';
  if (!/^[0-9a-f]{40,64}$/.test(tree)) throw new GitError('merge-tree: unexpected output', code, stderr, args);
  if (code === 0) return { kind: 'clean', tree };
  const end = fields.indexOf('', 1);
  const files = [...new Set(fields.slice(1, end < 0 ? undefined : end).filter((f) => f !== ''))];
  return { kind: 'conflict', files, stdout: end < 0 ? '' : messagesOf(fields, end + 1) };
}

/** The informational messages of `merge-tree -z` (`<n>NUL<path>...NUL<type>NUL<message>NUL` each), as git merge prints them. */
function messagesOf(fields: string[], from: number): string {
  let out = '';
  for (let i = from; i < fields.length; ) {
    const n = Number(fields[i]);
    if (!Number.isInteger(n) || fields[i] === '') break;
    const message = fields[i + n + 2] ?? '';
    out += message.endsWith('\n') ? message : `${message}\n`;
    i += n + 3;
  }
  return out;
}

/** The tree of a commit. */
export async function treeOf(repoPath: string, commit: string): Promise<string> {
  assertSafeArg(commit, 'revision');
  const { stdout } = await runGit(repoPath, ['rev-parse', '--verify', '--end-of-options', `${commit}^{tree}`]);
  return stdout.toString('utf8').trim();
}

/**
 * The tree of `commit` cherry-picked onto `onto`. git 2.39's merge-tree has no --merge-base, so the
 * merge base is forced: a throw-away commit with `onto`'s tree and `commit`'s parent as its only
 * parent makes that parent the one merge base of the two, and the three-way merge is then exactly
 * a cherry-pick (base = parent, ours = onto, theirs = commit).
 */
export async function cherryPickTree(repoPath: string, onto: string, commit: Commit, who: Identity): Promise<TreeMerge> {
  const parent = commit.parents[0];
  if (!parent) return { kind: 'unrelated', stderr: `commit ${commit.sha} has no parent` };
  if (parent === onto) return { kind: 'clean', tree: commit.tree };
  const stand = await commitTree(repoPath, {
    tree: await treeOf(repoPath, onto),
    parents: [parent],
    message: 'cairn: cherry-pick base',
    author: who,
    committer: who,
  });
  return mergeCommits(repoPath, stand, commit.sha);
}

export interface Replayed {
  kind: 'ok';
  tip: string;
  commits: string[];
}
export interface ReplayConflict {
  kind: 'conflict';
  commit: string;
  files: string[];
  stdout: string;
}

/**
 * `git rebase` without a work tree: each non-merge commit of `base..head`, oldest first, is
 * cherry-picked onto the growing tip, keeping its author and message with `committer` as committer.
 * Commits that become empty are dropped, as git rebase drops them.
 */
export async function replayCommits(repoPath: string, base: string, head: string, committer: Identity): Promise<Replayed | ReplayConflict> {
  let tip = base;
  const made: string[] = [];
  for (const sha of await rangeCommits(repoPath, base, head, { reverse: true, noMerges: true })) {
    const c = await getCommit(repoPath, sha);
    if (!c) throw new GitError(`commit ${sha} is unreadable`, null, '', ['cat-file']);
    const merged = await cherryPickTree(repoPath, tip, c, committer);
    if (merged.kind === 'conflict') return { kind: 'conflict', commit: sha, files: merged.files, stdout: merged.stdout };
    if (merged.kind === 'unrelated') return { kind: 'conflict', commit: sha, files: [], stdout: merged.stderr };
    const tipTree = await treeOf(repoPath, tip);
    const parentTree = c.parents[0] ? await treeOf(repoPath, c.parents[0]) : null;
    if (merged.tree === tipTree && c.tree !== parentTree) continue;
    const author: Identity = { name: c.author.name, email: c.author.email, date: new Date(c.author.timestamp * 1000), tz: c.author.tz };
    tip = await commitTree(repoPath, { tree: merged.tree, parents: [tip], message: c.message, author, committer });
    made.push(tip);
  }
  return { kind: 'ok', tip, commits: made };
}

/** Moves a branch from `old` to `value` only if it still is at `old`; RefConflictError otherwise. */
export async function moveBranch(repoPath: string, branch: string, value: string, old: string, who: Identity): Promise<void> {
  assertBranchName(branch);
  assertSafeArg(value, 'revision');
  assertSafeArg(old, 'revision');
  try {
    await runGit(repoPath, ['update-ref', '-m', 'merge', `refs/heads/${branch}`, value, old], { env: identityEnv(who, who) });
  } catch (err) {
    if (err instanceof GitError && err.stderr.includes('cannot lock ref'))
      throw new RefConflictError(`refs/heads/${branch}`, err.stderr.trim());
    throw err;
  }
}
