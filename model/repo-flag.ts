import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A flag an administrator set on a repository (Forgejo's forgejo_repo_flag). */
export const RepoFlag = defineEntity({
  name: 'RepoFlag',
  tableName: 'forgejo_repo_flag',
  properties: {
    id: p.integer().primary().autoincrement(),
    repoId: p.integer().index(),
    name: p.string().length(255),
  },
  uniques: [{ properties: ['repoId', 'name'] }],
});
export type IRepoFlag = InferEntity<typeof RepoFlag>;
