// Forgejo's CancelScheduledAutoMerge: only whoever scheduled the merge, or an admin of the repository
// (site admins are repository admins), may cancel it; anyone else answers 403.
import { deny, need, step } from './types.ts';

export const MERGE_SCHEDULER = step('MERGE_SCHEDULER', 'guard', ['repo', 'auto-merge'], [], (s) => {
  const scheduled = need(s.autoMerge, 'auto-merge');
  if (s.auth.doer && scheduled.doerId === s.auth.doer.id) return null;
  return need(s.repo, 'repo').perm.isAdmin() ? null : deny(403, 'user has no permission to cancel the scheduled auto merge');
});
