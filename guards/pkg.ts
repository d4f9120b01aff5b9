// Spec, guard table: "PKGREAD / PKGWRITE — caller's access to the package owner is at least read /
// write, or site admin; else 403". Owner access: the owner themself writes; an organization member gets
// the best mode of their teams (Forgejo's GetOrgUserMaxAuthorizeLevel); anyone reads a public owner's packages.
import type { EntityManager } from '@mikro-orm/core';
import type { IUser } from '../model/user.ts';
import { MSG } from '../lib/errors.ts';
import { deny, isSiteAdmin, need, step, type RequestState } from './types.ts';
import { isOrgMember, isOrgOwner } from './membership.ts';
import { Team, TeamUnit, TeamUser } from '../model/org.ts';
import { Mode, Unit } from '../lib/perm.ts';

/**
 * The best mode of the caller's teams in an organization: the team's own mode, or when that is below
 * write its packages unit mode (Forgejo's determineAccessMode).
 */
async function bestTeamMode(em: EntityManager, orgId: number, uid: number): Promise<number> {
  const links = await em.find(TeamUser, { orgId, uid });
  if (links.length === 0) return Mode.none;
  const teamIds = links.map((l) => l.teamId);
  const teams = await em.find(Team, { id: { $in: teamIds } });
  const best = Math.max(...teams.map((t) => t.accessMode));
  if (best >= Mode.write) return best;
  const units = await em.find(TeamUnit, { teamId: { $in: teamIds }, type: Unit.packages });
  return Math.max(best, ...units.map((u) => u.accessMode));
}

/**
 * The caller's access to a package owner's packages: 2 write, 1 read, 0 none. Shared with the package
 * registries (lib/registries/common.ts checkAccess), which decide with the same rule outside the route table.
 */
export async function packageAccess(em: EntityManager, owner: IUser, doer: IUser | null): Promise<0 | 1 | 2> {
  if (doer?.id === owner.id) return 2;
  if (doer && owner.type === 1) {
    if (await isOrgOwner(em, owner.id, doer.id)) return 2;
    if (await isOrgMember(em, owner.id, doer.id)) return (await bestTeamMode(em, owner.id, doer.id)) >= Mode.write ? 2 : 1;
  }
  if (owner.visibility === 'public' || (owner.visibility === 'limited' && doer)) return 1;
  return 0;
}

const ownerAccess = (s: RequestState) => packageAccess(s.em, need(s.contextUser, 'user'), s.auth.doer);

export const PKGREAD = step('PKGREAD', 'guard', ['user'], [], async (s) =>
  isSiteAdmin(s) || (await ownerAccess(s)) >= 1 ? null : deny(403, MSG.packageAccess));
export const PKGWRITE = step('PKGWRITE', 'guard', ['user'], [], async (s) =>
  isSiteAdmin(s) || (await ownerAccess(s)) >= 2 ? null : deny(403, MSG.packageAccess));
