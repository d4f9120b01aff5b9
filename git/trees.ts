import { readInfo } from './cat-file.ts';
import { GitError } from './errors.ts';
import { assertSafeArg, runGit } from './exec.ts';

export interface LsTreeEntry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  oid: string;
  /** Blob size in bytes; null for trees and submodules. */
  size: number | null;
  path: string;
}

export interface LsTreeOptions {
  recursive?: boolean;
  /** With `recursive`, also list the trees passed on the way (`-t`). */
  withTrees?: boolean;
  /** Limit to this path (a file, or `dir/` for a directory's entries). Literal, never a glob. */
  path?: string;
}

export interface GitTreeEntry {
  path: string;
  mode: string;
  type: string;
  size: number;
  sha: string;
}

/** Forgejo's `GET {R}/git/trees/{sha}` body without urls (the caller adds them). */
export interface GitTreeResponse {
  sha: string;
  entries: GitTreeEntry[];
  truncated: boolean;
  page: number;
  total_count: number;
}

export const DEFAULT_TREES_PER_PAGE = 1000;

const ENTRY = /^(\d{6}) (blob|tree|commit) ([0-9a-f]{40,64}) +(\d+|-)\t([\s\S]*)$/;

function parseEntryType(value: string): LsTreeEntry['type'] {
  if (value === 'blob' || value === 'tree' || value === 'commit') return value;
  throw new GitError(`ls-tree: unknown entry type ${value}`, null, '', ['ls-tree']);
}

/** Entries of a tree-ish (paths from the tree's root), or null when it does not name a tree. */
export async function lsTree(repoPath: string, treeish: string, opts: LsTreeOptions = {}): Promise<LsTreeEntry[] | null> {
  assertSafeArg(treeish, 'tree-ish');
  const args = ['ls-tree', '-z', '--long'];
  if (opts.recursive) args.push('-r');
  if (opts.recursive && opts.withTrees) args.push('-t');
  args.push('--end-of-options', treeish);
  if (opts.path !== undefined && opts.path !== '') args.push('--', opts.path);
  let stdout: Buffer;
  try {
    ({ stdout } = await runGit(repoPath, args));
  } catch (err) {
    if (err instanceof GitError && /Not a valid object name|not a tree object/.test(err.stderr)) return null;
    throw err;
  }
  const entries: LsTreeEntry[] = [];
  for (const record of stdout.toString('utf8').split('\0')) {
    if (record === '') continue;
    const m = ENTRY.exec(record);
    if (!m) throw new GitError(`ls-tree: unexpected record ${JSON.stringify(record)}`, null, '', args);
    entries.push({ mode: m[1], type: parseEntryType(m[2]), oid: m[3], size: m[4] === '-' ? null : Number(m[4]), path: m[5] });
  }
  return entries;
}

/**
 * One page of a tree. Like Forgejo, `sha` in the answer is the commit a ref or commit id resolves
 * to (a tree id stays a tree id), and a recursive listing includes the subtrees. Null when `rev`
 * does not lead to a tree.
 */
export async function getTree(
  repoPath: string,
  rev: string,
  opts: { recursive?: boolean; page?: number; perPage?: number } = {},
): Promise<GitTreeResponse | null> {
  const resolved = (await readInfo(repoPath, `${rev}^{commit}`)) ?? (await readInfo(repoPath, `${rev}^{tree}`));
  if (!resolved) return null;
  const entries = await lsTree(repoPath, resolved.oid, { recursive: opts.recursive, withTrees: true });
  if (!entries) return null;
  const page = opts.page !== undefined && opts.page > 0 ? Math.floor(opts.page) : 1;
  const perPage =
    opts.perPage !== undefined && opts.perPage > 0 && opts.perPage <= DEFAULT_TREES_PER_PAGE
      ? Math.floor(opts.perPage)
      : DEFAULT_TREES_PER_PAGE;
  const start = perPage * (page - 1);
  const end = Math.min(start + perPage, entries.length);
  const slice = start >= entries.length ? [] : entries.slice(start, end);
  return {
    sha: resolved.oid,
    entries: slice.map((e) => ({ path: e.path, mode: e.mode, type: e.type, size: e.size ?? 0, sha: e.oid })),
    truncated: start < entries.length && end < entries.length,
    page,
    total_count: entries.length,
  };
}

export interface RawTreeEntry {
  /** Six digits, as ls-tree prints it (trees are stored as "40000"). */
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  name: string;
  oid: string;
}

/** Parses a raw tree object (`<mode> <name>\0<binary oid>`...); `oidBytes` is 20 for sha1, 32 for sha256. */
export function parseTreeObject(content: Buffer, oidBytes: number): RawTreeEntry[] {
  const entries: RawTreeEntry[] = [];
  let pos = 0;
  while (pos < content.length) {
    const space = content.indexOf(0x20, pos);
    const nul = content.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + oidBytes > content.length) throw new GitError('malformed tree object', null, '', ['cat-file']);
    const mode = content.subarray(pos, space).toString('latin1').padStart(6, '0');
    const type = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    entries.push({
      mode,
      type,
      name: content.subarray(space + 1, nul).toString('utf8'),
      oid: content.subarray(nul + 1, nul + 1 + oidBytes).toString('hex'),
    });
    pos = nul + 1 + oidBytes;
  }
  return entries;
}
