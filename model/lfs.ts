import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A Git LFS object a repository may use (Forgejo's lfs_meta_object). The bytes are stored once per
 * oid under the data directory (lib/transport/lfs-store.ts); this row links them to one repository and counts
 * them in its owner's quota.
 */
export const LfsMetaObject = defineEntity({
  name: 'LfsMetaObject',
  tableName: 'lfs_meta_object',
  properties: {
    id: p.integer().primary().autoincrement(),
    /** sha256 of the content, lower-case hex. */
    oid: p.string().length(64).index(),
    size: p.bigint('number'),
    repositoryId: p.integer().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['repositoryId', 'oid'] }],
});
export type ILfsMetaObject = InferEntity<typeof LfsMetaObject>;

/** A Git LFS file lock (Forgejo's lfs_lock); one per path and repository, which the unique index enforces. */
export const LfsLock = defineEntity({
  name: 'LfsLock',
  tableName: 'lfs_lock',
  properties: {
    id: p.integer().primary().autoincrement(),
    repoId: p.integer().index(),
    ownerId: p.integer().index(),
    path: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['repoId', 'path'] }],
});
export type ILfsLock = InferEntity<typeof LfsLock>;
