// Actions runners at every scope (repository, user, organization, instance): registration tokens,
// registration, the visibility rules of lists and lookups, deletion, and the jobs waiting for a runner.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { setup, newOrg, newRepo, valid, validList, type Env } from './repo-setup.ts';
import { ActionRunner } from '../../model/actions.ts';

let env: Env;
let R = '';
let O = '';
let repoId = 0;
const em = () => env.db.db.orm.em.fork();

async function register(who: Env['alice'], base: string, name: string, extra: Record<string, unknown> = {}): Promise<number> {
  const r = await env.as(who, 'POST', `${base}/actions/runners`, { name, ...extra });
  assert.is(r.status, 201, r.text);
  valid('RegisterRunnerResponse', r.json);
  assert.not.ok('ephemeral' in r.json);
  assert.match(r.json.token, /^[0-9a-f]{40}$/);
  return r.json.id;
}

const names = (r: { json: { name: string }[] }) => r.json.map((x) => x.name).sort();

let ids: Record<string, number> = {};

test.before(async () => {
  env = await setup();
  const repo = await newRepo(env, env.alice, { auto_init: true });
  R = `/repos/${repo.full_name}`;
  repoId = repo.id;
  O = `/orgs/${(await newOrg(env, env.alice)).name}`;
});
test.after(async () => {
  await env.close();
});

test('registration tokens: one active token per scope, handed out again', async () => {
  const seen = new Set<string>();
  for (const [who, p] of [
    [env.alice, `${R}/actions/runners`],
    [env.alice, `${O}/actions/runners`],
    [env.alice, '/user/actions/runners'],
    [env.admin, '/admin/actions/runners'],
    [env.bob, '/user/actions/runners'],
  ] as const) {
    const a = await env.as(who, 'GET', `${p}/registration-token`);
    assert.is(a.status, 200, a.text);
    valid('RegistrationToken', a.json);
    assert.match(a.json.token, /^[0-9a-f]{40}$/);
    const b = await env.as(who, 'GET', `${p}/registration-token`);
    assert.is(b.json.token, a.json.token);
    seen.add(a.json.token);
  }
  assert.is(seen.size, 5);
  // The deprecated admin form shares the instance token.
  const old = await env.as(env.admin, 'GET', '/admin/runners/registration-token');
  assert.is(old.json.token, (await env.as(env.admin, 'GET', '/admin/actions/runners/registration-token')).json.token);
});

test('who may manage runners: repository owner, organization owner, admin; anonymous 401', async () => {
  assert.is((await env.as(env.bob, 'GET', `${R}/actions/runners/registration-token`)).status, 403);
  assert.is((await env.as(env.bob, 'POST', `${R}/actions/runners`, { name: 'x' })).status, 403);
  assert.is((await env.as(env.bob, 'GET', `${O}/actions/runners`)).status, 403);
  assert.is((await env.as(env.bob, 'GET', '/admin/actions/runners')).status, 403);
  assert.is((await env.as(undefined, 'GET', '/user/actions/runners')).status, 401);
  assert.is((await env.as(env.alice, 'POST', `${R}/actions/runners`, { description: 'no name' })).status, 422);
  assert.is(await em().count(ActionRunner, {}), 0);
});

test('registration at each scope records who owns the runner', async () => {
  ids = {
    repo: await register(env.alice, R, 'repo-runner', { description: 'builds', ephemeral: true }),
    user: await register(env.alice, '/user', 'alice-runner'),
    org: await register(env.alice, O, 'org-runner'),
    global: await register(env.admin, '/admin', 'global-runner'),
    bob: await register(env.bob, '/user', 'bob-runner'),
  };
  const r = await env.as(env.alice, 'GET', `${R}/actions/runners/${ids.repo}`);
  assert.is(r.status, 200, r.text);
  valid('ActionRunner', r.json);
  assert.is(r.json.repo_id, repoId);
  assert.is(r.json.owner_id, 0);
  assert.is(r.json.description, 'builds');
  assert.is(r.json.ephemeral, true);
  assert.is(r.json.status, 'offline');
  assert.equal(r.json.labels, []);
  const user = await env.as(env.alice, 'GET', `/user/actions/runners/${ids.user}`);
  assert.is(user.json.owner_id, env.alice.id);
  assert.is(user.json.repo_id, 0);
});

test('spec, runner visibility rules 1-2: own runners by default, usable ones with visible=true', async () => {
  let r = await env.as(env.alice, 'GET', `${R}/actions/runners`);
  validList('ActionRunner', r);
  assert.equal(names(r), ['repo-runner']);
  assert.is(r.headers.get('x-total-count'), '1');
  r = await env.as(env.alice, 'GET', `${R}/actions/runners?visible=true`);
  assert.equal(names(r), ['alice-runner', 'global-runner', 'repo-runner']);
  r = await env.as(env.alice, 'GET', `${O}/actions/runners`);
  assert.equal(names(r), ['org-runner']);
  r = await env.as(env.alice, 'GET', `${O}/actions/runners?visible=1`);
  assert.equal(names(r), ['global-runner', 'org-runner']);
  r = await env.as(env.alice, 'GET', '/user/actions/runners?visible=true');
  assert.equal(names(r), ['alice-runner', 'global-runner']);
  r = await env.as(env.admin, 'GET', '/admin/actions/runners');
  assert.equal(names(r), ['global-runner']);
  r = await env.as(env.admin, 'GET', '/admin/actions/runners?visible=true&limit=2');
  assert.is(r.json.length, 2);
  assert.is(r.headers.get('x-total-count'), '5');
  assert.match(r.headers.get('link') ?? '', /rel="next"/);
});

test('spec, runner visibility rule 3: a runner not visible from the scope is absent', async () => {
  assert.is((await env.as(env.alice, 'GET', `${R}/actions/runners/${ids.global}`)).status, 200);
  assert.is((await env.as(env.alice, 'GET', `${R}/actions/runners/${ids.org}`)).status, 404);
  assert.is((await env.as(env.alice, 'GET', `${R}/actions/runners/${ids.bob}`)).status, 404);
  assert.is((await env.as(env.alice, 'GET', `/user/actions/runners/${ids.bob}`)).status, 404);
  assert.is((await env.as(env.bob, 'GET', `/user/actions/runners/${ids.user}`)).status, 404);
  assert.is((await env.as(env.alice, 'GET', `${R}/actions/runners/999999`)).status, 404);
  assert.is((await env.as(env.alice, 'GET', `${R}/actions/runners/abc`)).status, 404);
  assert.is((await env.as(env.admin, 'GET', `/admin/actions/runners/${ids.bob}`)).status, 200);
});

test('deletion: only runners the scope owns; the instance deletes any', async () => {
  assert.is((await env.as(env.alice, 'DELETE', `${R}/actions/runners/${ids.global}`)).status, 404);
  assert.is((await env.as(env.alice, 'DELETE', `/user/actions/runners/${ids.bob}`)).status, 404);
  assert.is(await em().count(ActionRunner, {}), 5);
  assert.is((await env.as(env.alice, 'DELETE', `${R}/actions/runners/${ids.repo}`)).status, 204);
  assert.is((await env.as(env.admin, 'DELETE', `/admin/actions/runners/${ids.bob}`)).status, 204);
  assert.is((await env.as(env.alice, 'GET', `${R}/actions/runners/${ids.repo}`)).status, 404);
  assert.equal(
    (await em().find(ActionRunner, {}, { orderBy: { id: 'asc' } })).map((x) => x.name),
    ['alice-runner', 'org-runner', 'global-runner'],
  );
});

test('runner jobs: waiting jobs of the scope, filtered by labels', async () => {
  const wf =
    'on: workflow_dispatch\njobs:\n  one:\n    runs-on: docker\n  two:\n    runs-on: [docker, arm]\n  three:\n    needs: one\n    runs-on: docker\n  bare:\n    steps: []\n';
  const c = await env.as(env.alice, 'POST', `${R}/contents/.gitea/workflows/jobs.yml`, { content: Buffer.from(wf).toString('base64') });
  assert.is(c.status, 201, c.text);
  const d = await env.as(env.alice, 'POST', `${R}/actions/workflows/jobs.yml/dispatches`, { ref: 'main' });
  assert.is(d.status, 204, d.text);
  const jobNames = (r: { json: { name: string }[] }) => r.json.map((j) => j.name);
  let r = await env.as(env.alice, 'GET', `${R}/actions/runners/jobs`);
  assert.is(r.status, 200, r.text);
  validList('ActionRunJob', r);
  assert.equal(jobNames(r), ['one', 'two', 'bare']);
  assert.is(r.json[0].status, 'waiting');
  assert.equal(r.json[0].runs_on, ['docker']);
  r = await env.as(env.alice, 'GET', `${R}/actions/runners/jobs?labels=docker`);
  assert.equal(jobNames(r), ['one']);
  r = await env.as(env.alice, 'GET', `${R}/actions/runners/jobs?labels=arm,docker`);
  assert.equal(jobNames(r), ['one', 'two']);
  r = await env.as(env.alice, 'GET', `${R}/actions/runners/jobs?labels=`);
  assert.equal(jobNames(r), ['bare']);
  r = await env.as(env.alice, 'GET', '/user/actions/runners/jobs?labels=docker');
  assert.equal(jobNames(r), ['one']);
  r = await env.as(env.bob, 'GET', '/user/actions/runners/jobs');
  assert.equal(r.json, []);
  r = await env.as(env.alice, 'GET', `${O}/actions/runners/jobs`);
  assert.equal(r.json, []);
  for (const p of ['/admin/actions/runners/jobs?labels=docker', '/admin/runners/jobs?labels=docker']) {
    r = await env.as(env.admin, 'GET', p);
    assert.equal(jobNames(r), ['one'], p);
  }
});

test('spec, path resolution rule 5: repository runner routes answer 404 with the actions unit off', async () => {
  assert.is((await env.as(env.alice, 'PATCH', R, { has_actions: false })).status, 200);
  assert.is((await env.as(env.alice, 'GET', `${R}/actions/runners`)).status, 404);
  assert.is((await env.as(env.alice, 'POST', `${R}/actions/runners`, { name: 'late' })).status, 404);
  assert.is(await em().count(ActionRunner, { name: 'late' }), 0);
});

test.run();
