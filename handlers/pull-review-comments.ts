// The code comments of a pull request review (Forgejo's routers/api/v1/repo/pull_review.go). They are
// written into the caller's pending review; the diff work is lib/review-code-comments.ts.
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import type { CreatePullReviewCommentOptions } from '../model/schemas/index.ts';
import { ReviewType } from '../model/pull.ts';
import { Comment, CommentType, Reaction } from '../model/issue.ts';
import { reviewCommentsToApi } from '../lib/pulls/api/review.ts';
import { notFound, unprocessable } from '../lib/http/errors.ts';
import { need } from '../lib/http/request.ts';
import { pullOf, reviewOf, viewerOf } from '../lib/pulls/review.ts';
import { addCodeComment, codeCommentInput, codeCommentsOf } from '../lib/pulls/review-code-comments.ts';

// -------------------------------------------------------------------------------------------------
// Review comments

export const list: Handler = async (c) => {
  const p = pullOf(c);
  const review = reviewOf(c);
  return json(200, await reviewCommentsToApi(c.em, c.config, viewerOf(c), p, review, await codeCommentsOf(c, review)));
};

export const get: Handler = async (c) => {
  const p = pullOf(c);
  const review = reviewOf(c);
  const { comment } = need(c.comment, 'comment');
  if (comment.type !== CommentType.code) throw notFound();
  return json(200, (await reviewCommentsToApi(c.em, c.config, viewerOf(c), p, review, [comment]))[0]);
};

/** A further code comment in the caller's own pending review. */
export const create = signedIn<CreatePullReviewCommentOptions>(async (c) => {
  const p = pullOf(c);
  const review = reviewOf(c);
  if (review.type !== ReviewType.pending) throw unprocessable('comments can only be added to a pending review');
  const comment = await addCodeComment(c, c.auth.doer, p, review, codeCommentInput(c.body));
  return json(200, (await reviewCommentsToApi(c.em, c.config, viewerOf(c), p, review, [comment]))[0]);
});

/** The poster or a writer of pull requests; a non-code comment of the review is left alone (204). */
export const remove: Handler = async (c) => {
  const { comment } = need(c.comment, 'comment');
  if (comment.type !== CommentType.code) return noContent();
  await c.em.nativeDelete(Reaction, { commentId: comment.id });
  await c.em.nativeDelete(Comment, { id: comment.id });
  return noContent();
};
/** This family's handlers; `routes.table.ts` names each `pullReviewComments.<key>`. */
export const handlers = {
  list,
  get,
  create,
  remove,
} satisfies Record<string, Handler<never, never>>;
