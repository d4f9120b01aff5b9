// Spec, guard table: "ONA — caller is an organization owner or site admin; for organization paths a
// non-owner gets 403, for team paths 404".
import { MSG, NOT_FOUND } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';
import { isOrgOwner } from '../lib/auth/membership.ts';

export const ONA = step('ONA', 'guard', ['org'], [], async (s) => {
  const org = need(s.org, 'org');
  if (isSiteAdmin(s) || (s.auth.doer && (await isOrgOwner(s.em, org.id, s.auth.doer.id)))) return null;
  return s.team ? deny(404, NOT_FOUND, { errors: [] }) : deny(403, MSG.orgOwner);
});
