// Teams over HTTP: create, list, search, read, edit, delete, members and repositories; the TM, OM and
// ONA guards with real memberships; repository access following team membership.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ApiSchemaName } from '../../model/schemas/index.ts';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call, type Res } from '../helpers/client.ts';
import { makeToken, makeUser, uniq, type TestUser } from '../helpers/fixtures.ts';
import { valid, validList } from '../helpers/schema.ts';

let db: TestDb;
let srv: TestServer;
let admin: TestUser;
let owner: TestUser; // in the Owners team
let member: TestUser; // in the org, not in `team`
let teamMember: TestUser; // in `team`
let outsider: TestUser;
/** The shared organization: Owners, `team` (read, code+issues) with teamMember, `other` with member. */
const ctx = { org: '', orgId: 0, ownersId: 0, teamId: 0, otherId: 0 };

const as = async (u: TestUser | undefined, method: string, p: string, body?: unknown) =>
  checked(await call(srv.api, method, p, { token: u?.token, body }));

const ERROR_SCHEMA: Record<number, ApiSchemaName> = {
  401: 'APIUnauthorizedError',
  403: 'APIForbiddenError',
  404: 'APINotFound',
  422: 'APIValidationError',
};
/** Error answers are JSON too: each is checked against its error schema and must carry a message. */
function checked(r: Res): Res {
  if (r.status >= 400) {
    valid(ERROR_SCHEMA[r.status] ?? 'APIError', r.json);
    assert.type(r.json.message, 'string');
  }
  return r;
}
const names = (list: { name?: string; login?: string }[]) => list.map((x) => x.name ?? x.login);

async function makeOrg(u: TestUser, extra: Record<string, unknown> = {}) {
  const r = await as(u, 'POST', '/orgs', { username: uniq('org'), ...extra });
  assert.is(r.status, 201, r.text);
  return r.json as { id: number; name: string };
}

async function makeTeam(org: string, body: Record<string, unknown>) {
  const r = await as(owner, 'POST', `/orgs/${org}/teams`, body);
  assert.is(r.status, 201, r.text);
  valid('Team', r.json);
  return r.json;
}

const addMember = async (teamId: number, u: TestUser) =>
  assert.is((await as(owner, 'PUT', `/teams/${teamId}/members/${u.name}`)).status, 204);

async function orgRepo(org: string, body: Record<string, unknown>) {
  const r = await as(admin, 'POST', `/admin/users/${org}/repos`, body);
  assert.is(r.status, 201, r.text);
  return r.json;
}

test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
  admin = await makeUser(db, srv.api, { admin: true });
  owner = await makeUser(db, srv.api);
  member = await makeUser(db, srv.api);
  teamMember = await makeUser(db, srv.api);
  outsider = await makeUser(db, srv.api);
  const org = await makeOrg(owner);
  ctx.org = org.name;
  ctx.orgId = org.id;
  ctx.ownersId = (await as(owner, 'GET', `/orgs/${org.name}/teams`)).json[0].id;
  ctx.teamId = (
    await makeTeam(org.name, { name: 'team', description: 'the readers', permission: 'read', units: ['repo.code', 'repo.issues'] })
  ).id;
  ctx.otherId = (await makeTeam(org.name, { name: 'other', permission: 'write', units: ['repo.code'] })).id;
  await addMember(ctx.teamId, teamMember);
  await addMember(ctx.otherId, member);
});

test.after(async () => {
  await srv.close();
  await db.close();
});

test('POST {O}/teams: a unit team answers 201 with its organization, mode, units and units_map', async () => {
  const t = await makeTeam(ctx.org, {
    name: uniq('t'),
    description: 'd',
    permission: 'write',
    units: ['repo.code', 'repo.pulls', 'repo.nonsense'],
    can_create_org_repo: true,
  });
  assert.is(t.permission, 'write');
  assert.equal(t.units, ['repo.code', 'repo.pulls']);
  assert.equal(t.units_map, { 'repo.code': 'write', 'repo.pulls': 'write' });
  assert.is(t.organization.name, ctx.org);
  assert.is(t.organization.id, ctx.orgId);
  assert.is(t.can_create_org_repo, true);
  assert.is(t.includes_all_repositories, false);
});

test('POST {O}/teams: units_map sets the unit modes and the team mode is the smallest of them', async () => {
  const t = await makeTeam(ctx.org, {
    name: uniq('t'),
    permission: 'admin',
    units_map: { 'repo.code': 'write', 'repo.issues': 'read', 'repo.wiki': 'none' },
  });
  assert.is(t.permission, 'admin', 'admin is kept: units_map only lowers modes below admin');
  const m = await makeTeam(ctx.org, {
    name: uniq('t'),
    permission: 'read',
    units_map: { 'repo.code': 'write', 'repo.issues': 'write', 'repo.wiki': 'none' },
  });
  assert.is(m.permission, 'write');
  assert.equal(m.units_map, { 'repo.code': 'write', 'repo.issues': 'write', 'repo.wiki': 'none' });
  const a = await makeTeam(ctx.org, { name: uniq('t'), permission: 'admin' });
  assert.is(a.units.length, 10);
  assert.ok(Object.values(a.units_map).every((v) => v === 'admin'));
});

test('POST {O}/teams: duplicate (any case), reserved, invalid or unit-less teams are 422 and nothing is created', async () => {
  const before = (await as(owner, 'GET', `/orgs/${ctx.org}/teams?limit=50`)).json.length;
  const dup = await as(owner, 'POST', `/orgs/${ctx.org}/teams`, { name: 'TEAM', permission: 'read', units: ['repo.code'] });
  assert.is(dup.status, 422);
  assert.is(dup.json.message, `team already exists [org_id: ${ctx.orgId}, name: team]`);
  const reserved = await as(owner, 'POST', `/orgs/${ctx.org}/teams`, { name: 'new', permission: 'read', units: ['repo.code'] });
  assert.is(reserved.status, 422);
  assert.is(reserved.json.message, 'name is reserved [name: new]');
  const bad = await as(owner, 'POST', `/orgs/${ctx.org}/teams`, { name: 'a b', permission: 'read', units: ['repo.code'] });
  assert.is(bad.status, 422);
  assert.is(bad.json.message, '[Name]: AlphaDashDot');
  const noUnits = await as(owner, 'POST', `/orgs/${ctx.org}/teams`, { name: uniq('t'), permission: 'read' });
  assert.is(noUnits.status, 422);
  assert.is(noUnits.json.message, 'units permission should not be empty');
  const owners = await as(owner, 'POST', `/orgs/${ctx.org}/teams`, { name: 'x', permission: 'owner', units: ['repo.code'] });
  assert.is(owners.status, 422);
  assert.is((await as(owner, 'GET', `/orgs/${ctx.org}/teams?limit=50`)).json.length, before);
});

test('GET {O}/teams: every team, organization null, sorted by name, paginated', async () => {
  const r = await as(member, 'GET', `/orgs/${ctx.org}/teams?limit=2`);
  assert.is(r.status, 200);
  validList('Team', r);
  assert.ok(r.json.every((t: { organization: unknown }) => t.organization === null));
  const total = Number(r.headers.get('x-total-count'));
  assert.ok(total >= 3);
  assert.match(r.headers.get('link') ?? '', /rel="next"/);
  const all = (await as(member, 'GET', `/orgs/${ctx.org}/teams?limit=50`)).json;
  const n = names(all) as string[];
  assert.equal(
    n,
    [...n].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
  );
  const owners = all.find((t: { name: string }) => t.name === 'Owners');
  assert.is(owners.permission, 'owner');
  assert.is(owners.includes_all_repositories, true);
  assert.is(owners.units.length, 10);
  assert.ok(Object.values(owners.units_map).every((v) => v === 'owner'));
});

test('GET {O}/teams/search: {ok, data}; members search their own teams, site admins every team', async () => {
  const r = await as(owner, 'GET', `/orgs/${ctx.org}/teams/search?q=team`);
  assert.is(r.status, 200);
  assert.is(r.json.ok, true);
  for (const t of r.json.data) valid('Team', t);
  assert.equal(names(r.json.data), [], 'the owner is in no team named like "team"');
  const mine = await as(teamMember, 'GET', `/orgs/${ctx.org}/teams/search?q=TEA`);
  assert.equal(names(mine.json.data), ['team']);
  assert.is(mine.json.data[0].organization, null);
  assert.is(mine.headers.get('x-total-count'), '1');
  const byAdmin = await as(admin, 'GET', `/orgs/${ctx.org}/teams/search?q=readers`);
  assert.equal(names(byAdmin.json.data), ['team']);
  const noDesc = await as(admin, 'GET', `/orgs/${ctx.org}/teams/search?q=readers&include_desc=false`);
  assert.equal(noDesc.json.data, []);
  assert.is((await as(outsider, 'GET', `/orgs/${ctx.org}/teams/search`)).status, 403);
});

test("GET /teams/{teamid} fills organization; /user/teams lists the caller's teams with theirs", async () => {
  const r = await as(teamMember, 'GET', `/teams/${ctx.teamId}`);
  assert.is(r.status, 200);
  valid('Team', r.json);
  assert.is(r.json.name, 'team');
  assert.is(r.json.description, 'the readers');
  assert.is(r.json.organization.name, ctx.org);
  assert.equal(r.json.units_map, { 'repo.code': 'read', 'repo.issues': 'read' });
  const mine = await as(teamMember, 'GET', '/user/teams');
  assert.is(mine.status, 200);
  validList('Team', mine);
  assert.equal(names(mine.json), ['team']);
  assert.is(mine.json[0].organization.name, ctx.org);
  assert.is((await as(admin, 'GET', '/teams/999999')).status, 404);
});

test('PATCH /teams/{teamid}: edits the team, answers with organization null; duplicates 422', async () => {
  const t = await makeTeam(ctx.org, { name: uniq('edit'), permission: 'read', units: ['repo.code'] });
  const name = uniq('renamed');
  const r = await as(owner, 'PATCH', `/teams/${t.id}`, {
    name,
    description: 'changed',
    permission: 'write',
    units_map: { 'repo.code': 'write', 'repo.issues': 'read' },
    includes_all_repositories: true,
  });
  assert.is(r.status, 200, r.text);
  valid('Team', r.json);
  assert.is(r.json.organization, null);
  assert.is(r.json.name, name);
  assert.is(r.json.description, 'changed');
  assert.is(r.json.permission, 'read', 'units_map lowers the mode to its smallest unit mode');
  assert.equal(r.json.units_map, { 'repo.code': 'write', 'repo.issues': 'read' });
  assert.is(r.json.includes_all_repositories, true);
  const keep = await as(owner, 'PATCH', `/teams/${t.id}`, { description: 'only this' });
  assert.is(keep.json.name, name);
  assert.is(keep.json.permission, 'read');
  const dup = await as(owner, 'PATCH', `/teams/${t.id}`, { name: 'Other' });
  assert.is(dup.status, 422);
  assert.is(dup.json.message, `team already exists [org_id: ${ctx.orgId}, name: other]`);
  assert.is((await as(owner, 'GET', `/teams/${t.id}`)).json.name, name);
  const owners = await as(owner, 'PATCH', `/teams/${ctx.ownersId}`, { name: 'Bosses' });
  assert.is(owners.status, 422);
  const ownersPerm = await as(owner, 'PATCH', `/teams/${ctx.ownersId}`, { permission: 'read', description: 'the owners' });
  assert.is(ownersPerm.json.permission, 'owner');
  assert.is(ownersPerm.json.description, 'the owners');
});

test('DELETE /teams/{teamid}: removes the team; members left without a team leave the org; Owners stays (422)', async () => {
  const t = await makeTeam(ctx.org, { name: uniq('gone'), permission: 'read', units: ['repo.code'] });
  const lone = await makeUser(db, srv.api);
  await addMember(t.id, lone);
  await addMember(t.id, member);
  assert.is((await as(owner, 'GET', `/orgs/${ctx.org}/members/${lone.name}`)).status, 204);
  assert.is((await as(owner, 'DELETE', `/teams/${t.id}`)).status, 204);
  assert.is((await as(owner, 'GET', `/teams/${t.id}`)).status, 404);
  assert.is((await as(owner, 'GET', `/orgs/${ctx.org}/members/${lone.name}`)).status, 404);
  assert.is((await as(owner, 'GET', `/orgs/${ctx.org}/members/${member.name}`)).status, 204, 'still in another team');
  const owners = await as(owner, 'DELETE', `/teams/${ctx.ownersId}`);
  assert.is(owners.status, 422);
  assert.is(owners.json.message, 'the Owners team cannot be deleted');
  assert.is((await as(owner, 'GET', `/teams/${ctx.ownersId}`)).status, 200);
});

test('team members: adding makes an org member; list, get, remove; the last owner cannot leave Owners', async () => {
  const t = await makeTeam(ctx.org, { name: uniq('m'), permission: 'read', units: ['repo.code'] });
  const newcomer = await makeUser(db, srv.api);
  assert.is((await as(owner, 'GET', `/orgs/${ctx.org}/members/${newcomer.name}`)).status, 404);
  await addMember(t.id, newcomer);
  await addMember(t.id, newcomer);
  assert.is((await as(owner, 'GET', `/orgs/${ctx.org}/members/${newcomer.name}`)).status, 204);
  const list = await as(owner, 'GET', `/teams/${t.id}/members`);
  assert.is(list.status, 200);
  validList('User', list);
  assert.equal(names(list.json), [newcomer.name]);
  assert.is(list.headers.get('x-total-count'), '1');
  const one = await as(owner, 'GET', `/teams/${t.id}/members/${newcomer.name}`);
  assert.is(one.status, 200);
  valid('User', one.json);
  assert.is(one.json.login, newcomer.name);
  assert.is((await as(owner, 'GET', `/teams/${t.id}/members/${member.name}`)).status, 404);
  assert.is((await as(owner, 'GET', `/teams/${t.id}/members/nosuchuser`)).status, 404);
  const orgAsMember = await as(owner, 'PUT', `/teams/${t.id}/members/${ctx.org}`);
  assert.is(orgAsMember.status, 422);
  assert.is((await as(owner, 'DELETE', `/teams/${t.id}/members/${newcomer.name}`)).status, 204);
  assert.equal((await as(owner, 'GET', `/teams/${t.id}/members`)).json, []);
  assert.is((await as(owner, 'GET', `/orgs/${ctx.org}/members/${newcomer.name}`)).status, 404);
  const last = await as(owner, 'DELETE', `/teams/${ctx.ownersId}/members/${owner.name}`);
  assert.is(last.status, 422);
  assert.is(last.json.message, `user is the last member of owner team [uid: ${owner.id}]`);
  assert.equal(names((await as(owner, 'GET', `/teams/${ctx.ownersId}/members`)).json), [owner.name]);
});

test('spec, TM: team member, org owner and site admin pass; org member 403; outsider 404', async () => {
  const path = `/teams/${ctx.teamId}`;
  const cases: [TestUser, number][] = [
    [owner, 200],
    [teamMember, 200],
    [admin, 200],
    [member, 403],
    [outsider, 404],
  ];
  for (const [u, want] of cases) {
    const r = await as(u, 'GET', path);
    assert.is(r.status, want, u.name);
    if (want === 403) assert.is(r.json.message, 'Must be a team member');
    const m = await as(u, 'GET', `${path}/members`);
    assert.is(m.status, want, `members ${u.name}`);
  }
  assert.is((await as(undefined, 'GET', path)).status, 401);
});

test('spec, ONA on team paths: non-owners get 404 (after TM); owners and site admins pass; nothing changes', async () => {
  const path = `/teams/${ctx.teamId}`;
  const cases: [TestUser, number][] = [
    [teamMember, 404],
    [member, 403],
    [outsider, 404],
  ];
  for (const [u, want] of cases) {
    assert.is((await as(u, 'PATCH', path, { description: 'hacked' })).status, want, `PATCH ${u.name}`);
    assert.is((await as(u, 'DELETE', path)).status, want, `DELETE ${u.name}`);
    assert.is((await as(u, 'PUT', `${path}/members/${outsider.name}`)).status, want, `PUT member ${u.name}`);
    assert.is((await as(u, 'DELETE', `${path}/members/${teamMember.name}`)).status, want, `DELETE member ${u.name}`);
  }
  const t = await as(owner, 'GET', path);
  assert.is(t.json.description, 'the readers');
  assert.equal(names((await as(owner, 'GET', `${path}/members`)).json), [teamMember.name]);
  assert.is((await as(admin, 'PATCH', path, { description: 'the readers' })).status, 200);
  assert.is((await as(owner, 'PATCH', path, { description: 'the readers' })).status, 200);
});

test('spec, OM and ONA on organization paths: non-members 403 (member), members 403 (owner)', async () => {
  const list = `/orgs/${ctx.org}/teams`;
  for (const [u, want] of [
    [owner, 200],
    [member, 200],
    [teamMember, 200],
    [admin, 200],
    [outsider, 403],
  ] as const) {
    const r = await as(u, 'GET', list);
    assert.is(r.status, want, u.name);
    if (want === 403) assert.is(r.json.message, 'Must be an organization member');
  }
  const body = { name: 'intruders', permission: 'admin' };
  const nonMember = await as(outsider, 'POST', list, body);
  assert.is(nonMember.status, 403);
  assert.is(nonMember.json.message, 'Must be an organization member');
  const nonOwner = await as(member, 'POST', list, body);
  assert.is(nonOwner.status, 403);
  assert.is(nonOwner.json.message, 'Must be an organization owner');
  assert.not.ok(names((await as(owner, 'GET', `${list}?limit=50`)).json).includes('intruders'));
  assert.is((await as(admin, 'POST', list, { name: uniq('byadmin'), permission: 'read', units: ['repo.code'] })).status, 201);
  const edit = await as(teamMember, 'PATCH', `/orgs/${ctx.org}`, { description: 'x' });
  assert.is(edit.status, 403);
  assert.is(edit.json.message, 'Must be an organization owner');
  assert.is((await as(outsider, 'DELETE', `/orgs/${ctx.org}`)).status, 403);
  assert.is((await as(owner, 'GET', `/orgs/${ctx.org}`)).status, 200);
});

test('team repositories: owners add and remove; repo admin needed (403); listing and lookup', async () => {
  const t = await makeTeam(ctx.org, { name: uniq('repos'), permission: 'read', units: ['repo.code'] });
  await addMember(t.id, teamMember);
  const repo = await orgRepo(ctx.org, { name: uniq('r') });
  const path = `/teams/${t.id}/repos/${ctx.org}/${repo.name}`;
  assert.is((await as(owner, 'GET', path)).status, 404);
  const denied = await as(teamMember, 'PUT', path);
  assert.is(denied.status, 403);
  assert.is(denied.json.message, 'Must have admin-level access to the repository');
  assert.equal((await as(owner, 'GET', `/teams/${t.id}/repos`)).json, []);
  assert.is((await as(owner, 'PUT', path)).status, 204);
  assert.is((await as(owner, 'PUT', path)).status, 204);
  const one = await as(teamMember, 'GET', path);
  assert.is(one.status, 200);
  valid('Repository', one.json);
  assert.is(one.json.full_name, `${ctx.org}/${repo.name}`);
  assert.equal(one.json.permissions, { admin: false, push: false, pull: true });
  const list = await as(teamMember, 'GET', `/teams/${t.id}/repos`);
  validList('Repository', list);
  assert.equal(names(list.json), [repo.name]);
  assert.is(list.headers.get('x-total-count'), '1');
  assert.is((await as(owner, 'PUT', `/teams/${t.id}/repos/${uniq('elsewhere')}/${repo.name}`)).status, 404);
  assert.is((await as(owner, 'PUT', `/teams/${t.id}/repos/${ctx.org}/nosuchrepo`)).status, 404);
  assert.is((await as(teamMember, 'DELETE', path)).status, 403);
  assert.is((await as(teamMember, 'GET', path)).status, 200);
  assert.is((await as(owner, 'DELETE', path)).status, 204);
  assert.is((await as(owner, 'GET', path)).status, 404);
  // The Owners team includes every repository; removing one from it is ignored, as in Forgejo.
  assert.is((await as(owner, 'GET', `/teams/${ctx.ownersId}/repos/${ctx.org}/${repo.name}`)).status, 200);
  assert.is((await as(owner, 'DELETE', `/teams/${ctx.ownersId}/repos/${ctx.org}/${repo.name}`)).status, 204);
  assert.ok(names((await as(owner, 'GET', `/teams/${ctx.ownersId}/repos?limit=50`)).json).includes(repo.name));
});

test('access follows membership: a private org repository is 404 to outsiders, read for a read team, admin for an admin team', async () => {
  const repo = await orgRepo(ctx.org, { name: uniq('secret'), private: true, auto_init: true });
  const r = `/repos/${ctx.org}/${repo.name}`;
  const reader = await makeUser(db, srv.api);
  const boss = await makeUser(db, srv.api);
  const readers = await makeTeam(ctx.org, { name: uniq('rd'), permission: 'read', units: ['repo.code', 'repo.issues'] });
  const admins = await makeTeam(ctx.org, { name: uniq('ad'), permission: 'admin' });
  await addMember(readers.id, reader);
  await addMember(admins.id, boss);

  assert.is((await as(outsider, 'GET', r)).status, 404);
  assert.is((await as(reader, 'GET', r)).status, 404, 'an org member without the repository in a team');
  assert.is((await as(owner, 'PUT', `/teams/${readers.id}/repos/${ctx.org}/${repo.name}`)).status, 204);
  assert.is((await as(owner, 'PUT', `/teams/${admins.id}/repos/${ctx.org}/${repo.name}`)).status, 204);

  const read = await as(reader, 'GET', r);
  assert.is(read.status, 200);
  valid('Repository', read.json);
  assert.equal(read.json.permissions, { admin: false, push: false, pull: true });
  const edit = await as(reader, 'PATCH', r, { description: 'by reader' });
  assert.is(edit.status, 403);
  assert.is(edit.json.message, 'user should be an owner or a collaborator with admin write of a repository');
  const bossEdit = await as(boss, 'PATCH', r, { description: 'by admin team' });
  assert.is(bossEdit.status, 200, bossEdit.text);
  assert.is(bossEdit.json.description, 'by admin team');
  assert.equal(bossEdit.json.permissions, { admin: true, push: true, pull: true });
  assert.is((await as(outsider, 'GET', r)).status, 404);

  // A public-only token of a team member does not reach the private repository.
  const publicOnly = await makeToken(srv.api, reader, ['public-only', 'read:repository', 'read:organization']);
  assert.is(checked(await call(srv.api, 'GET', r, { token: publicOnly })).status, 404);
  assert.equal((await call(srv.api, 'GET', `/teams/${readers.id}/repos`, { token: publicOnly })).json, []);

  assert.is((await as(owner, 'DELETE', `/teams/${readers.id}/members/${reader.name}`)).status, 204);
  assert.is((await as(reader, 'GET', r)).status, 404);
  assert.is((await as(owner, 'DELETE', `/teams/${admins.id}/repos/${ctx.org}/${repo.name}`)).status, 204);
  assert.is((await as(boss, 'PATCH', r, { description: 'again' })).status, 404);
});

test('a team that includes all repositories reaches repositories created later', async () => {
  const all = await makeTeam(ctx.org, { name: uniq('all'), permission: 'read', units: ['repo.code'], includes_all_repositories: true });
  const watcher = await makeUser(db, srv.api);
  await addMember(all.id, watcher);
  const repo = await orgRepo(ctx.org, { name: uniq('later'), private: true });
  assert.is((await as(watcher, 'GET', `/repos/${ctx.org}/${repo.name}`)).status, 200);
  assert.ok(names((await as(watcher, 'GET', `/teams/${all.id}/repos?limit=50`)).json).includes(repo.name));
  // Turning the flag off keeps the repositories the team had, as in Forgejo.
  const off = await as(owner, 'PATCH', `/teams/${all.id}`, { permission: 'read', includes_all_repositories: false });
  assert.is(off.json.includes_all_repositories, false);
  assert.is((await as(watcher, 'GET', `/repos/${ctx.org}/${repo.name}`)).status, 200);
  const after = await orgRepo(ctx.org, { name: uniq('after'), private: true });
  assert.is((await as(watcher, 'GET', `/repos/${ctx.org}/${after.name}`)).status, 404);
});

test('/teams/{teamid}/activities/feeds of a team without activity: an empty list', async () => {
  const r = await as(teamMember, 'GET', `/teams/${ctx.teamId}/activities/feeds`);
  assert.is(r.status, 200);
  assert.equal(r.json, []);
  assert.is(r.headers.get('x-total-count'), '0');
});

test.run();
