// Spec, guard table: "OM — caller is an organization member or site admin; non-member 403
// (organization path) or 404 (team path)".
import { MSG, NOT_FOUND } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';
import { isOrgMember } from '../lib/auth/membership.ts';

export const OM = step('OM', 'guard', ['org'], [], async (s) => {
  const org = need(s.org, 'org');
  if (isSiteAdmin(s) || (s.auth.doer && (await isOrgMember(s.em, org.id, s.auth.doer.id)))) return null;
  return s.team ? deny(404, NOT_FOUND, { errors: [] }) : deny(403, MSG.orgMember);
});
