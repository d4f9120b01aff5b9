// Team assignment (spec, path resolution: "{teamid} unknown: 404"); also provides the team's organization.
import { Team } from '../model/org.ts';
import { User } from '../model/user.ts';
import { NOT_FOUND } from '../lib/http/errors.ts';
import { deny, step } from './types.ts';
import { rowId } from '../lib/http/query-values.ts';

export const TEAM = step('TEAM', 'loader', [], ['team', 'org'], async (s) => {
  const id = rowId(s.params.teamid);
  const team = id !== null ? await s.em.findOne(Team, { id }) : null;
  const org = team && (await s.em.findOne(User, { id: team.orgId }));
  if (!team || !org) return deny(404, NOT_FOUND, { errors: [] });
  s.team = team;
  s.org = org;
  return null;
});
