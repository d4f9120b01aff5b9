// Site administration of users over HTTP: list, create, edit, delete (with and without purge),
// rename with redirects and moved git directories, e-mail addresses, organizations and tokens.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call, type Call } from '../helpers/client.ts';
import { makeRepo, makeUser, uniq, type TestUser } from '../helpers/fixtures.ts';
import { EmailAddress, User, UserRedirect } from '../../model/user.ts';
import { Repository } from '../../model/repo.ts';
import { Follow } from '../../model/social.ts';
import { valid, validOkList } from '../helpers/schema.ts';

let db: TestDb;
let srv: TestServer;
let admin: TestUser;
let alice: TestUser;

const api = (method: string, p: string, o: Call = {}) => call(srv.api, method, p, o);
const as = (u: TestUser | undefined, method: string, p: string, body?: unknown) => api(method, p, { token: u?.token, body });
const em = () => db.db.orm.em.fork();

const gitDir = (owner: string, repo: string) => path.join(srv.config.repoRoot, owner.toLowerCase(), `${repo.toLowerCase()}.git`);

test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
  admin = await makeUser(db, srv.api, { admin: true });
  alice = await makeUser(db, srv.api);
});
test.after(async () => {
  await srv.close();
  await db.close();
});

test('GET /admin/users: User list with all fields, paging headers and sort; non-admins 403', async () => {
  const r = await as(admin, 'GET', '/admin/users?limit=1&sort=newest');
  validOkList('User', r);
  assert.is(r.json.length, 1);
  assert.ok(Number(r.headers.get('x-total-count')) >= 2);
  assert.ok(r.headers.get('link')?.includes('rel="next"'));
  const all = await as(admin, 'GET', '/admin/users?limit=50');
  const me = all.json.find((u: { login: string }) => u.login === alice.name);
  assert.is(me.email, `${alice.name}@example.com`);
  assert.is(me.active, true);
  assert.is((await as(alice, 'GET', '/admin/users')).status, 403);
});

test('POST /admin/users: 201; duplicate (any case), reserved, invalid names and e-mails 422; short password 400; nothing half-made', async () => {
  const name = uniq('made');
  const r = await as(admin, 'POST', '/admin/users', {
    username: name,
    email: `${name}@example.com`,
    password: 'long-enough-1',
    must_change_password: false,
  });
  assert.is(r.status, 201, r.text);
  valid('User', r.json);
  assert.is(r.json.login, name);
  const before = await em().count(User, {});
  const cases: [Record<string, unknown>, number][] = [
    [{ username: name.toUpperCase(), email: `${uniq('x')}@example.com`, password: 'long-enough-1' }, 422],
    [{ username: 'admin', email: `${uniq('x')}@example.com`, password: 'long-enough-1' }, 422],
    [{ username: 'api', email: `${uniq('x')}@example.com`, password: 'long-enough-1' }, 422],
    [{ username: 'bad..name', email: `${uniq('x')}@example.com`, password: 'long-enough-1' }, 422],
    [{ username: 'has space', email: `${uniq('x')}@example.com`, password: 'long-enough-1' }, 422],
    [{ username: uniq('ok'), email: 'no-at-sign', password: 'long-enough-1' }, 422],
    [{ username: uniq('ok'), email: `${name.toUpperCase()}@EXAMPLE.COM`, password: 'long-enough-1' }, 422],
    [{ username: uniq('ok'), email: `${uniq('x')}@example.com`, password: 'short' }, 400],
  ];
  for (const [body, status] of cases) {
    const res = await as(admin, 'POST', '/admin/users', body);
    assert.is(res.status, status, `${JSON.stringify(body)}: ${res.text}`);
  }
  assert.is(await em().count(User, {}), before);
  const dup = await as(admin, 'POST', '/admin/users', {
    username: name.toUpperCase(),
    email: `${uniq('x')}@example.com`,
    password: 'long-enough-1',
  });
  assert.is(dup.json.message, `user already exists [name: ${name.toUpperCase()}]`);
});

test('PATCH /admin/users/{u}: fields change; used e-mail 400; source_id without login_name 422; short password 400; last admin kept', async () => {
  const u = await makeUser(db, srv.api);
  const r = await as(admin, 'PATCH', `/admin/users/${u.name}`, {
    full_name: 'Full',
    location: 'Here',
    restricted: true,
    visibility: 'limited',
    email: `${u.name}-new@example.com`,
  });
  assert.is(r.status, 200, r.text);
  valid('User', r.json);
  assert.is(r.json.full_name, 'Full');
  assert.is(r.json.restricted, true);
  assert.is(r.json.visibility, 'limited');
  assert.is(r.json.email, `${u.name}-new@example.com`);
  const emails = await as(admin, 'GET', `/admin/users/${u.name}/emails`);
  validOkList('Email', emails);
  assert.equal(
    emails.json.map((e: { email: string; primary: boolean; user_id: number; username: string }) => [
      e.email,
      e.primary,
      e.user_id,
      e.username,
    ]),
    [
      [`${u.name}@example.com`, false, u.id, u.name],
      [`${u.name}-new@example.com`, true, u.id, u.name],
    ],
  );
  const used = await as(admin, 'PATCH', `/admin/users/${u.name}`, { email: `${alice.name}@example.com` });
  assert.is(used.status, 400);
  assert.is((await as(admin, 'PATCH', `/admin/users/${u.name}`, { source_id: 0 })).status, 422);
  assert.is((await as(admin, 'PATCH', `/admin/users/${u.name}`, { password: 'short' })).status, 400);
  assert.is((await as(admin, 'PATCH', `/admin/users/${u.name}`, { website: 'nope' })).status, 422);
  const after = await em().findOneOrFail(User, { id: u.id });
  assert.is(after.email, `${u.name}-new@example.com`);
  assert.is(after.website, '');
  // The only site admin cannot lose the flag (this instance's first admin may not be alone: make sure).
  const admins = await em().count(User, { isAdmin: true });
  if (admins === 1) assert.is((await as(admin, 'PATCH', `/admin/users/${admin.name}`, { admin: false })).status, 400);
});

test('DELETE /admin/users/{u}: refused while owning repositories or in organizations; purge removes everything', async () => {
  const u = await makeUser(db, srv.api);
  const repo = await makeRepo(srv.api, u, { name: uniq('r'), auto_init: true });
  assert.is((await as(u, 'PUT', `/user/following/${alice.name}`)).status, 204);
  const refused = await as(admin, 'DELETE', `/admin/users/${u.name}`);
  assert.is(refused.status, 422);
  assert.is(refused.json.message, `user still has ownership of repositories [uid: ${u.id}]`);
  assert.is(await em().count(User, { id: u.id }), 1);
  assert.ok(fs.existsSync(gitDir(u.name, repo.name)));
  assert.is((await as(admin, 'DELETE', `/admin/users/${admin.name}`)).status, 422);
  assert.is((await as(admin, 'DELETE', `/admin/users/${u.name}?purge=true`)).status, 204);
  assert.is(await em().count(User, { id: u.id }), 0);
  assert.is(await em().count(Repository, { id: repo.id }), 0);
  assert.is(await em().count(EmailAddress, { uid: u.id }), 0);
  assert.is(await em().count(Follow, { userId: u.id }), 0);
  assert.not.ok(fs.existsSync(gitDir(u.name, repo.name)));
  assert.is((await as(admin, 'GET', `/users/${alice.name}`)).json.followers_count, 0);
  const m = await makeUser(db, srv.api);
  const org = await as(m, 'POST', '/orgs', { username: uniq('o') });
  const inOrg = await as(admin, 'DELETE', `/admin/users/${m.name}`);
  assert.is(inOrg.status, 422);
  assert.is(inOrg.json.message, `user still has membership of organizations [uid: ${m.id}]`);
  const lastOwner = await as(admin, 'DELETE', `/admin/users/${m.name}?purge=true`);
  assert.is(lastOwner.status, 422);
  const notUser = await as(admin, 'DELETE', `/admin/users/${org.json.name}`);
  assert.is(notUser.status, 422);
  assert.is((await as(admin, 'DELETE', '/admin/users/nobody-at-all')).status, 404);
});

test('POST /admin/users/{u}/rename: 204, repositories and git directories move, the old name redirects (307)', async () => {
  const u = await makeUser(db, srv.api);
  const repo = await makeRepo(srv.api, u, { name: uniq('mv'), auto_init: true });
  const oldName = u.name;
  const newName = uniq('renamed');
  const r = await as(admin, 'POST', `/admin/users/${oldName}/rename`, { new_username: newName });
  assert.is(r.status, 204, r.text);
  assert.not.ok(fs.existsSync(gitDir(oldName, repo.name)));
  assert.ok(fs.existsSync(gitDir(newName, repo.name)));
  const row = await em().findOneOrFail(Repository, { id: repo.id });
  assert.is(row.ownerName, newName);
  assert.is(await em().count(UserRedirect, { lowerName: oldName.toLowerCase() }), 1);
  const profile = await api('GET', `/users/${oldName}?x=1`);
  assert.is(profile.status, 307);
  assert.is(profile.headers.get('location'), `/api/v1/users/${newName}?x=1`);
  const repoRes = await api('GET', `/repos/${oldName}/${repo.name}`);
  assert.is(repoRes.status, 307);
  assert.is(repoRes.headers.get('location'), `/api/v1/repos/${newName}/${repo.name}`);
  const moved = await api('GET', `/repos/${newName}/${repo.name}`);
  assert.is(moved.status, 200);
  assert.is(moved.json.owner.login, newName);
  assert.is((await api('GET', `/users/${oldName}`, { redirect: 'follow' })).json.login, newName);
  // The renamed user's token still works; the old name may be taken by someone new.
  assert.is((await as(u, 'GET', '/user')).json.login, newName);
  const taken = await as(admin, 'POST', `/admin/users/${newName}/rename`, { new_username: alice.name.toUpperCase() });
  assert.is(taken.status, 422);
  assert.is((await as(admin, 'POST', `/admin/users/${newName}/rename`, { new_username: 'swagger.v1.json' })).status, 422);
  assert.is((await as(admin, 'POST', `/admin/users/${newName}/rename`, { new_username: 'bad name' })).status, 422);
  const reuse = await as(admin, 'POST', '/admin/users', {
    username: oldName,
    email: `${uniq('re')}@example.com`,
    password: 'long-enough-1',
  });
  assert.is(reuse.status, 201, reuse.text);
  assert.is((await api('GET', `/users/${oldName}`)).status, 200);
  assert.is(await em().count(UserRedirect, { lowerName: oldName.toLowerCase() }), 0);
});

test('e-mail administration: delete a user address, all addresses paged, search by q', async () => {
  const u = await makeUser(db, srv.api);
  const extra = `${uniq('adm')}@example.net`;
  assert.is((await as(u, 'POST', '/user/emails', { emails: [extra] })).status, 201);
  assert.is((await as(admin, 'DELETE', `/admin/users/${u.name}/emails`, { emails: [`${u.name}@example.com`] })).status, 422);
  assert.is((await as(admin, 'DELETE', `/admin/users/${u.name}/emails`, { emails: [extra] })).status, 204);
  assert.is((await as(admin, 'GET', `/admin/users/${u.name}/emails`)).json.length, 1);
  const all = await as(admin, 'GET', '/admin/emails?limit=2');
  validOkList('Email', all);
  assert.is(all.json.length, 2);
  assert.ok(Number(all.headers.get('x-total-count')) >= 3);
  const found = await as(admin, 'GET', `/admin/emails/search?q=${u.name.toUpperCase()}`);
  validOkList('Email', found);
  assert.equal(
    found.json.map((e: { email: string; username: string }) => [e.email, e.username]),
    [[`${u.name}@example.com`, u.name]],
  );
  assert.is(found.headers.get('x-total-count'), '1');
  assert.is((await as(u, 'GET', '/admin/emails')).status, 403);
});

test("organizations: GET /admin/orgs lists private ones; a user's organizations; POST creates one owned by the user", async () => {
  const u = await makeUser(db, srv.api);
  const made = await as(admin, 'POST', `/admin/users/${u.name}/orgs`, { username: uniq('aorg'), visibility: 'private' });
  assert.is(made.status, 201, made.text);
  valid('Organization', made.json);
  assert.is(made.json.visibility, 'private');
  const theirs = await as(admin, 'GET', `/admin/users/${u.name}/orgs`);
  validOkList('Organization', theirs);
  assert.equal(
    theirs.json.map((o: { name: string }) => o.name),
    [made.json.name],
  );
  assert.equal(
    (await as(u, 'GET', '/user/orgs')).json.map((o: { name: string }) => o.name),
    [made.json.name],
  );
  const perm = await as(u, 'GET', `/users/${u.name}/orgs/${made.json.name}/permissions`);
  assert.is(perm.json.is_owner, true);
  const all = await as(admin, 'GET', '/admin/orgs?limit=50');
  validOkList('Organization', all);
  assert.ok(all.json.some((o: { name: string }) => o.name === made.json.name));
  const dup = await as(admin, 'POST', `/admin/users/${u.name}/orgs`, { username: made.json.name.toUpperCase() });
  assert.is(dup.status, 422);
  assert.is((await as(u, 'GET', '/admin/orgs')).status, 403);
});

test('tokens of a user, administered without a password', async () => {
  const u = await makeUser(db, srv.api);
  const made = await as(admin, 'POST', `/admin/users/${u.name}/tokens`, { name: 'admin-made', scopes: ['read:user'] });
  assert.is(made.status, 201, made.text);
  valid('AccessToken', made.json);
  assert.is((await api('GET', '/user', { token: made.json.sha1 })).json.login, u.name);
  const list = await as(admin, 'GET', `/admin/users/${u.name}/tokens`);
  validOkList('AccessToken', list);
  assert.ok(list.json.some((t: { name: string; sha1: string }) => t.name === 'admin-made' && t.sha1 === ''));
  assert.is((await as(admin, 'DELETE', `/admin/users/${u.name}/tokens/${made.json.id}`)).status, 204);
  assert.is((await api('GET', '/user', { token: made.json.sha1 })).status, 401);
  // The user-facing route still insists on a password.
  assert.is((await as(u, 'POST', `/users/${u.name}/tokens`, { name: 'x', scopes: ['read:user'] })).status, 401);
});

test.run();
