// Repositories from templates (POST {R}/generate) and repository avatars.
import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Label } from '../../model/label.ts';
import { Repository } from '../../model/repo.ts';
import { makeToken } from '../helpers/fixtures.ts';
import { exists, gitDir, newOrg, newRepo, setup, uniq, valid, type Env } from './repo-setup.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

const git = (dir: string, ...args: string[]) => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8' }).trim();
// The smallest valid PNG: 1×1.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

test('generate: git content of the default branch, topics, labels and avatar; 201 with the new repository', async () => {
  const { alice, bob } = env;
  const tpl = await newRepo(env, alice, { auto_init: true, template: true, issue_labels: 'Default' });
  await env.as(alice, 'PUT', `/repos/${tpl.full_name}/topics`, { topics: ['starter'] });
  assert.is((await env.as(alice, 'POST', `/repos/${tpl.full_name}/avatar`, { image: PNG })).status, 204);
  const name = uniq('gen');
  const r = await env.as(bob, 'POST', `/repos/${tpl.full_name}/generate`, {
    owner: bob.name,
    name,
    description: 'from tpl',
    git_content: true,
    topics: true,
    labels: true,
    avatar: true,
    private: true,
  });
  assert.is(r.status, 201, r.text);
  valid('Repository', r.json);
  assert.is(r.json.full_name, `${bob.name}/${name}`);
  assert.is(r.json.private, true);
  assert.is(r.json.template, false);
  assert.is(r.json.empty, false);
  assert.equal(r.json.topics, ['starter']);
  assert.match(r.json.avatar_url, /repo-avatars\/[0-9a-f]{64}$/);
  const dir = gitDir(env, bob.name, name);
  assert.is(git(dir, 'rev-parse', 'refs/heads/main'), git(gitDir(env, alice.name, tpl.name), 'rev-parse', 'refs/heads/main'));
  const labels = await env.db.db.orm.em.fork().find(Label, { repoId: r.json.id });
  assert.is(labels.length, 7);
  const bare = await env.as(bob, 'POST', `/repos/${tpl.full_name}/generate`, {
    owner: bob.name,
    name: uniq('gen'),
    topics: true,
    default_branch: 'dev',
  });
  assert.is(bare.status, 201, bare.text);
  assert.is(bare.json.empty, true);
  assert.is(bare.json.default_branch, 'dev');
});

test('generate refusals: not a template 422, nothing selected 422, owner rules 404/403, name taken 409', async () => {
  const { alice, bob, carol } = env;
  const plain = await newRepo(env, alice, { auto_init: true });
  const tpl = await newRepo(env, alice, { auto_init: true, template: true });
  const gen = (u = bob, body: Record<string, unknown> = {}, repo = tpl) =>
    env.as(u, 'POST', `/repos/${repo.full_name}/generate`, { owner: u.name, name: uniq('g'), git_content: true, ...body });
  const notTpl = await gen(bob, {}, plain);
  assert.is(notTpl.status, 422);
  assert.is(notTpl.json.message, 'this is not a template repo');
  assert.is((await gen(bob, { git_content: false })).status, 422);
  assert.is((await gen(bob, { owner: 'no-such-owner' })).status, 404);
  assert.is((await gen(bob, { owner: carol.name })).status, 403);
  const org = await newOrg(env, carol);
  const name = uniq('g');
  const denied = await gen(bob, { owner: org.name, name });
  assert.is(denied.status, 403);
  assert.is(denied.json.message, 'Given user is not allowed to create repository in organization.');
  assert.is(await env.db.db.orm.em.fork().count(Repository, { lowerName: name.toLowerCase() }), 0);
  const taken = await newRepo(env, bob);
  assert.is((await gen(bob, { name: taken.name })).status, 409);
  assert.is((await gen(carol, { owner: org.name })).status, 201);
  const userScope = await makeToken(env.srv.api, bob, ['write:repository']);
  assert.is(
    (await env.as(userScope, 'POST', `/repos/${tpl.full_name}/generate`, { owner: bob.name, name: uniq('g'), git_content: true })).status,
    403,
    'needs write:user',
  );
  const priv = await newRepo(env, alice, { template: true, private: true });
  assert.is((await gen(bob, {}, priv)).status, 404);
});

test('POST/DELETE {R}/avatar: stored under the data path, avatar_url set and cleared; bad images refused', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  const path = `/repos/${repo.full_name}`;
  assert.is((await env.as(bob, 'POST', `${path}/avatar`, { image: PNG })).status, 403);
  assert.is((await env.as(alice, 'POST', `${path}/avatar`, { image: '!!!' })).status, 400);
  assert.is((await env.as(alice, 'POST', `${path}/avatar`, { image: Buffer.from('not an image').toString('base64') })).status, 422);
  assert.is((await env.as(alice, 'GET', path)).json.avatar_url, '');
  assert.is((await env.as(alice, 'POST', `${path}/avatar`, { image: PNG })).status, 204);
  const url = (await env.as(alice, 'GET', path)).json.avatar_url as string;
  assert.ok(url.startsWith(`${env.srv.config.appUrl}repo-avatars/`), url);
  const file = `${env.srv.config.dataPath}/repo-avatars/${url.split('/').pop()}`;
  assert.ok(exists(file));
  const served = await fetch(url);
  assert.is(served.status, 200, 'avatar_url is served');
  assert.is(served.headers.get('content-type'), 'image/png');
  assert.ok(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(PNG, 'base64')));
  assert.is((await env.as(alice, 'DELETE', `${path}/avatar`)).status, 204);
  assert.is((await env.as(alice, 'GET', path)).json.avatar_url, '');
  assert.not.ok(exists(file));
  assert.is((await fetch(url)).status, 404, 'gone with the avatar');
});

test.run();
