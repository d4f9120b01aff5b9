import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A milestone of a repository. Names are not unique (as in Forgejo); `deadline` null means none. */
export const Milestone = defineEntity({
  name: 'Milestone',
  tableName: 'milestone',
  properties: {
    id: p.integer().primary().autoincrement(),
    repoId: p.integer().index(),
    name: p.string().length(255),
    description: p.text().default(''),
    isClosed: p.boolean().default(false),
    numIssues: p.integer().default(0),
    numClosedIssues: p.integer().default(0),
    deadline: p.datetime().nullable(),
    closedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IMilestone = InferEntity<typeof Milestone>;
