// Repository transfers: immediate (admin, to oneself, to an organization one may create in) or pending
// (accept/reject by the recipient), the git directory moving, and the redirect from the old name.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeToken } from '../helpers/fixtures.ts';
import { exists, gitDir, newOrg, newRepo, setup, valid, type Env } from './repo-setup.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

test('to another user: 201 pending with repo_transfer; the recipient accepts (202); the directory moves; the old name redirects', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice, { auto_init: true, private: true });
  const start = await env.as(alice, 'POST', `/repos/${repo.full_name}/transfer`, { new_owner: bob.name });
  assert.is(start.status, 201, start.text);
  valid('Repository', start.json);
  assert.is(start.json.owner.login, alice.name);
  assert.is(start.json.repo_transfer.doer.login, alice.name);
  assert.is(start.json.repo_transfer.recipient.login, bob.name);
  // The recipient can see what it is asked to accept.
  const seen = await env.as(bob, 'GET', `/repos/${repo.full_name}`);
  assert.is(seen.status, 200);
  assert.is(seen.json.repo_transfer.recipient.login, bob.name);
  assert.is(
    (await env.as(alice, 'POST', `/repos/${repo.full_name}/transfer`, { new_owner: env.carol.name })).status,
    409,
    'one transfer at a time',
  );
  assert.is((await env.as(alice, 'POST', `/repos/${repo.full_name}/transfer/accept`)).status, 403, 'only the recipient accepts');

  const accept = await env.as(bob, 'POST', `/repos/${repo.full_name}/transfer/accept`);
  assert.is(accept.status, 202, accept.text);
  valid('Repository', accept.json);
  assert.is(accept.json.full_name, `${bob.name}/${repo.name}`);
  assert.is(accept.json.repo_transfer, null);
  assert.not.ok(exists(gitDir(env, alice.name, repo.name)));
  assert.ok(exists(`${gitDir(env, bob.name, repo.name)}/HEAD`));
  const old = await env.api('GET', `/repos/${repo.full_name}`, { token: bob.token });
  assert.is(old.status, 301);
  assert.ok(old.headers.get('location')?.endsWith(`/repos/${bob.name}/${repo.name}`));
  assert.is((await env.as(bob, 'POST', `/repos/${bob.name}/${repo.name}/transfer/accept`)).status, 404, 'nothing pending any more');
});

test('reject: 200, the repository stays', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  assert.is((await env.as(alice, 'POST', `/repos/${repo.full_name}/transfer`, { new_owner: bob.name })).status, 201);
  const r = await env.as(bob, 'POST', `/repos/${repo.full_name}/transfer/reject`);
  assert.is(r.status, 200, r.text);
  assert.is(r.json.owner.login, alice.name);
  assert.is(r.json.repo_transfer, null);
  assert.ok(exists(gitDir(env, alice.name, repo.name)));
});

test('to an organization the caller owns: 202 at once; team_ids are checked', async () => {
  const { alice, bob } = env;
  const org = await newOrg(env, alice);
  const other = await newOrg(env, bob);
  const otherTeam = (await env.as(bob, 'GET', `/orgs/${other.name}/teams`)).json[0];
  const repo = await newRepo(env, alice);
  assert.is(
    (await env.as(alice, 'POST', `/repos/${repo.full_name}/transfer`, { new_owner: org.name, team_ids: [otherTeam.id] })).status,
    403,
  );
  assert.is((await env.as(alice, 'POST', `/repos/${repo.full_name}/transfer`, { new_owner: org.name, team_ids: [99999999] })).status, 422);
  assert.is((await env.as(alice, 'POST', `/repos/${repo.full_name}/transfer`, { new_owner: bob.name, team_ids: [] })).status, 422);
  const r = await env.as(alice, 'POST', `/repos/${repo.full_name}/transfer`, { new_owner: org.name });
  assert.is(r.status, 202, r.text);
  assert.is(r.json.full_name, `${org.name}/${repo.name}`);
  assert.ok(exists(gitDir(env, org.name, repo.name)));
});

test('refusals: unknown owner 404, a name taken at the recipient 422, non-owners 403, repo-specific tokens 403', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice);
  assert.is((await env.as(alice, 'POST', `/repos/${repo.full_name}/transfer`, { new_owner: 'no-such-user' })).status, 404);
  const hidden = await newOrg(env, bob, { visibility: 'private' });
  const priv = await env.as(alice, 'POST', `/repos/${repo.full_name}/transfer`, { new_owner: hidden.name });
  assert.is(priv.status, 404, 'a private organization is unknown to non-members');
  await env.as(carol, 'POST', '/user/repos', { name: repo.name });
  assert.is((await env.as(alice, 'POST', `/repos/${repo.full_name}/transfer`, { new_owner: carol.name })).status, 422);
  await env.as(alice, 'PUT', `/repos/${repo.full_name}/collaborators/${bob.name}`, { permission: 'admin' });
  assert.is(
    (await env.as(bob, 'POST', `/repos/${repo.full_name}/transfer`, { new_owner: bob.name })).status,
    403,
    'admin collaborators are not owners',
  );
  const specific = await makeToken(env.srv.api, alice, ['write:repository'], { repositories: [{ owner: alice.name, name: repo.name }] });
  assert.is((await env.as(specific, 'POST', `/repos/${repo.full_name}/transfer`, { new_owner: bob.name })).status, 403);
  assert.is((await env.as(alice, 'GET', `/repos/${repo.full_name}`)).json.repo_transfer, null);
});

test('a site admin transfers at once, even to another user', async () => {
  const { admin, alice, bob } = env;
  const repo = await newRepo(env, alice);
  const r = await env.as(admin, 'POST', `/repos/${repo.full_name}/transfer`, { new_owner: bob.name });
  assert.is(r.status, 202, r.text);
  assert.is(r.json.owner.login, bob.name);
});

test.run();
