import path from 'node:path';
import type { Readable } from 'node:stream';
import { readObject } from './cat-file.ts';
import { GitArgError, GitError, RevNotFoundError } from './errors.ts';
import { assertSafeArg, gitStream, runGit } from './exec.ts';
import { Lru } from './lru.ts';
import { isFullOid } from './oid.ts';

export interface Signature {
  name: string;
  email: string;
  /** RFC 3339 in the commit's own offset, e.g. 2024-01-02T03:04:05+02:00 (Z for +0000, as Go prints it). */
  date: string;
  /** Seconds since the epoch. */
  timestamp: number;
  /** The offset as git stores it, e.g. +0200. */
  tz: string;
}

export interface Commit {
  sha: string;
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  message: string;
  /** The raw gpgsig (or gpgsig-sha256) header, continuation lines joined with \n. */
  signature?: string;
  /** The commit object without its signature header: what the signature signs. */
  signedPayload?: string;
}

export interface RangeOptions {
  rev: string;
  path?: string;
  since?: Date;
  until?: Date;
  firstParent?: boolean;
}

export interface LogOptions extends RangeOptions {
  skip?: number;
  limit?: number;
}

export type FileStatus = 'added' | 'removed' | 'modified' | 'renamed' | 'copied';

export interface ChangedFile {
  filename: string;
  status: FileStatus;
  /** Source path of a rename or copy. */
  previousFilename?: string;
  additions: number;
  deletions: number;
  binary: boolean;
}

export interface DiffStats {
  total: number;
  additions: number;
  deletions: number;
}

const IDENT = /^(.*) <(.*)> (\d+) ([+-]\d{4})$/;
const SIGNATURE_HEADERS = new Set(['gpgsig', 'gpgsig-sha256']);

export function formatGitDate(timestamp: number, tz: string): string {
  const sign = tz.startsWith('-') ? -1 : 1;
  const minutes = sign * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(3, 5)));
  const local = new Date((timestamp + minutes * 60) * 1000).toISOString().slice(0, 19);
  return minutes === 0 ? `${local}Z` : `${local}${sign < 0 ? '-' : '+'}${tz.slice(1, 3)}:${tz.slice(3, 5)}`;
}

function parseIdent(value: string): Signature {
  const m = IDENT.exec(value);
  // Objects written by broken tools may lack a date; keep the name rather than fail the listing.
  if (!m) return { name: value, email: '', date: formatGitDate(0, '+0000'), timestamp: 0, tz: '+0000' };
  const timestamp = Number(m[3]);
  return { name: m[1], email: m[2], date: formatGitDate(timestamp, m[4]), timestamp, tz: m[4] };
}

/** Parses a raw commit object (as cat-file prints it). */
export function parseCommit(sha: string, raw: Buffer): Commit {
  const text = raw.toString('utf8');
  const split = text.indexOf('\n\n');
  const headerText = split < 0 ? text : text.slice(0, split);
  const message = split < 0 ? '' : text.slice(split + 2);
  const headers: [string, string][] = [];
  const unsigned: string[] = [];
  let inSignature = false;
  for (const line of headerText.split('\n')) {
    const last = headers[headers.length - 1];
    if (line.startsWith(' ') && last) {
      last[1] += `\n${line.slice(1)}`;
      if (!inSignature) unsigned.push(line);
      continue;
    }
    const space = line.indexOf(' ');
    const key = space < 0 ? line : line.slice(0, space);
    headers.push([key, space < 0 ? '' : line.slice(space + 1)]);
    inSignature = SIGNATURE_HEADERS.has(key);
    if (!inSignature) unsigned.push(line);
  }
  const commit: Commit = {
    sha,
    tree: '',
    parents: [],
    author: parseIdent(''),
    committer: parseIdent(''),
    message,
  };
  for (const [key, value] of headers) {
    if (key === 'tree') commit.tree = value;
    else if (key === 'parent') commit.parents.push(value);
    else if (key === 'author') commit.author = parseIdent(value);
    else if (key === 'committer') commit.committer = parseIdent(value);
    else if (SIGNATURE_HEADERS.has(key) && commit.signature === undefined) commit.signature = value;
  }
  if (commit.signature !== undefined) commit.signedPayload = `${unsigned.join('\n')}${text.slice(split < 0 ? text.length : split)}`;
  return commit;
}

/** The commit a revision names (tags are peeled), or null. */
export async function getCommit(repoPath: string, rev: string): Promise<Commit | null> {
  const obj = await readObject(repoPath, `${rev}^{commit}`);
  return obj ? parseCommit(obj.oid, obj.content) : null;
}

/**
 * The bytes a kept commit holds: its object, two signatures, their strings, the object's text (which
 * the parsed strings are slices of) and its cache key, measured at about 1.9 KB for a one-line
 * message (memory: it was weighed 256 bytes plus its text, a seventh of what it held), and
 * the text counted twice, as it may be stored two bytes a character.
 */
export const commitWeight = (c: Commit) => 2_048 + 2 * (c.message.length + (c.signature?.length ?? 0) + (c.signedPayload?.length ?? 0));

// Parsed commits by repository and full id: a commit object never changes (a page of 30
// commits was 30 round trips through the repository's one cat-file pipe, per request). Bounded by
// the memory they hold, 8 MiB: about 4,000 ordinary commits.
const commits = new Lru<string, Commit>(8 * 1024 * 1024, commitWeight);

/**
 * The commit `oid` names, for an id this request already knows to be in the repository (listed by
 * rev-list or reached from a ref it just resolved): the answer is shared with other requests, which
 * must not change it. Anything but a full id is read as getCommit does.
 */
export function commitOf(repoPath: string, oid: string): Promise<Commit | null> {
  if (!isFullOid(oid)) return getCommit(repoPath, oid);
  return commits
    .getOr(`${path.resolve(repoPath)}\0${oid}`, async () => (await getCommit(repoPath, oid)) ?? undefined)
    .then((c) => c ?? null);
}

function rangeArgs(opts: RangeOptions): string[] {
  assertSafeArg(opts.rev, 'revision');
  const args: string[] = [];
  if (opts.firstParent) args.push('--first-parent');
  if (opts.since) args.push(`--since=@${Math.floor(opts.since.getTime() / 1000)}`);
  if (opts.until) args.push(`--until=@${Math.floor(opts.until.getTime() / 1000)}`);
  args.push('--end-of-options', opts.rev, '--');
  if (opts.path !== undefined && opts.path !== '') args.push(opts.path);
  return args;
}

async function revList(repoPath: string, args: string[], rev: string): Promise<string> {
  try {
    const { stdout } = await runGit(repoPath, ['rev-list', ...args]);
    return stdout.toString('utf8');
  } catch (err) {
    if (err instanceof GitError && (/bad revision|unknown revision/.test(err.stderr) || err.stderr.includes(`bad object ${rev}`))) {
      throw new RevNotFoundError(rev);
    }
    throw err;
  }
}

/** Commits reachable from `rev`, newest first. Throws RevNotFoundError for an unknown rev. */
export async function log(repoPath: string, opts: LogOptions): Promise<Commit[]> {
  const paging: string[] = [];
  if (opts.skip) paging.push(`--skip=${Math.max(0, Math.floor(opts.skip))}`);
  if (opts.limit !== undefined) paging.push(`--max-count=${Math.max(0, Math.floor(opts.limit))}`);
  const out = await revList(repoPath, [...paging, ...rangeArgs(opts)], opts.rev);
  const shas = out.split('\n').filter((s) => s !== '');
  const commits = await Promise.all(shas.map((sha) => getCommit(repoPath, sha)));
  return commits.map((c, i) => {
    if (!c) throw new GitError(`commit ${shas[i]} listed by rev-list is unreadable`, null, '', ['cat-file']);
    return c;
  });
}

export async function countCommits(repoPath: string, opts: RangeOptions): Promise<number> {
  const out = await revList(repoPath, ['--count', ...rangeArgs(opts)], opts.rev);
  return Number(out.trim());
}

function statusOf(letter: string): FileStatus {
  if (letter === 'A') return 'added';
  if (letter === 'D') return 'removed';
  if (letter === 'R') return 'renamed';
  if (letter === 'C') return 'copied';
  return 'modified'; // M, and T (type change)
}

const NUMSTAT = /^(\d+|-)\t(\d+|-)\t([\s\S]*)$/;

/**
 * Parses `diff-tree -r -z --raw --numstat`, which prints for each diff all raw records, then all
 * numstat records, in the same order; with `--stdin` each diff follows its commit's id.
 */
function parseDiffTree(out: string, args: string[]): { commit: string | null; files: ChangedFile[] }[] {
  const tokens = out.split('\0');
  type Section = { commit: string | null; files: ChangedFile[]; counts: { additions: number; deletions: number; binary: boolean }[] };
  const sections: Section[] = [{ commit: null, files: [], counts: [] }];
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    if (tok === '') continue;
    const cur = sections[sections.length - 1]!;
    if (tok.startsWith(':')) {
      const letter = tok.split(' ')[4]?.charAt(0) ?? 'M';
      const status = statusOf(letter);
      if (status === 'renamed' || status === 'copied') {
        cur.files.push({ filename: tokens[i + 2], previousFilename: tokens[i + 1], status, additions: 0, deletions: 0, binary: false });
        i += 2;
      } else {
        cur.files.push({ filename: tokens[i + 1], status, additions: 0, deletions: 0, binary: false });
        i += 1;
      }
      continue;
    }
    const m = NUMSTAT.exec(tok);
    if (m) {
      const binary = m[1] === '-';
      cur.counts.push({ additions: binary ? 0 : Number(m[1]), deletions: binary ? 0 : Number(m[2]), binary });
      if (m[3] === '') i += 2; // rename: "<a>\t<d>\t\0<old>\0<new>\0"
      continue;
    }
    // Paths are read with their records above, so a record's first token is never one.
    if (isFullOid(tok)) {
      sections.push({ commit: tok, files: [], counts: [] });
      continue;
    }
    throw new GitError(`diff-tree: unexpected record ${JSON.stringify(tok)}`, null, '', args);
  }
  return sections.map((sec) => {
    if (sec.counts.length !== sec.files.length) throw new GitError('diff-tree: raw and numstat records disagree', null, '', args);
    return { commit: sec.commit, files: sec.files.map((f, i) => ({ ...f, ...sec.counts[i] })) };
  });
}

/**
 * Files changed from `from` to `to` (from = null: `to` is a root commit, diffed against the empty
 * tree).
 */
export async function diffFiles(
  repoPath: string,
  from: string | null,
  to: string,
  opts: { renames?: boolean } = {},
): Promise<ChangedFile[]> {
  assertSafeArg(to, 'revision');
  if (from !== null) assertSafeArg(from, 'revision');
  const args = ['diff-tree', '-r', '-z', '--raw', '--numstat', opts.renames ? '-M' : '--no-renames'];
  args.push(...(from === null ? ['--root', '--no-commit-id', to] : [from, to]));
  const { stdout } = await runGit(repoPath, args);
  return parseDiffTree(stdout.toString('utf8'), args).flatMap((sec) => sec.files);
}

/**
 * What diffFiles gives for each commit against its first parent (a root commit against the empty
 * tree), from one `diff-tree --stdin` for all of them rather than one process each.
 */
export async function diffFilesOfCommits(
  repoPath: string,
  commits: Pick<Commit, 'sha' | 'parents'>[],
): Promise<Map<string, ChangedFile[]>> {
  const out = new Map<string, ChangedFile[]>();
  if (commits.length === 0) return out;
  const lines = commits.map((c) => {
    const ids = c.parents.length > 0 ? [c.sha, c.parents[0]!] : [c.sha];
    if (!ids.every(isFullOid)) throw new GitArgError(`diff-tree --stdin takes full commit ids: ${JSON.stringify(ids)}`);
    return `${ids.join(' ')}\n`;
  });
  // --always: a commit that changes nothing still prints its id, so it is not mistaken for a missing one.
  const args = ['diff-tree', '--stdin', '-r', '-z', '--raw', '--numstat', '--no-renames', '--root', '--always'];
  const { stdout } = await runGit(repoPath, args, { input: lines.join('') });
  for (const sec of parseDiffTree(stdout.toString('utf8'), args)) {
    if (sec.commit !== null) out.set(sec.commit, sec.files);
    else if (sec.files.length > 0) throw new GitError('diff-tree: records before the first commit id', null, '', args);
  }
  return out;
}

export function sumStats(files: ChangedFile[]): DiffStats {
  const additions = files.reduce((n, f) => n + f.additions, 0);
  const deletions = files.reduce((n, f) => n + f.deletions, 0);
  return { total: additions + deletions, additions, deletions };
}

/** Files and line stats of one commit, against its first parent (merges included). Null for an unknown commit. */
export async function commitFilesAndStats(repoPath: string, rev: string): Promise<{ files: ChangedFile[]; stats: DiffStats } | null> {
  const commit = await getCommit(repoPath, rev);
  if (!commit) return null;
  const files = await diffFiles(repoPath, commit.parents[0] ?? null, commit.sha);
  return { files, stats: sumStats(files) };
}

/**
 * `.diff` / `.patch` of one commit as a stream, as Forgejo renders them: the diff is against the
 * first parent; the patch is `format-patch` of parent..commit (for a merge, the merged-in commits).
 * Null for an unknown commit.
 */
export async function diffOrPatch(repoPath: string, rev: string, kind: 'diff' | 'patch'): Promise<Readable | null> {
  const commit = await getCommit(repoPath, rev);
  if (!commit) return null;
  const parent = commit.parents[0];
  let args: string[];
  if (kind === 'diff') {
    args = parent ? ['diff-tree', '-p', '-M', parent, commit.sha] : ['diff-tree', '-p', '-M', '--root', '--no-commit-id', commit.sha];
  } else {
    args = ['format-patch', '--no-signature', '--stdout', ...(parent ? [`${parent}..${commit.sha}`] : ['--root', commit.sha])];
  }
  return gitStream(repoPath, args);
}
