import { lstat, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { closeBatch, readInfo } from './cat-file.ts';
import { RepoExistsError } from './errors.ts';
import { assertSafeArg, runGit } from './exec.ts';
import { isOidPrefix } from './oid.ts';
import { assertBranchName, assertFullRef, isValidRefName } from './refname.ts';

export type ObjectFormat = 'sha1' | 'sha256';

export interface InitOptions {
  defaultBranch: string;
  objectFormat?: ObjectFormat;
}

export interface Ref {
  name: string;
  oid: string;
  type: string;
  /** For an annotated tag, the object it points at; otherwise null. */
  peeled: string | null;
}

export interface ResolvedRef {
  kind: 'branch' | 'tag' | 'commit';
  /** Full ref name, null for a commit id. */
  ref: string | null;
  /** What the ref points at (a tag object for annotated tags). */
  oid: string;
  /** The commit reached by peeling, null when the ref does not lead to a commit. */
  commit: string | null;
}

const REPO_CONFIG: [string, string][] = [
  ['core.logAllRefUpdates', 'true'],
  ['transfer.fsckObjects', 'true'],
  ['receive.advertisePushOptions', 'true'],
  ['uploadpack.allowFilter', 'true'],
  ['uploadpack.allowAnySHA1InWant', 'true'],
  ['http.receivepack', 'true'],
];

const REF_FORMAT = '--format=%(refname)%00%(objectname)%00%(objecttype)%00%(*objectname)%00%(*objecttype)';

function isErrno(err: unknown, code: string): boolean {
  return err instanceof Error && 'code' in err && err.code === code;
}

/** Creates a bare repository at a path that must not exist yet. */
export async function initBare(repoPath: string, opts: InitOptions): Promise<void> {
  assertBranchName(opts.defaultBranch);
  const abs = path.resolve(repoPath);
  await mkdir(path.dirname(abs), { recursive: true });
  // mkdir without `recursive` is the atomic claim on the path between concurrent creators.
  await mkdir(abs).catch((err: unknown) => {
    if (isErrno(err, 'EEXIST')) throw new RepoExistsError(abs);
    throw err;
  });
  try {
    const format = opts.objectFormat ?? 'sha1';
    await runGit(null, [
      'init',
      '--bare',
      '--quiet',
      '--template=',
      `--initial-branch=${opts.defaultBranch}`,
      `--object-format=${format}`,
      abs,
    ]);
    await configureBare(abs);
  } catch (err) {
    await rm(abs, { recursive: true, force: true });
    throw err;
  }
}

/** The settings every cairn repository carries (set at creation, and on adoption of an existing one). */
export async function configureBare(repoPath: string): Promise<void> {
  for (const [key, value] of REPO_CONFIG) await runGit(repoPath, ['config', key, value]);
}

/** `sha1` or `sha256`, as the repository was initialised. */
export async function objectFormatOf(repoPath: string): Promise<ObjectFormat> {
  const { stdout } = await runGit(repoPath, ['rev-parse', '--show-object-format']);
  return stdout.toString('utf8').trim() === 'sha256' ? 'sha256' : 'sha1';
}

function parseRefLines(stdout: Buffer): (Ref & { peeledType: string })[] {
  return stdout
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [name = '', oid = '', type = '', peeled = '', peeledType = ''] = line.split('\0');
      return { name, oid, type, peeled: peeled || null, peeledType };
    });
}

/** Refs sorted by name, optionally only those under `prefix` (e.g. `refs/heads/`). */
export async function listRefs(repoPath: string, prefix?: string): Promise<Ref[]> {
  const args = ['for-each-ref', REF_FORMAT];
  if (prefix !== undefined) {
    if (prefix !== 'refs/') assertFullRef(prefix.replace(/\/$/, ''));
    args.push(prefix);
  }
  const { stdout } = await runGit(repoPath, args);
  return parseRefLines(stdout).map(({ name, oid, type, peeled }) => ({ name, oid, type, peeled }));
}

/**
 * Resolves what an API `ref`/`sha` parameter names: a branch, then a tag, then a commit id
 * (abbreviated or full). Null when nothing matches.
 */
export async function resolveRef(repoPath: string, name: string): Promise<ResolvedRef | null> {
  if (isValidRefName(name) && !name.startsWith('-')) {
    const heads = `refs/heads/${name}`;
    const tags = `refs/tags/${name}`;
    const { stdout } = await runGit(repoPath, ['for-each-ref', REF_FORMAT, heads, tags]);
    // for-each-ref patterns also match refs below them (refs/heads/<name>/x): keep exact names.
    const refs = parseRefLines(stdout);
    const found = refs.find((r) => r.name === heads) ?? refs.find((r) => r.name === tags);
    if (found) {
      const commit = found.type === 'commit' ? found.oid : found.peeledType === 'commit' ? found.peeled : null;
      return { kind: found.name === heads ? 'branch' : 'tag', ref: found.name, oid: found.oid, commit };
    }
  }
  if (!isOidPrefix(name)) return null;
  const info = await readInfo(repoPath, `${name}^{commit}`);
  return info ? { kind: 'commit', ref: null, oid: info.oid, commit: info.oid } : null;
}

/** `git rev-parse --verify`: the object id a revision names, or null. */
export async function revParse(repoPath: string, rev: string): Promise<string | null> {
  assertSafeArg(rev, 'revision');
  const { stdout, code } = await runGit(repoPath, ['rev-parse', '--verify', '--quiet', '--end-of-options', rev], { okCodes: [0, 1] });
  return code === 0 ? stdout.toString('utf8').trim() : null;
}

export async function isEmpty(repoPath: string): Promise<boolean> {
  const { stdout } = await runGit(repoPath, ['for-each-ref', '--count=1', '--format=x']);
  return stdout.length === 0;
}

/** Bytes used by objects, loose and packed. */
export async function repoSize(repoPath: string): Promise<number> {
  const { stdout } = await runGit(repoPath, ['count-objects', '-v']);
  let kib = 0;
  for (const line of stdout.toString('utf8').split('\n')) {
    const m = /^(size|size-pack): (\d+)$/.exec(line);
    if (m) kib += Number(m[2]);
  }
  return kib * 1024;
}

export async function setHead(repoPath: string, branch: string): Promise<void> {
  assertBranchName(branch);
  await runGit(repoPath, ['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
}

/** The branch HEAD points at (it may not exist yet), or null when HEAD is detached. */
export async function getHeadBranch(repoPath: string): Promise<string | null> {
  const { stdout, code } = await runGit(repoPath, ['symbolic-ref', '--quiet', 'HEAD'], { okCodes: [0, 1] });
  const ref = stdout.toString('utf8').trim();
  return code === 0 && ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
}

export async function deleteRepo(repoPath: string): Promise<void> {
  await closeBatch(repoPath);
  await rm(path.resolve(repoPath), { recursive: true, force: true });
}

/** Moves a bare repository directory; the target must not exist. */
export async function renameRepo(from: string, to: string): Promise<void> {
  const src = path.resolve(from);
  const dst = path.resolve(to);
  await closeBatch(src);
  await mkdir(path.dirname(dst), { recursive: true });
  // rename(2) would silently replace an empty directory at the target.
  const taken = await lstat(dst).then(
    () => true,
    (err: unknown) => {
      if (isErrno(err, 'ENOENT')) return false;
      throw err;
    },
  );
  if (taken) throw new RepoExistsError(dst);
  await rename(src, dst);
}
