// forgejo-facts 8.3: "`GET .../permission` ... Allowed for site admin, repo admin, or the user
// themself; otherwise 403".
import { MSG } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';

export const ADM_OR_SELF_COLLABORATOR = step('ADM_OR_SELF_COLLABORATOR', 'guard', ['repo'], [], (s) => {
  const { perm } = need(s.repo, 'repo');
  const self = !!s.auth.doer && s.auth.doer.lowerName === (s.params.collaborator ?? '').toLowerCase();
  return self || perm.isAdmin() || isSiteAdmin(s) ? null : deny(403, MSG.collaboratorPermission);
});
