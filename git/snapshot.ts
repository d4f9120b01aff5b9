// A repository's refs as of one moment, and a copy that holds exactly those refs (`cairn admin dump`,
// lib/maintenance/dump.ts). Objects are only ever added under a name git no longer changes, so objects copied after
// the refs were read include every object those refs reach, whatever was pushed meanwhile; the copy's
// refs are then set to what was read, and its connectivity is checked.
import { GitError, runGit } from './exec.ts';

/** A ref as read: a direct ref names an object, a symbolic one (such as refs/remotes/origin/HEAD) another ref. */
export type SnapshotRef = { name: string; oid: string; target: null } | { name: string; oid: null; target: string };

/** Every ref under refs/, read by one `git for-each-ref`. */
export async function readRefs(repoPath: string): Promise<SnapshotRef[]> {
  const { stdout } = await runGit(repoPath, ['for-each-ref', '--format=%(refname)%00%(objectname)%00%(symref)', 'refs/'], {
    timeoutMs: 120_000,
  });
  return stdout
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((line) => {
      const [name = '', oid = '', symref = ''] = line.split('\0');
      return symref ? { name, oid: null, target: symref } : { name, oid, target: null };
    });
}

/**
 * Sets the refs of a copy that has none to `refs`, in one transaction that fails when an object is
 * missing, then packs them into packed-refs.
 */
export async function writeRefs(repoPath: string, refs: readonly SnapshotRef[]): Promise<void> {
  const direct = refs
    .filter((r) => r.oid !== null)
    .map((r) => `create ${r.name} ${r.oid}\n`)
    .join('');
  // No reflog: the copy's refs did not move, they were read.
  const noLog = ['-c', 'core.logAllRefUpdates=false'];
  if (direct) await runGit(repoPath, [...noLog, 'update-ref', '--stdin'], { input: `start\n${direct}commit\n`, timeoutMs: 300_000 });
  for (const r of refs) if (r.target !== null) await runGit(repoPath, [...noLog, 'symbolic-ref', r.name, r.target]);
  await runGit(repoPath, ['pack-refs', '--all', '--prune'], { timeoutMs: 300_000 });
}

/** Null when every object the refs and HEAD reach is present; otherwise git's complaint. */
export async function connectivityProblem(repoPath: string): Promise<string | null> {
  try {
    await runGit(repoPath, ['fsck', '--connectivity-only', '--no-dangling', '--no-progress'], { timeoutMs: 600_000 });
    return null;
  } catch (e) {
    if (e instanceof GitError) return e.stderr.trim() || 'git fsck failed';
    throw e;
  }
}
