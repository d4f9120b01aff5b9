// forgejo-facts 8.1 and Forgejo's CanCreateOrgRepo: "a non-permitted member creating in an org: 403
// `Given user is not allowed to create repository in organization.`" — permitted are the
// organization's owners and members of a team with `can_create_org_repo`, and site admins.
import { canCreateOrgRepo } from '../lib/auth/membership.ts';
import { MSG } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';

export const CAN_CREATE_ORG_REPO = step('CAN_CREATE_ORG_REPO', 'guard', ['org'], [], async (s) => {
  const org = need(s.org, 'org');
  const doer = s.auth.doer;
  if (isSiteAdmin(s) || (doer && (await canCreateOrgRepo(s.em, org.id, doer.id)))) return null;
  return deny(403, MSG.orgRepoCreate);
});
