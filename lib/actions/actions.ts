// Forgejo Actions records: runner scopes and visibility, registration tokens, workflow dispatch, and
// the files of artifacts and logs. Runs, jobs and tasks are only created here by a dispatch; cairn
// speaks no runner protocol, so tasks, logs and artifacts come from `recordTaskLog`/`storeArtifact`,
// which is what a runner protocol would call (tests use them to put data in place).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import yazl from 'yazl';
import * as yaml from 'js-yaml';
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import { entryAt, readTree } from '../../git/lookup.ts';
import { isValidRefName } from '../../git/refname.ts';
import { readInfo, readObject } from '../../git/cat-file.ts';
import { isOidPrefix } from '../../git/oid.ts';
import { nextIndex } from '../../model/counter.ts';
import { ActionTask, type IActionTask } from '../../model/action-task.ts';
import {
  ActionArtifact,
  ActionRun,
  ActionRunJob,
  ActionRunner,
  ActionRunnerToken,
  ArtifactStatus,
  type IActionArtifact,
  type IActionRun,
  type IActionRunJob,
  type IActionRunner,
} from '../../model/actions.ts';
import { badRequest, notFound, unprocessable } from '../http/errors.ts';
import { hashToken, newSalt, newTokenValue } from '../auth/tokens.ts';

/** Whose runners a route addresses: a repository, a user or organization, or (both 0) the instance. */
export interface RunnerScope {
  ownerId: number;
  repoId: number;
  repoOwnerId?: number;
}

export const STATUSES = ['unknown', 'success', 'failure', 'cancelled', 'skipped', 'waiting', 'running', 'blocked'] as const;
const DONE = new Set(['success', 'failure', 'cancelled', 'skipped']);
export const isDone = (status: string) => DONE.has(status);

// models/actions/runner.go: RunnerOfflineTime and RunnerIdleTime.
const OFFLINE_MS = 60_000;
const IDLE_MS = 10_000;

export function runnerStatus(r: IActionRunner, now = Date.now()): 'offline' | 'idle' | 'active' {
  if (!r.lastOnline || now - r.lastOnline.getTime() > OFFLINE_MS) return 'offline';
  if (!r.lastActive || now - r.lastActive.getTime() > IDLE_MS) return 'idle';
  return 'active';
}

/**
 * Runner visibility rules 1-2: by default only the scope's own runners; with `visible` also those the
 * scope may use (a repository: its owner's and the instance's; a user or organization: the
 * instance's; the instance: every runner).
 */
export function runnerWhere(scope: RunnerScope, visible: boolean): FilterQuery<IActionRunner> {
  const global = { ownerId: 0, repoId: 0 };
  if (scope.repoId) {
    return visible
      ? { $or: [{ repoId: scope.repoId }, { ownerId: scope.repoOwnerId ?? -1, repoId: 0 }, global] }
      : { repoId: scope.repoId };
  }
  if (scope.ownerId) return visible ? { $or: [{ ownerId: scope.ownerId, repoId: 0 }, global] } : { ownerId: scope.ownerId, repoId: 0 };
  return visible ? {} : global;
}

/** Rule 3: a single runner is found when visible from the scope, otherwise it does not exist. */
export async function loadRunner(em: EntityManager, scope: RunnerScope, raw: string | undefined): Promise<IActionRunner> {
  const id = positiveId(raw);
  const r = id ? await em.findOne(ActionRunner, { $and: [{ id }, runnerWhere(scope, true)] }) : null;
  if (!r) throw notFound();
  return r;
}

/** Forgejo's ActionRunner.Editable: the instance edits all, a scope only its own runners. */
export function runnerEditable(r: IActionRunner, scope: RunnerScope): boolean {
  if (!scope.ownerId && !scope.repoId) return true;
  if (scope.ownerId && r.ownerId === scope.ownerId) return true;
  return !!scope.repoId && r.repoId === scope.repoId;
}

export function positiveId(raw: string | undefined | null): number {
  return raw && /^\d{1,10}$/.test(raw) && Number(raw) > 0 && Number(raw) <= 2 ** 31 - 1 ? Number(raw) : 0;
}

/** The scope's newest registration token, or a new one when there is none or it was revoked. */
export async function registrationToken(em: EntityManager, scope: RunnerScope): Promise<string> {
  const latest = await em.findOne(ActionRunnerToken, { ownerId: scope.ownerId, repoId: scope.repoId }, { orderBy: { id: 'desc' } });
  if (latest?.isActive) return latest.token;
  const t = em.create(ActionRunnerToken, {
    token: crypto.randomBytes(20).toString('hex'),
    ownerId: scope.ownerId,
    repoId: scope.repoId,
    isActive: true,
  });
  await em.flush();
  return t.token;
}

/** A new runner of the scope; its token is shown once and only its hash kept. */
export async function registerRunner(
  em: EntityManager,
  scope: RunnerScope,
  o: { name: string; description?: string; ephemeral?: boolean },
) {
  const token = newTokenValue();
  const salt = newSalt();
  const runner = em.create(ActionRunner, {
    uuid: crypto.randomUUID(),
    name: o.name,
    description: o.description ?? '',
    ephemeral: o.ephemeral ?? false,
    ownerId: scope.ownerId,
    repoId: scope.repoId,
    labels: [],
    tokenHash: hashToken(token, salt),
    tokenSalt: salt,
    tokenLastEight: token.slice(-8),
    lastOnline: null,
    lastActive: null,
  });
  await em.flush();
  return { runner, token };
}

/** Forgejo's ActionRunJob.ItRunsOn: every label the job asks for is among the given ones. */
export function runsOnLabels(job: IActionRunJob, labels: string[] | null): boolean {
  if (labels === null) return true;
  if (labels.length === 1 && labels[0] === '' && job.runsOn.length === 0) return true;
  if (job.runsOn.length === 0) return false;
  const have = new Set(labels);
  return job.runsOn.every((l) => have.has(l));
}

// ---------------------------------------------------------------------------------------------
// Workflows

/** Forgejo's actions.ListWorkflows: the first of these directories that exists is used. */
const WORKFLOW_DIRS = ['.forgejo/workflows', '.gitea/workflows', '.github/workflows'];

export interface WorkflowFile {
  directory: string;
  name: string;
  ref: string;
  commit: string;
  content: string;
}

/** Forgejo's git ExpandRef: a full ref as given, then a tag, a branch, a commit id. */
async function expandRef(repoPath: string, ref: string): Promise<{ ref: string; commit: string } | null> {
  const commitOf = async (rev: string) => (await readInfo(repoPath, `${rev}^{commit}`))?.oid ?? null;
  const candidates = ref.startsWith('refs/') ? [ref] : [`refs/tags/${ref}`, `refs/heads/${ref}`];
  if (isValidRefName(ref) && !ref.startsWith('-')) {
    for (const full of candidates) {
      const commit = await commitOf(full);
      if (commit) return { ref: full, commit };
    }
  }
  const commit = isOidPrefix(ref) ? await commitOf(ref) : null;
  return commit ? { ref: commit, commit } : null;
}

/** The workflow file `name` at `ref`, or 404 (unknown ref, no workflow directory, no such file). */
export async function loadWorkflow(repoPath: string, ref: string, name: string): Promise<WorkflowFile> {
  const target = await expandRef(repoPath, ref);
  if (!target) throw notFound(`reference does not exist [ref: ${ref}]`);
  for (const dir of WORKFLOW_DIRS) {
    const tree = await entryAt(repoPath, target.commit, dir);
    if (!tree || tree.type !== 'tree') continue;
    const entries = (await readTree(repoPath, tree.oid)) ?? [];
    const file = entries.find((e) => e.name === name && e.type === 'blob' && /\.ya?ml$/.test(e.name));
    const blob = file ? await readObject(repoPath, file.oid) : null;
    if (!blob) break;
    return { directory: dir, name, ref: target.ref, commit: target.commit, content: blob.content.toString('utf8') };
  }
  throw notFound(`workflow not found [name: ${name}]`);
}

export interface DispatchInput {
  type: string;
  required: boolean;
  default: string;
  description: string;
  options: string[];
}
export interface WorkflowJob {
  key: string;
  name: string;
  needs: string[];
  runsOn: string[];
}
export interface ParsedWorkflow {
  name: string;
  runName: string;
  dispatch: Map<string, DispatchInput> | null;
  jobs: WorkflowJob[];
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : String(v));
const strList = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : v === undefined || v === null || v === '' ? [] : [str(v)]);

/** What a dispatch needs from a workflow file; a file that does not parse is a 422. */
export function parseWorkflow(content: string): ParsedWorkflow {
  let doc: unknown;
  try {
    doc = yaml.load(content);
  } catch (e) {
    throw unprocessable(`invalid workflow file: ${(e as Error).message.split('\n')[0]}`);
  }
  if (!isMap(doc) || !isMap(doc.jobs) || Object.keys(doc.jobs).length === 0) throw unprocessable('invalid workflow file: it has no jobs');
  const on = doc.on ?? doc.true; // YAML 1.1 readers turn a bare `on` key into `true`
  let dispatch: Map<string, DispatchInput> | null = null;
  const triggered =
    on === 'workflow_dispatch' || (Array.isArray(on) && on.includes('workflow_dispatch')) || (isMap(on) && 'workflow_dispatch' in on);
  if (triggered) {
    dispatch = new Map();
    const cfg = isMap(on) ? on.workflow_dispatch : null;
    const inputs = isMap(cfg) && isMap(cfg.inputs) ? cfg.inputs : {};
    for (const [key, raw] of Object.entries(inputs)) {
      const i = isMap(raw) ? raw : {};
      dispatch.set(key, {
        type: str(i.type) || 'string',
        required: i.required === true,
        default: str(i.default),
        description: str(i.description),
        options: strList(i.options),
      });
    }
  }
  const jobs = Object.entries(doc.jobs).map(([key, raw]) => {
    const j = isMap(raw) ? raw : {};
    return { key, name: str(j.name) || key, needs: strList(j.needs), runsOn: strList(j['runs-on']) };
  });
  return { name: str(doc.name), runName: str(doc['run-name']), dispatch, jobs };
}

/**
 * Forgejo's resolveDispatchInput for every declared input: an empty value takes the default; a
 * required input without either is a 400 naming its description (or key). Undeclared inputs are
 * ignored, as in Forgejo. cairn also refuses a choice outside `options` and a boolean that is not
 * true/false, which Forgejo leaves to the runner.
 */
export function resolveInputs(declared: Map<string, DispatchInput>, given: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, input] of declared) {
    let value = Object.hasOwn(given, key) ? given[key] : '';
    if (value === '') {
      value = input.default;
      if (value === '') {
        if (input.required) throw badRequest(`input required for '${input.description || key}'`);
        continue;
      }
    } else if (input.type === 'boolean' && value === 'on') {
      value = 'true';
    }
    if (input.type === 'choice' && input.options.length && !input.options.includes(value)) {
      throw badRequest(`input '${key}' must be one of: ${input.options.join(', ')}`);
    }
    if (input.type === 'boolean' && value !== 'true' && value !== 'false') throw badRequest(`input '${key}' must be true or false`);
    out[key] = value;
  }
  return out;
}

export interface NewRun {
  repo: { id: number; ownerId: number };
  doerId: number;
  workflow: WorkflowFile;
  parsed: ParsedWorkflow;
  event: string;
  payload: string;
}

/**
 * A waiting run with one job per entry of `jobs:` (jobs that need others wait as blocked, like
 * Forgejo's InsertRun). A `run-name` with expressions is not evaluated: the title stays the default.
 * Matrices are not expanded (one job per key).
 */
export async function createRun(em: EntityManager, n: NewRun): Promise<{ run: IActionRun; jobs: IActionRunJob[] }> {
  const index = await nextIndex(em, 'action_run', n.repo.id);
  const fullId = `${n.workflow.directory}/${n.workflow.name}`;
  const title = n.parsed.runName && !n.parsed.runName.includes('${{') ? n.parsed.runName : n.parsed.name || fullId;
  const run = em.create(ActionRun, {
    title: title.slice(0, 255),
    repoId: n.repo.id,
    ownerId: n.repo.ownerId,
    workflowId: n.workflow.name,
    workflowDirectory: n.workflow.directory,
    index,
    triggerUserId: n.doerId,
    ref: n.workflow.ref,
    commitSha: n.workflow.commit,
    event: n.event,
    eventPayload: n.payload,
    triggerEvent: n.event,
    status: 'waiting',
    started: null,
    stopped: null,
  });
  await em.flush();
  const jobs = n.parsed.jobs.map((j) =>
    em.create(ActionRunJob, {
      runId: run.id,
      repoId: run.repoId,
      ownerId: run.ownerId,
      commitSha: run.commitSha,
      name: j.name.slice(0, 255),
      jobId: j.key.slice(0, 255),
      attempt: 1,
      handle: crypto.randomUUID(),
      needs: j.needs,
      runsOn: j.runsOn,
      taskId: 0,
      status: j.needs.length ? 'blocked' : 'waiting',
      started: null,
      stopped: null,
    }),
  );
  await em.flush();
  return { run, jobs };
}

// ---------------------------------------------------------------------------------------------
// Files: artifacts and logs

export const artifactsRoot = (cfg: Pick<Config, 'dataPath'>) => path.join(cfg.dataPath, 'actions_artifacts');
export const logsRoot = (cfg: Pick<Config, 'dataPath'>) => path.join(cfg.dataPath, 'actions_log');

function inside(root: string, rel: string): string {
  const full = path.resolve(root, rel);
  if (rel === '' || !full.startsWith(root + path.sep)) throw new Error(`path escapes ${root}: ${rel}`);
  return full;
}
export const artifactFile = (cfg: Pick<Config, 'dataPath'>, a: IActionArtifact) => inside(artifactsRoot(cfg), a.storagePath);
export const logFile = (cfg: Pick<Config, 'dataPath'>, t: IActionTask) => inside(logsRoot(cfg), t.logFilename);

/** Artifacts a client may see: uploaded ones, expired or not (Forgejo's ListUploadedArtifacts). */
export const VISIBLE_ARTIFACT = { $in: [ArtifactStatus.uploadConfirmed, ArtifactStatus.expired] };

/** Records an uploaded artifact of a run (one zip file, as v4 artifact uploads store them). */
export async function storeArtifact(
  em: EntityManager,
  cfg: Pick<Config, 'dataPath'>,
  run: IActionRun,
  name: string,
  zip: Buffer,
  expiresAt: Date | null = null,
): Promise<IActionArtifact> {
  const storagePath = `${run.repoId}/${run.id}/${crypto.randomUUID()}.zip`;
  const a = em.create(ActionArtifact, {
    runId: run.id,
    repoId: run.repoId,
    ownerId: run.ownerId,
    commitSha: run.commitSha,
    storagePath,
    fileSize: zip.length,
    fileCompressedSize: zip.length,
    contentEncoding: 'application/zip',
    artifactPath: `${name}.zip`,
    artifactName: name,
    status: ArtifactStatus.uploadConfirmed,
    expiredAt: expiresAt,
  });
  const file = artifactFile(cfg, a);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, zip);
  await em.flush();
  return a;
}

/** Records a task of a job (its next attempt) that ran with the given log, and makes it the job's latest. */
export async function recordTaskLog(
  em: EntityManager,
  cfg: Pick<Config, 'dataPath'>,
  job: IActionRunJob,
  log: string,
  status = 'success',
): Promise<IActionTask> {
  const previous = await em.count(ActionTask, { jobId: job.id });
  const t = em.create(ActionTask, {
    repoId: job.repoId,
    jobId: job.id,
    status,
    attempt: previous + 1,
    isForkPullRequest: job.isForkPullRequest,
    logFilename: `${job.repoId}/${job.runId}/${crypto.randomUUID()}.log`,
    logSize: Buffer.byteLength(log),
    started: new Date(),
    stopped: isDone(status) ? new Date() : null,
  });
  const file = logFile(cfg, t);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, log);
  await em.flush();
  job.taskId = t.id;
  // A new attempt is a new handle (ActionRunJob.handle names one attempt).
  if (t.attempt > 1) job.handle = crypto.randomUUID();
  job.attempt = t.attempt;
  job.status = status;
  await em.flush();
  return t;
}

const removeFile = (f: string) => fs.rmSync(f, { force: true });

/** Removes a run with its jobs, tasks, logs and artifacts (Forgejo's DeleteRun; the caller checked it is done). */
export async function deleteRun(em: EntityManager, cfg: Pick<Config, 'dataPath'>, run: IActionRun): Promise<void> {
  const jobs = await em.find(ActionRunJob, { runId: run.id });
  const tasks = jobs.length ? await em.find(ActionTask, { jobId: { $in: jobs.map((j) => j.id) } }) : [];
  const artifacts = await em.find(ActionArtifact, { runId: run.id });
  const files = [
    ...tasks.filter((t) => t.logFilename).map((t) => logFile(cfg, t)),
    ...artifacts.filter((a) => a.storagePath).map((a) => artifactFile(cfg, a)),
  ];
  await em.nativeDelete(ActionArtifact, { runId: run.id });
  if (tasks.length) await em.nativeDelete(ActionTask, { id: { $in: tasks.map((t) => t.id) } });
  await em.nativeDelete(ActionRunJob, { runId: run.id });
  await em.nativeDelete(ActionRun, { id: run.id });
  // Files go last, so that a failed statement above leaves them in place with the rolled-back rows.
  files.forEach(removeFile);
}

/** Marks an artifact deleted and removes its file (Forgejo leaves the removal to a cron job). */
export async function deleteArtifact(em: EntityManager, cfg: Pick<Config, 'dataPath'>, a: IActionArtifact): Promise<void> {
  a.status = ArtifactStatus.deleted;
  await em.flush();
  if (a.storagePath) removeFile(artifactFile(cfg, a));
}

// ---------------------------------------------------------------------------------------------
// The run logs archive: stored (uncompressed) entries keep every log readable by any unzip; yazl
// writes the archive as a stream.

export function zipStore(files: { name: string; data: Buffer; mtime: Date }[]): NodeJS.ReadableStream {
  const zip = new yazl.ZipFile();
  for (const f of files) zip.addBuffer(f.data, f.name, { mtime: f.mtime, compress: false });
  zip.end();
  return zip.outputStream;
}
