// Review assignment (Forgejo's GetReviewByID and prepareSingleReview): the review `{id}`, unknown 404;
// it must belong to the loaded pull, else 404 "ReviewNotInPR"; someone else's pending review (a draft)
// is as absent as a missing one, except for repository and site admins (not through public-only or
// repo-specific tokens: spec, token kinds, "no pull-review ... draft viewing by repo admin").
import { NOT_FOUND } from '../lib/http/errors.ts';
import { positiveInt } from '../lib/issues/issues.ts';
import { isReviewAdmin } from '../lib/pulls/pulls.ts';
import { Review, ReviewType } from '../model/pull.ts';
import { deny, need, step } from './types.ts';

export const REVIEW = step('REVIEW', 'loader', ['repo', 'pull'], ['review'], async (s) => {
  const id = positiveInt(s.params.id);
  const review = id === null ? null : await s.em.findOne(Review, { id });
  if (!review) return deny(404, 'GetReviewByID', { errors: [`review does not exist [id: ${s.params.id}]`] });
  if (review.issueId !== need(s.pull, 'pull').issue.id) return deny(404, 'ReviewNotInPR', { errors: [] });
  const visible = review.type !== ReviewType.pending || review.reviewerId === s.auth.doer?.id || isReviewAdmin(s);
  if (!visible) return deny(404, 'GetReviewByID', { errors: [] });
  s.review = review;
  return null;
});

/**
 * The review comment `{comment}` (COMMENT loaded it from this repository) must be a comment of the
 * loaded review, else 404.
 */
export const REVIEW_COMMENT = step('REVIEW_COMMENT', 'loader', ['review', 'comment'], [], (s) =>
  need(s.comment, 'comment').comment.reviewId === need(s.review, 'review').id ? null : deny(404, NOT_FOUND, { errors: [] }),
);
