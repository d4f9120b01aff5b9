// Forgejo's ErrBlockedByUser on starring, watching and forking: a user the repository's owner has
// blocked may not do these (403).
import { isBlocked } from '../lib/blocks.ts';
import { deny, need, step } from './types.ts';

export const NOT_BLOCKED_BY_OWNER = step('NOT_BLOCKED_BY_OWNER', 'guard', ['repo'], [], async (s) => {
  const { owner } = need(s.repo, 'repo');
  const doer = s.auth.doer;
  return doer && (await isBlocked(s.em, owner.id, doer.id)) ? deny(403, 'user is blocked by the repository owner') : null;
});
