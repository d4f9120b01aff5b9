import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

// Forgejo Actions records (models/actions/{runner,runner_token,run,run_job,artifact}.go). The running
// task with its token is model/action-task.ts. Scopes follow Forgejo: a record belongs to a
// repository (repoId), to a user or organization (ownerId, repoId 0), or to the instance (both 0).
// Statuses are kept as Forgejo's words: unknown, success, failure, cancelled, skipped, waiting,
// running, blocked.

/** A runner. Only a salted hash of its token is kept, like access tokens. */
export const ActionRunner = defineEntity({
  name: 'ActionRunner',
  tableName: 'action_runner',
  properties: {
    id: p.integer().primary().autoincrement(),
    uuid: p.string().length(36).unique(),
    name: p.string().length(255),
    version: p.string().length(64).default(''),
    ownerId: p.integer().default(0).index(),
    repoId: p.integer().default(0).index(),
    description: p.text().default(''),
    labels: p.json<string[]>().default('[]'),
    ephemeral: p.boolean().default(false),
    tokenHash: p.string().length(128).default('').hidden().lazy(true, false),
    tokenSalt: p.string().length(32).default('').hidden().lazy(true, false),
    tokenLastEight: p.string().length(8).default('').index(),
    lastOnline: p.datetime().nullable(),
    lastActive: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IActionRunner = InferEntity<typeof ActionRunner>;

/**
 * A runner registration token of one scope. Forgejo keeps the value itself, because the deprecated
 * registration-token routes hand the same active token out again.
 */
export const ActionRunnerToken = defineEntity({
  name: 'ActionRunnerToken',
  tableName: 'action_runner_token',
  properties: {
    id: p.integer().primary().autoincrement(),
    token: p.string().length(64).unique().hidden(),
    ownerId: p.integer().default(0),
    repoId: p.integer().default(0),
    isActive: p.boolean().default(true),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [{ properties: ['ownerId', 'repoId'] }],
});
export type IActionRunnerToken = InferEntity<typeof ActionRunnerToken>;

/** One run of a workflow; `index` is the run number within the repository (counter `action_run`). */
export const ActionRun = defineEntity({
  name: 'ActionRun',
  tableName: 'action_run',
  properties: {
    id: p.integer().primary().autoincrement(),
    title: p.string().length(255),
    repoId: p.integer().index(),
    ownerId: p.integer().default(0).index(),
    workflowId: p.string().length(255),
    workflowDirectory: p.string().length(64).default('.forgejo/workflows'),
    index: p.integer(),
    triggerUserId: p.integer().default(0),
    scheduleId: p.integer().default(0),
    ref: p.string().length(255).default(''),
    commitSha: p.string().length(64).default(''),
    isForkPullRequest: p.boolean().default(false),
    needApproval: p.boolean().default(false),
    approvedBy: p.integer().default(0),
    event: p.string().length(64),
    eventPayload: p.text().default(''),
    triggerEvent: p.string().length(64).default(''),
    status: p.string().length(16).default('waiting'),
    started: p.datetime().nullable(),
    stopped: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['repoId', 'index'] }],
});
export type IActionRun = InferEntity<typeof ActionRun>;

/** One job of a run. `handle` names one attempt of it (a new attempt gets a new handle). */
export const ActionRunJob = defineEntity({
  name: 'ActionRunJob',
  tableName: 'action_run_job',
  properties: {
    id: p.integer().primary().autoincrement(),
    runId: p.integer().index(),
    repoId: p.integer().index(),
    ownerId: p.integer().default(0).index(),
    commitSha: p.string().length(64).default(''),
    isForkPullRequest: p.boolean().default(false),
    /** The job's display name (`name:` or its key). */
    name: p.string().length(255),
    /** The job's key in the workflow's `jobs:` map. */
    jobId: p.string().length(255),
    attempt: p.integer().default(1),
    handle: p.string().length(36).unique(),
    needs: p.json<string[]>().default('[]'),
    runsOn: p.json<string[]>().default('[]'),
    /** Latest task of this job; 0 while no runner took it. */
    taskId: p.integer().default(0),
    status: p.string().length(16).default('waiting').index(),
    started: p.datetime().nullable(),
    stopped: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IActionRunJob = InferEntity<typeof ActionRunJob>;

/** Forgejo's ArtifactStatus values (models/actions/artifact.go). */
export const ArtifactStatus = { uploadPending: 1, uploadConfirmed: 2, expired: 3, pendingDeletion: 4, deleted: 5 } as const;

/**
 * An artifact of a run, stored as one zip under `<APP_DATA_PATH>/actions_artifacts/<storagePath>`
 * (the v4 artifact layout; cairn has no runner upload protocol, so rows come from lib/actions/actions.ts).
 */
export const ActionArtifact = defineEntity({
  name: 'ActionArtifact',
  tableName: 'action_artifact',
  properties: {
    id: p.integer().primary().autoincrement(),
    runId: p.integer().index(),
    runnerId: p.integer().default(0),
    repoId: p.integer().index(),
    ownerId: p.integer().default(0),
    commitSha: p.string().length(64).default(''),
    storagePath: p.string().length(255).default(''),
    fileSize: p.bigint('number').default(0),
    fileCompressedSize: p.bigint('number').default(0),
    contentEncoding: p.string().length(255).default(''),
    artifactPath: p.string().length(255).default(''),
    artifactName: p.string().length(255),
    status: p.integer().default(ArtifactStatus.uploadPending),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
    expiredAt: p.datetime().nullable(),
  },
});
export type IActionArtifact = InferEntity<typeof ActionArtifact>;
