import { readInfo } from './cat-file.ts';
import { GitError, RefConflictError, RefExistsError, RefNotFoundError, RevNotFoundError } from './errors.ts';
import { runGit } from './exec.ts';
import { gitDate, systemIdentityEnv, validateIdentity, type Identity } from './identity.ts';
import { isFullOid, zeroOid } from './oid.ts';
import { assertBranchName, assertFullRef, assertTagName } from './refname.ts';
import { revParse } from './repo.ts';

/** Compare-and-swap of a ref; `old` is the all-zero id when the ref must not exist. */
export async function updateRef(repoPath: string, ref: string, value: string, old: string, env: Record<string, string>): Promise<void> {
  try {
    await runGit(repoPath, ['update-ref', ref, value, old], { env });
  } catch (err) {
    // Both "is at X but expected Y" and a held lock (a concurrent writer) read "cannot lock ref".
    if (err instanceof GitError && err.stderr.includes('cannot lock ref')) throw new RefConflictError(ref, err.stderr.trim());
    throw err;
  }
}

/** Creates refs/heads/<name> at the commit `from` names; RefExistsError if the branch (or a clashing one) exists. */
export async function createBranchRef(repoPath: string, name: string, from: string): Promise<string> {
  assertBranchName(name);
  const target = await readInfo(repoPath, `${from}^{commit}`);
  if (!target) throw new RevNotFoundError(from);
  const ref = `refs/heads/${name}`;
  try {
    await updateRef(repoPath, ref, target.oid, zeroOid(target.oid), systemIdentityEnv());
  } catch (err) {
    if (err instanceof RefConflictError) throw new RefExistsError(ref);
    throw err;
  }
  return target.oid;
}

/** Deletes a full ref, only if it still has the value `oldSha` (default: its current value). */
export async function deleteRef(repoPath: string, ref: string, oldSha?: string): Promise<void> {
  assertFullRef(ref);
  const old = oldSha ?? (await revParse(repoPath, ref));
  if (old === null) throw new RefNotFoundError(ref);
  if (!isFullOid(old)) throw new RevNotFoundError(old);
  try {
    await runGit(repoPath, ['update-ref', '-d', ref, old], { env: systemIdentityEnv() });
  } catch (err) {
    if (err instanceof GitError && err.stderr.includes('cannot lock ref')) throw new RefConflictError(ref, err.stderr.trim());
    throw err;
  }
}

async function createRefExclusive(repoPath: string, ref: string, oid: string): Promise<void> {
  try {
    await updateRef(repoPath, ref, oid, zeroOid(oid), systemIdentityEnv());
  } catch (err) {
    if (err instanceof RefConflictError) throw new RefExistsError(ref);
    throw err;
  }
}

export async function createLightweightTag(repoPath: string, name: string, target: string): Promise<string> {
  assertTagName(name);
  const info = await readInfo(repoPath, target);
  if (!info) throw new RevNotFoundError(target);
  await createRefExclusive(repoPath, `refs/tags/${name}`, info.oid);
  return info.oid;
}

/** Writes a tag object with `mktag` (which fsck-checks it) and creates refs/tags/<name>. Returns the tag object id. */
export async function createAnnotatedTag(
  repoPath: string,
  name: string,
  target: string,
  message: string,
  tagger: Identity,
): Promise<string> {
  assertTagName(name);
  validateIdentity(tagger, 'tagger');
  const info = await readInfo(repoPath, target);
  if (!info) throw new RevNotFoundError(target);
  const body = message === '' || message.endsWith('\n') ? message : `${message}\n`;
  const date = gitDate(tagger).slice(1);
  const text = `object ${info.oid}\ntype ${info.type}\ntag ${name}\ntagger ${tagger.name} <${tagger.email}> ${date}\n\n${body}`;
  const tagOid = (await runGit(repoPath, ['mktag'], { input: text })).stdout.toString('utf8').trim();
  await createRefExclusive(repoPath, `refs/tags/${name}`, tagOid);
  return tagOid;
}

/** Renames a branch in one update-ref transaction: both refs move or neither (RefConflictError). */
export async function renameBranchRef(repoPath: string, from: string, to: string, oid: string): Promise<void> {
  assertBranchName(from);
  assertBranchName(to);
  if (!isFullOid(oid)) throw new RevNotFoundError(oid);
  const input = `create refs/heads/${to} ${oid}\ndelete refs/heads/${from} ${oid}\n`;
  try {
    await runGit(repoPath, ['update-ref', '--stdin'], { input, env: systemIdentityEnv() });
  } catch (err) {
    if (err instanceof GitError && /cannot lock ref|reference already exists/.test(err.stderr))
      throw new RefConflictError(`refs/heads/${to}`, err.stderr.trim());
    throw err;
  }
}

export interface BranchHead {
  name: string;
  oid: string;
}

/** Branches, newest head commit first, then by name (Forgejo's branch list order). */
export async function listBranches(repoPath: string): Promise<BranchHead[]> {
  const { stdout } = await runGit(repoPath, [
    'for-each-ref',
    '--sort=refname',
    '--sort=-committerdate',
    '--format=%(refname)%00%(objectname)',
    'refs/heads/',
  ]);
  return stdout
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const [ref = '', oid = ''] = l.split('\0');
      return { name: ref.slice('refs/heads/'.length), oid };
    });
}
