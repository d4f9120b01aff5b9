// Forgejo's DismissReview: only an approval or a change request can be dismissed (403), and not once
// its pull request is closed or merged (403).
import { ReviewType } from '../model/pull.ts';
import { deny, need, step } from './types.ts';

export const DISMISSABLE = step('DISMISSABLE', 'guard', ['pull', 'review'], [], (s) => {
  const review = need(s.review, 'review');
  const { issue, pull } = need(s.pull, 'pull');
  if (review.type !== ReviewType.approve && review.type !== ReviewType.reject) {
    return deny(403, "not need to dismiss this review because it's type is not Approve or change request");
  }
  return issue.isClosed || pull.hasMerged ? deny(403, "can't dismiss a review associated to a closed or merged PR") : null;
});
