// Forgejo's review routes: a pending review is submitted, and takes further code comments, only from
// its reviewer (403); a review is deleted by its reviewer or a review admin (repository or site admin,
// not through public-only or repo-specific tokens: spec, token kinds), else 403.
import { isReviewAdmin } from '../lib/pulls/pulls.ts';
import { ReviewType } from '../model/pull.ts';
import { deny, need, step } from './types.ts';

export function REVIEWER(action: 'submit' | 'comment') {
  if (action !== 'submit' && action !== 'comment') throw new Error(`REVIEWER: unknown action "${String(action)}"`);
  return step(`REVIEWER(${action})`, 'guard', ['review'], [], (s) => {
    const review = need(s.review, 'review');
    if (review.reviewerId === s.auth.doer?.id) return null;
    // Submitting: a review that is not pending is refused by the handler (422) whoever asks.
    if (action === 'submit') return review.type === ReviewType.pending ? deny(403, 'only the reviewer can submit a pending review') : null;
    return deny(403, 'only the reviewer can add comments to a review');
  });
}

export const REVIEWER_OR_ADMIN = step('REVIEWER_OR_ADMIN', 'guard', ['repo', 'review'], [], (s) =>
  need(s.review, 'review').reviewerId === s.auth.doer?.id || isReviewAdmin(s)
    ? null
    : deny(403, 'only admin and user itself can delete a review'),
);
