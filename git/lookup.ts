// Reads that serve API requests without starting a process: refs, tree entries and blobs come from
// the repository's long-lived cat-file reader. Facts about immutable objects (trees, small blobs, the
// last commit that touched a path below a given commit) are cached; refs are always read afresh.
import path from 'node:path';
import { readInfo, readObject, type ObjectInfo } from './cat-file.ts';
import { commitOf } from './commits.ts';
import { runGit } from './exec.ts';
import { Lru } from './lru.ts';
import { isFullOid, isOidPrefix } from './oid.ts';
import { isValidRefName } from './refname.ts';
import type { ResolvedRef } from './repo.ts';
import { parseTreeObject, type RawTreeEntry } from './trees.ts';

/** Like resolveRef (branch, then tag, then commit id), through cat-file. */
export async function lookupRef(repoPath: string, name: string): Promise<ResolvedRef | null> {
  if (name !== '' && isValidRefName(name) && !name.startsWith('-')) {
    for (const kind of ['branch', 'tag'] as const) {
      const ref = `refs/${kind === 'branch' ? 'heads' : 'tags'}/${name}`;
      const info = await readInfo(repoPath, ref);
      if (!info) continue;
      const commit = info.type === 'commit' ? info.oid : ((await readInfo(repoPath, `${ref}^{commit}`))?.oid ?? null);
      return { kind, ref, oid: info.oid, commit };
    }
  }
  if (!isOidPrefix(name)) return null;
  const info = await readInfo(repoPath, `${name}^{commit}`);
  return info ? { kind: 'commit', ref: null, oid: info.oid, commit: info.oid } : null;
}

export interface Entry extends RawTreeEntry {
  /** Path from the root of the tree ('' for the root itself). */
  path: string;
}

// Objects never change, so what a request learns about one by its full id is kept for the next
// (every read of a path was a handful of round trips through the repository's one
// cat-file pipe). Ids reach these functions from a ref or commit resolved by this request, so the
// objects are in the repository. Bounded: tree entries, and bytes of small blobs.
const trees = new Lru<string, RawTreeEntry[]>(20_000, (entries) => entries.length + 1);
const rootTrees = new Lru<string, string>(4_096);
const blobSizes = new Lru<string, number>(20_000);
const BLOB_CACHE_MAX = 64 * 1024;
// Weighed by the memory each one holds: its own ArrayBuffer (see ownCopy) and about 200 bytes of
// objects and key around it.
const blobs = new Lru<string, Buffer>(4 * 1024 * 1024, (b) => b.buffer.byteLength + 200);

/**
 * A copy in memory of its own. Neither a slice of cat-file's read buffer nor `Buffer.from` (which
 * places anything under 4 KiB in Node's shared 8 KiB pool) would do: a kept slice keeps its whole
 * buffer alive, so a cache of many small blobs, each weighed at its length, could hold an 8 KiB pool
 * slab each (memory).
 */
export function ownCopy(b: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(b.length);
  b.copy(copy);
  return copy;
}

const keyOf = (repoPath: string, oid: string) => `${path.resolve(repoPath)}\0${oid}`;

/** Entries of a tree object, or null when `treeOid` is not a tree. Shared with other requests: do not change them. */
export async function readTree(repoPath: string, treeOid: string): Promise<RawTreeEntry[] | null> {
  const load = async () => {
    const obj = await readObject(repoPath, treeOid);
    if (!obj || obj.type !== 'tree') return undefined;
    return parseTreeObject(obj.content, obj.oid.length / 2);
  };
  return (isFullOid(treeOid) ? await trees.getOr(keyOf(repoPath, treeOid), load) : await load()) ?? null;
}

/** The id of the tree a commit, tag or tree names (`<treeish>^{tree}`), or null. */
async function rootTree(repoPath: string, treeish: string): Promise<string | null> {
  const load = async () => (await readInfo(repoPath, `${treeish}^{tree}`))?.oid;
  return (isFullOid(treeish) ? await rootTrees.getOr(keyOf(repoPath, treeish), load) : await load()) ?? null;
}

/** The entry at `p` below a commit or tree ('' = the root tree), or null. */
export async function entryAt(repoPath: string, treeish: string, p: string): Promise<Entry | null> {
  const root = await rootTree(repoPath, treeish);
  if (!root) return null;
  let cur: Entry = { mode: '040000', type: 'tree', name: '', oid: root, path: '' };
  if (p === '') return cur;
  const parts = p.split('/');
  for (let i = 0; i < parts.length; i++) {
    if (cur.type !== 'tree') return null;
    const entries = await readTree(repoPath, cur.oid);
    const found = entries?.find((e) => e.name === parts[i]);
    if (!found) return null;
    cur = { ...found, path: parts.slice(0, i + 1).join('/') };
  }
  return cur;
}

/** The size of a blob (its entry in a tree does not say), or null when `oid` is not a blob. */
export async function blobSize(repoPath: string, oid: string): Promise<number | null> {
  const key = keyOf(repoPath, oid);
  const cached = blobs.get(key)?.length;
  if (cached !== undefined) return cached;
  const load = async () => {
    const info = await readInfo(repoPath, oid);
    return info?.type === 'blob' ? info.size : undefined;
  };
  return (isFullOid(oid) ? await blobSizes.getOr(key, load) : await load()) ?? null;
}

/** A blob's bytes, or null when `oid` is not a blob; small ones are kept. Shared: do not change them. */
export async function blobContent(repoPath: string, oid: string): Promise<Buffer | null> {
  const load = async () => {
    const obj = await readObject(repoPath, oid);
    return obj?.type === 'blob' ? obj.content : undefined;
  };
  if (!isFullOid(oid)) return (await load()) ?? null;
  const key = keyOf(repoPath, oid);
  const hit = blobs.get(key);
  if (hit) return hit;
  const content = await load();
  if (content && content.length <= BLOB_CACHE_MAX) blobs.set(key, ownCopy(content));
  return content ?? null;
}

const lastCommits = new Lru<string, string>(20_000);

/**
 * The newest commit reachable from `commit` that changed `p` (the commit itself for the root): what
 * `rev-list -1 <commit> -- <p>` prints.
 */
export async function lastCommitFor(repoPath: string, commit: string, p: string): Promise<string | null> {
  if (p === '') return commit;
  const sha = await lastCommits.getOr(`${path.resolve(repoPath)}\0${commit}\0${p}`, async () => {
    const inherited = await fromParent(repoPath, commit, p);
    if (inherited) return inherited;
    const { stdout } = await runGit(repoPath, ['rev-list', '-1', '--end-of-options', commit, '--', p]);
    return stdout.toString('utf8').trim() || undefined;
  });
  return sha ?? null;
}

/**
 * A commit with one parent that leaves `p` as it was (TREESAME, in rev-list's words) is left out of
 * `p`'s history, which goes on at the parent: the parent's answer, when it is known, is the commit's
 * too. After a push of one commit, every path it did not touch is answered without a git process.
 */
async function fromParent(repoPath: string, commit: string, p: string): Promise<string | undefined> {
  if (!isFullOid(commit)) return undefined;
  const c = await commitOf(repoPath, commit);
  const parent = c?.parents.length === 1 ? c.parents[0]! : null;
  const known = parent ? lastCommits.get(`${path.resolve(repoPath)}\0${parent}\0${p}`) : undefined;
  if (!parent || known === undefined) return undefined;
  const [mine, theirs] = await Promise.all([entryAt(repoPath, commit, p), entryAt(repoPath, parent, p)]);
  return mine && theirs && mine.oid === theirs.oid && mine.mode === theirs.mode ? known : undefined;
}

/** refs/heads/<name> or refs/tags/<name> (peeled to its commit with `peel`); null for a name git would refuse. */
export async function readRef(repoPath: string, kind: 'heads' | 'tags', name: string, peel = false): Promise<ObjectInfo | null> {
  if (!isValidRefName(name) || name.startsWith('-')) return null;
  return readInfo(repoPath, `refs/${kind}/${name}${peel ? '^{commit}' : ''}`);
}
