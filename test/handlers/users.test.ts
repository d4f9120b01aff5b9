// Users over HTTP: profiles and visibility, search, heatmap and feeds, follows, blocks, settings,
// e-mail addresses, avatars, a user's organizations and permissions, starred and watched
// repositories, OAuth2 applications and two-factor sign-in — every JSON answer checked against its schema.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call, type Call, type Res } from '../helpers/client.ts';
import { makeRepo, makeToken, makeUser, uniq, type TestUser } from '../helpers/fixtures.ts';
import { runAdminCommand } from '../helpers/admin.ts';
import { totpFor } from '../../lib/auth/totp.ts';
import { Collaboration } from '../../model/repo.ts';
import { EmailAddress, User } from '../../model/user.ts';
import { OAuth2Application } from '../../model/oauth2.ts';
import { Star, Watch, WatchMode } from '../../model/star.ts';
import { valid, validOkList } from '../helpers/schema.ts';

let db: TestDb;
let srv: TestServer;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;

const api = (method: string, p: string, o: Call = {}) => call(srv.api, method, p, o);
const as = (u: TestUser | undefined, method: string, p: string, body?: unknown) => api(method, p, { token: u?.token, body });

const logins = (res: Res) => (res.json as { login: string }[]).map((u) => u.login);

async function setVisibility(u: TestUser, visibility: string) {
  const r = await as(admin, 'PATCH', `/admin/users/${u.name}`, { visibility });
  assert.is(r.status, 200, r.text);
}

test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
  admin = await makeUser(db, srv.api, { admin: true });
  alice = await makeUser(db, srv.api);
  bob = await makeUser(db, srv.api);
});
test.after(async () => {
  await srv.close();
  await db.close();
});

test('GET /user and GET {U}: the User shape; private fields only for the user and admins', async () => {
  const me = await as(alice, 'GET', '/user');
  assert.is(me.status, 200);
  valid('User', me.json);
  assert.is(me.json.login, alice.name);
  assert.is(me.json.email, `${alice.name}@example.com`);
  assert.is(me.json.last_login, '1970-01-01T00:00:00Z', 'never signed in: unix 0 for the user themself');
  const seen = await as(bob, 'GET', `/users/${alice.name}`);
  valid('User', seen.json);
  assert.is(seen.json.login_name, '');
  assert.is(seen.json.last_login, '0001-01-01T00:00:00Z');
  const anon = await api('GET', `/users/${alice.name.toUpperCase()}`);
  assert.is(anon.status, 200);
  assert.is(anon.json.login, alice.name);
  assert.is(anon.json.email, `${alice.name.toLowerCase()}@${srv.config.SERVICE.NO_REPLY_ADDRESS}`);
});

test('user-visibility gate: limited users are hidden from anonymous callers, private ones from other users', async () => {
  const carol = await makeUser(db, srv.api);
  await setVisibility(carol, 'limited');
  assert.is((await api('GET', `/users/${carol.name}`)).status, 404);
  assert.is((await as(bob, 'GET', `/users/${carol.name}`)).status, 200);
  await setVisibility(carol, 'private');
  const hidden = await as(bob, 'GET', `/users/${carol.name}`);
  assert.is(hidden.status, 404);
  assert.is(hidden.json.message, `user redirect does not exist [name: ${carol.name.toLowerCase()}]`);
  assert.is((await as(carol, 'GET', `/users/${carol.name}`)).status, 200);
  assert.is((await as(admin, 'GET', `/users/${carol.name}`)).status, 200);
  assert.is((await api('GET', '/users/no-such-user-here')).status, 404);
});

test('GET /users/search: {ok,data}, q over names and visible e-mails, uid, paging headers, hidden users left out', async () => {
  const tag = uniq('srch');
  const made: TestUser[] = [];
  for (let i = 0; i < 3; i++) made.push(await makeUser(db, srv.api, { name: `${tag}n${i}` }));
  await setVisibility(made[2], 'private');
  const r = await api('GET', `/users/search?q=${tag}&limit=1`);
  assert.is(r.status, 200);
  assert.is(r.json.ok, true);
  for (const u of r.json.data) valid('User', u);
  assert.is(r.headers.get('x-total-count'), '2');
  assert.equal(
    r.json.data.map((u: { login: string }) => u.login),
    [`${tag}n0`],
  );
  assert.ok(r.headers.get('link')?.includes('rel="next"'));
  const all = await as(admin, 'GET', `/users/search?q=${tag.toUpperCase()}`);
  assert.is(all.headers.get('x-total-count'), '3');
  const byId = await api('GET', `/users/search?uid=${made[1].id}`);
  assert.equal(
    byId.json.data.map((u: { id: number }) => u.id),
    [made[1].id],
  );
  const ghost = await api('GET', '/users/search?uid=-1');
  assert.is(ghost.json.data[0].login, 'Ghost');
  valid('User', ghost.json.data[0]);
  assert.is((await api('GET', '/users/search?uid=-2')).json.data[0].login, 'forgejo-actions');
  // An e-mail address matches only when its owner does not hide it.
  const byMail = await as(bob, 'GET', `/users/search?q=${made[0].name}@example`);
  assert.is(byMail.json.data.length, 1);
});

test('heatmap and activity feeds of a user without activity are empty lists', async () => {
  const h = await api('GET', `/users/${alice.name}/heatmap`);
  assert.is(h.status, 200);
  assert.equal(h.json, []);
  const f = await api('GET', `/users/${alice.name}/activities/feeds`);
  assert.is(f.status, 200);
  assert.equal(f.json, []);
  assert.is(f.headers.get('x-total-count'), '0');
});

test('follow: PUT/GET/DELETE /user/following/{u}, followers and following lists with counters', async () => {
  const a = await makeUser(db, srv.api);
  const b = await makeUser(db, srv.api);
  assert.is((await as(a, 'GET', `/user/following/${b.name}`)).status, 404);
  assert.is((await as(a, 'PUT', `/user/following/${b.name}`)).status, 204);
  assert.is((await as(a, 'PUT', `/user/following/${b.name}`)).status, 204);
  assert.is((await as(a, 'GET', `/user/following/${b.name}`)).status, 204);
  assert.is((await api('GET', `/users/${a.name}/following/${b.name}`, { token: b.token })).status, 204);
  assert.is((await api('GET', `/users/${b.name}/following/${a.name}`, { token: b.token })).status, 404);
  const missing = await api('GET', `/users/${a.name}/following/nobody-${uniq('x')}`, { token: b.token });
  assert.is(missing.status, 404);
  const followers = await as(a, 'GET', `/users/${b.name}/followers`);
  validOkList('User', followers);
  assert.equal(logins(followers), [a.name]);
  assert.is(followers.headers.get('x-total-count'), '1');
  const mine = await as(a, 'GET', '/user/following');
  validOkList('User', mine);
  assert.equal(logins(mine), [b.name]);
  assert.equal(logins(await as(b, 'GET', '/user/followers')), [a.name]);
  const profile = await as(a, 'GET', `/users/${b.name}`);
  assert.is(profile.json.followers_count, 1);
  assert.is((await as(a, 'GET', '/user')).json.following_count, 1);
  assert.is((await as(a, 'DELETE', `/user/following/${b.name}`)).status, 204);
  assert.equal((await as(a, 'GET', '/user/following')).json, []);
  assert.is((await as(a, 'GET', `/users/${b.name}`)).json.followers_count, 0);
  assert.is((await api('GET', `/users/${b.name}/followers`)).status, 401);
});

test('block: list_blocked shape, a block ends follows and collaborations and forbids following and collaborating', async () => {
  const owner = await makeUser(db, srv.api);
  const pest = await makeUser(db, srv.api);
  const repo = await makeRepo(srv.api, owner, { name: uniq('blk') });
  assert.is((await as(pest, 'PUT', `/user/following/${owner.name}`)).status, 204);
  assert.is((await as(owner, 'PUT', `/repos/${owner.name}/${repo.name}/collaborators/${pest.name}`, {})).status, 204);
  assert.is((await as(owner, 'PUT', `/user/block/${pest.name}`)).status, 204);
  const list = await as(owner, 'GET', '/user/list_blocked');
  validOkList('BlockedUser', list);
  assert.is(list.json[0].block_id, pest.id);
  assert.is(list.headers.get('x-total-count'), '1');
  assert.equal((await as(pest, 'GET', '/user/following')).json, []);
  const em = db.db.orm.em.fork();
  assert.is(await em.count(Collaboration, { repoId: repo.id, userId: pest.id }), 0);
  const refused = await as(pest, 'PUT', `/user/following/${owner.name}`);
  assert.is(refused.status, 403);
  assert.is(refused.json.message, 'user is blocked by the poster or repository owner');
  assert.is((await as(owner, 'PUT', `/user/following/${pest.name}`)).status, 403);
  const collab = await as(owner, 'PUT', `/repos/${owner.name}/${repo.name}/collaborators/${pest.name}`, {});
  assert.is(collab.status, 403);
  assert.is(await em.count(Collaboration, { repoId: repo.id, userId: pest.id }), 0);
  // The other direction too: a user who blocked the owner cannot be added.
  const shy = await makeUser(db, srv.api);
  assert.is((await as(shy, 'PUT', `/user/block/${owner.name}`)).status, 204);
  assert.is((await as(owner, 'PUT', `/repos/${owner.name}/${repo.name}/collaborators/${shy.name}`, {})).status, 403);
  assert.is((await as(owner, 'PUT', `/user/unblock/${pest.name}`)).status, 204);
  assert.equal((await as(owner, 'GET', '/user/list_blocked')).json, []);
  assert.is((await as(pest, 'PUT', `/user/following/${owner.name}`)).status, 204);
  const org = await as(owner, 'POST', '/orgs', { username: uniq('borg') });
  const notUser = await as(owner, 'PUT', `/user/block/${org.json.name}`);
  assert.is(notUser.status, 422);
  assert.is(notUser.json.message, `${org.json.name} is an organization not a user`);
});

test('GET/PATCH /user/settings: UserSettings shape, only given fields change, hidden pronouns', async () => {
  const u = await makeUser(db, srv.api);
  const before = await as(u, 'GET', '/user/settings');
  assert.is(before.status, 200);
  valid('UserSettings', before.json);
  const r = await as(u, 'PATCH', '/user/settings', {
    full_name: 'Uma U',
    pronouns: 'they/them',
    hide_pronouns: true,
    hide_email: true,
    theme: 'forgejo-dark',
  });
  assert.is(r.status, 200, r.text);
  valid('UserSettings', r.json);
  assert.is(r.json.full_name, 'Uma U');
  assert.is(r.json.hide_pronouns, true);
  assert.is(r.json.location, before.json.location);
  const anon = await api('GET', `/users/${u.name}`);
  assert.is(anon.json.pronouns, '');
  assert.is((await as(bob, 'GET', `/users/${u.name}`)).json.pronouns, 'they/them');
  assert.is((await as(bob, 'GET', `/users/${u.name}`)).json.email, `${u.name.toLowerCase()}@${srv.config.SERVICE.NO_REPLY_ADDRESS}`);
  const bad = await as(u, 'PATCH', '/user/settings', { website: 'not a url' });
  assert.is(bad.status, 422);
  assert.is((await as(u, 'GET', '/user/settings')).json.website, '');
});

test('e-mail addresses: list, add (201 with the whole list), duplicates and bad syntax 422, delete, primary kept', async () => {
  const u = await makeUser(db, srv.api);
  const list = await as(u, 'GET', '/user/emails');
  validOkList('Email', list);
  assert.equal(
    list.json.map((e: { email: string; primary: boolean }) => [e.email, e.primary]),
    [[`${u.name}@example.com`, true]],
  );
  const extra = `${uniq('extra')}@example.org`;
  const add = await as(u, 'POST', '/user/emails', { emails: [extra] });
  assert.is(add.status, 201, add.text);
  for (const e of add.json) valid('Email', e);
  assert.equal(
    add.json.map((e: { email: string }) => e.email),
    [`${u.name}@example.com`, extra],
  );
  assert.is(add.json[1].verified, true);
  assert.is(add.json[1].primary, false);
  const dup = await as(u, 'POST', '/user/emails', { emails: [extra.toUpperCase()] });
  assert.is(dup.status, 422);
  assert.is(dup.json.message, `Email address has been used: ${extra.toUpperCase()}`);
  const taken = await as(u, 'POST', '/user/emails', { emails: [`${alice.name}@example.com`] });
  assert.is(taken.status, 422);
  const em = db.db.orm.em.fork();
  const mixed = await as(u, 'POST', '/user/emails', { emails: [`${uniq('ok')}@example.org`, 'not-an-address'] });
  assert.is(mixed.status, 422);
  assert.is(mixed.json.message, 'Email address "not-an-address" invalid');
  assert.is(await em.count(EmailAddress, { uid: u.id }), 2, 'nothing half-added');
  assert.is((await as(u, 'POST', '/user/emails', { emails: [] })).status, 422);
  const primary = await as(u, 'DELETE', '/user/emails', { emails: [`${u.name}@example.com`] });
  assert.is(primary.status, 422);
  const unknown = await as(u, 'DELETE', '/user/emails', { emails: ['nobody@nowhere.example'] });
  assert.is(unknown.status, 404);
  assert.is((await as(u, 'DELETE', '/user/emails', { emails: [extra] })).status, 204);
  assert.is((await as(u, 'GET', '/user/emails')).json.length, 1);
});

test('avatar: upload a real image, avatar_url follows it, refuse non-images, delete back to the default', async () => {
  const u = await makeUser(db, srv.api);
  const before = (await as(u, 'GET', '/user')).json.avatar_url;
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
  assert.is((await as(u, 'POST', '/user/avatar', { image: png.toString('base64') })).status, 204);
  const after = (await as(u, 'GET', '/user')).json.avatar_url;
  assert.not.equal(after, before);
  assert.ok(after.startsWith(`${srv.config.appUrl}avatars/`));
  const notImage = await as(u, 'POST', '/user/avatar', { image: Buffer.from('hello world').toString('base64') });
  assert.is(notImage.status, 422);
  assert.is((await as(u, 'POST', '/user/avatar', { image: '***' })).status, 400);
  assert.is((await as(u, 'GET', '/user')).json.avatar_url, after);
  assert.is((await as(u, 'DELETE', '/user/avatar')).status, 204);
  assert.is((await as(u, 'GET', '/user')).json.avatar_url, before);
});

test("a user's organizations: public memberships for others, all for the user; OrganizationPermissions", async () => {
  const u = await makeUser(db, srv.api);
  const open = await as(u, 'POST', '/orgs', { username: uniq('pub') });
  const closed = await as(u, 'POST', '/orgs', { username: uniq('priv'), visibility: 'private' });
  assert.is(open.status, 201);
  const mine = await as(u, 'GET', '/user/orgs');
  validOkList('Organization', mine);
  assert.is(mine.json.length, 2);
  assert.is(mine.headers.get('x-total-count'), '2');
  // Memberships are private until published.
  assert.equal((await as(bob, 'GET', `/users/${u.name}/orgs`)).json, []);
  assert.is((await as(u, 'PUT', `/orgs/${open.json.name}/public_members/${u.name}`)).status, 204);
  assert.is((await as(u, 'PUT', `/orgs/${closed.json.name}/public_members/${u.name}`)).status, 204);
  const seen = await as(bob, 'GET', `/users/${u.name}/orgs`);
  assert.equal(
    seen.json.map((o: { name: string }) => o.name),
    [open.json.name],
  );
  assert.is((await as(admin, 'GET', `/users/${u.name}/orgs`)).json.length, 2);
  const perm = await as(bob, 'GET', `/users/${u.name}/orgs/${open.json.name}/permissions`);
  assert.is(perm.status, 200, perm.text);
  valid('OrganizationPermissions', perm.json);
  assert.equal(perm.json, { can_read: true, can_write: true, is_admin: true, is_owner: true, can_create_repository: true });
  const none = await as(u, 'GET', `/users/${bob.name}/orgs/${open.json.name}/permissions`);
  assert.equal(none.json, { can_read: false, can_write: false, is_admin: false, is_owner: false, can_create_repository: false });
  assert.is((await as(u, 'GET', `/users/${bob.name}/orgs/${closed.json.name}/permissions`)).status, 404);
  assert.is((await as(u, 'GET', `/users/${bob.name}/orgs/no-org-${uniq('z')}/permissions`)).status, 404);
});

test('starred and subscriptions: Repository lists the caller can reach, with X-Total-Count', async () => {
  const u = await makeUser(db, srv.api);
  const pub = await makeRepo(srv.api, u, { name: uniq('star') });
  const hidden = await makeRepo(srv.api, u, { name: uniq('hid'), private: true });
  // Stars and watches are written directly: their own routes belong to another family.
  const em = db.db.orm.em.fork();
  await em.nativeDelete(Watch, { repoId: { $in: [pub.id, hidden.id] } });
  for (const r of [pub, hidden]) {
    em.create(Star, { uid: u.id, repoId: r.id });
    em.create(Watch, { userId: u.id, repoId: r.id, mode: WatchMode.normal });
  }
  await em.flush();
  const own = await as(u, 'GET', `/users/${u.name}/starred`);
  validOkList('Repository', own);
  assert.is(own.json.length, 2);
  assert.is((await api('GET', `/users/${u.name}/starred`)).status, 401, 'spec: TOK');
  const others = await as(bob, 'GET', `/users/${u.name}/starred`);
  assert.equal(
    others.json.map((r: { name: string }) => r.name),
    [pub.name],
  );
  assert.is(others.headers.get('x-total-count'), '1');
  const subs = await as(u, 'GET', '/user/subscriptions');
  validOkList('Repository', subs);
  assert.is(subs.json.length, 2);
  const theirs = await as(bob, 'GET', `/users/${u.name}/subscriptions`);
  assert.equal(
    theirs.json.map((r: { name: string }) => r.name),
    [pub.name],
  );
  assert.is((await as(u, 'GET', `/users/${u.name}`)).json.starred_repos_count, 2);
  // GET /user counts the stars in its token's statement.
  assert.is((await as(u, 'GET', '/user')).json.starred_repos_count, 2);
  assert.is((await as(bob, 'GET', '/user')).json.starred_repos_count, 0);
});

test('OAuth2 applications: secret shown once and stored hashed, list/get/patch/delete, other users get 404', async () => {
  const u = await makeUser(db, srv.api);
  const made = await as(u, 'POST', '/user/applications/oauth2', {
    name: 'ci',
    redirect_uris: ['https://ci.example/cb'],
    confidential_client: true,
  });
  assert.is(made.status, 201, made.text);
  valid('OAuth2Application', made.json);
  assert.match(made.json.client_secret, /^gto_[a-z2-7]{52}$/);
  assert.match(made.json.client_id, /^[0-9a-f-]{36}$/);
  const row = await db.db.orm.em.fork().findOneOrFail(OAuth2Application, { id: made.json.id }, { populate: ['clientSecretHash'] });
  assert.not.ok(row.clientSecretHash.includes(made.json.client_secret));
  const list = await as(u, 'GET', '/user/applications/oauth2');
  validOkList('OAuth2Application', list);
  assert.is(list.json[0].client_secret, '');
  assert.is(list.headers.get('x-total-count'), '1');
  const one = await as(u, 'GET', `/user/applications/oauth2/${made.json.id}`);
  assert.is(one.json.client_secret, '');
  assert.is((await as(bob, 'GET', `/user/applications/oauth2/${made.json.id}`)).status, 404);
  const edited = await as(u, 'PATCH', `/user/applications/oauth2/${made.json.id}`, {
    name: 'ci2',
    redirect_uris: ['https://ci.example/cb2'],
  });
  assert.is(edited.status, 200);
  valid('OAuth2Application', edited.json);
  assert.is(edited.json.name, 'ci2');
  assert.is(edited.json.confidential_client, false);
  assert.ok(edited.json.client_secret && edited.json.client_secret !== made.json.client_secret);
  assert.is((await as(u, 'POST', '/user/applications/oauth2', { redirect_uris: ['https://x.example'] })).status, 422);
  assert.is((await as(bob, 'DELETE', `/user/applications/oauth2/${made.json.id}`)).status, 404);
  assert.is((await as(u, 'DELETE', `/user/applications/oauth2/${made.json.id}`)).status, 204);
  assert.equal((await as(u, 'GET', '/user/applications/oauth2')).json, []);
});

test('two-factor: with TOTP enrolled, the Basic-only token route needs the one-time password', async () => {
  const u = await makeUser(db, srv.api);
  const out = await runAdminCommand(db, ['user', '2fa', 'enroll', '--username', u.name]);
  const secret = out.lines[out.lines.length - 1];
  const body = { name: uniq('otp'), scopes: ['read:user'] };
  const without = await api('POST', `/users/${u.name}/tokens`, { basic: [u.name, u.password], body });
  assert.is(without.status, 401);
  const viaToken = await api('POST', `/users/${u.name}/tokens`, { token: u.token, body });
  assert.is(viaToken.status, 401);
  assert.is(viaToken.json.message, 'auth method not allowed');
  const code = totpFor(secret, u.name).generate();
  const ok = await api('POST', `/users/${u.name}/tokens`, { basic: [u.name, u.password], body, headers: { 'X-Forgejo-OTP': code } });
  assert.is(ok.status, 201, ok.text);
  valid('AccessToken', ok.json);
  // The new token works without a one-time password.
  assert.is((await api('GET', '/user', { token: ok.json.sha1 })).json.login, u.name);
});

test('public-only tokens do not see private users in search and get 403 on a private user', async () => {
  const hiddenUser = await makeUser(db, srv.api, { name: uniq('po') });
  await setVisibility(hiddenUser, 'limited');
  const t = await makeToken(srv.api, admin, ['public-only', 'read:user']);
  const r = await api('GET', `/users/search?q=${hiddenUser.name}`, { token: t });
  assert.equal(r.json.data, []);
  assert.is((await api('GET', `/users/${hiddenUser.name}/followers`, { token: t })).status, 403);
  const em = db.db.orm.em.fork();
  assert.is((await em.findOneOrFail(User, { id: hiddenUser.id })).visibility, 'limited');
});

test.run();
