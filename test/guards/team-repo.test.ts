// TEAM_REPO (the `{org}/{reponame}` of /teams/{teamid}/repos/...: a repository of the team's
// organization the caller can reach, else 404) and TEAM_REPO_ADM (Forgejo's AddTeamRepository /
// RemoveTeamRepository: admin access to the repository, else 403).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TEAM_REPO, TEAM_REPO_ADM } from '../../guards/team-repo.ts';
import { Mode } from '../../lib/auth/perm.ts';
import type { IUser } from '../../model/user.ts';
import type { IRepository } from '../../model/repo.ts';
import type { ITeam } from '../../model/org.ts';
import type { RequestState } from '../../guards/types.ts';
import { fakeUser, loadedRepo, perm, permAll, table, token, type Given } from './state.ts';
import { mkOrg, mkRepo, mkTeam, mkUser, openGuardDb, type GuardDb } from './db.ts';

const missing = { status: 404, message: "The target couldn't be found.", errors: [] };
const denied = { status: 403, message: 'Must have admin-level access to the repository' };

let db: GuardDb;
let owner: IUser;
let reader: IUser;
let outsider: IUser;
let admin: IUser;
let org: IUser;
let otherOrg: IUser;
let team: ITeam;
let pub: IRepository;
let priv: IRepository;

test.before(async () => {
  db = await openGuardDb();
  owner = await mkUser(db);
  reader = await mkUser(db);
  outsider = await mkUser(db);
  admin = await mkUser(db, { admin: true });
  org = await mkOrg(db, owner);
  otherOrg = await mkOrg(db, owner);
  pub = await mkRepo(db, org, owner, { name: 'pub' });
  priv = await mkRepo(db, org, owner, { name: 'priv', private: true });
  await mkRepo(db, otherOrg, owner, { name: 'elsewhere' });
  team = await mkTeam(db, org, { mode: Mode.read, members: [reader], repos: [priv] });
});
test.after(async () => {
  await db.close();
});

const at =
  (doer: () => IUser | null, orgName: () => string, repo: string, extra: Partial<Given> = {}) =>
  (): Given => ({ em: db.em(), doer: doer(), team, org, params: { teamid: String(team.id), org: orgName(), reponame: repo }, ...extra });
const loads = (r: () => IRepository, mode: number) => (s: RequestState) => {
  assert.is(s.repo?.repo.id, r().id);
  assert.is(s.repo?.owner.id, org.id);
  assert.is(s.repo?.perm.mode, mode);
};

table(TEAM_REPO, [
  {
    name: 'a public repository of the organization',
    given: at(
      () => outsider,
      () => org.name,
      'pub',
    ),
    want: null,
    then: loads(() => pub, Mode.none),
  },
  {
    name: 'names compare case-insensitively',
    given: at(
      () => owner,
      () => org.name.toUpperCase(),
      'PRIV',
    ),
    want: null,
    then: loads(() => priv, Mode.owner),
  },
  {
    name: 'a private repository, team member',
    given: at(
      () => reader,
      () => org.name,
      'priv',
    ),
    want: null,
    then: loads(() => priv, Mode.read),
  },
  {
    name: 'a private repository, outsider',
    given: at(
      () => outsider,
      () => org.name,
      'priv',
    ),
    want: missing,
  },
  {
    name: 'a private repository, public-only token of a team member',
    given: at(
      () => reader,
      () => org.name,
      'priv',
      { token: token('public-only,read:organization') },
    ),
    want: missing,
  },
  {
    name: 'a private repository, site admin',
    given: at(
      () => admin,
      () => org.name,
      'priv',
    ),
    want: null,
    then: loads(() => priv, Mode.owner),
  },
  {
    name: 'another organization in {org}',
    given: at(
      () => owner,
      () => otherOrg.name,
      'elsewhere',
    ),
    want: missing,
  },
  {
    name: "a repository of another organization under this one's name",
    given: at(
      () => owner,
      () => org.name,
      'elsewhere',
    ),
    want: missing,
  },
  {
    name: 'no such repository',
    given: at(
      () => owner,
      () => org.name,
      'nope',
    ),
    want: missing,
  },
]);

const repoAt =
  (p: ReturnType<typeof perm>, doer: IUser, extra: Partial<Given> = {}) =>
  (): Given => ({ doer, repo: loadedRepo(p), ...extra });
const someone = fakeUser();
const siteAdmin = fakeUser({ isAdmin: true });

table(TEAM_REPO_ADM, [
  { name: 'repository owner', given: repoAt(permAll(Mode.owner), someone), want: null },
  { name: 'repository admin', given: repoAt(permAll(Mode.admin), someone), want: null },
  { name: 'write access', given: repoAt(perm(Mode.write, { code: Mode.write }), someone), want: denied },
  { name: 'read access', given: repoAt(perm(Mode.read, { code: Mode.read }), someone), want: denied },
  { name: 'site admin without repository rights', given: repoAt(perm(Mode.read, { code: Mode.read }), siteAdmin), want: null },
  {
    name: 'site admin with a public-only token',
    given: repoAt(perm(Mode.read, { code: Mode.read }), siteAdmin, { token: token('public-only,all') }),
    want: denied,
  },
]);

test.run();
