import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A commit status (Forgejo's commit_status). `index` counts per repository and commit, allocated
 * with nextIndex; it is the `id` clients see.
 */
export const CommitStatus = defineEntity({
  name: 'CommitStatus',
  tableName: 'commit_status',
  properties: {
    id: p.integer().primary().autoincrement(),
    index: p.integer(),
    repoId: p.integer(),
    sha: p.string().length(64),
    state: p.string().length(16),
    targetUrl: p.text().default(''),
    description: p.text().default(''),
    context: p.text().default(''),
    contextHash: p.string().length(40),
    creatorId: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [{ properties: ['repoId', 'sha'] }],
  uniques: [{ properties: ['repoId', 'sha', 'index'] }],
});
export type ICommitStatus = InferEntity<typeof CommitStatus>;
