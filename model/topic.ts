import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A topic name used by at least one repository (or once used: `repoCount` may fall to 0). */
export const Topic = defineEntity({
  name: 'Topic',
  tableName: 'topic',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(50).unique(),
    repoCount: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type ITopic = InferEntity<typeof Topic>;

/** Which repository carries which topic; `repository.topics` holds the same names for reading. */
export const RepoTopic = defineEntity({
  name: 'RepoTopic',
  tableName: 'repo_topic',
  properties: {
    id: p.integer().primary().autoincrement(),
    repoId: p.integer().index(),
    topicId: p.integer().index(),
  },
  uniques: [{ properties: ['repoId', 'topicId'] }],
});
export type IRepoTopic = InferEntity<typeof RepoTopic>;
