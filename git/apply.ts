// Applying a unified diff without a work tree: `git apply --cached` against a temporary index read
// from the parent's tree, then commit-tree and a compare-and-swap update of the branch.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readInfo } from './cat-file.ts';
import { GitError, PatchApplyError, RevNotFoundError } from './errors.ts';
import { runGit } from './exec.ts';
import { commitMessageText, identityEnv, validateIdentity, type Identity } from './identity.ts';
import { isFullOid } from './oid.ts';
import { assertBranchName } from './refname.ts';
import { updateRef } from './refs.ts';
import type { CommitResult } from './write.ts';

export interface ApplyPatchOptions {
  branch: string;
  parent: string;
  /** The branch's value the caller read; defaults to `parent`; null = the branch must not exist. */
  expectedOld?: string | null;
  patch: string;
  message: string;
  author: Identity;
  committer?: Identity;
}

export async function applyPatch(repoPath: string, opts: ApplyPatchOptions): Promise<CommitResult & { paths: string[] }> {
  assertBranchName(opts.branch);
  const committer = opts.committer ?? opts.author;
  validateIdentity(opts.author, 'author');
  validateIdentity(committer, 'committer');
  const message = commitMessageText(opts.message);
  if (!isFullOid(opts.parent)) throw new RevNotFoundError(opts.parent);
  const tree = await readInfo(repoPath, `${opts.parent}^{tree}`);
  if (!tree) throw new RevNotFoundError(opts.parent);
  const expectedOld = opts.expectedOld === undefined ? opts.parent : opts.expectedOld;
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'cairn-apply-'));
  try {
    const env = { ...identityEnv(opts.author, committer), GIT_INDEX_FILE: path.join(tmp, 'index') };
    await runGit(repoPath, ['read-tree', tree.oid], { env });
    const patch = opts.patch.endsWith('\n') ? opts.patch : `${opts.patch}\n`;
    try {
      await runGit(repoPath, ['apply', '--cached', '--recount', '--binary', '--whitespace=nowarn'], { env, input: patch });
    } catch (err) {
      if (err instanceof GitError && err.code !== null) {
        const line = err.stderr.split('\n').find((l) => l.startsWith('error:')) ?? err.stderr.split('\n')[0] ?? '';
        throw new PatchApplyError(line.replace(/^error:\s*/, '').trim());
      }
      throw err;
    }
    const treeSha = (await runGit(repoPath, ['write-tree'], { env })).stdout.toString('utf8').trim();
    const commitSha = (await runGit(repoPath, ['commit-tree', treeSha, '-p', opts.parent], { env, input: message })).stdout
      .toString('utf8')
      .trim();
    await updateRef(repoPath, `refs/heads/${opts.branch}`, commitSha, expectedOld ?? '0'.repeat(commitSha.length), env);
    const { stdout } = await runGit(repoPath, ['diff-tree', '-r', '-z', '--name-only', '--no-renames', opts.parent, commitSha]);
    return {
      commitSha,
      treeSha,
      paths: stdout
        .toString('utf8')
        .split('\0')
        .filter((p) => p !== ''),
    };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
