// Git LFS file locks (Forgejo's models/git/lfs_lock.go, services/lfs/locks.go): one lock per path
// and repository. Creating is one conditional insert against the unique index, so two clients racing
// for a path get one lock and one conflict; unlocking is one conditional delete that only removes
// the caller's own lock unless `force` is given (by someone with write access, which the route
// requires). Lock paths are cleaned as Forgejo's util.PathJoinRel does.
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/core';
import { LfsLock, type ILfsLock } from '../../model/lfs.ts';
import { User } from '../../model/user.ts';
import { fmtTime } from '../../model/time.ts';
import { executeSql, sql } from '../../model/sql.ts';

export interface LockJson {
  id: string;
  path: string;
  locked_at: string;
  owner: { name: string };
}

interface LockRow {
  id: number;
  repo_id: number;
  owner_id: number;
  path: string;
  created_at: Date;
}
const fromRow = (r: LockRow): ILfsLock =>
  ({ id: r.id, repoId: r.repo_id, ownerId: r.owner_id, path: r.path, createdAt: new Date(r.created_at) }) as ILfsLock;

/** `a/../b` is `b`, a leading `/` or `..` cannot leave the repository; empty stays empty. */
export const cleanLockPath = (p: string) => path.posix.normalize(`/${p}`).slice(1).replace(/\/$/, '');

/** Forgejo's convert.ToLFSLock. */
export async function lockJson(em: EntityManager, locks: ILfsLock[]): Promise<LockJson[]> {
  const owners = locks.length ? await em.find(User, { id: { $in: [...new Set(locks.map((l) => l.ownerId))] } }) : [];
  const names = new Map(owners.map((u) => [u.id, u.name]));
  return locks.map((l) => ({
    id: String(l.id),
    path: l.path,
    locked_at: fmtTime(l.createdAt),
    owner: { name: names.get(l.ownerId) ?? '' },
  }));
}

/** The new lock, or the lock that already holds the path. */
export async function createLock(
  em: EntityManager,
  repoId: number,
  ownerId: number,
  lockPath: string,
): Promise<{ created: boolean; lock: ILfsLock }> {
  // Retried once: the holder may unlock between the refused insert and the read.
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await executeSql<LockRow>(
      em,
      sql`insert into lfs_lock (repo_id, owner_id, path, created_at) values (${repoId}, ${ownerId}, ${lockPath}, ${new Date()}) on conflict (repo_id, path) do nothing returning *`,
    );
    if (inserted.length) return { created: true, lock: fromRow(inserted[0]!) };
    const held = await em.fork().findOne(LfsLock, { repoId, path: lockPath });
    if (held) return { created: false, lock: held };
  }
  throw new Error(`lock for ${lockPath} neither created nor found`);
}

export interface LockQuery {
  id?: number;
  path?: string;
  page: number;
  limit: number;
}

/** One page of a repository's locks, oldest first; `next` is the following page when this one is full. */
export async function listLocks(em: EntityManager, repoId: number, q: LockQuery): Promise<{ locks: ILfsLock[]; next: string }> {
  if (q.id !== undefined) return { locks: await em.find(LfsLock, { id: q.id, repoId }), next: '' };
  if (q.path !== undefined) return { locks: await em.find(LfsLock, { repoId, path: q.path }), next: '' };
  const locks = await em.find(LfsLock, { repoId }, { orderBy: { id: 'asc' }, limit: q.limit, offset: (q.page - 1) * q.limit });
  return { locks, next: locks.length === q.limit ? String(q.page + 1) : '' };
}

export type UnlockResult = { lock: ILfsLock } | { missing: true } | { notOwner: true };

export async function unlock(em: EntityManager, repoId: number, id: number, doerId: number, force: boolean): Promise<UnlockResult> {
  const deleted = await executeSql<LockRow>(
    em,
    sql`delete from lfs_lock where id = ${id} and repo_id = ${repoId} and (owner_id = ${doerId} or ${force}) returning *`,
  );
  if (deleted.length) return { lock: fromRow(deleted[0]!) };
  return (await em.fork().count(LfsLock, { id, repoId })) ? { notOwner: true } : { missing: true };
}
