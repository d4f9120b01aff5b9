// Stars and watches of repositories, with the counters kept on the repository.
import type { EntityManager } from '@mikro-orm/core';
import { Repository, type IRepository } from '../../model/repo.ts';
import { learnCounters, lockCounterRows } from '../db/counters.ts';
import { Star, Watch, WatchMode } from '../../model/star.ts';
import { executeSql, readRows, sql } from '../../model/sql.ts';
import { Slot, type ReadAhead } from '../http/read-ahead.ts';

export const WATCHING = [WatchMode.normal, WatchMode.auto];

/** Star or unstar; the row is written in one statement, so the same user starring twice at once adds one. */
export async function setStar(em: EntityManager, uid: number, repo: IRepository, on: boolean): Promise<void> {
  const changed = on
    ? (
        await executeSql(
          em,
          sql`insert into star (uid, repo_id, created_at) values (${uid}, ${repo.id}, ${new Date()}) on conflict (uid, repo_id) do nothing returning id`,
        )
      ).length
    : await em.nativeDelete(Star, { uid, repoId: repo.id });
  if (changed) await recountStarsAndWatches(em, [repo.id]);
}

/** Watch, or unwatch (remembered as Forgejo's `dont`, so an automatic watch does not come back); one statement each. */
export async function setWatch(em: EntityManager, userId: number, repo: IRepository, on: boolean): Promise<void> {
  const now = new Date();
  const changed = on
    ? (
        await executeSql(
          em,
          sql`insert into watch (user_id, repo_id, mode, created_at, updated_at) values (${userId}, ${repo.id}, ${WatchMode.normal}, ${now}, ${now})
        on conflict (user_id, repo_id) do update set mode = excluded.mode, updated_at = excluded.updated_at where watch.mode <> excluded.mode
        returning id`,
        )
      ).length
    : await em.nativeUpdate(Watch, { userId, repoId: repo.id, mode: { $ne: WatchMode.dont } }, { mode: WatchMode.dont, updatedAt: now });
  if (changed) await recountStarsAndWatches(em, [repo.id]);
}

/**
 * A star count another statement of the request already read (the caller's token's, lib/auth/tokens.ts):
 * only for a request that changes nothing, which cannot star anything either.
 */
const STARS_READ = new Slot<{ uid: number; count: number }>('star count read with the token');

/** The select expression of user `uid`'s star count (`uid` being SQL), for `keepStarCount`. */
export const starCountColumn = (uid: string) => `(select count(*)::int from star s where s.uid = ${uid}) as star_count`;

export function keepStarCount(ahead: ReadAhead, uid: number, count: number): void {
  ahead.keep(STARS_READ, { uid, count });
}

/** How many repositories a user has starred: a plain count, unless this request read it already (GET /user). */
export async function starCount(em: EntityManager, uid: number, ahead?: ReadAhead): Promise<number> {
  const known = ahead?.peek(STARS_READ);
  if (known && known.uid === uid) return known.count;
  const [row] = await readRows<{ n: number }>(em, [Star], sql`select count(*)::int as n from star where uid = ${uid}`);
  return row!.n;
}

/**
 * Recount `num_stars` and `num_watches` of repositories after stars or watches changed, under the
 * repositories' row locks (lib/db/counters.ts); repositories this request holds learn the new values.
 */
export async function recountStarsAndWatches(em: EntityManager, repoIds: number[]): Promise<void> {
  await em.flush();
  const ids = [...new Set(repoIds)];
  if (!ids.length) return;
  await lockCounterRows(em, { repository: ids });
  const rows = await executeSql<{ id: number; num_stars: number; num_watches: number }>(
    em,
    sql`update repository r set
      num_stars = (select count(*) from star s where s.repo_id = r.id),
      num_watches = (select count(*) from watch w where w.repo_id = r.id and w.mode in (${sql.list(WATCHING)}))
      where r.id in (${sql.list(ids)}) returning id, num_stars, num_watches`,
  );
  for (const r of rows) learnCounters(em, Repository, r.id, { numStars: Number(r.num_stars), numWatches: Number(r.num_watches) });
}

export async function isWatching(em: EntityManager, userId: number, repoId: number): Promise<boolean> {
  return (await em.count(Watch, { userId, repoId, mode: { $in: WATCHING } })) > 0;
}
