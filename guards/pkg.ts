// Spec, guard table: "PKGREAD / PKGWRITE — caller's access to the package owner is at least read /
// write, or site admin; else 403". Owner access: the owner themself writes; an organization member gets
// the best mode of their teams (Forgejo's GetOrgUserMaxAuthorizeLevel); anyone reads a public owner's packages.
import { MSG } from '../lib/errors.ts';
import { deny, isSiteAdmin, need, step, type RequestState } from './types.ts';
import { isOrgMember, isOrgOwner } from './membership.ts';
import { Team, TeamUser } from '../model/org.ts';
import { Mode } from '../lib/perm.ts';

async function bestTeamMode(s: RequestState, orgId: number, uid: number): Promise<number> {
  const links = await s.em.find(TeamUser, { orgId, uid });
  if (links.length === 0) return Mode.none;
  const teams = await s.em.find(Team, { id: { $in: links.map((l) => l.teamId) } });
  return Math.max(...teams.map((t) => t.accessMode));
}

async function ownerAccess(s: RequestState): Promise<0 | 1 | 2> {
  const owner = need(s.contextUser, 'user');
  const doer = s.auth.doer;
  if (doer?.id === owner.id) return 2;
  if (doer && owner.type === 1) {
    if (await isOrgOwner(s.em, owner.id, doer.id)) return 2;
    if (await isOrgMember(s.em, owner.id, doer.id)) return (await bestTeamMode(s, owner.id, doer.id)) >= Mode.write ? 2 : 1;
  }
  if (owner.visibility === 'public' || (owner.visibility === 'limited' && doer)) return 1;
  return 0;
}

export const PKGREAD = step('PKGREAD', 'guard', ['user'], [], async (s) =>
  isSiteAdmin(s) || (await ownerAccess(s)) >= 1 ? null : deny(403, MSG.packageAccess));
export const PKGWRITE = step('PKGWRITE', 'guard', ['user'], [], async (s) =>
  isSiteAdmin(s) || (await ownerAccess(s)) >= 2 ? null : deny(403, MSG.packageAccess));
