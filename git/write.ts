import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readInfo, readObject } from './cat-file.ts';
import { FileExistsError, FileNotFoundError, GitError, InvalidPathError, RevNotFoundError, ShaMismatchError } from './errors.ts';
import { runGit } from './exec.ts';
import { commitMessageText, identityEnv, validateIdentity, type Identity } from './identity.ts';
import { isFullOid, zeroOid } from './oid.ts';
import { validatePath } from './paths.ts';
import { assertBranchName, assertFullRef } from './refname.ts';
import { updateRef } from './refs.ts';
import { parseTreeObject, type RawTreeEntry } from './trees.ts';

export type { Identity } from './identity.ts';
export { validatePath } from './paths.ts';

export type FileMode = '100644' | '100755' | '120000';

export interface FileOp {
  op: 'create' | 'update' | 'delete' | 'move';
  path: string;
  /** Required for create and update; optional for move (keeps the source's content). */
  content?: Buffer;
  /** Source of a move. */
  fromPath?: string;
  /** Default: 100644 for create, the existing mode otherwise. */
  mode?: FileMode;
  /** For update, delete and move: the blob id the caller last saw; a mismatch throws ShaMismatchError. */
  sha?: string;
}

export interface CommitFilesOptions {
  /** Branch to update (short name). */
  branch: string;
  /** A full ref to update instead of the branch (e.g. refs/notes/commits). */
  ref?: string;
  /** Commit the change is based on; null for a first commit or an orphan branch. */
  parent: string | null;
  /** The branch's value the caller read: defaults to `parent`; null means the branch must not exist yet. */
  expectedOld?: string | null;
  ops: FileOp[];
  message: string;
  author: Identity;
  /** Default: the author. */
  committer?: Identity;
}

export interface CommitResult {
  commitSha: string;
  treeSha: string;
}

const FILE_MODES = new Set(['100644', '100755', '120000']);

interface Blob {
  mode: string;
  oid?: string;
  content?: Buffer;
}

/** The parent's tree, read lazily one directory at a time through cat-file. */
class ParentTree {
  private readonly trees = new Map<string, Promise<RawTreeEntry[]>>();
  private readonly repoPath: string;
  private readonly rootOid: string | null;
  constructor(repoPath: string, rootOid: string | null) {
    this.repoPath = repoPath;
    this.rootOid = rootOid;
  }

  private read(oid: string): Promise<RawTreeEntry[]> {
    let entries = this.trees.get(oid);
    if (!entries) {
      entries = readObject(this.repoPath, oid).then((obj) => {
        if (!obj || obj.type !== 'tree') throw new GitError(`tree ${oid} is unreadable`, null, '', ['cat-file']);
        return parseTreeObject(obj.content, oid.length / 2);
      });
      this.trees.set(oid, entries);
    }
    return entries;
  }

  async entry(p: string): Promise<RawTreeEntry | null> {
    if (this.rootOid === null) return null;
    let treeOid = this.rootOid;
    const segments = p.split('/');
    for (let i = 0; i < segments.length; i++) {
      const found = (await this.read(treeOid)).find((e) => e.name === segments[i]);
      if (!found) return null;
      if (i === segments.length - 1) return found;
      if (found.type !== 'tree') return null;
      treeOid = found.oid;
    }
    return null;
  }
}

/**
 * Applies the operations in order to the parent's tree, tracking their effect so that later
 * operations see earlier ones (delete `a` then create `a/b` is fine).
 */
class Overlay {
  readonly changes = new Map<string, Blob | null>();
  private readonly base: ParentTree;
  constructor(base: ParentTree) {
    this.base = base;
  }

  async lookup(p: string): Promise<Blob | 'dir' | null> {
    const changed = this.changes.get(p);
    if (changed !== undefined) return changed;
    for (const [k, v] of this.changes) if (v && k.startsWith(`${p}/`)) return 'dir';
    const e = await this.base.entry(p);
    if (!e) return null;
    return e.type === 'tree' ? 'dir' : { mode: e.mode, oid: e.oid };
  }

  async existingFile(p: string, sha: string | undefined): Promise<Blob> {
    const found = await this.lookup(p);
    if (found === null || found === 'dir') throw new FileNotFoundError(p);
    if (sha !== undefined && found.oid !== sha) throw new ShaMismatchError(p, sha, found.oid ?? '(new content)');
    return found;
  }

  async assertCreatable(p: string): Promise<void> {
    const segments = p.split('/');
    for (let i = 1; i < segments.length; i++) {
      const prefix = segments.slice(0, i).join('/');
      const found = await this.lookup(prefix);
      if (found !== null && found !== 'dir') throw new InvalidPathError(p, `'${prefix}' is a file`);
    }
    const found = await this.lookup(p);
    if (found === 'dir') throw new InvalidPathError(p, 'a directory exists at this path');
    if (found !== null) throw new FileExistsError(p);
  }

  async apply(op: FileOp): Promise<void> {
    validatePath(op.path);
    if (op.mode !== undefined && !FILE_MODES.has(op.mode)) throw new InvalidPathError(op.path, `unsupported mode ${op.mode}`);
    if ((op.op === 'create' || op.op === 'update') && op.content === undefined)
      throw new InvalidPathError(op.path, `${op.op} needs content`);
    switch (op.op) {
      case 'create':
        await this.assertCreatable(op.path);
        this.changes.set(op.path, { mode: op.mode ?? '100644', content: op.content });
        return;
      case 'update': {
        const cur = await this.existingFile(op.path, op.sha);
        this.changes.set(op.path, { mode: op.mode ?? cur.mode, content: op.content });
        return;
      }
      case 'delete':
        await this.existingFile(op.path, op.sha);
        this.changes.set(op.path, null);
        return;
      case 'move': {
        if (op.fromPath === undefined) throw new InvalidPathError(op.path, 'move needs fromPath');
        validatePath(op.fromPath);
        const src = await this.existingFile(op.fromPath, op.sha);
        this.changes.set(op.fromPath, null);
        if (op.fromPath !== op.path) await this.assertCreatable(op.path);
        this.changes.set(
          op.path,
          op.content !== undefined ? { mode: op.mode ?? src.mode, content: op.content } : { ...src, mode: op.mode ?? src.mode },
        );
        return;
      }
    }
  }
}

/** Writes the contents as blobs with one `hash-object --stdin-paths`, filling in their oids. */
async function writeBlobs(repoPath: string, tmp: string, blobs: Blob[]): Promise<void> {
  const pending = blobs.filter((b) => b.content !== undefined);
  if (pending.length === 0) return;
  const files = pending.map((_, i) => path.join(tmp, `blob-${i}`));
  await Promise.all(pending.map((b, i) => writeFile(files[i], b.content ?? Buffer.alloc(0))));
  const { stdout } = await runGit(repoPath, ['hash-object', '-w', '--no-filters', '--stdin-paths'], { input: `${files.join('\n')}\n` });
  const oids = stdout
    .toString('utf8')
    .split('\n')
    .filter((s) => s !== '');
  if (oids.length !== pending.length) throw new GitError('hash-object returned a wrong number of ids', null, '', ['hash-object']);
  pending.forEach((b, i) => {
    b.oid = oids[i];
    b.content = undefined;
  });
}

/**
 * Commits file operations onto `parent` without a work tree (a temporary index), then moves the
 * branch with a compare-and-swap so that of concurrent writers from the same parent exactly one
 * wins and the others get RefConflictError.
 */
export async function commitFiles(repoPath: string, opts: CommitFilesOptions): Promise<CommitResult> {
  if (opts.ref !== undefined) assertFullRef(opts.ref);
  else assertBranchName(opts.branch);
  const committer = opts.committer ?? opts.author;
  validateIdentity(opts.author, 'author');
  validateIdentity(committer, 'committer');
  const message = commitMessageText(opts.message);
  if (opts.parent !== null && !isFullOid(opts.parent)) throw new RevNotFoundError(opts.parent);
  const expectedOld = opts.expectedOld === undefined ? opts.parent : opts.expectedOld;
  if (expectedOld !== null && !isFullOid(expectedOld)) throw new RevNotFoundError(expectedOld);

  let rootTree: string | null = null;
  if (opts.parent !== null) {
    const tree = await readInfo(repoPath, `${opts.parent}^{tree}`);
    if (!tree) throw new RevNotFoundError(opts.parent);
    rootTree = tree.oid;
  }
  const overlay = new Overlay(new ParentTree(repoPath, rootTree));
  for (const op of opts.ops) await overlay.apply(op);

  const tmp = await mkdtemp(path.join(os.tmpdir(), 'cairn-commit-'));
  try {
    const changes = [...overlay.changes];
    await writeBlobs(
      repoPath,
      tmp,
      changes.flatMap(([, b]) => (b ? [b] : [])),
    );
    const env = { ...identityEnv(opts.author, committer), GIT_INDEX_FILE: path.join(tmp, 'index') };
    if (rootTree !== null) await runGit(repoPath, ['read-tree', rootTree], { env });
    // Removals first, so that replacing file `a` by `a/b` never meets a directory/file clash.
    const zero = zeroOid(rootTree ?? '');
    const removals = changes.filter(([, b]) => b === null).map(([p]) => `0 ${zero}\t${p}\0`);
    const additions = changes.flatMap(([p, b]) => (b ? [`${b.mode} ${b.oid}\t${p}\0`] : []));
    const { stderr } = await runGit(repoPath, ['update-index', '-z', '--index-info'], { env, input: [...removals, ...additions].join('') });
    // git's own verify_path (NTFS/HFS aliases of .git and the like) is the last line of defence;
    // --index-info reports a refused path on stderr and still exits 0.
    const ignored = /^Ignoring path (.*)$/m.exec(stderr);
    if (ignored) throw new InvalidPathError(ignored[1], 'rejected by git');
    const treeSha = (await runGit(repoPath, ['write-tree'], { env })).stdout.toString('utf8').trim();
    const parentArgs = opts.parent !== null ? ['-p', opts.parent] : [];
    const commitSha = (await runGit(repoPath, ['commit-tree', treeSha, ...parentArgs], { env, input: message })).stdout
      .toString('utf8')
      .trim();
    await updateRef(repoPath, opts.ref ?? `refs/heads/${opts.branch}`, commitSha, expectedOld ?? zeroOid(commitSha), env);
    return { commitSha, treeSha };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
