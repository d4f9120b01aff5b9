// Repository permission calculation (forgejo-facts 8.3; spec, path resolution rules 5 and 6, token kinds).
import type { EntityManager } from '@mikro-orm/core';
import type { IUser } from '../model/user.ts';
import type { IRepository } from '../model/repo.ts';
import { Collaboration, RepoUnit } from '../model/repo.ts';
import { OrgUser, Team, TeamRepo, TeamUnit, TeamUser } from '../model/org.ts';
import type { TokenInfo } from './auth-types.ts';

export const Mode = { none: 0, read: 1, write: 2, admin: 3, owner: 4 } as const;
export type AccessMode = (typeof Mode)[keyof typeof Mode];
export const MODE_NAMES = ['none', 'read', 'write', 'admin', 'owner'] as const;
export const modeName = (m: number) => MODE_NAMES[m] ?? 'none';
export const parseMode = (s: string | undefined): AccessMode => {
  const i = MODE_NAMES.indexOf((s ?? '') as (typeof MODE_NAMES)[number]);
  return (i < 0 ? 0 : i) as AccessMode;
};

export const Unit = { code: 1, issues: 2, pulls: 3, releases: 4, wiki: 5, ext_wiki: 6, ext_issues: 7, projects: 8, packages: 9, actions: 10 } as const;
export type UnitName = keyof typeof Unit;
export const UNIT_NAMES = Object.keys(Unit) as UnitName[];
export const unitKey = (t: number) => `repo.${UNIT_NAMES[t - 1]}`;
/** Units a new repository gets (forgejo-facts 8.2). */
export const DEFAULT_UNITS: UnitName[] = ['code', 'issues', 'pulls', 'releases', 'wiki', 'projects', 'packages', 'actions'];

export class RepoPermission {
  constructor(
    /** The overall mode (owner/admin apply to every unit). */
    readonly mode: AccessMode,
    /** Mode per enabled unit. Units not enabled on the repository are absent. */
    readonly units: Map<number, AccessMode>,
    readonly enabled: Set<number>,
  ) {}
  static none(enabled: Set<number>) { return new RepoPermission(Mode.none, new Map(), enabled); }
  unitEnabled(u: UnitName) { return this.enabled.has(Unit[u]); }
  unitMode(u: UnitName): AccessMode {
    if (!this.enabled.has(Unit[u])) return Mode.none;
    if (this.mode >= Mode.admin) return this.mode;
    return this.units.get(Unit[u]) ?? Mode.none;
  }
  canRead(u: UnitName) { return this.unitMode(u) >= Mode.read; }
  canWrite(u: UnitName) { return this.unitMode(u) >= Mode.write; }
  isAdmin() { return this.mode >= Mode.admin; }
  isOwner() { return this.mode >= Mode.owner; }
  hasAnyAccess() { return this.mode > Mode.none || [...this.units.values()].some((m) => m > Mode.none); }
}

export async function enabledUnits(em: EntityManager, repoId: number): Promise<Set<number>> {
  const rows = await em.find(RepoUnit, { repoId }, { fields: ['type'] });
  return new Set(rows.map((r) => r.type));
}

/** Whether the caller may see a user or organization with the given visibility. */
export async function canSeeOwner(em: EntityManager, owner: IUser, doer: IUser | null, siteAdmin: boolean): Promise<boolean> {
  if (owner.visibility === 'public') return true;
  if (!doer) return false;
  if (siteAdmin || doer.id === owner.id) return true;
  if (owner.visibility === 'limited') return true;
  if (owner.type === 1) return (await em.count(OrgUser, { orgId: owner.id, uid: doer.id })) > 0;
  return false;
}

export interface PermInput {
  repo: IRepository;
  owner: IUser;
  doer: IUser | null;
  /** Site admin rights count (false for public-only and repo-specific tokens). */
  siteAdmin: boolean;
  token: TokenInfo | null;
}

export async function repoPermission(em: EntityManager, input: PermInput, units?: Set<number>): Promise<RepoPermission> {
  const enabled = units ?? (await enabledUnits(em, input.repo.id));
  const perm = await basePermission(em, input, enabled);
  return reduceForToken(perm, input, enabled);
}

async function basePermission(em: EntityManager, { repo, owner, doer, siteAdmin }: PermInput, enabled: Set<number>): Promise<RepoPermission> {
  const isPublic = !repo.isPrivate;
  const all = (m: AccessMode) => new RepoPermission(m, new Map([...enabled].map((u) => [u, m])), enabled);
  if (!doer) return isPublic && owner.visibility === 'public' ? all(Mode.read) : RepoPermission.none(enabled);
  if (siteAdmin || doer.id === owner.id) return all(Mode.owner);

  const collab = await em.findOne(Collaboration, { repoId: repo.id, userId: doer.id });
  if (!(await canSeeOwner(em, owner, doer, false)) && !collab) return RepoPermission.none(enabled);

  const units = new Map<number, AccessMode>();
  const raise = (u: number, m: number) => { if (m > (units.get(u) ?? 0)) units.set(u, m as AccessMode); };
  let overall: AccessMode = Mode.none;
  if (collab) { overall = collab.mode as AccessMode; for (const u of enabled) raise(u, collab.mode); }

  if (owner.type === 1) {
    const teams = await teamsWithRepo(em, owner.id, repo.id, doer.id);
    for (const t of teams) {
      if (t.accessMode >= Mode.admin) return all(Mode.owner);
      for (const tu of t.units) if (enabled.has(tu.type)) raise(tu.type, tu.accessMode);
      if (t.accessMode > overall) overall = t.accessMode as AccessMode;
    }
  }
  if (overall >= Mode.admin) return all(overall);
  if (isPublic) for (const u of enabled) raise(u, Mode.read);
  return new RepoPermission(overall >= Mode.admin ? overall : (Math.min(overall, Mode.write) as AccessMode), units, enabled);
}

async function teamsWithRepo(em: EntityManager, orgId: number, repoId: number, uid: number) {
  const memberships = await em.find(TeamUser, { orgId, uid });
  if (memberships.length === 0) return [];
  const teams = await em.find(Team, { id: { $in: memberships.map((m) => m.teamId) } });
  const linked = new Set((await em.find(TeamRepo, { repoId, teamId: { $in: teams.map((t) => t.id) } })).map((r) => r.teamId));
  const relevant = teams.filter((t) => t.includesAllRepositories || linked.has(t.id));
  const units = relevant.length ? await em.find(TeamUnit, { teamId: { $in: relevant.map((t) => t.id) } }) : [];
  return relevant.map((t) => ({ accessMode: t.accessMode, units: units.filter((u) => u.teamId === t.id) }));
}

/** Token kinds (spec, "Token kinds"): public-only tokens never reach private repositories; repo-specific ones only theirs. */
function reduceForToken(perm: RepoPermission, { repo, owner, token }: PermInput, enabled: Set<number>): RepoPermission {
  if (!token) return perm;
  const repoPublic = !repo.isPrivate && owner.visibility === 'public';
  if (token.publicOnly && !repoPublic) return RepoPermission.none(enabled);
  if (token.repoIds && !token.repoIds.includes(repo.id)) {
    if (!repoPublic) return RepoPermission.none(enabled);
    return new RepoPermission(Mode.read, new Map([...enabled].map((u) => [u, Mode.read as AccessMode])), enabled);
  }
  return perm;
}
