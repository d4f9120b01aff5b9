// Forgejo's (un)dismissal of a review: repository or site admins only, checked before the pull is
// looked up; public-only and repo-specific tokens drop the right (spec, token kinds: "no pull-review
// dismissal ... by repo admin"), else 403.
import { isReviewAdmin } from '../lib/pulls/pulls.ts';
import { deny, step } from './types.ts';

export const REVIEW_ADMIN = step('REVIEW_ADMIN', 'guard', ['repo'], [], (s) => (isReviewAdmin(s) ? null : deny(403, 'Must be repo admin')));
