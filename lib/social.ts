// Stars and watches of repositories, with the counters kept on the repository.
import type { EntityManager } from '@mikro-orm/core';
import { Repository, type IRepository } from '../model/repo.ts';
import { learnCounters, lockCounterRows } from './counters.ts';
import { Star, Watch, WatchMode } from '../model/star.ts';

export const WATCHING = [WatchMode.normal, WatchMode.auto];

export async function setStar(em: EntityManager, uid: number, repo: IRepository, on: boolean): Promise<void> {
  const existing = await em.findOne(Star, { uid, repoId: repo.id });
  if (on && !existing) em.create(Star, { uid, repoId: repo.id });
  if (!on && existing) em.remove(existing);
  await recountStarsAndWatches(em, [repo.id]);
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
  await recountStarsAndWatches(em, [repo.id]);
}

/**
 * Recount `num_stars` and `num_watches` of repositories after stars or watches changed, under the
 * repositories' row locks (lib/counters.ts); repositories this request holds learn the new values.
 */
export async function recountStarsAndWatches(em: EntityManager, repoIds: number[]): Promise<void> {
  await em.flush();
  const ids = [...new Set(repoIds)];
  if (!ids.length) return;
  await lockCounterRows(em, { repository: ids });
  const rows = await em.getConnection().execute<{ id: number; num_stars: number; num_watches: number }[]>(
    `update repository r set
      num_stars = (select count(*) from star s where s.repo_id = r.id),
      num_watches = (select count(*) from watch w where w.repo_id = r.id and w.mode in (${WATCHING.join(',')}))
      where r.id in (${ids.map(() => '?').join(',')}) returning id, num_stars, num_watches`,
    ids, 'all', em.getTransactionContext());
  for (const r of rows) learnCounters(em, Repository, r.id, { numStars: Number(r.num_stars), numWatches: Number(r.num_watches) });
}

export async function isWatching(em: EntityManager, userId: number, repoId: number): Promise<boolean> {
  return (await em.count(Watch, { userId, repoId, mode: { $in: WATCHING } })) > 0;
}
