// Commit history queries for the API. Everything here is keyed by a full commit id, so the answers
// never change and are cached: a page of the log, its total, and a commit's changed files.
import path from 'node:path';
import { GitError, RevNotFoundError } from './errors.ts';
import { assertSafeArg, runGit } from './exec.ts';
import { commitOf, diffFiles, diffFilesOfCommits, sumStats, type ChangedFile, type DiffStats } from './commits.ts';
import { Lru } from './lru.ts';
import { isFullOid } from './oid.ts';

export interface HistoryQuery {
  /** Full commit id to start from. */
  commit: string;
  /** Revisions whose history is excluded (`not`). */
  not?: string;
  path?: string;
  since?: Date;
  until?: Date;
}

const counts = new Lru<string, number>(2_000);
const pages = new Lru<string, string[]>(2_000);
// Bounded by files, not commits: one commit may change thousands.
const changes = new Lru<string, { files: ChangedFile[]; stats: DiffStats }>(50_000, (c) => 1 + c.files.length);

function keyOf(repoPath: string, q: HistoryQuery): string {
  return [path.resolve(repoPath), q.commit, q.not ?? '', q.path ?? '', q.since?.getTime() ?? '', q.until?.getTime() ?? ''].join('\0');
}

function args(q: HistoryQuery): string[] {
  assertSafeArg(q.commit, 'revision');
  const out: string[] = [];
  if (q.since) out.push(`--since=@${Math.floor(q.since.getTime() / 1000)}`);
  if (q.until) out.push(`--until=@${Math.floor(q.until.getTime() / 1000)}`);
  out.push('--end-of-options', q.commit);
  if (q.not) {
    assertSafeArg(q.not, 'revision');
    out.push(`^${q.not}`);
  }
  out.push('--');
  if (q.path) out.push(q.path);
  return out;
}

async function revList(repoPath: string, extra: string[], q: HistoryQuery): Promise<string> {
  try {
    return (await runGit(repoPath, ['rev-list', ...extra, ...args(q)])).stdout.toString('utf8');
  } catch (err) {
    if (err instanceof GitError && /bad revision|unknown revision|bad object/.test(err.stderr))
      throw new RevNotFoundError(q.not ?? q.commit);
    throw err;
  }
}

export function countHistory(repoPath: string, q: HistoryQuery): Promise<number> {
  return counts.getOr(keyOf(repoPath, q), async () => {
    const parent = await onlyParent(repoPath, q);
    const known = parent === null ? 0 : parent === undefined ? undefined : counts.get(keyOf(repoPath, { commit: parent }));
    if (known !== undefined) return known + 1;
    return Number((await revList(repoPath, ['--count'], q)).trim());
  });
}

/** Commit ids of one page of history, newest first. */
export function historyPage(repoPath: string, q: HistoryQuery, skip: number, limit: number): Promise<string[]> {
  const page = (commit: string) => `${keyOf(repoPath, { ...q, commit })}\0${skip}\0${limit}`;
  return pages.getOr(page(q.commit), async () => {
    if (skip === 0 && limit > 0) {
      const parent = await onlyParent(repoPath, q);
      if (parent === null) return [q.commit];
      const known = parent === undefined ? undefined : pages.get(page(parent));
      if (known !== undefined) return [q.commit, ...known.slice(0, limit - 1)];
    }
    const out = await revList(repoPath, [`--skip=${Math.max(0, skip)}`, `--max-count=${Math.max(0, limit)}`], q);
    return out.split('\n').filter((s) => s !== '');
  });
}

/**
 * The one parent of a plain query's commit, null for a root commit, undefined when the history must
 * be asked of git (a merge, a filtered query). rev-list starting at a commit with one parent prints it,
 * then exactly what it prints starting at the parent: after a push of one commit, the total and the
 * first page follow from the parent's, when they are known, without a walk of the whole history.
 */
async function onlyParent(repoPath: string, q: HistoryQuery): Promise<string | null | undefined> {
  if (q.not || q.path || q.since || q.until || !isFullOid(q.commit)) return undefined;
  const c = await commitOf(repoPath, q.commit);
  if (!c) return undefined;
  return c.parents.length === 0 ? null : c.parents.length === 1 ? c.parents[0]! : undefined;
}

/** Files each commit changed against its first parent, with line counts; those not known yet read by one git process. */
export async function commitsChanges(
  repoPath: string,
  shas: string[],
): Promise<({ files: ChangedFile[]; stats: DiffStats } | undefined)[]> {
  const root = path.resolve(repoPath);
  const keys = shas.map((sha) => `${root}\0${sha}`);
  return changes.getMany(keys, async (missing) => {
    const commits = (await Promise.all(missing.map((k) => commitOf(repoPath, k.slice(root.length + 1))))).filter((c) => c !== null);
    const files = await diffFilesOfCommits(repoPath, commits);
    const found = new Map<string, { files: ChangedFile[]; stats: DiffStats }>();
    for (const c of commits) {
      const f = files.get(c.sha);
      if (f) found.set(`${root}\0${c.sha}`, { files: f, stats: sumStats(f) });
    }
    return found;
  });
}

/** Commits in `head` not in `base` (newest first), and the files changed from their merge base. */
export async function compareRange(repoPath: string, base: string, head: string): Promise<{ commits: string[]; files: ChangedFile[] }> {
  assertSafeArg(base, 'revision');
  assertSafeArg(head, 'revision');
  const { stdout } = await runGit(repoPath, ['rev-list', '--end-of-options', head, `^${base}`, '--']);
  const mb = await runGit(repoPath, ['merge-base', base, head], { okCodes: [0, 1] });
  const from = mb.code === 0 ? mb.stdout.toString('utf8').trim() : null;
  const files = from === head ? [] : await diffFiles(repoPath, from, head);
  return {
    commits: stdout
      .toString('utf8')
      .split('\n')
      .filter((s) => s !== ''),
    files,
  };
}
