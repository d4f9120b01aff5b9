// Organization membership facts used by ONA, OM and TM.
import type { EntityManager } from '@mikro-orm/core';
import { OrgUser, Team, TeamUser } from '../model/org.ts';
import { Mode } from '../lib/perm.ts';

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
