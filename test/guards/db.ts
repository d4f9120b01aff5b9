// Rows for the database-backed guard tests, written through the same library code the handlers use
// (lib/users/accounts.ts, lib/repos/repos.ts); teams and memberships have no library yet, so their rows are
// created as the entities they are.
import type { EntityManager } from '@mikro-orm/core';
import { loadConfig, type Config } from '../../config.ts';
import { createOrg, createUser } from '../../lib/users/accounts.ts';
import { createRepository, type NewRepo } from '../../lib/repos/repos.ts';
import { Mode, UNIT_NAMES, Unit, type AccessMode } from '../../lib/auth/perm.ts';
import { OrgUser, Team, TeamRepo, TeamUnit, TeamUser, type ITeam } from '../../model/org.ts';
import type { IUser, Visibility } from '../../model/user.ts';
import type { IRepository } from '../../model/repo.ts';
import { openTestDb, type TestDb } from '../helpers/server.ts';
import { uniq } from '../helpers/fixtures.ts';
import { servicesFor } from './state.ts';

export interface GuardDb {
  t: TestDb;
  /** Settings whose data path is the test database's, so repositories land in its directory. */
  config: Record<string, string>;
  /** A fresh EntityManager, as each request gets one. */
  em(): EntityManager;
  close(): Promise<void>;
}

export async function openGuardDb(): Promise<GuardDb> {
  const t = await openTestDb();
  return { t, config: { SERVER__APP_DATA_PATH: t.dataPath }, em: () => t.db.orm.em.fork(), close: () => t.close() };
}

export async function mkUser(db: GuardDb, opts: { admin?: boolean; visibility?: Visibility; name?: string } = {}): Promise<IUser> {
  const name = opts.name ?? uniq('u');
  return createUser(db.em(), { name, email: `${name}@example.com`, isAdmin: opts.admin, visibility: opts.visibility });
}

/** An organization whose Owners team holds `creator`. */
export async function mkOrg(db: GuardDb, creator: IUser, visibility: Visibility = 'public', name = uniq('org')): Promise<IUser> {
  return createOrg(db.em(), creator, { name, visibility });
}

/** A team of `org` at `mode` on every unit, with `members` (who become organization members too). */
export async function mkTeam(
  db: GuardDb,
  org: IUser,
  opts: { mode?: AccessMode; members?: IUser[]; repos?: IRepository[] } = {},
): Promise<ITeam> {
  const em = db.em();
  const name = uniq('team');
  const mode = opts.mode ?? Mode.read;
  const team = em.create(Team, { orgId: org.id, name, lowerName: name, accessMode: mode });
  await em.flush();
  for (const u of UNIT_NAMES) em.create(TeamUnit, { teamId: team.id, orgId: org.id, type: Unit[u], accessMode: mode });
  for (const r of opts.repos ?? []) em.create(TeamRepo, { teamId: team.id, orgId: org.id, repoId: r.id });
  await em.flush();
  for (const m of opts.members ?? []) await addToTeam(db, team, m);
  return team;
}

export async function addToTeam(db: GuardDb, team: ITeam, user: IUser): Promise<void> {
  const em = db.em();
  em.create(TeamUser, { teamId: team.id, orgId: team.orgId, uid: user.id });
  if ((await em.count(OrgUser, { orgId: team.orgId, uid: user.id })) === 0) em.create(OrgUser, { orgId: team.orgId, uid: user.id });
  await em.flush();
}

export async function mkRepo(db: GuardDb, owner: IUser, doer: IUser, input: Partial<NewRepo> = {}): Promise<IRepository> {
  const config: Config = loadConfig({}, db.config);
  return createRepository(db.em(), config, servicesFor(config), owner, doer, { name: uniq('repo'), ...input });
}

/** One organization and a person in each role the organization guards tell apart. */
export interface OrgRoles {
  org: IUser;
  /** In the Owners team. */
  owner: IUser;
  /** In `team` (read access). */
  teamMember: IUser;
  team: ITeam;
  /** In another team of the organization only. */
  member: IUser;
  /** In a team with admin access: an organization admin, still not an owner. */
  teamAdmin: IUser;
  /** Owner of a different organization. */
  outsider: IUser;
  admin: IUser;
}

export async function orgRoles(db: GuardDb, visibility: Visibility = 'public'): Promise<OrgRoles> {
  const [owner, teamMember, member, teamAdmin, outsider] = [
    await mkUser(db),
    await mkUser(db),
    await mkUser(db),
    await mkUser(db),
    await mkUser(db),
  ];
  const admin = await mkUser(db, { admin: true });
  const org = await mkOrg(db, owner, visibility);
  await mkOrg(db, outsider);
  const team = await mkTeam(db, org, { members: [teamMember] });
  await mkTeam(db, org, { mode: Mode.write, members: [member] });
  await mkTeam(db, org, { mode: Mode.admin, members: [teamAdmin] });
  return { org, owner, teamMember, team, member, teamAdmin, outsider, admin };
}
