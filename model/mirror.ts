import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Pull-mirror settings of a repository with `is_mirror`. Credentials are sealed with the instance secret. */
export const Mirror = defineEntity({
  name: 'Mirror',
  tableName: 'mirror',
  properties: {
    id: p.integer().primary().autoincrement(),
    repoId: p.integer().unique(),
    /** The remote URL without credentials. */
    remoteAddress: p.string().length(2048),
    credentials: p.text().default('').hidden().lazy(true, false),
    interval: p.string().length(32).default('8h0m0s'),
    enablePrune: p.boolean().default(true),
    lastError: p.text().default(''),
    updatedAt: p.datetime().nullable(),
    /** When the scheduler fetches next; null when the interval is 0 (lib/mirrors/schedule.ts). */
    nextUpdateAt: p.datetime().nullable().index(),
  },
});
export type IMirror = InferEntity<typeof Mirror>;

/** A remote the repository is pushed to. Credentials are sealed with the instance secret. */
export const PushMirror = defineEntity({
  name: 'PushMirror',
  tableName: 'push_mirror',
  properties: {
    id: p.integer().primary().autoincrement(),
    repoId: p.integer().index(),
    remoteName: p.string().length(64),
    remoteAddress: p.string().length(2048),
    credentials: p.text().default('').hidden().lazy(true, false),
    branchFilter: p.string().length(255).default(''),
    syncOnCommit: p.boolean().default(true),
    interval: p.string().length(32).default('8h0m0s'),
    lastError: p.text().default(''),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastUpdate: p.datetime().nullable(),
    /** When the scheduler pushes next: the interval, or now after refs moved with sync_on_commit. */
    nextUpdateAt: p.datetime().nullable().index(),
  },
  uniques: [{ properties: ['repoId', 'remoteName'] }],
});
export type IPushMirror = InferEntity<typeof PushMirror>;
