// Code comments of a review: their input, the commit a line is pinned to and the diff hunk shown with
// them (Forgejo's services/pull/review.go CreateCodeComment, modules/git/diff.go CutDiffAroundLine).
import type { CreatePullReviewComment, CreatePullReviewCommentOptions } from '../../model/schemas/index.ts';
import type { IReview } from '../../model/pull.ts';
import { Comment, CommentType, type IComment } from '../../model/issue.ts';
import type { IUser } from '../../model/user.ts';
import { addComment } from '../issues/index.ts';
import { unprocessable } from '../http/errors.ts';
import type { RequestState } from '../http/request.ts';
import type { Pull } from './review.ts';
import { readInfo } from '../../git/cat-file.ts';
import { runGit } from '../../git/exec.ts';
import { GitError } from '../../git/errors.ts';
import { mergeBase } from '../../git/merge.ts';
import { pullHeadRef } from '../../git/pull.ts';
import { isOidPrefix } from '../../git/oid.ts';

/** Code comments of a review that still apply (Forgejo hides invalidated ones), in creation order. */
export const codeCommentsOf = (c: RequestState, review: IReview) =>
  c.em.find(Comment, { reviewId: review.id, type: CommentType.code, invalidated: false }, { orderBy: { id: 'asc' } });

// -------------------------------------------------------------------------------------------------
// git: the pull's head and merge base, blame, and the diff hunk a code comment is shown with

/** The head commit (refs/pull/<n>/head of the base repository, as Forgejo's GetGitRefName). */
export async function headOf(p: Pull): Promise<string> {
  const ref = await readInfo(p.repoPath, pullHeadRef(p.pull.index));
  const head = ref?.oid ?? p.pull.headCommitId;
  if (!head) throw new Error(`pull request ${p.pull.id} has no head commit`);
  return head;
}

async function mergeBaseOf(p: Pull, head: string): Promise<string> {
  if (p.pull.mergeBase) return p.pull.mergeBase;
  return (await mergeBase(p.repoPath, `refs/heads/${p.pull.baseBranch}`, head)) ?? '';
}

/** The commit that last touched `line` of `file` at `rev`, or null (no such file or line). */
async function blameCommit(repoPath: string, rev: string, file: string, line: number): Promise<string | null> {
  if (!isOidPrefix(rev)) return null;
  const r = await runGit(repoPath, ['blame', '--porcelain', '-L', `${line},${line}`, rev, '--', file], { okCodes: [0, 128] });
  if (r.code !== 0) return null;
  return /^[0-9a-f]{40,64}/.exec(r.stdout.toString('utf8'))?.[0] ?? null;
}

/** `git diff -M base head -- file`, or '' when git cannot produce it (unknown file or commit). */
async function fileDiff(repoPath: string, base: string, head: string, file: string): Promise<string> {
  if (!isOidPrefix(base) || !isOidPrefix(head)) return '';
  try {
    return (await runGit(repoPath, ['diff', '-M', base, head, '--', file])).stdout.toString('utf8');
  } catch (e) {
    if (e instanceof GitError) return '';
    throw e;
  }
}

/** Whether two commits have different trees; a commit id git does not know counts as different. */
export async function treesDiffer(repoPath: string, a: string, b: string): Promise<boolean> {
  if (a === b) return false;
  if (!isOidPrefix(a) || !isOidPrefix(b)) return true;
  const r = await runGit(repoPath, ['diff', '--quiet', a, b, '--'], { okCodes: [0, 1, 128] });
  return r.code !== 0;
}

/** Forgejo's `[ui] CODE_COMMENT_LINES`: lines of diff shown above a code comment. */
const CODE_COMMENT_LINES = 4;
const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * The part of a one-file diff a code comment is shown with (Forgejo's git.CutDiffAroundLine): the
 * headers, then the hunk holding `line` (of the old side when `old`) cut after that line, keeping
 * its last `keep` lines under a recomputed `@@` header. '' when no hunk holds the line.
 */
export function cutDiffAroundLine(diff: string, line: number, old: boolean, keep: number): string {
  if (line === 0 || keep === 0) return '';
  const rows = diff.split('\n').map((l) => l.replace(/\r$/, ''));
  if (rows[rows.length - 1] === '') rows.pop();
  const headers: string[] = [];
  const hunk: string[] = [];
  let cur = 0; // next line number on the commented side
  let other = 0; // next line number on the other side
  let inHunk = false;
  for (const row of rows) {
    const fileHeader = row.startsWith('diff --git ');
    if (fileHeader || (!inHunk && (row.startsWith('---') || row.startsWith('+++')))) {
      if (fileHeader) inHunk = false;
      headers.push(row);
      continue;
    }
    if (cur > line) break;
    if (row.startsWith('@@')) {
      inHunk = true;
      if (hunk.length) break;
      const m = HUNK_HEADER.exec(row);
      if (!m) continue;
      const [oldBegin, oldCount, newBegin, newCount] = [m[1], m[2], m[3], m[4]].map((v) => Number(v ?? 0));
      const begin = old ? oldBegin : newBegin;
      // Forgejo's bound is inclusive of the line after the hunk.
      if (begin <= line && line <= begin + (old ? oldCount : newCount)) {
        hunk.push(row);
        cur = begin;
        other = old ? newBegin : oldBegin;
      }
    } else if (hunk.length) {
      hunk.push(row);
      const mark = row[0];
      if (mark === '+') {
        if (old) other++;
        else cur++;
      } else if (mark === '-') {
        if (old) cur++;
        else other++;
      } else if (mark !== '\\') {
        cur++;
        other++;
      }
    }
  }
  if (cur === 0) return '';
  if (hunk.length - 1 <= keep) return [...headers, ...hunk].join('\n');
  const tail = hunk.slice(-keep);
  let oldBegin = old ? cur : other;
  let newBegin = old ? other : cur;
  let oldCount = 0;
  let newCount = 0;
  for (const row of tail) {
    if (row[0] !== '-') {
      newBegin--;
      newCount++;
    }
    if (row[0] !== '+') {
      oldBegin--;
      oldCount++;
    }
  }
  return ['diff --git ', '--- ', '+++ ', ...headers, `@@ -${oldBegin},${oldCount} +${newBegin},${newCount} @@`, ...tail].join('\n');
}

export interface CodeCommentInput {
  path: string;
  body: string;
  line: number;
}

/** A comment's line: `new_position`, or the negated `old_position` for the old side. */
export function codeCommentInput(o: CreatePullReviewComment | CreatePullReviewCommentOptions): CodeCommentInput {
  const path = o.path ?? '';
  const body = o.body ?? '';
  const newLine = o.new_position ?? 0;
  const oldLine = o.old_position ?? 0;
  if (path.trim() === '') throw unprocessable('[Path]: Required');
  if (body.trim() === '') throw unprocessable('[Body]: Required');
  if (newLine < 0 || oldLine < 0) throw unprocessable('review comment positions must not be negative');
  if ((o.extra_lines_count ?? 0) !== 0) throw unprocessable('multi-line review comments are not supported');
  return { path, body, line: oldLine > 0 ? -oldLine : newLine };
}

/**
 * A code comment of a review (Forgejo's CreateCodeCommentKnownReviewID): a new-side line is pinned
 * to the commit that last changed it; the diff hunk comes from the merge base to the head. Further
 * comments on a line the review already commented share that comment's commit and hunk.
 */
export async function addCodeComment(c: RequestState, doer: IUser, p: Pull, review: IReview, input: CodeCommentInput): Promise<IComment> {
  const head = await headOf(p);
  const first =
    input.line > 0
      ? await c.em.findOne(
          Comment,
          { reviewId: review.id, type: CommentType.code, treePath: input.path, line: input.line },
          { orderBy: { id: 'asc' } },
        )
      : null;
  let commitSha = first?.commitSha ?? '';
  let patch = first?.patch ?? '';
  if (!commitSha && input.line > 0) commitSha = (await blameCommit(p.repoPath, review.commitId || head, input.path, input.line)) ?? '';
  if (!patch) {
    const diff = await fileDiff(p.repoPath, await mergeBaseOf(p, head), head, input.path);
    patch = cutDiffAroundLine(diff, Math.abs(input.line), input.line < 0, CODE_COMMENT_LINES);
    if (!commitSha) commitSha = head;
  }
  return addComment(c.em, p.issue, doer.id, CommentType.code, {
    content: input.body,
    treePath: input.path,
    line: input.line,
    patch,
    commitSha,
    reviewId: review.id,
    invalidated: first?.invalidated ?? false,
  });
}
