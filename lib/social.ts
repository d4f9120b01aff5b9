// Stars and watches of repositories, with the counters kept on the repository.
import type { EntityManager } from '@mikro-orm/core';
import type { IRepository } from '../model/repo.ts';
import { Star, Watch, WatchMode } from '../model/star.ts';

export const WATCHING = [WatchMode.normal, WatchMode.auto];

export async function setStar(em: EntityManager, uid: number, repo: IRepository, on: boolean): Promise<void> {
  const existing = await em.findOne(Star, { uid, repoId: repo.id });
  if (on && !existing) em.create(Star, { uid, repoId: repo.id });
  if (!on && existing) em.remove(existing);
  await em.flush();
  repo.numStars = await em.count(Star, { repoId: repo.id });
  await em.flush();
}

export async function setWatch(em: EntityManager, userId: number, repo: IRepository, on: boolean): Promise<void> {
  const existing = await em.findOne(Watch, { userId, repoId: repo.id });
  if (on) {
    if (!existing) em.create(Watch, { userId, repoId: repo.id, mode: WatchMode.normal });
    else existing.mode = WatchMode.normal;
  } else if (existing) {
    // An explicit unwatch is remembered (Forgejo's `dont`), so an automatic watch does not come back.
    existing.mode = WatchMode.dont;
  }
  await em.flush();
  repo.numWatches = await em.count(Watch, { repoId: repo.id, mode: { $in: WATCHING } });
  await em.flush();
}

export async function isWatching(em: EntityManager, userId: number, repoId: number): Promise<boolean> {
  return (await em.count(Watch, { userId, repoId, mode: { $in: WATCHING } })) > 0;
}
