// Stars and watches: star/unstar, stargazers, starred lists, subscription routes and counters.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeToken } from '../helpers/fixtures.ts';
import type { Res } from '../helpers/client.ts';
import { newRepo, setup, valid, validList, type Env } from './repo-setup.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

const fullNames = (r: Res) => (r.json as { full_name: string }[]).map((x) => x.full_name);

test('PUT/GET/DELETE /user/starred/{o}/{r}; stars_count and stargazers follow', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  const path = `/user/starred/${repo.full_name}`;
  assert.is((await env.as(bob, 'GET', path)).status, 404);
  assert.is((await env.as(bob, 'PUT', path)).status, 204);
  assert.is((await env.as(bob, 'PUT', path)).status, 204, 'starring twice is harmless');
  assert.is((await env.as(bob, 'GET', path)).status, 204);
  assert.is((await env.as(alice, 'GET', `/repos/${repo.full_name}`)).json.stars_count, 1);
  const gazers = await env.as(alice, 'GET', `/repos/${repo.full_name}/stargazers`);
  validList('User', gazers);
  assert.equal(
    gazers.json.map((u: { login: string }) => u.login),
    [bob.name],
  );
  assert.is(gazers.headers.get('x-total-count'), '1');
  const mine = await env.as(bob, 'GET', '/user/starred');
  validList('Repository', mine);
  assert.equal(fullNames(mine), [repo.full_name]);
  assert.equal(fullNames(await env.as(alice, 'GET', `/users/${bob.name}/starred`)), [repo.full_name]);
  assert.is((await env.as(bob, 'DELETE', path)).status, 204);
  assert.is((await env.as(alice, 'GET', `/repos/${repo.full_name}`)).json.stars_count, 0);
  assert.equal((await env.as(bob, 'GET', '/user/starred')).json, []);
});

test('GET /users/{username}/starred needs a signed-in caller (spec: TOK): anonymous 401', async () => {
  const r = await env.api('GET', `/users/${env.alice.name}/starred`);
  assert.is(r.status, 401, r.text);
  assert.is(r.json.message, 'token is required');
  assert.is((await env.as(env.bob, 'GET', `/users/${env.alice.name}/starred`)).status, 200);
});

test('starred lists leave out what the caller can no longer reach', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice, { private: true });
  await env.as(alice, 'PUT', `/repos/${repo.full_name}/collaborators/${bob.name}`, { permission: 'read' });
  assert.is((await env.as(bob, 'PUT', `/user/starred/${repo.full_name}`)).status, 204);
  assert.ok(fullNames(await env.as(bob, 'GET', '/user/starred')).includes(repo.full_name));
  const publicOnly = await makeToken(env.srv.api, bob, ['public-only', 'read:user', 'read:repository']);
  assert.not.ok(fullNames(await env.as(publicOnly, 'GET', '/user/starred')).includes(repo.full_name));
  await env.as(alice, 'DELETE', `/repos/${repo.full_name}/collaborators/${bob.name}`);
  assert.not.ok(fullNames(await env.as(bob, 'GET', '/user/starred')).includes(repo.full_name));
  assert.is((await env.as(bob, 'PUT', `/user/starred/${repo.full_name}`)).status, 404);
});

test('subscription: GET 404 until watched, PUT answers WatchInfo, DELETE 204; subscribers and watchers_count', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  const path = `/repos/${repo.full_name}/subscription`;
  assert.is((await env.as(bob, 'GET', path)).status, 404);
  const put = await env.as(bob, 'PUT', path);
  assert.is(put.status, 200, put.text);
  valid('WatchInfo', put.json);
  assert.is(put.json.subscribed, true);
  assert.is(put.json.repository_url, `${env.srv.config.appUrl}api/v1/repos/${repo.full_name}`);
  assert.is(put.json.url, `${env.srv.config.appUrl}api/v1/repos/${repo.full_name}/subscription`);
  assert.is((await env.as(bob, 'GET', path)).status, 200);
  const subs = await env.as(bob, 'GET', `/repos/${repo.full_name}/subscribers`);
  validList('User', subs);
  assert.equal(new Set(subs.json.map((u: { login: string }) => u.login)), new Set([alice.name, bob.name]));
  assert.is((await env.as(bob, 'GET', `/repos/${repo.full_name}`)).json.watchers_count, 2);
  assert.ok(fullNames(await env.as(bob, 'GET', '/user/subscriptions')).includes(repo.full_name));
  assert.is((await env.as(bob, 'DELETE', path)).status, 204);
  assert.is((await env.as(bob, 'GET', path)).status, 404);
  assert.is((await env.as(bob, 'GET', `/repos/${repo.full_name}`)).json.watchers_count, 1);
  assert.is((await env.api('PUT', path)).status, 401);
});

test('a user the owner blocked may not star or watch (403), and nothing changes', async () => {
  const { alice, carol } = env;
  const repo = await newRepo(env, alice);
  assert.is((await env.as(alice, 'PUT', `/user/block/${carol.name}`)).status, 204);
  assert.is((await env.as(carol, 'PUT', `/user/starred/${repo.full_name}`)).status, 403);
  assert.is((await env.as(carol, 'PUT', `/repos/${repo.full_name}/subscription`)).status, 403);
  const now = (await env.as(alice, 'GET', `/repos/${repo.full_name}`)).json;
  assert.is(now.stars_count, 0);
  assert.is(now.watchers_count, 1);
  await env.as(alice, 'PUT', `/user/unblock/${carol.name}`);
});

test.run();
