// Repository permission calculation (forgejo-facts 8.3; spec, path resolution rules 5 and 6, token kinds).
import type { EntityManager } from '@mikro-orm/core';
import { User, type IUser } from '../../model/user.ts';
import type { IRepository } from '../../model/repo.ts';
import { Collaboration, RepoUnit, Repository } from '../../model/repo.ts';
import { OrgUser, Team, TeamRepo, TeamUnit, TeamUser } from '../../model/org.ts';
import { intArray } from '../../model/raw.ts';
import { readRows } from '../../model/sql.ts';
import { userIsSiteAdmin, type TokenInfo } from './auth-types.ts';
import { Slot, type ReadAhead } from '../http/read-ahead.ts';

export const Mode = { none: 0, read: 1, write: 2, admin: 3, owner: 4 } as const;
export type AccessMode = (typeof Mode)[keyof typeof Mode];
export const MODE_NAMES = ['none', 'read', 'write', 'admin', 'owner'] as const;
export const modeName = (m: number) => MODE_NAMES[m] ?? 'none';
export const parseMode = (s: string | undefined): AccessMode => {
  const i = MODE_NAMES.indexOf((s ?? '') as (typeof MODE_NAMES)[number]);
  return (i < 0 ? 0 : i) as AccessMode;
};

export const Unit = {
  code: 1,
  issues: 2,
  pulls: 3,
  releases: 4,
  wiki: 5,
  ext_wiki: 6,
  ext_issues: 7,
  projects: 8,
  packages: 9,
  actions: 10,
} as const;
export type UnitName = keyof typeof Unit;
export const UNIT_NAMES = Object.keys(Unit) as UnitName[];
export const unitKey = (t: number) => `repo.${UNIT_NAMES[t - 1]}`;
/** Units a new repository gets (forgejo-facts 8.2). */
export const DEFAULT_UNITS: UnitName[] = ['code', 'issues', 'pulls', 'releases', 'wiki', 'projects', 'packages', 'actions'];

export class RepoPermission {
  /** The overall mode (owner/admin apply to every unit). */
  readonly mode: AccessMode;
  /** Mode per enabled unit. Units not enabled on the repository are absent. */
  readonly units: Map<number, AccessMode>;
  readonly enabled: Set<number>;
  constructor(mode: AccessMode, units: Map<number, AccessMode>, enabled: Set<number>) {
    this.mode = mode;
    this.units = units;
    this.enabled = enabled;
  }
  static none(enabled: Set<number>) {
    return new RepoPermission(Mode.none, new Map(), enabled);
  }
  unitEnabled(u: UnitName) {
    return this.enabled.has(Unit[u]);
  }
  unitMode(u: UnitName): AccessMode {
    if (!this.enabled.has(Unit[u])) return Mode.none;
    if (this.mode >= Mode.admin) return this.mode;
    return this.units.get(Unit[u]) ?? Mode.none;
  }
  canRead(u: UnitName) {
    return this.unitMode(u) >= Mode.read;
  }
  canWrite(u: UnitName) {
    return this.unitMode(u) >= Mode.write;
  }
  isAdmin() {
    return this.mode >= Mode.admin;
  }
  isOwner() {
    return this.mode >= Mode.owner;
  }
  hasAnyAccess() {
    return this.mode > Mode.none || [...this.units.values()].some((m) => m > Mode.none);
  }
}

/**
 * The repository and owner a request addressed, with its enabled units, when its handler changes none
 * of them (lib/http/handler.ts plainContext), told once by the handler (`knownRepo`): the readers of its
 * notifications and feeds need no second read of the units, and the event subscribers that look the
 * repository and owner up by id are given these plain objects, which the identity map does not hold.
 */
const KNOWN_REPO = new Slot<{ repo: IRepository; owner: IUser; enabled: Set<number> }>('the addressed repository, unchanged');

/** The request changes neither `repo`, its `owner` nor its units: `repoById`, `userById` and `enabledUnits` give them. */
export function knownRepo(ahead: ReadAhead, repo: IRepository, owner: IUser, enabled: Set<number>): void {
  ahead.keep(KNOWN_REPO, { repo, owner, enabled });
}

/** The repository `id`: the request's own (`knownRepo`), else as `em.findOne` gives it. */
export async function repoById(em: EntityManager, id: number, ahead?: ReadAhead): Promise<IRepository | null> {
  const known = ahead?.peek(KNOWN_REPO);
  return known?.repo.id === id ? known.repo : em.findOne(Repository, { id });
}

/** The user `id`: the owner of the request's repository (`knownRepo`), else as `em.findOne` gives it. */
export async function userById(em: EntityManager, id: number, ahead?: ReadAhead): Promise<IUser | null> {
  const known = ahead?.peek(KNOWN_REPO);
  return known?.owner.id === id ? known.owner : em.findOne(User, { id });
}

const knownUnitsOf = (ahead: ReadAhead | undefined, repoId: number): Set<number> | undefined => {
  const known = ahead?.peek(KNOWN_REPO);
  return known?.repo.id === repoId ? known.enabled : undefined;
};

export async function enabledUnits(em: EntityManager, repoId: number, ahead?: ReadAhead): Promise<Set<number>> {
  const known = knownUnitsOf(ahead, repoId);
  if (known) return known;
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
  /** The request's read-ahead, where the caller's access facts may wait (`keepFactsRead`). */
  ahead?: ReadAhead;
}

export async function repoPermission(em: EntityManager, input: PermInput, units?: Set<number>): Promise<RepoPermission> {
  const enabled = units ?? (await enabledUnits(em, input.repo.id, input.ahead));
  const [perm] = await repoPermissions(em, input, [{ repo: input.repo, owner: input.owner, enabled }]);
  return perm!;
}

/**
 * A user's own permission on a repository, not through the request's token: for a third party the
 * request names (reviewer, assignee, collaborator, transfer recipient) or a job acting as its doer.
 */
export function userPermission(
  em: EntityManager,
  repo: IRepository,
  owner: IUser,
  user: IUser | null,
  units?: Set<number>,
): Promise<RepoPermission> {
  return repoPermission(em, { repo, owner, doer: user, siteAdmin: userIsSiteAdmin(user), token: null }, units);
}

/**
 * The users among `users` who may read `unit` of the repository (notifications and feeds of watchers).
 * A public repository of a public or limited owner is readable by every signed-in user, so then no
 * query is made; otherwise one statement reads every user's access facts (no query per watcher).
 */
/**
 * Whether every signed-in user may read `unit` (true: enabled on a public repository of a public or
 * limited owner), no one (false: not enabled), or it depends on the user (null); null as well when
 * the request has not read the repository's units (knownRepo), so this never costs a statement.
 */
export function everyoneReads(ahead: ReadAhead | undefined, repo: IRepository, owner: IUser, unit: UnitName): boolean | null {
  const enabled = knownUnitsOf(ahead, repo.id);
  if (!enabled) return null;
  if (!enabled.has(Unit[unit])) return false;
  return !repo.isPrivate && (owner.visibility === 'public' || owner.visibility === 'limited') ? true : null;
}

export async function readersOf(
  em: EntityManager,
  repo: IRepository,
  owner: IUser,
  users: IUser[],
  unit: UnitName,
  ahead?: ReadAhead,
): Promise<IUser[]> {
  if (users.length === 0) return [];
  const enabled = await enabledUnits(em, repo.id, ahead);
  if (!enabled.has(Unit[unit])) return [];
  if (!repo.isPrivate && (owner.visibility === 'public' || owner.visibility === 'limited')) return users;
  const item: PermItem = { repo, owner, enabled };
  const asked = users.filter((u) => !userIsSiteAdmin(u) && u.id !== owner.id);
  const facts = await accessFactsOfUsers(
    em,
    asked.map((u) => u.id),
    [item],
  );
  return users.filter((user) => {
    const input = { repo, owner, doer: user, siteAdmin: userIsSiteAdmin(user), token: null };
    return basePermission(facts.get(user.id) ?? NO_FACTS, input, enabled).canRead(unit);
  });
}

/** One repository of a batch: the record, its owner and its enabled units. */
export interface PermItem {
  repo: IRepository;
  owner: IUser;
  enabled: Set<number>;
}

/**
 * The caller's permission on each repository, in order, with at most one query for all of them
 * (none for anonymous callers, site admins and owners): a list costs the same for any page size.
 */
export async function repoPermissions(
  em: EntityManager,
  caller: Omit<PermInput, 'repo' | 'owner'>,
  items: PermItem[],
): Promise<RepoPermission[]> {
  const { doer, siteAdmin } = caller;
  const asked = doer && !siteAdmin ? items.filter((i) => i.owner.id !== doer.id) : [];
  const facts = doer && asked.length ? await accessFacts(em, doer.id, asked, caller.ahead) : NO_FACTS;
  return items.map((i) => {
    const input = { ...caller, repo: i.repo, owner: i.owner };
    return reduceForToken(basePermission(facts, input, i.enabled), input, i.enabled);
  });
}

/** What the database knows about one user's access to some repositories and their organizations. */
interface AccessFacts {
  /** Collaboration mode per repository id. */
  collab: Map<number, number>;
  /** Organizations the user is a member of. */
  orgs: Set<number>;
  /** The user's teams in those organizations, with the asked repositories they are linked to. */
  teams: { org: number; mode: number; all: boolean; repos: number[]; units: [number, number][] }[];
}
const NO_FACTS: AccessFacts = { collab: new Map(), orgs: new Set(), teams: [] };

/**
 * A select-list expression: a user's access facts (`uid`, the SQL of the user's id) on some
 * repositories (`repoIds`, an int[]) and organizations (`orgIds`), by the function
 * migration AccessFacts defines: `[collaborations, organizations, teams]`. A function, not subqueries,
 * so a statement locks and sets up only what the facts of the repository at hand can be read from.
 */
const factsOfUser = (uid: string, repoIds = '?::int[]', orgIds = '?::int[]') => `cairn_access_facts(${uid}, ${repoIds}, ${orgIds})`;

/**
 * The select list of a user's access facts on one repository `r` of an owner `o` (aliases of the
 * statement it goes into), with no placeholder: for a statement that also finds the repository
 * (the caller's token and the addressed repository, lib/auth/tokens.ts). Null when nothing was found or
 * the user owns the repository: an owner's permission needs no facts (repoPermissions asks none).
 */
export const factsColumnsOfRepo = (uid: string) => `case when r.id is null or o.id = ${uid} then null else
       ${factsOfUser(uid, 'array[r.id]', `(case when o.type = 1 then array[o.id] else '{}'::int[] end)`)} end as facts`;
const ONE_USER_FACTS = `select ${factsOfUser('?')} as facts`;
const USERS_FACTS = `select u.uid, ${factsOfUser('u.uid')} as facts from unnest(?::int[]) as u(uid)`;
const FACT_TABLES = [Collaboration, OrgUser, TeamUser, Team, TeamRepo, TeamUnit];

export type FactsRow = { facts: [collabs: [number, number][], orgs: number[], teams: AccessFacts['teams']] };
const factsOf = ({ facts: [collabs, orgs, teams] }: FactsRow): AccessFacts => ({ collab: new Map(collabs), orgs: new Set(orgs), teams });
const idsOf = (items: PermItem[]) => ({
  repoIds: intArray(items.map((i) => i.repo.id)),
  orgIds: intArray(new Set(items.filter((i) => i.owner.type === 1).map((i) => i.owner.id))),
});

/**
 * Access facts another statement of the request already read (the token's, lib/auth/tokens.ts): one
 * user's on one repository. A request that changes nothing cannot change them and may ask again; a
 * write's are `once`: its REPO loader takes them, and whatever asks after the write changed something reads.
 */
const FACTS_READ = new Slot<{ uid: number; repoId: number; facts: AccessFacts; once: boolean }>('access facts read with the token');

/** Keeps `row` (the column of `factsColumnsOfRepo`, not null) as user `uid`'s access facts on repository `repoId` for this request. */
export function keepFactsRead(ahead: ReadAhead, uid: number, repoId: number, row: FactsRow, once = false): void {
  ahead.keep(FACTS_READ, { uid, repoId, facts: factsOf(row), once });
}

async function accessFacts(em: EntityManager, uid: number, items: PermItem[], ahead: ReadAhead | undefined): Promise<AccessFacts> {
  const known = items.length === 1 ? ahead?.peek(FACTS_READ) : undefined;
  if (known && known.uid === uid && known.repoId === items[0]!.repo.id) {
    if (known.once) ahead!.take(FACTS_READ);
    return known.facts;
  }
  const { repoIds, orgIds } = idsOf(items);
  const [row] = await readRows<FactsRow>(em, FACT_TABLES, ONE_USER_FACTS, [uid, repoIds, orgIds]);
  return factsOf(row!);
}

/** `accessFacts` of several users, in one statement (none for no users). */
async function accessFactsOfUsers(em: EntityManager, uids: number[], items: PermItem[]): Promise<Map<number, AccessFacts>> {
  if (uids.length === 0) return new Map();
  const { repoIds, orgIds } = idsOf(items);
  const rows = await readRows<FactsRow & { uid: number }>(em, FACT_TABLES, USERS_FACTS, [repoIds, orgIds, intArray(uids)]);
  return new Map(rows.map((r) => [Number(r.uid), factsOf(r)]));
}

function basePermission(facts: AccessFacts, { repo, owner, doer, siteAdmin }: PermInput, enabled: Set<number>): RepoPermission {
  const isPublic = !repo.isPrivate;
  const all = (m: AccessMode) => new RepoPermission(m, new Map([...enabled].map((u) => [u, m])), enabled);
  if (!doer) return isPublic && owner.visibility === 'public' ? all(Mode.read) : RepoPermission.none(enabled);
  if (siteAdmin || doer.id === owner.id) return all(Mode.owner);

  const collab = facts.collab.get(repo.id);
  // canSeeOwner for someone who is not the owner.
  const seesOwner = owner.visibility === 'public' || owner.visibility === 'limited' || (owner.type === 1 && facts.orgs.has(owner.id));
  if (!seesOwner && collab === undefined) return RepoPermission.none(enabled);

  const units = new Map<number, AccessMode>();
  const raise = (u: number, m: number) => {
    if (m > (units.get(u) ?? 0)) units.set(u, m as AccessMode);
  };
  let overall: AccessMode = Mode.none;
  if (collab !== undefined) {
    overall = collab as AccessMode;
    for (const u of enabled) raise(u, collab);
  }

  if (owner.type === 1) {
    for (const t of facts.teams) {
      if (t.org !== owner.id || !(t.all || t.repos.includes(repo.id))) continue;
      if (t.mode >= Mode.admin) return all(Mode.owner);
      for (const [type, mode] of t.units) if (enabled.has(type)) raise(type, mode);
      if (t.mode > overall) overall = t.mode as AccessMode;
    }
  }
  if (overall >= Mode.admin) return all(overall);
  if (isPublic) for (const u of enabled) raise(u, Mode.read);
  return new RepoPermission(overall >= Mode.admin ? overall : (Math.min(overall, Mode.write) as AccessMode), units, enabled);
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
