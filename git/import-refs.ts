// Refs a migration from another instance writes after the clone, set or removed in bulk once the pull
// requests are known (the pull heads themselves are fetched by git/remote.ts fetchPullHeads).
import { runGit } from './exec.ts';
import { systemIdentityEnv } from './identity.ts';
import { isFullOid } from './oid.ts';
import { assertFullRef } from './refname.ts';

/** The commit a full object id names, when this repository has it. */
export async function hasCommit(repoPath: string, oid: string): Promise<boolean> {
  if (!isFullOid(oid)) return false;
  const { code } = await runGit(repoPath, ['cat-file', '-e', `${oid}^{commit}`], { okCodes: [0, 1, 128] });
  return code === 0;
}

/** Sets and deletes refs in one `update-ref --stdin` transaction, whatever their current values. */
export async function writeRefs(repoPath: string, changes: { set?: [ref: string, oid: string][]; remove?: string[] }): Promise<void> {
  const lines: string[] = [];
  for (const [ref, oid] of changes.set ?? []) {
    assertFullRef(ref);
    if (!isFullOid(oid)) throw new Error(`not an object id: ${oid}`);
    lines.push(`update ${ref} ${oid}`);
  }
  for (const ref of changes.remove ?? []) {
    assertFullRef(ref);
    lines.push(`delete ${ref}`);
  }
  if (lines.length === 0) return;
  await runGit(repoPath, ['update-ref', '--no-deref', '--stdin'], { input: `${lines.join('\n')}\n`, env: systemIdentityEnv() });
}
