// Which LFS objects a repository may use (lfs_meta_object rows): looked up for the batch API and
// the media route, and linked after a verified upload with one idempotent insert, so concurrent
// uploads of one object leave one row.
import type { EntityManager } from '@mikro-orm/core';
import { LfsMetaObject, type ILfsMetaObject } from '../../model/lfs.ts';

export async function findMeta(em: EntityManager, repositoryId: number, oid: string): Promise<ILfsMetaObject | null> {
  return em.findOne(LfsMetaObject, { repositoryId, oid });
}

export async function findMetas(em: EntityManager, repositoryId: number, oids: string[]): Promise<Map<string, ILfsMetaObject>> {
  const rows = oids.length ? await em.find(LfsMetaObject, { repositoryId, oid: { $in: oids } }) : [];
  return new Map(rows.map((r) => [r.oid, r]));
}

export async function linkObject(em: EntityManager, repositoryId: number, oid: string, size: number): Promise<void> {
  await em
    .getConnection()
    .execute(
      'insert into lfs_meta_object (oid, size, repository_id, created_at) values (?, ?, ?, ?) on conflict (repository_id, oid) do nothing',
      [oid, size, repositoryId, new Date()],
      'run',
    );
}

/** LFS bytes linked to the repositories of `ownerId` (Forgejo's quota `lfs` usage). */
export const LFS_BYTES_OF_OWNER = `select coalesce(sum(m.size), 0) as size
  from lfs_meta_object m join repository r on r.id = m.repository_id where r.owner_id = ?`;
