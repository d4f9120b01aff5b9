// Organization membership facts, and the access they give: used by the guards (ONA, OM, TM, PKGREAD/
// PKGWRITE, CAN_CREATE_ORG_REPO) and by the code outside the route table that decides the same way
// (the package registries, transfers).
import type { EntityManager } from '@mikro-orm/core';
import type { IUser } from '../../model/user.ts';
import { OrgUser, Team, TeamUnit, TeamUser } from '../../model/org.ts';
import { Mode, Unit } from './perm.ts';

export async function isOrgOwner(em: EntityManager, orgId: number, uid: number): Promise<boolean> {
  const owners = await em.find(Team, { orgId, accessMode: Mode.owner }, { fields: ['id'] });
  if (owners.length === 0) return false;
  return (await em.count(TeamUser, { teamId: { $in: owners.map((t) => t.id) }, uid })) > 0;
}

export async function isOrgMember(em: EntityManager, orgId: number, uid: number): Promise<boolean> {
  return (await em.count(OrgUser, { orgId, uid })) > 0;
}

export async function isTeamMember(em: EntityManager, teamId: number, uid: number): Promise<boolean> {
  return (await em.count(TeamUser, { teamId, uid })) > 0;
}

/** Forgejo's CanCreateOrgRepo: an owner, or a member of a team with `can_create_org_repo`. */
export async function canCreateOrgRepo(em: EntityManager, orgId: number, uid: number): Promise<boolean> {
  const teams = await em.find(Team, { orgId, $or: [{ canCreateOrgRepo: true }, { accessMode: Mode.owner }] }, { fields: ['id'] });
  if (teams.length === 0) return false;
  return (await em.count(TeamUser, { teamId: { $in: teams.map((t) => t.id) }, uid })) > 0;
}

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
 * registries (lib/packages/registries/common.ts checkAccess) and PKGREAD/PKGWRITE, which decide with the same rule outside the route table.
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
