// Repository transfers (Forgejo services/repository/transfer.go): immediate for site admins, for
// a transfer to oneself and to an organization where the caller may create repositories; pending
// otherwise until the recipient accepts or rejects it.
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import type { Services } from '../http/services.ts';
import { Collaboration, RepoRedirect, Repository, type IRepository } from '../../model/repo.ts';
import { OrgUser, Team, TeamRepo, TeamUnit } from '../../model/org.ts';
import { RepoTransfer, type IRepoTransfer } from '../../model/transfer.ts';
import { User, type IUser } from '../../model/user.ts';
import { toApiUser, type Viewer } from '../users/index.ts';
import { toApiTeam } from '../users/index.ts';
import type { ApiRepoTransfer } from './api/repo.ts';
import { Mode, userPermission } from '../auth/perm.ts';
import { conflict, unprocessable } from '../http/errors.ts';
import { moveGitDirs } from './repos.ts';
import { canCreateOrgRepo } from '../auth/membership.ts';

export async function transferJson(em: EntityManager, cfg: Config, t: IRepoTransfer, viewer: Viewer): Promise<ApiRepoTransfer> {
  return (await transfersJson(em, cfg, [t], viewer))[0]!;
}

/** The users a transfer names. */
export const transferUserIds = (ts: IRepoTransfer[]) => ts.flatMap((t) => [t.doerId, t.recipientId]);

/**
 * Several pending transfers (RepoTransfer shape) with their users and teams read once; `known` users
 * (read with something else) are not read again.
 */
export async function transfersJson(
  em: EntityManager,
  cfg: Config,
  ts: IRepoTransfer[],
  viewer: Viewer,
  known: IUser[] = [],
): Promise<ApiRepoTransfer[]> {
  if (ts.length === 0) return [];
  const missing = [...new Set(transferUserIds(ts))].filter((id) => !known.some((u) => u.id === id));
  const users = [...known, ...(missing.length ? await em.find(User, { id: { $in: missing } }) : [])];
  const teamIds = [...new Set(ts.flatMap((t) => t.teamIds))];
  const allTeams = teamIds.length ? await em.find(Team, { id: { $in: teamIds } }) : [];
  const units = allTeams.length ? await em.find(TeamUnit, { teamId: { $in: allTeams.map((x) => x.id) } }) : [];
  const user = (id: number) => {
    const u = users.find((x) => x.id === id);
    return u ? toApiUser(cfg, u, viewer) : null;
  };
  return ts.map((t) => {
    const teams = allTeams.filter((x) => t.teamIds.includes(x.id));
    return {
      doer: user(t.doerId),
      recipient: user(t.recipientId),
      teams: teams.length ? teams.map((x) => toApiTeam(cfg, x, units)) : null,
    };
  });
}

async function checkNameFree(em: EntityManager, newOwner: IUser, repo: IRepository): Promise<void> {
  if ((await em.count(Repository, { ownerId: newOwner.id, lowerName: repo.lowerName })) > 0) {
    throw unprocessable(`repository already exists [uname: ${newOwner.name}, name: ${repo.name}]`);
  }
}

/** Moves the repository to `newOwner` now: record, team links, collaborators, directory, redirect. */
export async function transferOwnership(
  em: EntityManager,
  services: Services,
  repo: IRepository,
  newOwner: IUser,
  teamIds: number[],
): Promise<void> {
  const oldOwner = await em.findOneOrFail(User, { id: repo.ownerId });
  if (oldOwner.id === newOwner.id) return;
  await checkNameFree(em, newOwner, repo);
  // Collaborators who now have access anyway (the new owner, members of the new organization) go.
  const collaborators = await em.find(Collaboration, { repoId: repo.id });
  const members = newOwner.type === 1 ? new Set((await em.find(OrgUser, { orgId: newOwner.id })).map((m) => m.uid)) : new Set<number>();
  for (const c of collaborators) if (c.userId === newOwner.id || members.has(c.userId)) em.remove(c);
  if (oldOwner.type === 1) await em.nativeDelete(TeamRepo, { repoId: repo.id });
  if (newOwner.type === 1) {
    const teams = await em.find(Team, { orgId: newOwner.id, $or: [{ includesAllRepositories: true }, { id: { $in: teamIds } }] });
    for (const t of teams) em.create(TeamRepo, { teamId: t.id, orgId: newOwner.id, repoId: repo.id });
  }
  await em.nativeDelete(RepoTransfer, { repoId: repo.id });
  await em.nativeDelete(RepoRedirect, { ownerId: newOwner.id, lowerName: repo.lowerName });
  await em.nativeDelete(RepoRedirect, { ownerId: oldOwner.id, lowerName: repo.lowerName });
  em.create(RepoRedirect, { ownerId: oldOwner.id, lowerName: repo.lowerName, redirectRepoId: repo.id });
  repo.ownerId = newOwner.id;
  repo.ownerName = newOwner.name;
  await em.flush();
  await moveGitDirs(services, { owner: oldOwner.name, name: repo.name }, { owner: newOwner.name, name: repo.name });
}

/** Teams named in TransferRepoOption: only for organization recipients (TRANSFER_TEAMS checked whose they are). */
export async function checkTransferTeams(em: EntityManager, newOwner: IUser, teamIds: number[] | undefined): Promise<number[]> {
  if (teamIds === undefined) return [];
  if (newOwner.type !== 1) throw unprocessable('Teams can only be added to organization-owned repositories');
  for (const id of teamIds) {
    const team = await em.findOne(Team, { id });
    if (!team) throw unprocessable(`team ${id} not found`);
  }
  return teamIds;
}

/**
 * Starts a transfer; true when it happened at once, false when it waits for the recipient. A
 * recipient without access gets read access, so that it can see what it is asked to accept.
 */
export async function startTransfer(
  em: EntityManager,
  services: Services,
  doer: IUser,
  siteAdmin: boolean,
  repo: IRepository,
  newOwner: IUser,
  teamIds: number[],
): Promise<boolean> {
  if ((await em.count(RepoTransfer, { repoId: repo.id })) > 0)
    throw conflict(`repository is already being transferred [repo: ${repo.ownerName}/${repo.name}]`);
  await checkNameFree(em, newOwner, repo);
  const direct = siteAdmin || doer.id === newOwner.id || (newOwner.type === 1 && (await canCreateOrgRepo(em, newOwner.id, doer.id)));
  if (direct) {
    await transferOwnership(em, services, repo, newOwner, teamIds);
    return true;
  }
  const owner = await em.findOneOrFail(User, { id: repo.ownerId });
  if (newOwner.type === 0) {
    const perm = await userPermission(em, repo, owner, newOwner);
    if (!perm.hasAnyAccess() && (await em.count(Collaboration, { repoId: repo.id, userId: newOwner.id })) === 0) {
      em.create(Collaboration, { repoId: repo.id, userId: newOwner.id, mode: Mode.read });
    }
  }
  em.create(RepoTransfer, { repoId: repo.id, doerId: doer.id, recipientId: newOwner.id, teamIds });
  await em.flush();
  return false;
}

export async function acceptTransfer(em: EntityManager, services: Services, repo: IRepository): Promise<void> {
  const t = await em.findOneOrFail(RepoTransfer, { repoId: repo.id });
  const recipient = await em.findOneOrFail(User, { id: t.recipientId });
  await transferOwnership(em, services, repo, recipient, t.teamIds);
}

export async function cancelTransfer(em: EntityManager, repo: IRepository): Promise<void> {
  await em.nativeDelete(RepoTransfer, { repoId: repo.id });
}
