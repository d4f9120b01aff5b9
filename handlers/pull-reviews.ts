// Pull request reviews and their dismissal (Forgejo's routers/api/v1/repo/pull_review.go,
// services/pull/review.go, models/issues/review.go). A pending review is a draft only its reviewer (and
// repository administrators) can see. Review comments: pull-review-comments.ts; review requests:
// pull-review-requests.ts.
import type { FilterQuery } from '@mikro-orm/core';
import { emitReviewEvent } from '../lib/issues/events.ts';
import type { Handler, SignedInCtx } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import type { CreatePullReviewOptions, DismissPullReviewOptions, SubmitPullReviewOptions } from '../model/schemas/index.ts';
import { ReviewType, Review, type IReview } from '../model/pull.ts';
import { Comment, CommentType, Reaction, type IIssue } from '../model/issue.ts';
import { UserType, type IUser } from '../model/user.ts';
import { TeamUser } from '../model/org.ts';
import { reviewsToApi } from '../lib/pulls/api/review.ts';
import { addComment } from '../lib/issues/issues.ts';
import { isReviewAdmin } from '../lib/pulls/pulls.ts';
import { unprocessable } from '../lib/http/errors.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { need, type RequestState } from '../lib/http/request.ts';
import { isOfficialReviewer, pullOf, restoreLatestOfficial, reviewJson, reviewOf, viewerOf, type Pull } from '../lib/pulls/review.ts';
import { addCodeComment, codeCommentInput, headOf, treesDiffer } from '../lib/pulls/review-code-comments.ts';

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

/** The caller's pending review of the pull, created when there is none (Forgejo's GetCurrentReview). */
async function currentReview(c: SignedInCtx, p: Pull, commitId: string): Promise<IReview> {
  const doer = c.auth.doer;
  const found = await c.em.findOne(
    Review,
    { issueId: p.issue.id, reviewerId: doer.id, type: ReviewType.pending },
    { orderBy: { id: 'asc' } },
  );
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
async function submitReview(c: SignedInCtx, p: Pull, review: IReview, type: number, content: string, commitId: string): Promise<IReview> {
  const doer = c.auth.doer;
  const verdict = type === ReviewType.approve || type === ReviewType.reject;
  let official = false;
  let stale = false;
  if (verdict) {
    await c.em.nativeUpdate(Review, { issueId: p.issue.id, reviewerId: doer.id }, { official: false });
    official = await isOfficialReviewer(c, p, doer);
    stale = await treesDiffer(p.repoPath, commitId, await headOf(p));
    await c.em.nativeUpdate(
      Review,
      { issueId: p.issue.id, reviewerId: doer.id, type: { $in: [ReviewType.approve, ReviewType.reject] }, id: { $ne: review.id } },
      { dismissed: true },
    );
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
  const mine = new Set(
    (await c.em.find(TeamUser, { uid: doer.id, teamId: { $in: requests.map((r) => r.reviewerTeamId) } })).map((t) => t.teamId),
  );
  const answered = requests.filter((r) => mine.has(r.reviewerTeamId)).map((r) => r.id);
  if (answered.length) await c.em.nativeDelete(Review, { id: { $in: answered } });
}

// -------------------------------------------------------------------------------------------------
// Reviews

export const list: Handler = async (c) => {
  const p = pullOf(c);
  const where: FilterQuery<IReview> = { issueId: p.issue.id };
  if (!isReviewAdmin(c)) where.$or = [{ type: { $ne: ReviewType.pending } }, { reviewerId: c.auth.doer?.id ?? -1 }];
  const page = pageOf(c);
  const [rows, total] = await c.em.findAndCount(Review, where, { orderBy: { id: 'asc' }, limit: page.limit, offset: page.offset });
  return json(200, await reviewsToApi(c.em, c.config, viewerOf(c), p, rows), pagingHeaders(c, page, total));
};

export const get: Handler = async (c) => {
  const p = pullOf(c);
  return json(200, await reviewJson(c, p, reviewOf(c)));
};

/** Comments go into the caller's pending review, which is then submitted as `event` (or stays pending). */
export const create = signedIn<CreatePullReviewOptions>(async (c) => {
  const p = pullOf(c);
  const b = c.body;
  const inputs = (b.comments ?? []).map(codeCommentInput);
  const type = reviewTypeOf(b.event, b.body, inputs.length > 0, p.issue, c.auth.doer);
  const commitId = b.commit_id || (await headOf(p));
  const review = await currentReview(c, p, commitId);
  for (const input of inputs) await addCodeComment(c, c.auth.doer, p, review, input);
  await submitReview(c, p, review, type, b.body ?? '', commitId);
  return json(200, await reviewJson(c, p, review));
});

/** Submit a pending review at the pull's current head. */
export const submit = signedIn<SubmitPullReviewOptions>(async (c) => {
  const p = pullOf(c);
  const review = reviewOf(c);
  if (review.type !== ReviewType.pending) throw unprocessable('only a pending review can be submitted');
  // Forgejo would submit the caller's own draft instead; a draft is submitted by its reviewer only (REVIEWER).
  const comments = await c.em.count(Comment, { reviewId: review.id, type: CommentType.code });
  const type = reviewTypeOf(c.body.event, c.body.body, comments > 0, p.issue, c.auth.doer);
  if (type === ReviewType.pending) throw unprocessable('review stay pending');
  await submitReview(c, p, review, type, c.body.body ?? '', await headOf(p));
  return json(200, await reviewJson(c, p, review));
});

/** A review with its code comments and timeline entries; review requests are removed through requested_reviewers. */
export const remove: Handler = async (c) => {
  const p = pullOf(c);
  const review = reviewOf(c);
  if (review.type === ReviewType.request) throw unprocessable('review request can not be deleted using this method');
  const comments = await c.em.find(Comment, {
    reviewId: review.id,
    type: { $in: [CommentType.code, CommentType.review, CommentType.dismissReview] },
  });
  if (comments.length) await c.em.nativeDelete(Reaction, { commentId: { $in: comments.map((x) => x.id) } });
  await c.em.nativeDelete(Comment, { id: { $in: comments.map((x) => x.id) } });
  await c.em.nativeDelete(Review, { id: review.id });
  if (review.official) await restoreLatestOfficial(c, p.issue.id, review.reviewerId);
  return noContent();
};

// -------------------------------------------------------------------------------------------------
// Dismissals

async function setDismissed(c: SignedInCtx, dismiss: boolean, message: string, priors: boolean) {
  const p = pullOf(c);
  const review = reviewOf(c);
  review.dismissed = dismiss;
  if (priors) {
    await c.em.nativeUpdate(
      Review,
      {
        issueId: p.issue.id,
        reviewerId: review.reviewerId,
        dismissed: false,
        type: { $in: [ReviewType.approve, ReviewType.reject] },
        id: { $ne: review.id },
      },
      { dismissed: true },
    );
  }
  await c.em.flush();
  if (dismiss) await addComment(c.em, p.issue, c.auth.doer.id, CommentType.dismissReview, { content: message, reviewId: review.id });
  return json(200, await reviewJson(c, p, review));
}

/** Repository administrators only, and only approvals and change requests of an open pull. */
export const dismiss = signedIn<DismissPullReviewOptions>(async (c) => setDismissed(c, true, c.body.message ?? '', c.body.priors ?? false));

export const undismiss = signedIn(async (c) => setDismissed(c, false, '', false));
/** This family's handlers; `routes.table.ts` names each `pullReviews.<key>`. */
export const handlers = {
  list,
  get,
  create,
  submit,
  remove,
  dismiss,
  undismiss,
} satisfies Record<string, Handler<never, never>>;
