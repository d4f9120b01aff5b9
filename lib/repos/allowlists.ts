// Allowlists of protection rules: names in requests, ids in storage, names again in answers.
import type { EntityManager } from '@mikro-orm/core';
import { User, type IUser } from '../../model/user.ts';
import { Team, TeamRepo } from '../../model/org.ts';
import type { IRepository } from '../../model/repo.ts';
import { userPermission } from '../auth/perm.ts';
import { unprocessable } from '../http/errors.ts';

/** User ids for names; an unknown name is 422, as is a user who cannot write the repository's code. */
export async function writerIds(em: EntityManager, repo: IRepository, owner: IUser, names: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const name of names) {
    const user = await em.findOne(User, { lowerName: name.toLowerCase(), type: 0 });
    if (!user) throw unprocessable(`user does not exist [uid: 0, name: ${name}]`);
    const perm = await userPermission(em, repo, owner, user);
    if (!perm.canWrite('code')) throw unprocessable(`user ${user.name} does not have permission to write to this repository`);
    if (!ids.includes(user.id)) ids.push(user.id);
  }
  return ids;
}

/** Team ids of the owning organization for names (422 for an unknown one); teams without access to the repository are left out. */
export async function teamIds(em: EntityManager, repo: IRepository, owner: IUser, names: string[]): Promise<number[]> {
  if (owner.type !== 1) return [];
  const ids: number[] = [];
  for (const name of names) {
    const team = await em.findOne(Team, { orgId: owner.id, lowerName: name.toLowerCase() });
    if (!team) throw unprocessable(`team does not exist [org_id ${owner.id}, team_id 0, name: ${name}]`);
    const linked = team.includesAllRepositories || (await em.count(TeamRepo, { teamId: team.id, repoId: repo.id })) > 0;
    if (linked && !ids.includes(team.id)) ids.push(team.id);
  }
  return ids;
}
