import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A release, or with `isTag` the record of a plain git tag (Forgejo keeps both in `release`). One row per
 * tag name and repository; `sha1` is the tagged commit once the tag exists, empty for a draft.
 */
export const Release = defineEntity({
  name: 'Release',
  tableName: 'release',
  properties: {
    id: p.integer().primary().autoincrement(),
    repoId: p.integer(),
    publisherId: p.integer().default(0),
    tagName: p.string().length(255),
    lowerTagName: p.string().length(255),
    target: p.string().length(255).default(''),
    title: p.string().length(255).default(''),
    sha1: p.string().length(64).default(''),
    numCommits: p.integer().default(0),
    note: p.text().default(''),
    isDraft: p.boolean().default(false),
    isPrerelease: p.boolean().default(false),
    isTag: p.boolean().default(false),
    hideArchiveLinks: p.boolean().default(false),
    archiveDownloadCount: p.json<{ zip: number; tar_gz: number }>().default('{"zip":0,"tar_gz":0}'),
    originalAuthor: p.string().length(255).default(''),
    originalAuthorId: p.bigint('number').default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['repoId', 'lowerTagName'] }],
});
export type IRelease = InferEntity<typeof Release>;
