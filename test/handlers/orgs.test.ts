// Organizations over HTTP: create, list, read, edit, delete, rename, members, public members, labels,
// avatars, blocks, feeds — on a real server and database, every JSON answer checked against its schema.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ApiSchemaName } from '../../model/schemas/index.ts';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call, type Call, type Res } from '../helpers/client.ts';
import { makeToken, makeUser, uniq, type TestUser } from '../helpers/fixtures.ts';
import { valid, validList } from '../helpers/schema.ts';

let db: TestDb;
let srv: TestServer;
let admin: TestUser;
let owner: TestUser;
let member: TestUser;
let outsider: TestUser;

const api = async (method: string, p: string, o: Call = {}) => checked(await call(srv.api, method, p, o));
const as = (u: TestUser | undefined, method: string, p: string, body?: unknown) => api(method, p, { token: u?.token, body });

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
const names = (res: Res) => (res.json as { name?: string; login?: string }[]).map((x) => x.name ?? x.login);

async function makeOrg(u: TestUser, extra: Record<string, unknown> = {}) {
  const r = await as(u, 'POST', '/orgs', { username: uniq('org'), ...extra });
  assert.is(r.status, 201, r.text);
  valid('Organization', r.json);
  return r.json as { id: number; name: string };
}

async function teamsOf(org: string, u: TestUser = owner) {
  const r = await as(u, 'GET', `/orgs/${org}/teams`);
  assert.is(r.status, 200, r.text);
  return r.json as { id: number; name: string }[];
}

/** An organization with `member` in a read team next to the Owners team. */
async function orgWithMember(extra: Record<string, unknown> = {}) {
  const org = await makeOrg(owner, extra);
  const t = await as(owner, 'POST', `/orgs/${org.name}/teams`, { name: 'readers', permission: 'read', units: ['repo.code'] });
  assert.is(t.status, 201, t.text);
  assert.is((await as(owner, 'PUT', `/teams/${t.json.id}/members/${member.name}`)).status, 204);
  return { ...org, teamId: t.json.id as number };
}

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
  outsider = await makeUser(db, srv.api);
});

test.after(async () => {
  await srv.close();
  await db.close();
});

test('POST /orgs creates the organization with its Owners team, the creator its only owner', async () => {
  const org = await makeOrg(owner, { full_name: 'Full', description: 'd', website: 'https://example.com', visibility: 'limited' });
  const got = await as(owner, 'GET', `/orgs/${org.name}`);
  assert.is(got.status, 200);
  valid('Organization', got.json);
  assert.is(got.json.full_name, 'Full');
  assert.is(got.json.visibility, 'limited');
  assert.is(got.json.username, org.name);
  const teams = await teamsOf(org.name);
  assert.equal(
    teams.map((t) => t.name),
    ['Owners'],
  );
  const members = await as(owner, 'GET', `/teams/${teams[0].id}/members`);
  assert.equal(names(members), [owner.name]);
});

test('POST /orgs: taken (case-insensitive), reserved and invalid names answer 422 and create nothing', async () => {
  const org = await makeOrg(owner);
  const dup = await as(owner, 'POST', '/orgs', { username: org.name.toUpperCase() });
  assert.is(dup.status, 422);
  assert.is(dup.json.message, `user already exists [name: ${org.name.toUpperCase()}]`);
  const taken = await as(owner, 'POST', '/orgs', { username: member.name });
  assert.is(taken.status, 422);
  const reserved = await as(owner, 'POST', '/orgs', { username: 'api' });
  assert.is(reserved.status, 422);
  assert.is(reserved.json.message, 'name is reserved [name: api]');
  const bad = await as(owner, 'POST', '/orgs', { username: 'a b' });
  assert.is(bad.status, 422);
  assert.is((await as(admin, 'GET', '/orgs/api')).status, 404);
  const all = await as(admin, 'GET', '/orgs?limit=50');
  assert.not.ok(names(all).some((n) => n?.toLowerCase() === 'api'));
});

test('POST /orgs: a user not allowed to create organizations gets 403', async () => {
  const u = await makeUser(db, srv.api);
  assert.is(
    (await as(admin, 'PATCH', `/admin/users/${u.name}`, { login_name: u.name, source_id: 0, allow_create_organization: false })).status,
    200,
  );
  const name = uniq('org');
  const r = await as(u, 'POST', '/orgs', { username: name });
  assert.is(r.status, 403);
  assert.is((await as(admin, 'GET', `/orgs/${name}`)).status, 404);
  assert.is((await as(admin, 'POST', '/orgs', { username: name })).status, 201);
});

test('GET /orgs lists by visibility: anonymous public, signed-in also limited, site admin also private; paginated', async () => {
  const pub = await makeOrg(owner);
  const lim = await makeOrg(owner, { visibility: 'limited' });
  const priv = await makeOrg(owner, { visibility: 'private' });
  const all = async (u?: TestUser, token?: string) => {
    const r = await api('GET', '/orgs?limit=50', { token: token ?? u?.token });
    assert.is(r.status, 200);
    validList('Organization', r);
    return names(r);
  };
  const anon = await all();
  assert.ok(anon.includes(pub.name));
  assert.not.ok(anon.includes(lim.name));
  const signed = await all(outsider);
  assert.ok(signed.includes(lim.name));
  assert.not.ok(signed.includes(priv.name));
  assert.not.ok((await all(owner)).includes(priv.name), 'private orgs are not listed, even to their members');
  assert.ok((await all(admin)).includes(priv.name));
  const publicOnly = await makeToken(srv.api, outsider, ['public-only', 'read:organization']);
  assert.not.ok((await all(undefined, publicOnly)).includes(lim.name));
  const sorted = [...signed].sort((a, b) => a!.toLowerCase().localeCompare(b!.toLowerCase()));
  assert.equal(signed, sorted);

  const total = Number((await api('GET', '/orgs', { token: admin.token })).headers.get('x-total-count'));
  const page = await api('GET', '/orgs?limit=1&page=2', { token: admin.token });
  assert.is(page.json.length, 1);
  assert.is(page.headers.get('x-total-count'), String(total));
  const link = page.headers.get('link') ?? '';
  assert.match(link, /rel="next"/);
  assert.match(link, /rel="prev"/);
  assert.match(link, /limit=1&page=3/);
});

test('GET {O}: the e-mail is hidden from anonymous callers; a private organization is 404 to outsiders', async () => {
  const org = await makeOrg(owner, { email: 'org@example.com' });
  assert.is((await api('GET', `/orgs/${org.name}`)).json.email, '');
  assert.is((await as(outsider, 'GET', `/orgs/${org.name}`)).json.email, 'org@example.com');
  const priv = await orgWithMember({ visibility: 'private' });
  assert.is((await as(outsider, 'GET', `/orgs/${priv.name}`)).status, 404);
  assert.is((await api('GET', `/orgs/${priv.name}`)).status, 404);
  assert.is((await as(member, 'GET', `/orgs/${priv.name}`)).status, 200);
  assert.is((await as(admin, 'GET', `/orgs/${priv.name}`)).status, 200);
  const lim = await makeOrg(owner, { visibility: 'limited' });
  assert.is((await api('GET', `/orgs/${lim.name}`)).status, 404);
  assert.is((await as(outsider, 'GET', `/orgs/${lim.name}`)).status, 200);
});

test('spec, token kinds: a public-only token gets 403 on a non-public organization', async () => {
  const lim = await makeOrg(owner, { visibility: 'limited' });
  const token = await makeToken(srv.api, owner, ['public-only', 'read:organization']);
  const r = await api('GET', `/orgs/${lim.name}`, { token });
  assert.is(r.status, 403);
  assert.is(r.json.message, 'token scope is limited to public orgs');
});

test('PATCH {O}: an owner edits the fields sent; others get 403 and nothing changes; bad input 422', async () => {
  const org = await orgWithMember({ full_name: 'Before', location: 'Here' });
  const r = await as(owner, 'PATCH', `/orgs/${org.name}`, {
    description: 'new',
    website: 'https://w.example',
    visibility: 'private',
    repo_admin_change_team_access: true,
  });
  assert.is(r.status, 200, r.text);
  valid('Organization', r.json);
  assert.is(r.json.description, 'new');
  assert.is(r.json.visibility, 'private');
  assert.is(r.json.repo_admin_change_team_access, true);
  assert.is(r.json.full_name, 'Before');
  assert.is(r.json.location, 'Here');
  const denied = await as(member, 'PATCH', `/orgs/${org.name}`, { description: 'hacked' });
  assert.is(denied.status, 403);
  assert.is(denied.json.message, 'Must be an organization owner');
  const bad = await as(owner, 'PATCH', `/orgs/${org.name}`, { website: 'not a url' });
  assert.is(bad.status, 422);
  assert.is(bad.json.message, '[Website]: Url');
  assert.is((await as(owner, 'GET', `/orgs/${org.name}`)).json.description, 'new');
});

test('POST {O}/rename: the old name redirects (307), repositories move with the organization', async () => {
  const org = await makeOrg(owner);
  await orgRepo(org.name, { name: 'code', auto_init: true });
  const newName = uniq('renamed');
  const r = await as(owner, 'POST', `/orgs/${org.name}/rename`, { new_name: newName });
  assert.is(r.status, 204, r.text);
  const old = await as(owner, 'GET', `/orgs/${org.name}?x=1`);
  assert.is(old.status, 307);
  assert.is(old.headers.get('location'), `/api/v1/orgs/${newName}?x=1`);
  const now = await as(owner, 'GET', `/orgs/${newName}`);
  assert.is(now.json.name, newName);
  assert.is(now.json.id, org.id);
  const repo = await as(owner, 'GET', `/repos/${newName}/code`);
  assert.is(repo.status, 200, repo.text);
  assert.is(repo.json.full_name, `${newName}/code`);
  assert.ok(fs.existsSync(path.join(srv.config.repoRoot, newName.toLowerCase(), 'code.git', 'HEAD')));
  assert.not.ok(fs.existsSync(path.join(srv.config.repoRoot, org.name.toLowerCase(), 'code.git')));
  const viaOld = await as(owner, 'GET', `/repos/${org.name}/code`);
  assert.is(viaOld.status, 307);
  // A case-only rename keeps the directory and leaves no redirect.
  const upper = newName.toUpperCase();
  assert.is((await as(owner, 'POST', `/orgs/${newName}/rename`, { new_name: upper })).status, 204);
  assert.is((await as(owner, 'GET', `/repos/${upper}/code`)).json.full_name, `${upper}/code`);
});

test('POST {O}/rename: taken, reserved and invalid names are 422; non-owners 403; nothing changes', async () => {
  const org = await orgWithMember();
  const other = await makeOrg(owner);
  for (const [name, msg] of [
    [other.name, `user already exists [name: ${other.name}]`],
    [member.name.toUpperCase(), `user already exists [name: ${member.name.toUpperCase()}]`],
    ['admin', 'name is reserved [name: admin]'],
    ['x y', null],
  ] as const) {
    const r = await as(owner, 'POST', `/orgs/${org.name}/rename`, { new_name: name });
    assert.is(r.status, 422, name);
    if (msg) assert.is(r.json.message, msg);
  }
  const denied = await as(member, 'POST', `/orgs/${org.name}/rename`, { new_name: uniq('nope') });
  assert.is(denied.status, 403);
  assert.is((await as(owner, 'GET', `/orgs/${org.name}`)).json.name, org.name);
});

test('DELETE {O}: refused with 422 while the organization owns repositories; then removes it and its teams', async () => {
  const org = await orgWithMember();
  await orgRepo(org.name, { name: 'keep' });
  const denied = await as(member, 'DELETE', `/orgs/${org.name}`);
  assert.is(denied.status, 403);
  const r = await as(owner, 'DELETE', `/orgs/${org.name}`);
  assert.is(r.status, 422);
  assert.is(r.json.message, `user still has ownership of repositories [uid: ${org.id}]`);
  assert.is((await as(owner, 'GET', `/orgs/${org.name}`)).status, 200);
  assert.is((await as(admin, 'DELETE', `/repos/${org.name}/keep`)).status, 204);
  assert.is((await as(owner, 'DELETE', `/orgs/${org.name}`)).status, 204);
  assert.is((await as(owner, 'GET', `/orgs/${org.name}`)).status, 404);
  assert.is((await as(admin, 'GET', `/teams/${org.teamId}`)).status, 404);
  // The name is free again.
  assert.is((await as(owner, 'POST', '/orgs', { username: org.name })).status, 201);
});

test('GET {O}/members: members see every member, others only public ones', async () => {
  const org = await orgWithMember();
  const all = await as(member, 'GET', `/orgs/${org.name}/members`);
  assert.is(all.status, 200);
  validList('User', all);
  assert.equal(names(all).sort(), [owner.name, member.name].sort());
  assert.is(all.headers.get('x-total-count'), '2');
  assert.equal(names(await as(outsider, 'GET', `/orgs/${org.name}/members`)), []);
  assert.equal(names(await as(admin, 'GET', `/orgs/${org.name}/members`)).length, 2);
  assert.is((await as(member, 'PUT', `/orgs/${org.name}/public_members/${member.name}`)).status, 204);
  assert.equal(names(await as(outsider, 'GET', `/orgs/${org.name}/members`)), [member.name]);
  const pub = await api('GET', `/orgs/${org.name}/public_members`);
  validList('User', pub);
  assert.equal(names(pub), [member.name]);
  assert.is((await api('GET', `/orgs/${org.name}/members`)).status, 401);
});

test('GET {O}/members/{username}: 204 or 404 for members, 303 to the public check for others', async () => {
  const org = await orgWithMember();
  assert.is((await as(owner, 'GET', `/orgs/${org.name}/members/${member.name}`)).status, 204);
  assert.is((await as(member, 'GET', `/orgs/${org.name}/members/${outsider.name}`)).status, 404);
  assert.is((await as(admin, 'GET', `/orgs/${org.name}/members/${member.name}`)).status, 204);
  const r = await as(outsider, 'GET', `/orgs/${org.name}/members/${member.name}`);
  assert.is(r.status, 303);
  assert.is(r.headers.get('location'), `/api/v1/orgs/${org.name}/public_members/${member.name}`);
  assert.is((await as(outsider, 'GET', `/orgs/${org.name}/members/${outsider.name}`)).status, 404);
  assert.is((await as(owner, 'GET', `/orgs/${org.name}/members/nosuchuser`)).status, 404);
});

test('public members: only oneself may publicize or conceal (403 otherwise), non-members 403', async () => {
  const org = await orgWithMember();
  const check = (u: string) => api('GET', `/orgs/${org.name}/public_members/${u}`);
  assert.is((await check(member.name)).status, 404);
  const other = await as(owner, 'PUT', `/orgs/${org.name}/public_members/${member.name}`);
  assert.is(other.status, 403);
  assert.is(other.json.message, 'Cannot publicize another member');
  const byAdmin = await as(admin, 'PUT', `/orgs/${org.name}/public_members/${member.name}`);
  assert.is(byAdmin.status, 403);
  assert.is((await check(member.name)).status, 404);
  const outside = await as(outsider, 'PUT', `/orgs/${org.name}/public_members/${outsider.name}`);
  assert.is(outside.status, 403);
  assert.is(outside.json.message, 'Must be an organization member');
  assert.is((await as(member, 'PUT', `/orgs/${org.name}/public_members/${member.name}`)).status, 204);
  assert.is((await check(member.name)).status, 204);
  const conceal = await as(owner, 'DELETE', `/orgs/${org.name}/public_members/${member.name}`);
  assert.is(conceal.status, 403);
  assert.is(conceal.json.message, 'Cannot conceal another member');
  assert.is((await check(member.name)).status, 204);
  assert.is((await as(member, 'DELETE', `/orgs/${org.name}/public_members/${member.name}`)).status, 204);
  assert.is((await check(member.name)).status, 404);
});

test('DELETE {O}/members/{username}: out of the organization and all its teams; the last owner stays', async () => {
  const org = await orgWithMember();
  const denied = await as(member, 'DELETE', `/orgs/${org.name}/members/${owner.name}`);
  assert.is(denied.status, 403);
  assert.is((await as(owner, 'DELETE', `/orgs/${org.name}/members/${member.name}`)).status, 204);
  assert.is((await as(owner, 'GET', `/orgs/${org.name}/members/${member.name}`)).status, 404);
  assert.equal(names(await as(owner, 'GET', `/teams/${org.teamId}/members`)), []);
  assert.is((await as(owner, 'DELETE', `/orgs/${org.name}/members/${outsider.name}`)).status, 204);
  const last = await as(owner, 'DELETE', `/orgs/${org.name}/members/${owner.name}`);
  assert.is(last.status, 422);
  assert.match(last.json.message, /^user is the last member of owner team/);
  assert.is((await as(owner, 'GET', `/orgs/${org.name}/members/${owner.name}`)).status, 204);
});

test('{O}/labels: create, list (sorted, paginated), get by id or name, edit, delete; owners only', async () => {
  const org = await orgWithMember();
  const base = `/orgs/${org.name}/labels`;
  const a = await as(owner, 'POST', base, { name: 'bug', color: '#EE0701', description: 'broken' });
  assert.is(a.status, 201, a.text);
  valid('Label', a.json);
  assert.is(a.json.color, 'EE0701');
  assert.is(a.json.exclusive, false);
  assert.is(a.json.is_archived, false);
  assert.is(a.json.url, `${srv.config.appUrl}api/v1/orgs/${org.name}/labels/${a.json.id}`);
  const b = await as(owner, 'POST', base, { name: 'area/ui', color: 'abc', exclusive: true });
  assert.is(b.json.color, 'aabbcc');
  assert.is(b.json.exclusive, true);
  const list = await api('GET', `${base}?limit=1`);
  assert.is(list.status, 200);
  validList('Label', list);
  assert.equal(names(list), ['area/ui']);
  assert.is(list.headers.get('x-total-count'), '2');
  assert.equal(names(await api('GET', `${base}?sort=reversealphabetically`)), ['bug', 'area/ui']);
  const byName = await as(outsider, 'GET', `${base}/bug`);
  assert.is(byName.json.id, a.json.id);
  valid('Label', byName.json);
  const e = await as(owner, 'PATCH', `${base}/${a.json.id}`, { color: '00aabb', is_archived: true });
  assert.is(e.status, 200);
  valid('Label', e.json);
  assert.is(e.json.color, '00aabb');
  assert.is(e.json.is_archived, true);
  assert.is(e.json.name, 'bug');
  const badColor = await as(owner, 'POST', base, { name: 'x', color: 'red' });
  assert.is(badColor.status, 422);
  const denied = await as(member, 'POST', base, { name: 'mine', color: '#000000' });
  assert.is(denied.status, 403);
  assert.is((await as(member, 'DELETE', `${base}/${a.json.id}`)).status, 403);
  assert.is((await api('GET', base)).json.length, 2);
  assert.is((await as(owner, 'DELETE', `${base}/${a.json.id}`)).status, 204);
  assert.is((await as(owner, 'GET', `${base}/${a.json.id}`)).status, 404);
  assert.is((await as(owner, 'PATCH', `${base}/${a.json.id}`, { name: 'gone' })).status, 404);
  // Another organization's label is not reachable here.
  const other = await makeOrg(owner);
  assert.is((await as(owner, 'GET', `/orgs/${other.name}/labels/${b.json.id}`)).status, 404);
});

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

test('{O}/avatar: upload sets avatar_url to the stored image, delete resets it; bad images rejected', async () => {
  const org = await orgWithMember();
  const before = (await api('GET', `/orgs/${org.name}`)).json.avatar_url;
  assert.is((await as(member, 'POST', `/orgs/${org.name}/avatar`, { image: PNG_1x1 })).status, 403);
  const r = await as(owner, 'POST', `/orgs/${org.name}/avatar`, { image: PNG_1x1 });
  assert.is(r.status, 204, r.text);
  const after = (await api('GET', `/orgs/${org.name}`)).json.avatar_url as string;
  const hash = after.split('/').pop()!;
  assert.match(hash, /^[0-9a-f]{64}$/);
  assert.is(after, `${srv.config.appUrl}avatars/${hash}`);
  assert.ok(fs.existsSync(path.join(srv.config.dataPath, 'avatars', hash)));
  const badB64 = await as(owner, 'POST', `/orgs/${org.name}/avatar`, { image: '***' });
  assert.is(badB64.status, 400);
  const notImage = await as(owner, 'POST', `/orgs/${org.name}/avatar`, { image: Buffer.from('hello world!').toString('base64') });
  assert.is(notImage.status, 422);
  assert.is((await api('GET', `/orgs/${org.name}`)).json.avatar_url, after);
  assert.is((await as(owner, 'DELETE', `/orgs/${org.name}/avatar`)).status, 204);
  assert.is((await api('GET', `/orgs/${org.name}`)).json.avatar_url, before);
  assert.not.ok(fs.existsSync(path.join(srv.config.dataPath, 'avatars', hash)));
});

test('{O}/block: owners block and unblock users; the list shows them; organizations cannot be blocked', async () => {
  const org = await orgWithMember();
  const victim = await makeUser(db, srv.api);
  assert.is((await as(member, 'PUT', `/orgs/${org.name}/block/${victim.name}`)).status, 403);
  assert.is((await as(owner, 'PUT', `/orgs/${org.name}/block/${victim.name}`)).status, 204);
  assert.is((await as(owner, 'PUT', `/orgs/${org.name}/block/${victim.name}`)).status, 204);
  const list = await as(owner, 'GET', `/orgs/${org.name}/list_blocked`);
  assert.is(list.status, 200);
  validList('BlockedUser', list);
  assert.equal(
    list.json.map((b: { block_id: number }) => b.block_id),
    [victim.id],
  );
  assert.is(list.headers.get('x-total-count'), '1');
  assert.is((await as(member, 'GET', `/orgs/${org.name}/list_blocked`)).status, 403);
  const other = await makeOrg(owner);
  const r = await as(owner, 'PUT', `/orgs/${org.name}/block/${other.name}`);
  assert.is(r.status, 422);
  assert.is(r.json.message, `${other.name} is an organization not a user`);
  assert.is((await as(owner, 'PUT', `/orgs/${org.name}/block/nosuchuser`)).status, 404);
  assert.is((await as(owner, 'PUT', `/orgs/${org.name}/unblock/${victim.name}`)).status, 204);
  assert.equal((await as(owner, 'GET', `/orgs/${org.name}/list_blocked`)).json, []);
});

test('{O}/activities/feeds of an organization without activity: an empty list', async () => {
  const org = await makeOrg(owner);
  const r = await api('GET', `/orgs/${org.name}/activities/feeds`);
  assert.is(r.status, 200);
  assert.equal(r.json, []);
  assert.is(r.headers.get('x-total-count'), '0');
});

test.run();
