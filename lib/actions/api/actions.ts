// Wire shapes of Forgejo Actions records (services/convert: ToActionRunner, ToActionRunJob,
// ToActionRun, ToActionTask, ToActionArtifact). Database times that are unset encode as the Unix
// epoch, as Forgejo's zero timestamps do (forgejo-facts 6.1).
import type { Config } from '../../../config.ts';
import type { IActionTask } from '../../../model/action-task.ts';
import { ArtifactStatus, type IActionArtifact, type IActionRun, type IActionRunJob, type IActionRunner } from '../../../model/actions.ts';
import { EPOCH, fmtTime } from '../../../model/time.ts';
import { runnerStatus } from '../actions.ts';
import type { ActionArtifact, ActionRun, ActionRunJob, ActionRunner, ActionTask, Secret, Wire } from '../../../model/schemas/index.ts';
import type { IActionSecret } from '../../../model/action-secret.ts';
import type { ApiRepo } from '../../repos/index.ts';
import type { ApiUser } from '../../users/index.ts';

export type ApiRunner = Wire<ActionRunner>;
export type ApiRunJob = Wire<ActionRunJob>;
export type ApiRun = Wire<ActionRun>;
export type ApiTask = Wire<ActionTask>;
export type ApiSecret = Wire<Secret>;

/** api.Secret: only the name and creation time; the value never leaves the database. */
export function toApiSecret(s: Pick<IActionSecret, 'name' | 'createdAt'>): ApiSecret {
  return { name: s.name, created_at: fmtTime(s.createdAt) };
}
export type ApiArtifact = Wire<ActionArtifact>;

const t = (d: Date | null | undefined) => fmtTime(d, EPOCH);

export function toApiRunner(r: IActionRunner): ApiRunner {
  return {
    id: r.id,
    uuid: r.uuid,
    name: r.name,
    version: r.version,
    owner_id: r.ownerId,
    repo_id: r.repoId,
    description: r.description,
    labels: r.labels,
    status: runnerStatus(r),
    ephemeral: r.ephemeral,
  };
}

export function toApiRunJob(j: IActionRunJob): ApiRunJob {
  return {
    id: j.id,
    run_id: j.runId,
    repo_id: j.repoId,
    owner_id: j.ownerId,
    name: j.name,
    needs: j.needs,
    runs_on: j.runsOn,
    task_id: j.taskId,
    status: j.status,
    attempt: j.attempt,
    handle: j.handle,
  };
}

/** Forgejo's ActionRun.PrettyRef: branch and tag names without their prefix, pull refs as `#N`. */
export function prettyRef(ref: string): string {
  const pull = /^refs\/pull\/(\d+)\/head$/.exec(ref);
  if (pull) return `#${pull[1]}`;
  return ref.replace(/^refs\/(heads|tags)\//, '');
}

export const runHtmlUrl = (cfg: Config, owner: string, repo: string, run: Pick<IActionRun, 'index'>) =>
  `${cfg.appUrl}${owner}/${repo}/actions/runs/${run.index}`;

/** Go's Duration in nanoseconds: from start to stop, or to now while running; 0 before the start. */
function duration(run: IActionRun): number {
  if (!run.started) return 0;
  const end = run.status === 'running' ? new Date() : run.stopped;
  return end ? Math.max(0, Math.floor(end.getTime() / 1000) - Math.floor(run.started.getTime() / 1000)) * 1e9 : 0;
}

export interface RunContext {
  cfg: Config;
  ownerName: string;
  repoName: string;
  /** api.Repository as the caller sees it. */
  repository: ApiRepo;
  triggerUser: (id: number) => ApiUser;
}

export function toApiRun(x: RunContext, run: IActionRun): ApiRun {
  return {
    id: run.id,
    title: run.title,
    repository: x.repository,
    workflow_id: run.workflowId,
    index_in_repo: run.index,
    trigger_user: x.triggerUser(run.triggerUserId),
    ScheduleID: run.scheduleId,
    prettyref: prettyRef(run.ref),
    is_ref_deleted: false,
    commit_sha: run.commitSha,
    is_fork_pull_request: run.isForkPullRequest,
    need_approval: run.needApproval,
    approved_by: run.approvedBy,
    event: run.event,
    event_payload: run.eventPayload,
    trigger_event: run.triggerEvent,
    status: run.status,
    started: t(run.started),
    stopped: t(run.stopped),
    created: t(run.createdAt),
    updated: t(run.updatedAt),
    duration: duration(run),
    html_url: runHtmlUrl(x.cfg, x.ownerName, x.repoName, run),
  };
}

export function toApiTask(
  x: Pick<RunContext, 'cfg' | 'ownerName' | 'repoName'>,
  task: IActionTask,
  job: IActionRunJob | undefined,
  run: IActionRun | undefined,
): ApiTask {
  return {
    id: task.id,
    name: job?.name ?? '',
    head_branch: run ? prettyRef(run.ref) : '',
    head_sha: job?.commitSha ?? '',
    run_number: run?.index ?? 0,
    event: run?.triggerEvent ?? '',
    display_title: run?.title ?? '',
    status: task.status,
    workflow_id: run?.workflowId ?? '',
    url: run ? runHtmlUrl(x.cfg, x.ownerName, x.repoName, run) : '',
    created_at: t(task.createdAt),
    updated_at: t(task.updatedAt),
    run_started_at: t(task.started),
  };
}

export function toApiArtifact(repoApiUrl: string, a: IActionArtifact): ApiArtifact {
  return {
    id: a.id,
    name: a.artifactName,
    size_in_bytes: a.fileSize,
    run_id: a.runId,
    expired: a.status === ArtifactStatus.expired,
    archive_download_url: `${repoApiUrl}/actions/artifacts/${a.id}/zip`,
    created_at: t(a.createdAt),
    updated_at: t(a.updatedAt),
    expires_at: t(a.expiredAt),
  };
}
