// Pull request reviews, review comments, dismissals and review requests (Forgejo's
// routers/api/v1/repo/pull_review.go, services/pull/review.go, models/issues/review.go,
// services/issue/assignee.go). A review request is a Review row of type `request`; a pending review
// is a draft only its reviewer (and repository administrators) can see.
import { emitIssueEvent, emitReviewEvent } from '../lib/issue-events.ts';
import type { FilterQuery } from '@mikro-orm/core';
import type { Handler, HandlerCtx } from '../lib/handler.ts';
import { json, noContent } from '../lib/handler.ts';
import type {
  CreatePullReviewComment, CreatePullReviewCommentOptions, CreatePullReviewOptions, DismissPullReviewOptions,
  PullReviewRequestOptions, SubmitPullReviewOptions,
} from '../model/schemas/index.ts';
import { ReviewType, Review, type IPullRequest, type IReview } from '../model/pull.ts';
import { Comment, CommentType, Reaction, type IComment, type IIssue } from '../model/issue.ts';
import { EmailAddress, User, UserType, type IUser } from '../model/user.ts';
import { Collaboration } from '../model/repo.ts';
import { Team, TeamUnit, TeamUser, type ITeam } from '../model/org.ts';
import { reviewCommentsToApi, reviewsToApi, type ReviewedPull } from '../lib/api/review.ts';
import { addComment } from '../lib/issues.ts';
import { isReviewAdmin } from '../lib/pulls.ts';
import { conflict403, notFound, unprocessable } from '../lib/errors.ts';
import { pageOf, pagingHeaders } from '../lib/paging.ts';
import { gitCtx } from '../lib/repo-git.ts';
import { branchRule } from '../lib/branch-rules.ts';
import { hasTeamRepo } from '../lib/teams.ts';
import { Mode, Unit, userPermission } from '../lib/perm.ts';
import { readInfo } from '../git/cat-file.ts';
import { runGit } from '../git/exec.ts';
import { GitError } from '../git/errors.ts';
import { mergeBase } from '../git/merge.ts';
import { pullHeadRef } from '../git/pull.ts';
import { isOidPrefix } from '../git/oid.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/request.ts';

// -------------------------------------------------------------------------------------------------
// Loading

interface Pull extends ReviewedPull {
  pull: IPullRequest;
  repoPath: string;
}

/**
 * The pull request the chain loaded (PULL), with what the converters need. The review routes' chains
 * also load the review (REVIEW) and decide who may act on it (REVIEWER, REVIEWER_OR_ADMIN,
 * REVIEW_ADMIN, DISMISSABLE, POSTER_OR_WRITER(review-comment)).
 */
function pullOf(c: RequestState): Pull {
  const { repo, owner } = need(c.repo, 'repo');
  return { ...need(c.pull, 'pull'), ownerName: owner.name, repoName: repo.name, repoPath: gitCtx(c).path };
}

const reviewOf = (c: RequestState): IReview => need(c.review, 'review');

const doerOf = (c: RequestState): IUser => {
  const doer = c.auth.doer;
  if (!doer) throw new Error('chain bug: TOK missing');
  return doer;
};

const viewerOf = (c: RequestState) => ({ doer: c.auth.doer, siteAdmin: isSiteAdmin(c) });

async function reviewJson(c: RequestState, p: Pull, review: IReview) {
  return (await reviewsToApi(c.em, c.config, viewerOf(c), p, [review]))[0];
}

/** Code comments of a review that still apply (Forgejo hides invalidated ones), in creation order. */
const codeCommentsOf = (c: RequestState, review: IReview) =>
  c.em.find(Comment, { reviewId: review.id, type: CommentType.code, invalidated: false }, { orderBy: { id: 'asc' } });

// -------------------------------------------------------------------------------------------------
// git: the pull's head and merge base, blame, and the diff hunk a code comment is shown with

/** The head commit (refs/pull/<n>/head of the base repository, as Forgejo's GetGitRefName). */
async function headOf(p: Pull): Promise<string> {
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
async function treesDiffer(repoPath: string, a: string, b: string): Promise<boolean> {
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
      if (mark === '+') { if (old) other++; else cur++; }
      else if (mark === '-') { if (old) cur++; else other++; }
      else if (mark !== '\\') { cur++; other++; }
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
    if (row[0] !== '-') { newBegin--; newCount++; }
    if (row[0] !== '+') { oldBegin--; oldCount++; }
  }
  return ['diff --git ', '--- ', '+++ ', ...headers, `@@ -${oldBegin},${oldCount} +${newBegin},${newCount} @@`, ...tail].join('\n');
}

// -------------------------------------------------------------------------------------------------
// Rules

/** The review type an event asks for, with Forgejo's 422s (preparePullReviewType). */
function reviewTypeOf(event: string | undefined, body: string | undefined, hasComments: boolean, issue: IIssue, doer: IUser): number {
  const hasBody = (body ?? '').trim() !== '';
  switch (event) {
    case 'APPROVED':
      if (issue.posterId === doer.id) throw unprocessable('approve your own pull is not allowed');
      return ReviewType.approve;
    case 'REQUEST_CHANGES':
      if (issue.posterId === doer.id) throw unprocessable('reject your own pull is not allowed');
      if (!hasBody) throw unprocessable(`review event ${event} requires a body`);
      return ReviewType.reject;
    case 'COMMENT':
      if (!hasBody && !hasComments) throw unprocessable(`review event ${event} requires a body or a comment`);
      return ReviewType.comment;
    default:
      // Anything else (empty, PENDING, unknown) leaves the review pending, which needs a body.
      if (!hasBody) throw unprocessable(`review event ${event ?? ''} requires a body`);
      return ReviewType.pending;
  }
}

/** The repository permission of another user, as Forgejo's GetUserRepoPermission (no token limits). */
async function permissionOf(c: RequestState, user: IUser) {
  const { repo, owner, perm } = need(c.repo, 'repo');
  return userPermission(c.em, repo, owner, user, perm.enabled);
}

/**
 * Forgejo's IsOfficialReviewer: with an approvals allowlist on the base branch's rule, its users and
 * teams; otherwise whoever may write code.
 */
async function isOfficialReviewer(c: RequestState, p: Pull, user: IUser): Promise<boolean> {
  const rule = await branchRule(c.em, p.pull.baseRepoId, p.pull.baseBranch);
  if (rule?.enableApprovalsWhitelist) {
    if (rule.approvalsWhitelistUserIds.includes(user.id)) return true;
    const teams = rule.approvalsWhitelistTeamIds;
    return teams.length > 0 && (await c.em.count(TeamUser, { uid: user.id, teamId: { $in: teams } })) > 0;
  }
  return (await permissionOf(c, user)).canWrite('code');
}

/** Forgejo's IsOfficialReviewerTeam: an allowlisted team, or (no allowlist) a team writing code. */
async function isOfficialReviewerTeam(c: RequestState, p: Pull, team: ITeam): Promise<boolean> {
  const rule = await branchRule(c.em, p.pull.baseRepoId, p.pull.baseBranch);
  if (!rule) return false;
  if (rule.enableApprovalsWhitelist) return rule.approvalsWhitelistTeamIds.includes(team.id);
  if (team.accessMode >= Mode.admin) return true;
  const unit = await c.em.findOne(TeamUnit, { teamId: team.id, type: Unit.code });
  return (unit?.accessMode ?? 0) >= Mode.write;
}

// -------------------------------------------------------------------------------------------------
// Writing reviews

interface CodeCommentInput { path: string; body: string; line: number }

/** A comment's line: `new_position`, or the negated `old_position` for the old side. */
function codeCommentInput(o: CreatePullReviewComment | CreatePullReviewCommentOptions): CodeCommentInput {
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
async function addCodeComment(c: RequestState, p: Pull, review: IReview, input: CodeCommentInput): Promise<IComment> {
  const head = await headOf(p);
  const first = input.line > 0
    ? await c.em.findOne(Comment, { reviewId: review.id, type: CommentType.code, treePath: input.path, line: input.line }, { orderBy: { id: 'asc' } })
    : null;
  let commitSha = first?.commitSha ?? '';
  let patch = first?.patch ?? '';
  if (!commitSha && input.line > 0) commitSha = (await blameCommit(p.repoPath, review.commitId || head, input.path, input.line)) ?? '';
  if (!patch) {
    const diff = await fileDiff(p.repoPath, await mergeBaseOf(p, head), head, input.path);
    patch = cutDiffAroundLine(diff, Math.abs(input.line), input.line < 0, CODE_COMMENT_LINES);
    if (!commitSha) commitSha = head;
  }
  return addComment(c.em, p.issue, doerOf(c).id, CommentType.code, {
    content: input.body, treePath: input.path, line: input.line, patch, commitSha, reviewId: review.id, invalidated: first?.invalidated ?? false,
  });
}

/** The caller's pending review of the pull, created when there is none (Forgejo's GetCurrentReview). */
async function currentReview(c: RequestState, p: Pull, commitId: string): Promise<IReview> {
  const doer = doerOf(c);
  const found = await c.em.findOne(Review, { issueId: p.issue.id, reviewerId: doer.id, type: ReviewType.pending }, { orderBy: { id: 'asc' } });
  if (found) return found;
  const review = c.em.create(Review, { type: ReviewType.pending, issueId: p.issue.id, reviewerId: doer.id, commitId });
  await c.em.flush();
  return review;
}

/**
 * Turn the caller's pending review into `type` (Forgejo's SubmitReview). A verdict (approve or
 * request changes) is official when the reviewer counts towards approvals, stale when the head moved
 * on since `commitId`, and supersedes the reviewer's earlier verdicts. Any submitted review answers
 * the reviewer's open request, and a verdict answers the requests of the reviewer's teams.
 */
async function submitReview(c: RequestState, p: Pull, review: IReview, type: number, content: string, commitId: string): Promise<IReview> {
  const doer = doerOf(c);
  const verdict = type === ReviewType.approve || type === ReviewType.reject;
  let official = false;
  let stale = false;
  if (verdict) {
    await c.em.nativeUpdate(Review, { issueId: p.issue.id, reviewerId: doer.id }, { official: false });
    official = await isOfficialReviewer(c, p, doer);
    stale = await treesDiffer(p.repoPath, commitId, await headOf(p));
    await c.em.nativeUpdate(Review, { issueId: p.issue.id, reviewerId: doer.id, type: { $in: [ReviewType.approve, ReviewType.reject] }, id: { $ne: review.id } }, { dismissed: true });
  }
  if (type !== ReviewType.pending) await c.em.nativeDelete(Review, { issueId: p.issue.id, reviewerId: doer.id, type: ReviewType.request });
  if (verdict && need(c.repo, 'repo').owner.type === UserType.organization) await answerTeamRequests(c, p, doer);
  review.type = type;
  review.content = content;
  review.commitId = commitId;
  review.official = official;
  review.stale = stale;
  await c.em.flush();
  if (type !== ReviewType.pending) await addComment(c.em, p.issue, doer.id, CommentType.review, { content, reviewId: review.id });
  if (type !== ReviewType.pending) await emitReviewEvent(c, p.issue, p.pull, review);
  return review;
}

async function answerTeamRequests(c: RequestState, p: Pull, doer: IUser): Promise<void> {
  const requests = await c.em.find(Review, { issueId: p.issue.id, type: ReviewType.request, reviewerTeamId: { $gt: 0 } });
  if (requests.length === 0) return;
  const mine = new Set((await c.em.find(TeamUser, { uid: doer.id, teamId: { $in: requests.map((r) => r.reviewerTeamId) } })).map((t) => t.teamId));
  const answered = requests.filter((r) => mine.has(r.reviewerTeamId)).map((r) => r.id);
  if (answered.length) await c.em.nativeDelete(Review, { id: { $in: answered } });
}

/** Forgejo's restoreLatestOfficialReview: the reviewer's latest verdict or request counts again. */
async function restoreLatestOfficial(c: RequestState, issueId: number, reviewerId: number): Promise<void> {
  const latest = await c.em.findOne(Review, {
    issueId, reviewerId, originalAuthorId: 0, type: { $in: [ReviewType.approve, ReviewType.reject, ReviewType.request] },
  }, { orderBy: { id: 'desc' } });
  if (latest) latest.official = true;
  await c.em.flush();
}

// -------------------------------------------------------------------------------------------------
// Reviews

export const listReviews: Handler = async (c) => {
  const p = pullOf(c);
  const where: FilterQuery<IReview> = { issueId: p.issue.id };
  if (!isReviewAdmin(c)) where.$or = [{ type: { $ne: ReviewType.pending } }, { reviewerId: c.auth.doer?.id ?? -1 }];
  const page = pageOf(c);
  const [rows, total] = await c.em.findAndCount(Review, where, { orderBy: { id: 'asc' }, limit: page.limit, offset: page.offset });
  return json(200, await reviewsToApi(c.em, c.config, viewerOf(c), p, rows), pagingHeaders(c, page, total));
};

export const getReviews: Handler = async (c) => {
  const p = pullOf(c);
  return json(200, await reviewJson(c, p, reviewOf(c)));
};

/** Comments go into the caller's pending review, which is then submitted as `event` (or stays pending). */
export const createReviews: Handler<CreatePullReviewOptions> = async (c) => {
  const p = pullOf(c);
  const b = c.body;
  const inputs = (b.comments ?? []).map(codeCommentInput);
  const type = reviewTypeOf(b.event, b.body, inputs.length > 0, p.issue, doerOf(c));
  const commitId = b.commit_id || await headOf(p);
  const review = await currentReview(c, p, commitId);
  for (const input of inputs) await addCodeComment(c, p, review, input);
  await submitReview(c, p, review, type, b.body ?? '', commitId);
  return json(200, await reviewJson(c, p, review));
};

/** Submit a pending review at the pull's current head. */
export const createReviewsItem: Handler<SubmitPullReviewOptions> = async (c) => {
  const p = pullOf(c);
  const review = reviewOf(c);
  if (review.type !== ReviewType.pending) throw unprocessable('only a pending review can be submitted');
  // Forgejo would submit the caller's own draft instead; a draft is submitted by its reviewer only (REVIEWER).
  const comments = await c.em.count(Comment, { reviewId: review.id, type: CommentType.code });
  const type = reviewTypeOf(c.body.event, c.body.body, comments > 0, p.issue, doerOf(c));
  if (type === ReviewType.pending) throw unprocessable('review stay pending');
  await submitReview(c, p, review, type, c.body.body ?? '', await headOf(p));
  return json(200, await reviewJson(c, p, review));
};

/** A review with its code comments and timeline entries; review requests are removed through requested_reviewers. */
export const removeReviews: Handler = async (c) => {
  const p = pullOf(c);
  const review = reviewOf(c);
  if (review.type === ReviewType.request) throw unprocessable('review request can not be deleted using this method');
  const comments = await c.em.find(Comment, { reviewId: review.id, type: { $in: [CommentType.code, CommentType.review, CommentType.dismissReview] } });
  if (comments.length) await c.em.nativeDelete(Reaction, { commentId: { $in: comments.map((x) => x.id) } });
  await c.em.nativeDelete(Comment, { id: { $in: comments.map((x) => x.id) } });
  await c.em.nativeDelete(Review, { id: review.id });
  if (review.official) await restoreLatestOfficial(c, p.issue.id, review.reviewerId);
  return noContent();
};

// -------------------------------------------------------------------------------------------------
// Review comments

export const listReviewsComments: Handler = async (c) => {
  const p = pullOf(c);
  const review = reviewOf(c);
  return json(200, await reviewCommentsToApi(c.em, c.config, viewerOf(c), p, review, await codeCommentsOf(c, review)));
};

export const getReviewsComments: Handler = async (c) => {
  const p = pullOf(c);
  const review = reviewOf(c);
  const { comment } = need(c.comment, 'comment');
  if (comment.type !== CommentType.code) throw notFound();
  return json(200, (await reviewCommentsToApi(c.em, c.config, viewerOf(c), p, review, [comment]))[0]);
};

/** A further code comment in the caller's own pending review. */
export const createReviewsComments: Handler<CreatePullReviewCommentOptions> = async (c) => {
  const p = pullOf(c);
  const review = reviewOf(c);
  if (review.type !== ReviewType.pending) throw unprocessable('comments can only be added to a pending review');
  const comment = await addCodeComment(c, p, review, codeCommentInput(c.body));
  return json(200, (await reviewCommentsToApi(c.em, c.config, viewerOf(c), p, review, [comment]))[0]);
};

/** The poster or a writer of pull requests; a non-code comment of the review is left alone (204). */
export const removeReviewsComments: Handler = async (c) => {
  const { comment } = need(c.comment, 'comment');
  if (comment.type !== CommentType.code) return noContent();
  await c.em.nativeDelete(Reaction, { commentId: comment.id });
  await c.em.nativeDelete(Comment, { id: comment.id });
  return noContent();
};

// -------------------------------------------------------------------------------------------------
// Dismissals

async function setDismissed(c: HandlerCtx<unknown>, dismiss: boolean, message: string, priors: boolean) {
  const p = pullOf(c);
  const review = reviewOf(c);
  review.dismissed = dismiss;
  if (priors) {
    await c.em.nativeUpdate(Review, {
      issueId: p.issue.id, reviewerId: review.reviewerId, dismissed: false, type: { $in: [ReviewType.approve, ReviewType.reject] }, id: { $ne: review.id },
    }, { dismissed: true });
  }
  await c.em.flush();
  if (dismiss) await addComment(c.em, p.issue, doerOf(c).id, CommentType.dismissReview, { content: message, reviewId: review.id });
  return json(200, await reviewJson(c, p, review));
}

/** Repository administrators only, and only approvals and change requests of an open pull. */
export const createReviewsDismissals: Handler<DismissPullReviewOptions> = async (c) =>
  setDismissed(c, true, c.body.message ?? '', c.body.priors ?? false);

export const createReviewsUndismissals: Handler = async (c) => setDismissed(c, false, '', false);

// -------------------------------------------------------------------------------------------------
// Review requests

/** Users by login, or by e-mail address when the value holds an `@` (404 for an unknown one). */
async function reviewersNamed(c: RequestState, names: string[]): Promise<IUser[]> {
  const users: IUser[] = [];
  for (const name of names) {
    let user: IUser | null;
    if (name.includes('@')) {
      const mail = await c.em.findOne(EmailAddress, { lowerEmail: name.toLowerCase(), isActivated: true });
      user = mail ? await c.em.findOne(User, { id: mail.uid }) : null;
    } else {
      user = await c.em.findOne(User, { lowerName: name.toLowerCase() });
    }
    if (!user) throw notFound(`User '${name}' not exist`);
    users.push(user);
  }
  return users;
}

/**
 * Forgejo's CanDoerChangeReviewRequests: the poster, the owner, any collaborator, and members of the
 * owning organization's teams that read this repository's pull requests (and, here, site admins).
 */
async function canChangeReviewRequests(c: RequestState, p: Pull, doer: IUser): Promise<boolean> {
  const { repo, owner } = need(c.repo, 'repo');
  if (doer.id === p.issue.posterId || doer.id === repo.ownerId || isSiteAdmin(c)) return true;
  if ((await c.em.count(Collaboration, { repoId: repo.id, userId: doer.id })) > 0) return true;
  if (owner.type !== UserType.organization) return false;
  const teamIds = (await c.em.find(TeamUser, { orgId: owner.id, uid: doer.id })).map((t) => t.teamId);
  const teams = teamIds.length ? await c.em.find(Team, { id: { $in: teamIds } }) : [];
  for (const team of teams) {
    if (!(await hasTeamRepo(c.em, team, repo))) continue;
    if (team.accessMode >= Mode.admin) return true;
    const unit = await c.em.findOne(TeamUnit, { teamId: team.id, type: Unit.pulls });
    if ((unit?.accessMode ?? 0) >= Mode.read) return true;
  }
  return false;
}

type LatestReview = IReview | null;

/** The reviewer's latest verdict or request (Forgejo's GetReviewByIssueIDAndUserID). */
const latestOf = (c: RequestState, p: Pull, reviewerId: number): Promise<LatestReview> => c.em.findOne(Review, {
  issueId: p.issue.id, reviewerId, originalAuthorId: 0, type: { $in: [ReviewType.approve, ReviewType.reject, ReviewType.request] },
}, { orderBy: { id: 'desc' } });

/** Forgejo's IsValidReviewRequest; every failure is a 422. */
async function checkUserRequest(c: RequestState, p: Pull, reviewer: IUser, add: boolean, canChange: boolean): Promise<void> {
  const doer = doerOf(c);
  const invalid = (reason: string) => unprocessable(`${reason} [user_id: ${doer.id}, repo_id: ${p.pull.baseRepoId}]`);
  if (reviewer.type === UserType.organization) throw invalid("Organization can't be added as reviewer");
  const latest = await latestOf(c, p, reviewer.id);
  const byPoster = p.issue.originalAuthorId === 0;
  if (add) {
    if (!(await permissionOf(c, reviewer)).canRead('pulls')) throw invalid("Reviewer can't read");
    if (reviewer.id === p.issue.posterId && byPoster) throw invalid("poster of pr can't be reviewer");
    if (canChange) return;
    if (doer.id === p.issue.posterId && byPoster && latest && latest.type !== ReviewType.request) return;
    throw invalid("Doer can't choose reviewer");
  }
  if (canChange) return;
  // A requested reviewer may decline the request.
  if (latest?.type === ReviewType.request && latest.reviewerId === doer.id) return;
  throw invalid("Doer can't remove reviewer");
}

/** Forgejo's AddReviewRequest: no-op when already requested; 403 re-requesting on a closed pull. */
async function addUserRequest(c: RequestState, p: Pull, reviewer: IUser): Promise<IReview | null> {
  const latest = await latestOf(c, p, reviewer.id);
  if (latest?.type === ReviewType.request) return null;
  if (latest && (p.issue.isClosed || p.pull.hasMerged)) throw conflict403('cannot request a re-review on a closed or merged PR');
  const official = await isOfficialReviewer(c, p, reviewer);
  if (official) await c.em.nativeUpdate(Review, { issueId: p.issue.id, reviewerId: reviewer.id }, { official: false });
  const review = c.em.create(Review, { type: ReviewType.request, issueId: p.issue.id, reviewerId: reviewer.id, official });
  await c.em.flush();
  await addComment(c.em, p.issue, doerOf(c).id, CommentType.reviewRequest, { assigneeId: reviewer.id, reviewId: review.id });
  await emitIssueEvent(c, p.issue, 'review_requested', { pull: p.pull, reviewer });
  return review;
}

async function removeUserRequest(c: RequestState, p: Pull, reviewer: IUser): Promise<void> {
  const latest = await latestOf(c, p, reviewer.id);
  if (latest?.type !== ReviewType.request) return;
  await c.em.nativeDelete(Review, { id: latest.id });
  if (await isOfficialReviewer(c, p, reviewer)) await restoreLatestOfficial(c, p.issue.id, reviewer.id);
  await addComment(c.em, p.issue, doerOf(c).id, CommentType.reviewRequest, { assigneeId: reviewer.id, removedAssignee: true });
  await emitIssueEvent(c, p.issue, 'review_request_removed', { pull: p.pull, reviewer });
}

/** Teams of the owning organization by name (404 for an unknown one), checked like Forgejo's IsValidTeamReviewRequest. */
async function teamsNamed(c: RequestState, p: Pull, names: string[], add: boolean, canChange: boolean): Promise<ITeam[]> {
  const { repo, owner } = need(c.repo, 'repo');
  const doer = doerOf(c);
  const invalid = (reason: string) => unprocessable(`${reason} [user_id: ${doer.id}, repo_id: ${p.pull.baseRepoId}]`);
  const teams: ITeam[] = [];
  for (const name of names) {
    const team = await c.em.findOne(Team, { orgId: owner.id, lowerName: name.toLowerCase() });
    if (!team) throw notFound(`Team '${name}' not exist`);
    if (add && repo.isPrivate && !(await hasTeamRepo(c.em, team, repo))) throw invalid("Reviewing team can't read repo");
    if (!canChange) throw invalid(add ? "Doer can't choose reviewer" : "Doer can't remove reviewer");
    teams.push(team);
  }
  return teams;
}

/** Forgejo's AddTeamReviewRequest: a team is requested once. */
async function addTeamRequest(c: RequestState, p: Pull, team: ITeam): Promise<IReview | null> {
  if (await c.em.findOne(Review, { issueId: p.issue.id, reviewerTeamId: team.id })) return null;
  const doer = doerOf(c);
  const official = (await isOfficialReviewerTeam(c, p, team)) || (await isOfficialReviewer(c, p, doer));
  const review = c.em.create(Review, { type: ReviewType.request, issueId: p.issue.id, reviewerTeamId: team.id, official });
  await c.em.flush();
  await addComment(c.em, p.issue, doer.id, CommentType.reviewRequest, { assigneeTeamId: team.id, reviewId: review.id });
  return review;
}

async function removeTeamRequest(c: RequestState, p: Pull, team: ITeam): Promise<void> {
  const latest = await c.em.findOne(Review, { issueId: p.issue.id, reviewerTeamId: team.id }, { orderBy: { id: 'desc' } });
  if (!latest) return;
  await c.em.nativeDelete(Review, { id: latest.id });
  await addComment(c.em, p.issue, doerOf(c).id, CommentType.reviewRequest, { assigneeTeamId: team.id, removedAssignee: true });
}

/**
 * Add or remove review requests. Every named user is checked before anything is written; teams are
 * only considered for repositories of an organization (Forgejo ignores them otherwise).
 */
async function changeRequests(c: HandlerCtx<PullReviewRequestOptions>, p: Pull, add: boolean): Promise<IReview[]> {
  const canChange = await canChangeReviewRequests(c, p, doerOf(c));
  const reviewers = await reviewersNamed(c, c.body.reviewers ?? []);
  for (const reviewer of reviewers) await checkUserRequest(c, p, reviewer, add, canChange);
  const created: IReview[] = [];
  for (const reviewer of reviewers) {
    if (!add) await removeUserRequest(c, p, reviewer);
    else created.push(...[await addUserRequest(c, p, reviewer)].filter((r): r is IReview => r !== null));
  }
  const names = c.body.team_reviewers ?? [];
  if (need(c.repo, 'repo').owner.type !== UserType.organization || names.length === 0) return created;
  for (const team of await teamsNamed(c, p, names, add, canChange)) {
    if (!add) await removeTeamRequest(c, p, team);
    else created.push(...[await addTeamRequest(c, p, team)].filter((r): r is IReview => r !== null));
  }
  return created;
}

/** 201 with the requests this call created (already requested reviewers are left out). */
export const createRequestedReviewers: Handler<PullReviewRequestOptions> = async (c) => {
  const p = pullOf(c);
  const created = await changeRequests(c, p, true);
  return json(201, await reviewsToApi(c.em, c.config, viewerOf(c), p, created));
};

export const removeRequestedReviewers: Handler<PullReviewRequestOptions> = async (c) => {
  await changeRequests(c, pullOf(c), false);
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `pullReviews.<key>`. */
export const handlers = {
  listReviews,
  getReviews,
  createReviews,
  createReviewsItem,
  removeReviews,
  listReviewsComments,
  getReviewsComments,
  createReviewsComments,
  removeReviewsComments,
  createReviewsDismissals,
  createReviewsUndismissals,
  createRequestedReviewers,
  removeRequestedReviewers,
} satisfies Record<string, Handler<never, never>>;
