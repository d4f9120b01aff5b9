// Actions runs of a repository (Forgejo's routers/api/v1/repo/action.go and misc/actions_run.go):
// workflow dispatch, runs with their jobs, tasks, logs and artifacts. Everything is looked up within
// the addressed repository: a run, job or artifact of another repository does not exist here.
import fs from 'node:fs';
import type { FilterQuery } from '@mikro-orm/core';
import type { Handler, Reply } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import type { DispatchWorkflowOption } from '../model/schemas/index.ts';
import { ActionArtifact, ActionRun, ActionRunJob, type IActionArtifact, type IActionRun, type IActionRunJob } from '../model/actions.ts';
import { ActionTask, type IActionTask } from '../model/action-task.ts';
import { Repository, type IRepository } from '../model/repo.ts';
import { User, type IUser } from '../model/user.ts';
import { toApiArtifact, toApiRun, toApiRunJob, toApiTask, type RunContext } from '../lib/actions/api/actions.ts';
import { toApiUser } from '../lib/users/api/user.ts';
import { usersById } from '../lib/issues/api/issue.ts';
import {
  artifactFile,
  createRun,
  deleteArtifact,
  deleteRun,
  isDone,
  loadWorkflow,
  logFile,
  parseWorkflow,
  positiveId,
  resolveInputs,
  VISIBLE_ARTIFACT,
  zipStore,
} from '../lib/actions/actions.ts';
import { gitCtx } from '../lib/repos/git.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { badRequest, notFound } from '../lib/http/errors.ts';
import { repoJson } from '../lib/repos/api/repo-json.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/http/request.ts';
import type { HandlerCtx } from '../lib/http/handler.ts';
import { INT32_MAX } from '../lib/http/query-values.ts';
import type { QueryOf } from '../model/schemas/query.ts';

const repoOf = (c: RequestState) => need(c.repo, 'repo');

async function runContext(c: RequestState, repo: IRepository, owner: IUser, runs: IActionRun[]): Promise<RunContext> {
  const viewer = { doer: c.auth.doer, siteAdmin: isSiteAdmin(c) };
  const users = await usersById(
    c.em,
    runs.map((r) => r.triggerUserId),
  );
  return {
    cfg: c.config,
    ownerName: owner.name,
    repoName: repo.name,
    repository: await repoJson(c, repo, owner),
    triggerUser: (id) => toApiUser(c.config, users.get(id) ?? users.get(-1)!, viewer),
  };
}

async function loadRun(c: RequestState): Promise<IActionRun> {
  const id = positiveId(c.params.run_id);
  const run = id ? await c.em.findOne(ActionRun, { id, repoId: repoOf(c).repo.id }) : null;
  if (!run) throw notFound();
  return run;
}

// ---------------------------------------------------------------------------------------------
// Dispatch

/**
 * Forgejo's DispatchWorkflow: the workflow file (in the first of .forgejo/.gitea/.github workflows
 * that exists at `ref`) must exist (404) and, in cairn, declare `on: workflow_dispatch` (400; Forgejo
 * dispatches any workflow). Inputs are resolved as lib/actions/actions.ts resolveInputs says.
 */
export const dispatch: Handler<DispatchWorkflowOption> = async (c) => {
  const b = c.body;
  const name = c.params.workflowfilename ?? '';
  if (name === '') throw badRequest('workflow file name is empty');
  const g = gitCtx(c);
  const workflow = await loadWorkflow(g.path, b.ref, name);
  const parsed = parseWorkflow(workflow.content);
  if (!parsed.dispatch) throw badRequest(`workflow '${name}' has no workflow_dispatch trigger`);
  const inputs = resolveInputs(parsed.dispatch, b.inputs ?? {});
  const doer = c.auth.doer;
  if (!doer) throw new Error('chain bug: dispatch without TOK');
  const viewer = { doer, siteAdmin: isSiteAdmin(c) };
  // Forgejo's WorkflowDispatchPayload, which the runner reads as the event.
  const payload = JSON.stringify({
    inputs,
    ref: workflow.ref,
    repository: await repoJson(c, g.repo, g.owner),
    sender: toApiUser(c.config, doer, viewer),
    workflow: `${workflow.directory}/${workflow.name}`,
  });
  const { run } = await createRun(c.em, { repo: g.repo, doerId: doer.id, workflow, parsed, event: 'workflow_dispatch', payload });
  if (!b.return_run_info) return noContent();
  return json(201, { id: run.id, run_number: run.index, jobs: parsed.jobs.map((j) => j.key) });
};

// ---------------------------------------------------------------------------------------------
// Runs and jobs

/** Filters `event`, `status` (both repeatable), `run_number`, `head_sha`, `ref`, `workflow_id`; newest first. */
export const listRuns: Handler<never, QueryOf<'Runs'>> = async (c) => {
  const { repo, owner } = repoOf(c);
  const where: FilterQuery<IActionRun> = { repoId: repo.id };
  if (c.q.status.length) where.status = { $in: c.q.status };
  const events = c.q.event.filter((e) => e !== '');
  if (events.length) where.event = { $in: events };
  const number = c.q.run_number ?? 0;
  if (number > 0 && number <= INT32_MAX) where.index = number;
  for (const [param, field] of [
    ['head_sha', 'commitSha'],
    ['ref', 'ref'],
    ['workflow_id', 'workflowId'],
  ] as const) {
    const v = c.q[param] ?? '';
    if (v !== '') where[field] = v;
  }
  const p = pageOf(c);
  const [runs, total] = await c.em.findAndCount(ActionRun, where, { orderBy: { id: 'desc' }, limit: p.limit, offset: p.offset });
  const x = await runContext(c, repo, owner, runs);
  return json(200, { total_count: total, workflow_runs: runs.map((r) => toApiRun(x, r)) });
};

export const getRun: Handler = async (c) => {
  const { repo, owner } = repoOf(c);
  const run = await loadRun(c);
  return json(200, toApiRun(await runContext(c, repo, owner, [run]), run));
};

/** Only a finished run may be removed (Forgejo's DeleteRun; Forgejo answers that refusal with a 500). */
export const removeRun: Handler = async (c) => {
  const run = await loadRun(c);
  if (!isDone(run.status)) throw badRequest(`cannot delete run ${run.id} because it has not completed yet`);
  await deleteRun(c.em, c.config, run);
  return noContent();
};

export const listRunJobs: Handler = async (c) => {
  const run = await loadRun(c);
  const jobs = await c.em.find(ActionRunJob, { runId: run.id }, { orderBy: { id: 'asc' } });
  return json(200, jobs.map(toApiRunJob));
};

/** Tasks (one per attempt of a job), newest first; `status` filters as on runs. */
export const listTasks: Handler<never, QueryOf<'ActionTasks'>> = async (c) => {
  const { repo, owner } = repoOf(c);
  const where: FilterQuery<IActionTask> = { repoId: repo.id };
  if (c.q.status.length) where.status = { $in: c.q.status };
  const p = pageOf(c);
  const [tasks, total] = await c.em.findAndCount(ActionTask, where, { orderBy: { id: 'desc' }, limit: p.limit, offset: p.offset });
  const jobs = tasks.length ? await c.em.find(ActionRunJob, { id: { $in: tasks.map((t) => t.jobId) } }) : [];
  const runs = jobs.length ? await c.em.find(ActionRun, { id: { $in: jobs.map((j) => j.runId) } }) : [];
  const jobById = new Map(jobs.map((j) => [j.id, j]));
  const runById = new Map(runs.map((r) => [r.id, r]));
  const x = { cfg: c.config, ownerName: owner.name, repoName: repo.name };
  const entries = tasks.map((t) => {
    const job = jobById.get(t.jobId);
    return toApiTask(x, t, job, job && runById.get(job.runId));
  });
  return json(200, { total_count: total, workflow_runs: entries });
};

// ---------------------------------------------------------------------------------------------
// Logs

/** The log of a task, or null when it has none (never run, or cleaned up). */
function readLog(c: RequestState, task: IActionTask | null): Buffer | null {
  if (!task || !task.logFilename || task.logExpired) return null;
  const file = logFile(c.config, task);
  return fs.existsSync(file) ? fs.readFileSync(file) : null;
}

/** One `bytes=` range of a body of `size` bytes; null when absent or not understood (the whole body). */
function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const n = Number(m[2]);
    return n === 0 ? 'unsatisfiable' : { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

function serveText(c: RequestState, body: Buffer): Reply {
  const type = 'text/plain; charset=utf-8';
  const range = byteRange(typeof c.headers.range === 'string' ? c.headers.range : undefined, body.length);
  if (range === 'unsatisfiable')
    return { status: 416, body: 'invalid range: failed to overlap', type, headers: { 'Content-Range': `bytes */${body.length}` } };
  if (!range) return { status: 200, body, type, headers: { 'Accept-Ranges': 'bytes' } };
  return {
    status: 206,
    body: body.subarray(range.start, range.end + 1),
    type,
    headers: { 'Accept-Ranges': 'bytes', 'Content-Range': `bytes ${range.start}-${range.end}/${body.length}` },
  };
}

/** The plain-text log of a job's latest task (or of `attempt`); 404 while the job has none. */
export const jobLogs: Handler<never, QueryOf<'JobLogs'>> = async (c) => {
  const id = positiveId(c.params.job_id);
  const job = id ? await c.em.findOne(ActionRunJob, { id, repoId: repoOf(c).repo.id }) : null;
  if (!job) throw notFound();
  const attempt = (c.q.attempt ?? 0) > 0 && (c.q.attempt ?? 0) <= INT32_MAX ? c.q.attempt : undefined;
  const task = attempt
    ? await c.em.findOne(ActionTask, { jobId: job.id, attempt })
    : job.taskId
      ? await c.em.findOne(ActionTask, { id: job.taskId })
      : null;
  const log = readLog(c, task);
  if (!log) throw notFound(job.taskId ? 'logs have been cleaned up' : 'job is not started');
  return serveText(c, log);
};

/** A zip holding the latest log of each job of the run that has one; 404 when none has. */
export const runLogs: Handler = async (c) => {
  const run = await loadRun(c);
  const jobs = await c.em.find(ActionRunJob, { runId: run.id, taskId: { $gt: 0 } }, { orderBy: { id: 'asc' } });
  const tasks = jobs.length ? await c.em.find(ActionTask, { id: { $in: jobs.map((j) => j.taskId) } }) : [];
  const files: { name: string; data: Buffer; mtime: Date }[] = [];
  const names = new Set<string>();
  for (const job of jobs) {
    const task = tasks.find((t) => t.id === job.taskId) ?? null;
    const data = readLog(c, task);
    if (!data || !task) continue;
    const base = logName(job);
    const name = names.has(base) ? `${base.slice(0, -4)}-${job.id}.log` : base;
    names.add(name);
    files.push({ name, data, mtime: task.stopped ?? task.updatedAt });
  }
  if (!files.length) throw notFound('run has no logs');
  return {
    status: 200,
    body: zipStore(files),
    type: 'application/zip',
    headers: { 'Content-Disposition': `attachment; filename="run-${run.index}-logs.zip"` },
  };
};

const logName = (job: IActionRunJob) => `${job.name.replace(/[/\\:*?"<>|\x00-\x1f]/g, '_')}.log`;

// ---------------------------------------------------------------------------------------------
// Artifacts

const repoApiUrl = (c: RequestState) => {
  const { repo, owner } = repoOf(c);
  return `${c.config.appUrl}api/v1/repos/${owner.name}/${repo.name}`;
};

async function listArtifactsWhere(c: HandlerCtx<unknown, QueryOf<'Artifacts'>>, where: FilterQuery<IActionArtifact>): Promise<Reply> {
  const name = c.q.name ?? '';
  const filter: FilterQuery<IActionArtifact> = {
    ...(where as object),
    status: VISIBLE_ARTIFACT,
    ...(name !== '' ? { artifactName: name } : {}),
  };
  const p = pageOf(c);
  const [rows, total] = await c.em.findAndCount(ActionArtifact, filter, { orderBy: { id: 'asc' }, limit: p.limit, offset: p.offset });
  const base = repoApiUrl(c);
  return json(
    200,
    rows.map((a) => toApiArtifact(base, a)),
    pagingHeaders(c, p, total),
  );
}

/** `name` filters by the exact artifact name. */
export const listArtifacts: Handler = async (c) => listArtifactsWhere(c, { repoId: repoOf(c).repo.id });

export const listRunArtifacts: Handler = async (c) => {
  const run = await loadRun(c);
  return listArtifactsWhere(c, { runId: run.id, repoId: run.repoId });
};

async function loadArtifact(c: RequestState): Promise<IActionArtifact> {
  const id = positiveId(c.params.artifact_id);
  const a = id ? await c.em.findOne(ActionArtifact, { id, repoId: repoOf(c).repo.id, status: VISIBLE_ARTIFACT }) : null;
  if (!a) throw notFound();
  return a;
}

export const getArtifact: Handler = async (c) => json(200, toApiArtifact(repoApiUrl(c), await loadArtifact(c)));

export const removeArtifact: Handler = async (c) => {
  await deleteArtifact(c.em, c.config, await loadArtifact(c));
  return noContent();
};

/** The stored zip; an expired artifact (its file cleaned up) is gone. */
export const downloadArtifact: Handler = async (c) => {
  const a = await loadArtifact(c);
  const file = a.storagePath ? artifactFile(c.config, a) : '';
  if (a.status !== 2 || !file || !fs.existsSync(file)) throw notFound('artifact not confirmed');
  return {
    status: 200,
    body: fs.createReadStream(file),
    type: 'application/zip',
    headers: {
      'Content-Disposition': `attachment; filename="${a.artifactName.replace(/["\\\r\n]/g, '_')}.zip"`,
      'Content-Length': String(fs.statSync(file).size),
    },
  };
};

// ---------------------------------------------------------------------------------------------
// The run of the calling task

/** GET /actions/run: the chain's TASK_TOKEN let only an actions task token through. */
export const taskRun: Handler = async (c) => {
  const taskId = c.auth.task?.id;
  if (!taskId) throw new Error('chain bug: TASK_TOKEN missing');
  const task = await c.em.findOne(ActionTask, { id: taskId });
  const job = task && (await c.em.findOne(ActionRunJob, { id: task.jobId }));
  const run = job && (await c.em.findOne(ActionRun, { id: job.runId }));
  const repo = run && (await c.em.findOne(Repository, { id: run.repoId }));
  const owner = repo && (await c.em.findOne(User, { id: repo.ownerId }));
  if (!run || !repo || !owner) throw notFound();
  return json(200, toApiRun(await runContext(c, repo, owner, [run]), run));
};

/** This family's handlers; `routes.table.ts` names each `actionsRuns.<key>`. */
export const handlers = {
  dispatch,
  listRuns,
  getRun,
  removeRun,
  listRunJobs,
  runLogs,
  listRunArtifacts,
  listTasks,
  jobLogs,
  listArtifacts,
  getArtifact,
  removeArtifact,
  downloadArtifact,
  taskRun,
} satisfies Record<string, Handler<never, never>>;
