import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A running actions task, with the token issued to its job (spec, path resolution rule 4). Only a
 * salted hash of the token is kept, like access tokens.
 */
export const ActionTask = defineEntity({
  name: 'ActionTask',
  tableName: 'action_task',
  properties: {
    id: p.integer().primary().autoincrement(),
    repoId: p.integer().index(),
    jobId: p.integer().default(0),
    status: p.string().length(16).default('running'),
    /** The run was triggered by a pull request from a fork: the task only reads. */
    isForkPullRequest: p.boolean().default(false),
    tokenHash: p.string().length(128).default('').hidden().lazy(true, false),
    tokenSalt: p.string().length(32).default('').hidden().lazy(true, false),
    tokenLastEight: p.string().length(8).default('').index(),
    attempt: p.integer().default(1),
    runnerId: p.integer().default(0),
    /** Log file below `<APP_DATA_PATH>/actions_log/`, '' while there is none. */
    logFilename: p.string().length(255).default(''),
    logSize: p.bigint('number').default(0),
    logExpired: p.boolean().default(false),
    started: p.datetime().nullable(),
    stopped: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IActionTask = InferEntity<typeof ActionTask>;
