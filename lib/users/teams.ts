// Teams and organization membership (Forgejo's models/org_team.go and models/org.go): the rules for
// team units, the Owners team, and keeping OrgUser in step with TeamUser.
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { OrgUser, Team, TeamRepo, TeamUnit, TeamUser, type ITeam, type ITeamUnit } from '../../model/org.ts';
import { Repository, type IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import { Mode, UNIT_NAMES, Unit, parseMode, type AccessMode } from '../auth/perm.ts';
import { unprocessable } from '../http/errors.ts';

export const isOwnerTeam = (t: ITeam) => t.accessMode >= Mode.owner;

/** Forgejo's models/organization IsUsableTeamName: `new` is reserved (the web route /teams/new). */
function checkTeamName(name: string): void {
  if (name.toLowerCase() === 'new') throw unprocessable(`name is reserved [name: ${name}]`);
}

const unitType = (key: string): number | null => {
  const short = key.startsWith('repo.') ? key.slice(5) : '';
  return (UNIT_NAMES as string[]).includes(short) ? Unit[short as keyof typeof Unit] : null;
};
const EXTERNAL = new Set<number>([Unit.ext_issues, Unit.ext_wiki]);

export interface UnitsInput {
  permission?: string;
  units?: string[];
  units_map?: Record<string, string>;
}

/**
 * The team mode and unit rows a body asks for (Forgejo's CreateTeam/EditTeam). A given
 * `permission` (always, on create) sets the mode, lowered to the smallest non-none mode of
 * `units_map` below admin (external units aside). Admin teams get every unit; otherwise
 * `units_map` wins over `units` (given at the team's mode). Unknown unit keys are ignored, as
 * Forgejo's FindUnitTypes does. `units` is null when the body names none.
 */
export function teamAccess(body: UnitsInput, current?: AccessMode): { mode: AccessMode; units: [number, AccessMode][] | null } {
  const map = Object.entries(body.units_map ?? {}).flatMap(([k, v]) => {
    const t = unitType(k);
    return t === null ? [] : [[t, parseMode(v)] as [number, AccessMode]];
  });
  const explicit = current === undefined || !!body.permission;
  let mode: AccessMode = explicit ? parseMode(body.permission) : current;
  if (explicit && mode < Mode.admin && map.length) {
    const modes = map.filter(([t, m]) => !EXTERNAL.has(t) && m > Mode.none).map(([, m]) => m);
    mode = (modes.length ? Math.min(...modes) : Mode.none) as AccessMode;
  }
  if (mode >= Mode.admin) {
    return { mode, units: UNIT_NAMES.map((n) => [Unit[n], (EXTERNAL.has(Unit[n]) ? Mode.read : Mode.admin) as AccessMode]) };
  }
  if (map.length) return { mode, units: dedupe(map) };
  const listed = (body.units ?? []).map(unitType).filter((t): t is number => t !== null);
  if (listed.length) return { mode, units: dedupe(listed.map((t) => [t, mode])) };
  return { mode, units: null };
}

const dedupe = (rows: [number, AccessMode][]) => [...new Map(rows).entries()];

export async function teamUnitsOf(em: EntityManager, teams: ITeam[]): Promise<ITeamUnit[]> {
  return teams.length ? em.find(TeamUnit, { teamId: { $in: teams.map((t) => t.id) } }, { orderBy: { id: 'asc' } }) : [];
}

const teamExists = (orgId: number, name: string) => unprocessable(`team already exists [org_id: ${orgId}, name: ${name.toLowerCase()}]`);

async function assertNameFree(em: EntityManager, orgId: number, name: string, exceptId = 0): Promise<void> {
  if (await em.findOne(Team, { orgId, lowerName: name.toLowerCase(), id: { $ne: exceptId } })) throw teamExists(orgId, name);
}

/** A concurrent request that took the name first trips the (org, lower name) unique key. */
async function flushTeamName(em: EntityManager, team: ITeam): Promise<void> {
  await em.flush().catch((e: unknown) => {
    if (e instanceof UniqueConstraintViolationException) throw teamExists(team.orgId, team.name);
    throw e;
  });
}

export interface NewTeam extends UnitsInput {
  name: string;
  description?: string;
  includes_all_repositories?: boolean;
  can_create_org_repo?: boolean;
}

export async function createTeam(em: EntityManager, org: IUser, input: NewTeam): Promise<ITeam> {
  checkTeamName(input.name);
  const access = teamAccess(input);
  if (!access.units) throw unprocessable('units permission should not be empty');
  await assertNameFree(em, org.id, input.name);
  const team = em.create(Team, {
    orgId: org.id,
    name: input.name,
    lowerName: input.name.toLowerCase(),
    description: input.description ?? '',
    accessMode: access.mode,
    includesAllRepositories: !!input.includes_all_repositories,
    canCreateOrgRepo: !!input.can_create_org_repo,
  });
  await flushTeamName(em, team);
  for (const [type, accessMode] of access.units) em.create(TeamUnit, { teamId: team.id, orgId: org.id, type, accessMode });
  if (team.includesAllRepositories) await addAllRepos(em, team);
  await em.flush();
  return team;
}

export interface TeamEdit extends UnitsInput {
  name?: string;
  description?: string;
  includes_all_repositories?: boolean;
  can_create_org_repo?: boolean;
}

/** Forgejo's EditTeam: the Owners team keeps its mode, its repositories and repo creation right. */
export async function editTeam(em: EntityManager, team: ITeam, b: TeamEdit): Promise<void> {
  const owner = isOwnerTeam(team);
  if (b.name && b.name !== team.name) {
    // Owners is found by its mode, but clients look for it by name (forgejo-facts 6.4).
    if (owner) throw unprocessable('the Owners team cannot be renamed');
    checkTeamName(b.name);
    await assertNameFree(em, team.orgId, b.name, team.id);
    team.name = b.name;
    team.lowerName = b.name.toLowerCase();
    await flushTeamName(em, team);
  }
  if (b.description !== undefined) team.description = b.description;
  if (b.can_create_org_repo !== undefined) team.canCreateOrgRepo = owner || b.can_create_org_repo;
  let includeAllChanged = false;
  if (!owner && b.permission) {
    if (b.includes_all_repositories !== undefined && b.includes_all_repositories !== team.includesAllRepositories) {
      // Repositories the team got while it included all of them stay its own, as in Forgejo.
      if (!b.includes_all_repositories) await addAllRepos(em, team);
      team.includesAllRepositories = b.includes_all_repositories;
      includeAllChanged = b.includes_all_repositories;
    }
  }
  if (!owner) {
    const access = teamAccess(b, team.accessMode as AccessMode);
    team.accessMode = access.mode;
    if (access.units) {
      await em.nativeDelete(TeamUnit, { teamId: team.id });
      for (const [type, accessMode] of access.units) em.create(TeamUnit, { teamId: team.id, orgId: team.orgId, type, accessMode });
    }
  }
  if (includeAllChanged) await addAllRepos(em, team);
  await em.flush();
}

async function addAllRepos(em: EntityManager, team: ITeam): Promise<void> {
  const have = new Set((await em.find(TeamRepo, { teamId: team.id })).map((r) => r.repoId));
  for (const r of await em.find(Repository, { ownerId: team.orgId }, { fields: ['id'] })) {
    if (!have.has(r.id)) em.create(TeamRepo, { teamId: team.id, orgId: team.orgId, repoId: r.id });
  }
}

export async function deleteTeam(em: EntityManager, team: ITeam): Promise<void> {
  if (isOwnerTeam(team)) throw unprocessable('the Owners team cannot be deleted');
  const members = await em.find(TeamUser, { teamId: team.id });
  await em.nativeDelete(TeamUnit, { teamId: team.id });
  await em.nativeDelete(TeamRepo, { teamId: team.id });
  await em.nativeDelete(TeamUser, { teamId: team.id });
  em.remove(team);
  await em.flush();
  for (const m of members) await dropOrgUserWithoutTeams(em, team.orgId, m.uid);
}

/** Adding a team member makes them an organization member (Forgejo's AddTeamMember). */
export async function addTeamMember(em: EntityManager, team: ITeam, user: IUser): Promise<void> {
  if (user.type !== 0) throw unprocessable(`${user.name} is an organization not a user`);
  if ((await em.count(TeamUser, { teamId: team.id, uid: user.id })) > 0) return;
  if ((await em.count(OrgUser, { orgId: team.orgId, uid: user.id })) === 0)
    em.create(OrgUser, { orgId: team.orgId, uid: user.id, isPublic: false });
  em.create(TeamUser, { teamId: team.id, orgId: team.orgId, uid: user.id });
  await em.flush();
}

const lastOwner = (uid: number) => unprocessable(`user is the last member of owner team [uid: ${uid}]`);

/** Forgejo's RemoveTeamMember: the last member of the Owners team stays; no team left ends the membership. */
export async function removeTeamMember(em: EntityManager, team: ITeam, uid: number): Promise<void> {
  if ((await em.count(TeamUser, { teamId: team.id, uid })) === 0) return;
  if (isOwnerTeam(team) && (await em.count(TeamUser, { teamId: team.id })) === 1) throw lastOwner(uid);
  await em.nativeDelete(TeamUser, { teamId: team.id, uid });
  await dropOrgUserWithoutTeams(em, team.orgId, uid);
}

async function dropOrgUserWithoutTeams(em: EntityManager, orgId: number, uid: number): Promise<void> {
  if ((await em.count(TeamUser, { orgId, uid })) === 0) await em.nativeDelete(OrgUser, { orgId, uid });
}

/** Forgejo's RemoveOrgUser: out of the organization and every one of its teams, unless the last owner. */
export async function removeOrgMember(em: EntityManager, orgId: number, uid: number): Promise<void> {
  if ((await em.count(OrgUser, { orgId, uid })) === 0) return;
  const owners = await em.findOne(Team, { orgId, accessMode: Mode.owner });
  if (owners && (await em.count(TeamUser, { teamId: owners.id, uid })) > 0 && (await em.count(TeamUser, { teamId: owners.id })) === 1)
    throw lastOwner(uid);
  await em.nativeDelete(TeamUser, { orgId, uid });
  await em.nativeDelete(OrgUser, { orgId, uid });
}

/**
 * The team's repositories: its team_repo rows, plus every repository of the organization while the
 * team includes all of them (repositories created since then have no row of their own).
 */
export async function teamRepos(em: EntityManager, team: ITeam): Promise<IRepository[]> {
  const where = team.includesAllRepositories
    ? { ownerId: team.orgId }
    : { id: { $in: (await em.find(TeamRepo, { teamId: team.id })).map((r) => r.repoId) } };
  return em.find(Repository, where, { orderBy: { lowerName: 'asc' } });
}

export async function hasTeamRepo(em: EntityManager, team: ITeam, repo: IRepository): Promise<boolean> {
  if (repo.ownerId !== team.orgId) return false;
  return team.includesAllRepositories || (await em.count(TeamRepo, { teamId: team.id, repoId: repo.id })) > 0;
}

export async function addTeamRepo(em: EntityManager, team: ITeam, repo: IRepository): Promise<void> {
  if ((await em.count(TeamRepo, { teamId: team.id, repoId: repo.id })) > 0) return;
  em.create(TeamRepo, { teamId: team.id, orgId: team.orgId, repoId: repo.id });
  await em.flush();
}

/** Forgejo's RemoveRepository ignores a team that includes all repositories. */
export async function removeTeamRepo(em: EntityManager, team: ITeam, repo: IRepository): Promise<void> {
  if (team.includesAllRepositories) return;
  await em.nativeDelete(TeamRepo, { teamId: team.id, repoId: repo.id });
}
