// Actions runs: workflow dispatch from a real workflow file (written through the contents API),
// runs, jobs, tasks, logs and artifacts. cairn has no runner protocol: tasks with their logs and
// artifacts are recorded with lib/actions/actions.ts (recordTaskLog, storeArtifact), as a runner would.
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { setup, newRepo, valid, validList, type Env } from './repo-setup.ts';
import { ActionRun, ActionRunJob } from '../../model/actions.ts';
import { ActionTask } from '../../model/action-task.ts';
import { artifactFile, logFile, recordTaskLog, storeArtifact } from '../../lib/actions/actions.ts';
import { hashToken, newSalt, newTokenValue } from '../../lib/auth/tokens.ts';

let env: Env;
let R = '';
let other = '';
const em = () => env.db.db.orm.em.fork();

const BUILD = `name: Build it
on:
  push:
  workflow_dispatch:
    inputs:
      target:
        description: Target to build
        required: true
      level:
        type: choice
        options: [low, high]
        default: low
      dry:
        type: boolean
jobs:
  build:
    runs-on: docker
    steps:
      - run: make
  test:
    name: Run tests
    needs: build
    runs-on: [docker, linux]
    steps:
      - run: make test
`;

async function writeFile(repo: string, path: string, content: string) {
  const r = await env.as(env.alice, 'POST', `${repo}/contents/${path}`, {
    content: Buffer.from(content).toString('base64'),
    message: `add ${path}`,
  });
  assert.is(r.status, 201, r.text);
}

const dispatch = (body: unknown, file = 'build.yml', who = env.alice) =>
  env.as(who, 'POST', `${R}/actions/workflows/${file}/dispatches`, body);

async function runCount(): Promise<number> {
  const r = await env.as(env.alice, 'GET', `${R}/actions/runs`);
  assert.is(r.status, 200, r.text);
  return r.json.total_count;
}

test.before(async () => {
  env = await setup();
  const repo = await newRepo(env, env.alice, { auto_init: true });
  R = `/repos/${repo.full_name}`;
  await writeFile(R, '.forgejo/workflows/build.yml', BUILD);
  await writeFile(R, '.forgejo/workflows/push-only.yml', 'on: push\njobs:\n  a:\n    runs-on: docker\n');
  await writeFile(R, '.forgejo/workflows/broken.yml', 'on: [workflow_dispatch\njobs: {');
  const o = await newRepo(env, env.alice, { auto_init: true });
  other = `/repos/${o.full_name}`;
  await writeFile(other, '.github/workflows/gh.yaml', 'on: workflow_dispatch\njobs:\n  only:\n    runs-on: ubuntu-latest\n');
});
test.after(async () => {
  await env.close();
});

test('dispatch refuses missing or invalid inputs with 400 and creates nothing', async () => {
  let r = await dispatch({ ref: 'main' });
  assert.is(r.status, 400, r.text);
  assert.is(r.json.message, "input required for 'Target to build'");
  r = await dispatch({ ref: 'main', inputs: { target: 'x', level: 'medium' } });
  assert.is(r.status, 400, r.text);
  r = await dispatch({ ref: 'main', inputs: { target: 'x', dry: 'maybe' } });
  assert.is(r.status, 400, r.text);
  // `ref` is bound as Required, so an empty one fails binding before Forgejo's own "ref is empty".
  r = await dispatch({ ref: '', inputs: { target: 'x' } });
  assert.is(r.status, 422, r.text);
  r = await dispatch({ inputs: { target: 'x' } });
  assert.is(r.status, 422, r.text);
  assert.is(await runCount(), 0);
});

test('dispatch answers 404 for an unknown workflow or ref, 400 without a workflow_dispatch trigger, 422 for a broken file', async () => {
  assert.is((await dispatch({ ref: 'main' }, 'nope.yml')).status, 404);
  assert.is((await dispatch({ ref: 'no-such-branch', inputs: { target: 'x' } })).status, 404);
  assert.is((await dispatch({ ref: 'main' }, 'push-only.yml')).status, 400);
  assert.is((await dispatch({ ref: 'main' }, 'broken.yml')).status, 422);
  assert.is(await runCount(), 0);
});

test('dispatch needs sign-in and write on actions', async () => {
  assert.is((await env.as(undefined, 'POST', `${R}/actions/workflows/build.yml/dispatches`, { ref: 'main' })).status, 401);
  assert.is((await dispatch({ ref: 'main', inputs: { target: 'x' } }, 'build.yml', env.bob)).status, 403);
  assert.is(await runCount(), 0);
});

test('dispatch creates a waiting run with one job per job, and returns its info when asked', async () => {
  const r = await dispatch({ ref: 'main', inputs: { target: 'lib', dry: 'true', ignored: 'x' }, return_run_info: true });
  assert.is(r.status, 201, r.text);
  valid('DispatchWorkflowRun', r.json);
  assert.is(r.json.run_number, 1);
  assert.equal(r.json.jobs, ['build', 'test']);
  const plain = await dispatch({ ref: 'refs/heads/main', inputs: { target: 'app' } });
  assert.is(plain.status, 204, plain.text);
  assert.is(plain.text, '');

  const run = await env.as(env.alice, 'GET', `${R}/actions/runs/${r.json.id}`);
  assert.is(run.status, 200, run.text);
  valid('ActionRun', run.json);
  assert.is(run.json.title, 'Build it');
  assert.is(run.json.workflow_id, 'build.yml');
  assert.is(run.json.event, 'workflow_dispatch');
  assert.is(run.json.trigger_event, 'workflow_dispatch');
  assert.is(run.json.status, 'waiting');
  assert.is(run.json.prettyref, 'main');
  assert.is(run.json.index_in_repo, 1);
  assert.is(run.json.trigger_user.login, env.alice.name);
  assert.is(run.json.repository.full_name, R.slice('/repos/'.length));
  assert.is(run.json.commit_sha.length, 40);
  assert.ok(run.json.html_url.endsWith(`${R.slice('/repos'.length)}/actions/runs/1`), run.json.html_url);
  const payload = JSON.parse(run.json.event_payload);
  assert.equal(payload.inputs, { target: 'lib', level: 'low', dry: 'true' });
  assert.is(payload.workflow, '.forgejo/workflows/build.yml');
  assert.is(payload.ref, 'refs/heads/main');

  const jobs = await env.as(env.alice, 'GET', `${R}/actions/runs/${r.json.id}/jobs`);
  assert.is(jobs.status, 200, jobs.text);
  validList('ActionRunJob', jobs);
  assert.equal(
    jobs.json.map((j: { name: string; status: string }) => [j.name, j.status]),
    [
      ['build', 'waiting'],
      ['Run tests', 'blocked'],
    ],
  );
  assert.equal(jobs.json[1].needs, ['build']);
  assert.equal(jobs.json[1].runs_on, ['docker', 'linux']);
  assert.is(jobs.json[0].task_id, 0);
  assert.is(jobs.json[0].run_id, r.json.id);
});

test('a workflow in .github/workflows is found when .forgejo/.gitea have none', async () => {
  const r = await env.as(env.alice, 'POST', `${other}/actions/workflows/gh.yaml/dispatches`, { ref: 'main', return_run_info: true });
  assert.is(r.status, 201, r.text);
  assert.is(r.json.run_number, 1);
  const run = await env.as(env.alice, 'GET', `${other}/actions/runs/${r.json.id}`);
  assert.is(run.json.title, '.github/workflows/gh.yaml');
  // Runs live in their own table: another repository's run id is unknown here.
  assert.is((await env.as(env.alice, 'GET', `${R}/actions/runs/${r.json.id}`)).status, 404);
  assert.is((await env.as(env.alice, 'GET', `${R}/actions/runs/${r.json.id}/jobs`)).status, 404);
});

test('runs list: newest first, filters, paging, unknown status 400', async () => {
  let r = await env.as(env.alice, 'GET', `${R}/actions/runs`);
  valid('ListActionRunResponse', r.json);
  assert.is(r.json.total_count, 2);
  assert.equal(
    r.json.workflow_runs.map((x: { index_in_repo: number }) => x.index_in_repo),
    [2, 1],
  );
  r = await env.as(env.alice, 'GET', `${R}/actions/runs?run_number=1`);
  assert.equal(
    r.json.workflow_runs.map((x: { index_in_repo: number }) => x.index_in_repo),
    [1],
  );
  r = await env.as(env.alice, 'GET', `${R}/actions/runs?event=push`);
  assert.is(r.json.total_count, 0);
  r = await env.as(env.alice, 'GET', `${R}/actions/runs?status=waiting&status=running&limit=1&page=2`);
  assert.is(r.json.total_count, 2);
  assert.equal(
    r.json.workflow_runs.map((x: { index_in_repo: number }) => x.index_in_repo),
    [1],
  );
  r = await env.as(env.alice, 'GET', `${R}/actions/runs?status=success`);
  assert.is(r.json.total_count, 0);
  const sha = (await env.as(env.alice, 'GET', `${R}/actions/runs`)).json.workflow_runs[0].commit_sha;
  r = await env.as(env.alice, 'GET', `${R}/actions/runs?head_sha=${sha}`);
  assert.is(r.json.total_count, 2);
  r = await env.as(env.alice, 'GET', `${R}/actions/runs?status=bogus`);
  assert.is(r.status, 400, r.text);
  assert.is(r.json.message, 'unknown status: bogus');
  // Public repository: anyone may read its runs.
  assert.is((await env.as(undefined, 'GET', `${R}/actions/runs`)).status, 200);
});

async function firstRun(): Promise<{ run: number; build: number; test: number }> {
  const runs = await env.as(env.alice, 'GET', `${R}/actions/runs?run_number=1`);
  const id = runs.json.workflow_runs[0].id;
  const jobs = (await env.as(env.alice, 'GET', `${R}/actions/runs/${id}/jobs`)).json;
  return { run: id, build: jobs[0].id, test: jobs[1].id };
}

test('job logs: 404 before a task, the log text after, with Range and attempt', async () => {
  const { build } = await firstRun();
  let r = await env.as(env.alice, 'GET', `${R}/actions/jobs/${build}/logs`);
  assert.is(r.status, 404, r.text);
  const m = em();
  const job = await m.findOneOrFail(ActionRunJob, { id: build });
  const firstHandle = job.handle;
  await recordTaskLog(m, env.srv.config, job, 'first attempt\n', 'failure');
  await recordTaskLog(m, env.srv.config, job, 'hello world\nsecond line\n', 'success');
  r = await env.as(env.alice, 'GET', `${R}/actions/jobs/${build}/logs`);
  assert.is(r.status, 200, r.text);
  assert.ok((r.headers.get('content-type') ?? '').startsWith('text/plain'));
  assert.is(r.text, 'hello world\nsecond line\n');
  r = await env.api('GET', `${R}/actions/jobs/${build}/logs`, { token: env.alice.token, headers: { Range: 'bytes=0-4' } });
  assert.is(r.status, 206);
  assert.is(r.text, 'hello');
  assert.is(r.headers.get('content-range'), 'bytes 0-4/24');
  r = await env.api('GET', `${R}/actions/jobs/${build}/logs`, { token: env.alice.token, headers: { Range: 'bytes=-5' } });
  assert.is(r.text, 'line\n');
  const beyond = await fetch(`${env.srv.api}${R}/actions/jobs/${build}/logs`, {
    headers: { Authorization: `token ${env.alice.token}`, Range: 'bytes=500-' },
  });
  assert.is(beyond.status, 416);
  assert.is(beyond.headers.get('content-range'), 'bytes */24');
  r = await env.as(env.alice, 'GET', `${R}/actions/jobs/${build}/logs?attempt=1`);
  assert.is(r.text, 'first attempt\n');
  // Logs may hold secrets: sign-in is required even on a public repository.
  assert.is((await env.as(undefined, 'GET', `${R}/actions/jobs/${build}/logs`)).status, 401);
  const jobs = (await env.as(env.alice, 'GET', `${R}/actions/runs/${(await firstRun()).run}/jobs`)).json;
  assert.is(jobs[0].attempt, 2);
  assert.is.not(jobs[0].handle, firstHandle);
  assert.is(jobs[0].status, 'success');
  assert.ok(jobs[0].task_id > 0);
});

test('run logs: a zip with the latest log of each job that has one', async () => {
  const { run } = await firstRun();
  const res = await fetch(`${env.srv.api}${R}/actions/runs/${run}/logs`, { headers: { Authorization: `token ${env.alice.token}` } });
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'application/zip');
  const zip = Buffer.from(await res.arrayBuffer());
  assert.is(zip.readUInt32LE(0), 0x04034b50);
  assert.ok(zip.includes(Buffer.from('build.log')));
  assert.ok(zip.includes(Buffer.from('hello world\nsecond line\n')));
  assert.not.ok(zip.includes(Buffer.from('first attempt')));
  const runs = (await env.as(env.alice, 'GET', `${R}/actions/runs?run_number=2`)).json.workflow_runs;
  assert.is((await env.as(env.alice, 'GET', `${R}/actions/runs/${runs[0].id}/logs`)).status, 404);
});

test('tasks list: one entry per attempt, ActionTaskResponse, status filter', async () => {
  let r = await env.as(env.alice, 'GET', `${R}/actions/tasks`);
  assert.is(r.status, 200, r.text);
  valid('ActionTaskResponse', r.json);
  assert.is(r.json.total_count, 2);
  const [latest] = r.json.workflow_runs;
  assert.is(latest.status, 'success');
  assert.is(latest.name, 'build');
  assert.is(latest.run_number, 1);
  assert.is(latest.head_branch, 'main');
  assert.is(latest.workflow_id, 'build.yml');
  assert.is(latest.display_title, 'Build it');
  r = await env.as(env.alice, 'GET', `${R}/actions/tasks?status=failure`);
  assert.is(r.json.total_count, 1);
  assert.is((await env.as(env.alice, 'GET', `${R}/actions/tasks?status=nope`)).status, 400);
});

test('artifacts: list, name filter, get, zip download, delete (write needed), other repository 404', async () => {
  const { run } = await firstRun();
  const m = em();
  const runRow = await m.findOneOrFail(ActionRun, { id: run });
  const bytes = Buffer.from('PK\x05\x06' + '\0'.repeat(18), 'binary');
  const dist = await storeArtifact(m, env.srv.config, runRow, 'dist', bytes);
  await storeArtifact(m, env.srv.config, runRow, 'coverage', Buffer.from('zip-bytes'));
  let r = await env.as(env.alice, 'GET', `${R}/actions/artifacts`);
  assert.is(r.status, 200, r.text);
  validList('ActionArtifact', r);
  assert.is(r.headers.get('x-total-count'), '2');
  assert.equal(
    r.json.map((a: { name: string }) => a.name),
    ['dist', 'coverage'],
  );
  assert.is(r.json[0].size_in_bytes, bytes.length);
  assert.is(r.json[0].expired, false);
  assert.ok(r.json[0].archive_download_url.endsWith(`${R}/actions/artifacts/${dist.id}/zip`));
  r = await env.as(env.alice, 'GET', `${R}/actions/artifacts?name=coverage`);
  assert.equal(
    r.json.map((a: { name: string }) => a.name),
    ['coverage'],
  );
  r = await env.as(env.alice, 'GET', `${R}/actions/runs/${run}/artifacts`);
  assert.is(r.json.length, 2);
  r = await env.as(env.alice, 'GET', `${R}/actions/artifacts/${dist.id}`);
  valid('ActionArtifact', r.json);
  assert.is(r.json.run_id, run);
  assert.is((await env.as(env.alice, 'GET', `${other}/actions/artifacts/${dist.id}`)).status, 404);

  const res = await fetch(`${env.srv.api}${R}/actions/artifacts/${dist.id}/zip`);
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'application/zip');
  assert.ok(Buffer.from(await res.arrayBuffer()).equals(bytes));

  assert.is((await env.as(env.bob, 'DELETE', `${R}/actions/artifacts/${dist.id}`)).status, 403);
  assert.ok(fs.existsSync(artifactFile(env.srv.config, dist)));
  assert.is((await env.as(env.alice, 'DELETE', `${R}/actions/artifacts/${dist.id}`)).status, 204);
  assert.not.ok(fs.existsSync(artifactFile(env.srv.config, dist)));
  assert.is((await env.as(env.alice, 'GET', `${R}/actions/artifacts/${dist.id}`)).status, 404);
  assert.is((await env.as(env.alice, 'GET', `${R}/actions/artifacts/${dist.id}/zip`)).status, 404);
  assert.is((await env.as(env.alice, 'GET', `${R}/actions/artifacts`)).json.length, 1);
});

test('GET /actions/run answers the run of the calling task, and 403 for other credentials', async () => {
  const { run, test: testJob } = await firstRun();
  const value = newTokenValue();
  const salt = newSalt();
  const m = em();
  m.create(ActionTask, {
    repoId: (await m.findOneOrFail(ActionRun, { id: run })).repoId,
    jobId: testJob,
    status: 'running',
    tokenHash: hashToken(value, salt),
    tokenSalt: salt,
    tokenLastEight: value.slice(-8),
  });
  await m.flush();
  let r = await env.as(value, 'GET', '/actions/run');
  assert.is(r.status, 200, r.text);
  valid('ActionRun', r.json);
  assert.is(r.json.id, run);
  r = await env.as(env.alice, 'GET', '/actions/run');
  assert.is(r.status, 403);
  assert.is(r.json.message, 'must use an automatic actions token');
});

test('delete run: admins only, finished runs only, everything of the run goes', async () => {
  const { run, build } = await firstRun();
  const m = em();
  const tasks = await m.find(ActionTask, { jobId: build });
  const logs = tasks.map((t) => logFile(env.srv.config, t));
  assert.ok(logs.every((f) => fs.existsSync(f)));
  assert.is((await env.as(env.bob, 'DELETE', `${R}/actions/runs/${run}`)).status, 403);
  let r = await env.as(env.alice, 'DELETE', `${R}/actions/runs/${run}`);
  assert.is(r.status, 400, r.text);
  assert.ok(await m.findOne(ActionRun, { id: run }));
  await m.nativeUpdate(ActionRun, { id: run }, { status: 'success' });
  r = await env.as(env.alice, 'DELETE', `${R}/actions/runs/${run}`);
  assert.is(r.status, 204, r.text);
  const after = em();
  assert.is(await after.count(ActionRun, { id: run }), 0);
  assert.is(await after.count(ActionRunJob, { runId: run }), 0);
  assert.is(await after.count(ActionTask, { jobId: build }), 0);
  assert.not.ok(logs.some((f) => fs.existsSync(f)));
  assert.is((await env.as(env.alice, 'GET', `${R}/actions/runs/${run}`)).status, 404);
  assert.is((await env.as(env.alice, 'GET', `${R}/actions/artifacts`)).json.length, 0);
  assert.is(await runCount(), 1);
});

test('spec, path resolution rule 5: actions routes answer 404 when the actions unit is off', async () => {
  const r = await env.as(env.alice, 'PATCH', R, { has_actions: false });
  assert.is(r.status, 200, r.text);
  assert.is((await env.as(env.alice, 'GET', `${R}/actions/runs`)).status, 404);
  assert.is((await env.as(env.alice, 'GET', `${R}/actions/tasks`)).status, 404);
  assert.is((await dispatch({ ref: 'main', inputs: { target: 'x' } })).status, 404);
  assert.is((await env.as(env.alice, 'PATCH', R, { has_actions: true })).status, 200);
  assert.is(await runCount(), 1);
});

test.run();
