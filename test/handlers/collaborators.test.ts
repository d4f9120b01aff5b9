// Collaborators (list, lookup, permission), assignees, reviewers and repository teams.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newOrg, newRepo, setup, valid, validList, type Env } from './repo-setup.ts';
import type { Res } from '../helpers/client.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

const logins = (r: Res) => (r.json as { login: string }[]).map((u) => u.login);

test('GET {R}/collaborators lists Users; GET {R}/collaborators/{c} is 204, 404 or 422', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice);
  const path = `/repos/${repo.full_name}/collaborators`;
  assert.is((await env.as(alice, 'PUT', `${path}/${bob.name}`, { permission: 'read' })).status, 204);
  const list = await env.as(alice, 'GET', path);
  assert.is(list.status, 200);
  validList('User', list);
  assert.equal(logins(list), [bob.name]);
  assert.is(list.headers.get('x-total-count'), '1');
  assert.is((await env.as(alice, 'GET', `${path}/${bob.name}`)).status, 204);
  assert.is((await env.as(alice, 'GET', `${path}/${carol.name}`)).status, 404);
  const unknown = await env.as(alice, 'GET', `${path}/nobody-here`);
  assert.is(unknown.status, 422);
  assert.is((await env.api('GET', path)).status, 401);
});

test('GET {R}/collaborators/{c}/permission: admin, repo admin or the user themself; others 403', async () => {
  const { admin, alice, bob, carol } = env;
  const repo = await newRepo(env, alice);
  const path = `/repos/${repo.full_name}/collaborators`;
  await env.as(alice, 'PUT', `${path}/${bob.name}`, { permission: 'write' });
  const own = await env.as(bob, 'GET', `${path}/${bob.name}/permission`);
  assert.is(own.status, 200, own.text);
  valid('RepoCollaboratorPermission', own.json);
  assert.is(own.json.permission, 'write');
  assert.is(own.json.role_name, 'write');
  assert.is(own.json.user.login, bob.name);
  const byOwner = await env.as(alice, 'GET', `${path}/${carol.name}/permission`);
  assert.is(byOwner.json.permission, 'read', 'a public repository gives everyone read');
  assert.is((await env.as(alice, 'GET', `${path}/${alice.name}/permission`)).json.permission, 'owner');
  assert.is((await env.as(admin, 'GET', `${path}/${bob.name}/permission`)).status, 200);
  const denied = await env.as(bob, 'GET', `${path}/${carol.name}/permission`);
  assert.is(denied.status, 403);
  assert.is((await env.as(alice, 'GET', `${path}/nobody-here/permission`)).status, 404);
});

test('GET {R}/assignees: writers and the owner; GET {R}/reviewers: readers, watchers', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice);
  const path = `/repos/${repo.full_name}`;
  await env.as(alice, 'PUT', `${path}/collaborators/${bob.name}`, { permission: 'write' });
  await env.as(alice, 'PUT', `${path}/collaborators/${carol.name}`, { permission: 'read' });
  const a = await env.as(alice, 'GET', `${path}/assignees`);
  assert.is(a.status, 200, a.text);
  validList('User', a);
  assert.equal(new Set(logins(a)), new Set([bob.name, alice.name]));
  const r = await env.as(alice, 'GET', `${path}/reviewers`);
  validList('User', r);
  assert.equal(new Set(logins(r)), new Set([alice.name, bob.name, carol.name]));
});

test('repository teams: list, get, add, remove; 405 for a repository of an individual', async () => {
  const { alice, bob } = env;
  const org = await newOrg(env, alice);
  const team = await env.as(alice, 'POST', `/orgs/${org.name}/teams`, { name: 'devs', permission: 'write', units: ['repo.code'] });
  assert.is(team.status, 201, team.text);
  const repo = (await env.as(alice, 'POST', `/orgs/${org.name}/repos`, { name: 'teamed' })).json;
  const path = `/repos/${repo.full_name}/teams`;
  assert.equal(
    (await env.as(alice, 'GET', path)).json.map((t: { name: string }) => t.name),
    ['Owners'],
  );
  assert.is((await env.as(alice, 'GET', `${path}/devs`)).status, 404);
  assert.is((await env.as(alice, 'PUT', `${path}/devs`)).status, 204);
  assert.is((await env.as(alice, 'PUT', `${path}/devs`)).status, 422);
  const got = await env.as(alice, 'GET', `${path}/devs`);
  assert.is(got.status, 200);
  valid('Team', got.json);
  assert.is(got.json.organization.name, org.name);
  await env.as(alice, 'PUT', `/teams/${team.json.id}/members/${bob.name}`);
  assert.equal((await env.as(bob, 'GET', `/repos/${repo.full_name}`)).json.permissions.push, true);
  assert.is((await env.as(bob, 'PUT', `${path}/Owners`)).status, 403, 'a writer is no repository admin');
  assert.is((await env.as(alice, 'DELETE', `${path}/devs`)).status, 204);
  assert.is((await env.as(alice, 'DELETE', `${path}/devs`)).status, 422);
  assert.is((await env.as(alice, 'GET', `${path}/nosuch`)).status, 404);
  const mine = await newRepo(env, alice);
  const notOrg = await env.as(alice, 'GET', `/repos/${mine.full_name}/teams`);
  assert.is(notOrg.status, 405);
  assert.is(notOrg.json.message, 'repo is not owned by an organization');
});

test.run();
