// Reads that serve API requests without starting a process: refs, tree entries and blobs come from
// the repository's long-lived cat-file reader. Facts about immutable objects (the last commit that
// touched a path below a given commit) are cached.
import path from 'node:path';
import { readInfo, readObject, type ObjectInfo } from './cat-file.ts';
import { runGit } from './exec.ts';
import { Lru } from './lru.ts';
import { isOidPrefix } from './oid.ts';
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

/** Entries of a tree object, or null when `treeOid` is not a tree. */
export async function readTree(repoPath: string, treeOid: string): Promise<RawTreeEntry[] | null> {
  const obj = await readObject(repoPath, treeOid);
  if (!obj || obj.type !== 'tree') return null;
  return parseTreeObject(obj.content, obj.oid.length / 2);
}

/** The entry at `p` below a commit or tree ('' = the root tree), or null. */
export async function entryAt(repoPath: string, treeish: string, p: string): Promise<Entry | null> {
  const root = await readInfo(repoPath, `${treeish}^{tree}`);
  if (!root) return null;
  let cur: Entry = { mode: '040000', type: 'tree', name: '', oid: root.oid, path: '' };
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

const lastCommits = new Lru<string, string>(20_000);

/** The newest commit reachable from `commit` that changed `p` (the commit itself for the root). */
export async function lastCommitFor(repoPath: string, commit: string, p: string): Promise<string | null> {
  if (p === '') return commit;
  const key = `${path.resolve(repoPath)}\0${commit}\0${p}`;
  const hit = lastCommits.get(key);
  if (hit) return hit;
  const { stdout } = await runGit(repoPath, ['rev-list', '-1', '--end-of-options', commit, '--', p]);
  const sha = stdout.toString('utf8').trim();
  if (sha === '') return null;
  lastCommits.set(key, sha);
  return sha;
}

/** refs/heads/<name> or refs/tags/<name> (peeled to its commit with `peel`); null for a name git would refuse. */
export async function readRef(repoPath: string, kind: 'heads' | 'tags', name: string, peel = false): Promise<ObjectInfo | null> {
  if (!isValidRefName(name) || name.startsWith('-')) return null;
  return readInfo(repoPath, `refs/${kind}/${name}${peel ? '^{commit}' : ''}`);
}
