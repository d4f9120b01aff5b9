// Authentication, impersonation, token kinds and the error shapes around them (spec, Authentication;
// forgejo-facts 1, 2, 3).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb, startServer, type TestDb, type TestServer } from './helpers/server.ts';
import { call } from './helpers/client.ts';
import { makeRepo, makeToken, makeUser, uniq, type TestUser } from './helpers/fixtures.ts';
import { runAdminCommand } from './helpers/admin.ts';
import { totpFor } from '../lib/auth/totp.ts';
import { ApiSchemas } from '../model/schemas/index.ts';
import { validateResponse } from '../model/schemas/validate.ts';
import { AccessToken } from '../model/token.ts';

let db: TestDb;
let srv: TestServer;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;

test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
  admin = await makeUser(db, srv.api, { admin: true });
  alice = await makeUser(db, srv.api);
  bob = await makeUser(db, srv.api);
  await makeRepo(srv.api, alice, { name: 'pub', auto_init: true });
  await makeRepo(srv.api, alice, { name: 'other', auto_init: true });
  await makeRepo(srv.api, alice, { name: 'secret', private: true, auto_init: true });
});
test.after(async () => {
  await srv.close();
  await db.close();
});

const api = (method: string, path: string, o: Parameters<typeof call>[3] = {}) => call(srv.api, method, path, o);

test('every credential form authenticates: token, Bearer, Basic password, Basic with a token, query parameters', async () => {
  assert.is((await api('GET', '/user', { token: alice.token })).json.login, alice.name);
  assert.is((await api('GET', '/user', { headers: { Authorization: `Bearer ${alice.token}` } })).json.login, alice.name);
  assert.is((await api('GET', '/user', { headers: { Authorization: `TOKEN ${alice.token}` } })).json.login, alice.name);
  assert.is((await api('GET', '/user', { basic: [alice.name, alice.password] })).json.login, alice.name);
  assert.is((await api('GET', '/user', { basic: ['ignored', alice.token] })).json.login, alice.name);
  assert.is((await api('GET', '/user', { basic: [alice.token, 'x-oauth-basic'] })).json.login, alice.name);
  const q = await api('GET', `/user?token=${alice.token}`);
  assert.is(q.json.login, alice.name);
  assert.ok(q.headers.get('warning')?.startsWith('token and access_token API authentication is deprecated'));
  assert.is((await api('GET', `/user?access_token=${alice.token}`)).json.login, alice.name);
});

test('credentials that are present but wrong answer 401 on every route, public ones included', async () => {
  for (const path of ['/user', '/version', `/repos/${alice.name}/pub`]) {
    const bad = await api('GET', path, { token: 'f'.repeat(40) });
    assert.is(bad.status, 401, path);
    assert.ok(String(bad.json.message).includes('access token does not exist'));
    assert.is((await api('GET', path, { basic: [alice.name, 'wrong'] })).status, 401);
  }
  assert.is((await api('GET', '/user', { token: 'not-hex' })).status, 401);
  // Anonymous is not an error on a public route.
  assert.is((await api('GET', `/repos/${alice.name}/pub`)).status, 200);
  assert.is((await api('GET', '/user')).status, 401);
});

test('tokens: value shown once, stored hashed, scopes normalised, name unique per user', async () => {
  const r = await api('POST', `/users/${alice.name}/tokens`, {
    basic: [alice.name, alice.password],
    body: { name: 'ci', scopes: ['read:user', 'write:user', 'read:repository'] },
  });
  assert.is(r.status, 201);
  assert.ok(validateResponse(ApiSchemas.AccessToken, r.json).ok);
  assert.match(r.json.sha1, /^[0-9a-f]{40}$/);
  assert.is(r.json.token_last_eight, r.json.sha1.slice(-8));
  assert.equal(r.json.scopes, ['read:repository', 'write:user']);
  const stored = await db.db.orm.em.fork().findOneOrFail(AccessToken, { id: r.json.id }, { populate: ['tokenHash'] });
  assert.not.ok(stored.tokenHash.includes(r.json.sha1));
  const list = await api('GET', `/users/${alice.name}/tokens`, { token: alice.token });
  const listed = list.json.find((t: { id: number }) => t.id === r.json.id);
  assert.is(listed.sha1, '');
  assert.ok(Number(list.headers.get('x-total-count')) >= 2);
  const dup = await api('POST', `/users/${alice.name}/tokens`, {
    basic: [alice.name, alice.password],
    body: { name: 'ci', scopes: ['read:user'] },
  });
  assert.is(dup.status, 400);
  assert.is(dup.json.message, 'access token name has been used already');
  const all = await api('POST', `/users/${alice.name}/tokens`, {
    basic: [alice.name, alice.password],
    body: { name: uniq('t'), scopes: ['all', 'public-only'] },
  });
  assert.equal(all.json.scopes, ['public-only', 'all']);
  const badScope = await api('POST', `/users/${alice.name}/tokens`, {
    basic: [alice.name, alice.password],
    body: { name: uniq('t'), scopes: ['write:everything'] },
  });
  assert.is(badScope.status, 400);
  assert.is(badScope.json.message, 'invalid access token scope provided: invalid access token scope: write:everything');
  const none = await api('POST', `/users/${alice.name}/tokens`, { basic: [alice.name, alice.password], body: { name: uniq('t') } });
  assert.is(none.json.message, 'access token must have a scope');
  // Delete by name, then it no longer authenticates.
  assert.is((await api('DELETE', `/users/${alice.name}/tokens/ci`, { basic: [alice.name, alice.password] })).status, 204);
  assert.is((await api('GET', '/user', { token: r.json.sha1 })).status, 401);
});

test('token creation: SELF, then body, then BASIC (a token cannot mint tokens)', async () => {
  const other = await api('POST', `/users/${alice.name}/tokens`, { basic: [bob.name, bob.password], body: { name: 'x', scopes: ['all'] } });
  assert.is(other.status, 403);
  const anon = await api('POST', `/users/${alice.name}/tokens`, { body: { name: 'x', scopes: ['all'] } });
  assert.is(anon.status, 403);
  const byToken = await api('POST', `/users/${alice.name}/tokens`, { token: alice.token, body: { name: 'x', scopes: ['all'] } });
  assert.is(byToken.status, 401);
  assert.is(byToken.json.message, 'auth method not allowed');
  const noName = await api('POST', `/users/${alice.name}/tokens`, { basic: [alice.name, alice.password], body: { scopes: ['all'] } });
  assert.is(noName.status, 422);
  assert.is(noName.json.message, '[Name]: Required');
});

test('spec, access token creation: an empty repositories array is an error, never an all-access token', async () => {
  const before = await api('GET', `/users/${alice.name}/tokens`, { token: alice.token });
  const r = await api('POST', `/users/${alice.name}/tokens`, {
    basic: [alice.name, alice.password],
    body: { name: uniq('t'), scopes: ['read:repository'], repositories: [] },
  });
  assert.is(r.status, 400);
  assert.is(r.json.message, 'Access tokens with specified repositories must have at least one repository.');
  const after = await api('GET', `/users/${alice.name}/tokens`, { token: alice.token });
  assert.is(after.headers.get('x-total-count'), before.headers.get('x-total-count'));
  const withPublicOnly = await api('POST', `/users/${alice.name}/tokens`, {
    basic: [alice.name, alice.password],
    body: { name: uniq('t'), scopes: ['public-only', 'read:repository'], repositories: [{ owner: alice.name, name: 'pub' }] },
  });
  assert.is(withPublicOnly.status, 400);
  const wrongScope = await api('POST', `/users/${alice.name}/tokens`, {
    basic: [alice.name, alice.password],
    body: { name: uniq('t'), scopes: ['read:user'], repositories: [{ owner: alice.name, name: 'pub' }] },
  });
  assert.is(wrongScope.status, 400);
  const unknown = await api('POST', `/users/${alice.name}/tokens`, {
    basic: [alice.name, alice.password],
    body: { name: uniq('t'), scopes: ['read:repository'], repositories: [{ owner: alice.name, name: 'nope' }] },
  });
  assert.is(unknown.json.message, `repository ${alice.name}/nope does not exist`);
});

test('spec, token kinds: a repo-specific token reaches its repositories only and cannot administer', async () => {
  const tok = await makeToken(srv.api, alice, ['write:repository'], { repositories: [{ owner: alice.name, name: 'pub' }] });
  assert.is((await api('GET', `/repos/${alice.name}/pub`, { token: tok })).status, 200);
  // Another public repository of a public owner is reduced to read; a private one is unreachable.
  const other = await api('GET', `/repos/${alice.name}/other`, { token: tok });
  assert.is(other.status, 200);
  assert.equal(other.json.permissions, { admin: false, push: false, pull: true });
  assert.is((await api('GET', `/repos/${alice.name}/secret`, { token: tok })).status, 404);
  // No repository creation, settings edits or deletion, even on the listed repository.
  assert.is((await api('POST', '/user/repos', { token: tok, body: { name: uniq('r') } })).status, 403);
  const patch = await api('PATCH', `/repos/${alice.name}/pub`, { token: tok, body: { description: 'changed' } });
  assert.is(patch.status, 403);
  assert.is((await api('GET', `/repos/${alice.name}/pub`, { token: alice.token })).json.description, '');
  assert.is((await api('DELETE', `/repos/${alice.name}/pub`, { token: tok })).status, 403);
  assert.is((await api('GET', `/repos/${alice.name}/pub`, { token: alice.token })).status, 200);
});

test('spec, token kinds: public-only tokens see public repositories and get 404 for private ones', async () => {
  const tok = await makeToken(srv.api, alice, ['public-only', 'all']);
  assert.is((await api('GET', `/repos/${alice.name}/pub`, { token: tok })).status, 200);
  assert.is((await api('GET', `/repos/${alice.name}/secret`, { token: tok })).status, 404);
});

test('spec, impersonation: admins act as another user by query or header; others get 403 {message}', async () => {
  const q = await api('GET', `/user?sudo=${alice.name}`, { token: admin.token });
  assert.is(q.json.login, alice.name);
  const h = await api('GET', '/user', { token: admin.token, headers: { Sudo: bob.name } });
  assert.is(h.json.login, bob.name);
  // The query wins over the header.
  assert.is((await api('GET', `/user?sudo=${alice.name}`, { token: admin.token, headers: { Sudo: bob.name } })).json.login, alice.name);
  const denied = await api('GET', `/user?sudo=${alice.name}`, { token: bob.token });
  assert.is(denied.status, 403);
  assert.equal(denied.json, { message: 'Only administrators allowed to sudo.' });
  assert.is((await api('GET', `/user?sudo=${alice.name}`)).status, 403);
  assert.is((await api('GET', '/user?sudo=nobody-here', { token: admin.token })).status, 404);
  // Public-only and repo-specific tokens do not inherit administrator rights.
  const po = await makeToken(srv.api, admin, ['public-only', 'all']);
  assert.is((await api('GET', `/user?sudo=${alice.name}`, { token: po })).status, 403);
  // Acting as alice, the admin can reach alice's private repository; as bob not.
  assert.is((await api('GET', `/repos/${alice.name}/secret?sudo=${alice.name}`, { token: admin.token })).status, 200);
  assert.is((await api('GET', `/repos/${alice.name}/secret?sudo=${bob.name}`, { token: admin.token })).status, 404);
});

test('two-factor: a user with TOTP enrolled needs a one-time password with Basic, not with a token', async () => {
  const u = await makeUser(db, srv.api);
  const out = await runAdminCommand(db, ['user', '2fa', 'enroll', '--username', u.name]);
  const secret = out.lines[out.lines.length - 1];
  assert.is((await api('GET', '/user', { basic: [u.name, u.password] })).status, 401);
  const wrong = await api('GET', '/user', { basic: [u.name, u.password], headers: { 'X-Forgejo-OTP': '000000' } });
  assert.is(wrong.status, 401);
  const code = totpFor(secret, u.name).generate();
  const ok = await api('GET', '/user', { basic: [u.name, u.password], headers: { 'X-SERVICE-OTP': code } });
  assert.is(ok.status, 200);
  // The same code cannot be replayed.
  assert.is((await api('GET', '/user', { basic: [u.name, u.password], headers: { 'X-Gitea-OTP': code } })).status, 401);
  assert.is((await api('GET', '/user', { token: u.token })).status, 200);
});

test('reverse-proxy identity is accepted only when enabled, and counts as BASIC', async () => {
  assert.is((await api('GET', '/user', { headers: { 'X-WEBAUTH-USER': alice.name } })).status, 401);
  const rp = await startServer(db, { SERVICE__ENABLE_REVERSE_PROXY_AUTHENTICATION_API: 'true' });
  const me = await call(rp.api, 'GET', '/user', { headers: { 'X-WEBAUTH-USER': alice.name } });
  assert.is(me.json.login, alice.name);
  const tok = await call(rp.api, 'POST', `/users/${alice.name}/tokens`, {
    headers: { 'X-WEBAUTH-USER': alice.name },
    body: { name: uniq('rp'), scopes: ['read:user'] },
  });
  assert.is(tok.status, 201);
  await rp.close();
});

test('sign-in-required instances refuse anonymous calls with 401', async () => {
  const closed = await startServer(db, { SERVICE__REQUIRE_SIGNIN_VIEW: 'true' });
  assert.is((await call(closed.api, 'GET', `/repos/${alice.name}/pub`)).status, 401);
  assert.is((await call(closed.api, 'GET', '/users/search')).status, 401);
  assert.is((await call(closed.api, 'GET', `/repos/${alice.name}/pub`, { token: bob.token })).status, 200);
  await closed.close();
  const explore = await startServer(db, { SERVICE_EXPLORE__REQUIRE_SIGNIN_VIEW: 'true', SERVICE_EXPLORE__DISABLE_USERS_PAGE: 'true' });
  const anon = await call(explore.api, 'GET', '/users/search');
  assert.is(anon.status, 401);
  assert.is(anon.json.message, 'you must be signed in to search for users');
  assert.is((await call(explore.api, 'GET', '/users/search', { token: bob.token })).status, 404);
  assert.is((await call(explore.api, 'GET', `/repos/${alice.name}/pub`)).status, 200);
  await explore.close();
});

test('account states: a prohibited user is refused with a bare {message}', async () => {
  const u = await makeUser(db, srv.api);
  assert.is((await api('PATCH', `/admin/users/${u.name}`, { token: admin.token, body: { prohibit_login: true } })).status, 200);
  const r = await api('GET', '/user', { token: u.token });
  assert.is(r.status, 403);
  assert.equal(Object.keys(r.json), ['message']);
});

test('errors: 404 carries `errors`, unknown owners name the lookup, 422 names the Go field and rule', async () => {
  const unknownRepo = await api('GET', `/repos/${alice.name}/nope`);
  assert.equal(unknownRepo.json, { message: "The target couldn't be found.", url: `${srv.config.appUrl}api/swagger`, errors: [] });
  const unknownOwner = await api('GET', '/repos/nobody-at-all/x');
  assert.is(unknownOwner.json.message, 'GetUserByName');
  assert.equal(unknownOwner.json.errors, ['user redirect does not exist [name: nobody-at-all]']);
  const bad = await api('POST', '/user/repos', { token: alice.token, body: { name: 'has space' } });
  assert.is(bad.status, 422);
  assert.is(bad.json.message, '[Name]: AlphaDashDot');
  const type = bad.headers.get('content-type');
  assert.is(type, 'application/json;charset=utf-8');
  assert.ok(bad.text.endsWith('\n'));
  const badJson = await api('POST', '/user/repos', {
    token: alice.token,
    body: '{"name":',
    headers: { 'Content-Type': 'application/json' },
  });
  assert.is(badJson.status, 422);
});

test('spec, path resolution rules 2 and 3: renamed repositories redirect (301) for callers who can see them', async () => {
  await makeRepo(srv.api, alice, { name: 'old-name' });
  const renamed = await api('PATCH', `/repos/${alice.name}/old-name`, { token: alice.token, body: { name: 'new-name' } });
  assert.is(renamed.status, 200);
  const r = await api('GET', `/repos/${alice.name}/old-name?x=1`);
  assert.is(r.status, 301);
  assert.is(r.headers.get('location'), `/api/v1/repos/${alice.name}/new-name?x=1`);
  await api('PATCH', `/repos/${alice.name}/new-name`, { token: alice.token, body: { private: true } });
  assert.is((await api('GET', `/repos/${alice.name}/old-name`)).status, 404);
  assert.is((await api('GET', `/repos/${alice.name}/old-name`, { token: alice.token })).status, 301);
  // Owner names are case-insensitive; the response keeps the canonical casing.
  const upper = await api('GET', `/repos/${alice.name.toUpperCase()}/PUB`);
  assert.is(upper.status, 200);
  assert.is(upper.json.full_name, `${alice.name}/pub`);
});

test.run();
