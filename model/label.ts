import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** An issue label of a repository (`repoId`) or of an organization (`orgId`); the other id is 0. */
export const Label = defineEntity({
  name: 'Label',
  tableName: 'label',
  properties: {
    id: p.integer().primary().autoincrement(),
    repoId: p.integer().default(0).index(),
    orgId: p.integer().default(0).index(),
    name: p.string().length(255),
    /** Scoped labels (`scope/name`) of which an issue may carry only one. */
    exclusive: p.boolean().default(false),
    /** `#rrggbb`, lower case. */
    color: p.string().length(7),
    description: p.text().default(''),
    isArchived: p.boolean().default(false),
    numIssues: p.integer().default(0),
    numClosedIssues: p.integer().default(0),
    archivedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type ILabel = InferEntity<typeof Label>;
