// Which LFS objects a repository may use (lfs_meta_object rows): looked up for the batch API and
// the media route, and linked after a verified upload with one idempotent insert, so concurrent
// uploads of one object leave one row.
import type { EntityManager } from '@mikro-orm/core';
import { LfsMetaObject, type ILfsMetaObject } from '../../model/lfs.ts';
import { sql, writeSql, type Sql } from '../../model/sql.ts';

export async function findMeta(em: EntityManager, repositoryId: number, oid: string): Promise<ILfsMetaObject | null> {
  return em.findOne(LfsMetaObject, { repositoryId, oid });
}

export async function findMetas(em: EntityManager, repositoryId: number, oids: string[]): Promise<Map<string, ILfsMetaObject>> {
  const rows = oids.length ? await em.find(LfsMetaObject, { repositoryId, oid: { $in: oids } }) : [];
  return new Map(rows.map((r) => [r.oid, r]));
}

export async function linkObject(em: EntityManager, repositoryId: number, oid: string, size: number): Promise<void> {
  await writeSql(
    em,
    sql`insert into lfs_meta_object (oid, size, repository_id, created_at) values (${oid}, ${size}, ${repositoryId}, ${new Date()}) on conflict (repository_id, oid) do nothing`,
  );
}

/** LFS bytes linked to the repositories of `ownerId` (Forgejo's quota `lfs` usage). */
export const lfsBytesOfOwner = (ownerId: number): Sql => sql`select coalesce(sum(m.size), 0) as size
  from lfs_meta_object m join repository r on r.id = m.repository_id where r.owner_id = ${ownerId}`;
