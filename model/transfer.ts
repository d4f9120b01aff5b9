import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A repository transfer waiting for the recipient to accept or reject it (one per repository). */
export const RepoTransfer = defineEntity({
  name: 'RepoTransfer',
  tableName: 'repo_transfer',
  properties: {
    id: p.integer().primary().autoincrement(),
    repoId: p.integer().unique(),
    doerId: p.integer(),
    recipientId: p.integer().index(),
    teamIds: p.json<number[]>().default('[]'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IRepoTransfer = InferEntity<typeof RepoTransfer>;
