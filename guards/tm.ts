// Spec, guard table: "TM — caller is team member, organization owner or site admin; an organization
// member who is not in the team gets 403, non-members 404".
import { MSG, NOT_FOUND } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';
import { isOrgMember, isOrgOwner, isTeamMember } from '../lib/auth/membership.ts';

export const TM = step('TM', 'guard', ['team', 'org'], [], async (s) => {
  const team = need(s.team, 'team');
  const doer = s.auth.doer;
  if (isSiteAdmin(s)) return null;
  if (doer && ((await isTeamMember(s.em, team.id, doer.id)) || (await isOrgOwner(s.em, team.orgId, doer.id)))) return null;
  if (doer && (await isOrgMember(s.em, team.orgId, doer.id))) return deny(403, MSG.teamMember);
  return deny(404, NOT_FOUND, { errors: [] });
});
