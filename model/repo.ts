import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const Repository = defineEntity({
  name: 'Repository',
  tableName: 'repository',
  properties: {
    id: p.integer().primary().autoincrement(),
    ownerId: p.integer().index(),
    ownerName: p.string().length(255),
    name: p.string().length(255),
    lowerName: p.string().length(255),
    description: p.text().default(''),
    website: p.string().length(2048).default(''),
    originalUrl: p.string().length(2048).default(''),
    defaultBranch: p.string().length(255).default('main'),
    wikiBranch: p.string().length(255).default('main'),
    isPrivate: p.boolean().default(false),
    isEmpty: p.boolean().default(true),
    isArchived: p.boolean().default(false),
    archivedAt: p.datetime().nullable(),
    isMirror: p.boolean().default(false),
    mirrorInterval: p.string().length(32).default(''),
    mirrorUpdatedAt: p.datetime().nullable(),
    isFork: p.boolean().default(false),
    forkId: p.integer().default(0),
    isTemplate: p.boolean().default(false),
    templateId: p.integer().default(0),
    size: p.bigint('number').default(0),
    objectFormatName: p.string().length(16).default('sha1'),
    trustModel: p.string().length(32).default('default'),
    numStars: p.integer().default(0),
    numForks: p.integer().default(0),
    numWatches: p.integer().default(0),
    numOpenIssues: p.integer().default(0),
    numOpenPulls: p.integer().default(0),
    numReleases: p.integer().default(0),
    topics: p.json<string[]>().default('[]'),
    avatar: p.string().length(64).default(''),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['ownerId', 'lowerName'] }],
  // GET /repos/search in its default order (lib/repos/search.ts): a page is read from the index in order.
  indexes: [{ name: 'repository_owner_name_lower_name_id_index', properties: ['ownerName', 'lowerName', 'id'] }],
});
export type IRepository = InferEntity<typeof Repository>;

/** One enabled unit of a repository with its settings (Forgejo's repo_unit). A missing row = unit off. */
export const RepoUnit = defineEntity({
  name: 'RepoUnit',
  tableName: 'repo_unit',
  properties: {
    id: p.integer().primary().autoincrement(),
    repoId: p.integer().index(),
    type: p.smallint(),
    config: p.json<Record<string, unknown>>().default('{}'),
  },
  uniques: [{ properties: ['repoId', 'type'] }],
});
export type IRepoUnit = InferEntity<typeof RepoUnit>;

export const Collaboration = defineEntity({
  name: 'Collaboration',
  tableName: 'collaboration',
  properties: {
    id: p.integer().primary().autoincrement(),
    repoId: p.integer().index(),
    userId: p.integer().index(),
    mode: p.smallint().default(2),
  },
  uniques: [{ properties: ['repoId', 'userId'] }],
});
export type ICollaboration = InferEntity<typeof Collaboration>;

/** Old owner/name pairs of renamed or transferred repositories (spec, path resolution rule 3). */
export const RepoRedirect = defineEntity({
  name: 'RepoRedirect',
  tableName: 'repo_redirect',
  properties: {
    id: p.integer().primary().autoincrement(),
    ownerId: p.integer(),
    lowerName: p.string().length(255),
    redirectRepoId: p.integer().index(),
  },
  uniques: [{ properties: ['ownerId', 'lowerName'] }],
});
export type IRepoRedirect = InferEntity<typeof RepoRedirect>;
