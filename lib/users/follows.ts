// Following users (Forgejo's follow table). The follower counters on the user rows are recounted
// after each change, under the users' row locks (lib/db/counters.ts), so they cannot drift.
import type { EntityManager } from '@mikro-orm/core';
import { Follow } from '../../model/social.ts';
import { User } from '../../model/user.ts';
import { learnCounters, lockCounterRows } from '../db/counters.ts';
import { executeSql, sql } from '../../model/sql.ts';

export async function refreshFollowCounts(em: EntityManager, userIds: number[]): Promise<void> {
  await em.flush();
  const ids = [...new Set(userIds)];
  if (!ids.length) return;
  await lockCounterRows(em, { user: ids });
  const rows = await executeSql<{ id: number; num_followers: number; num_following: number }>(
    em,
    sql`update "user" u set
      num_followers = (select count(*) from follow f where f.follow_id = u.id),
      num_following = (select count(*) from follow f where f.user_id = u.id)
      where u.id in (${sql.list(ids)}) returning id, num_followers, num_following`,
  );
  for (const r of rows) learnCounters(em, User, r.id, { numFollowers: Number(r.num_followers), numFollowing: Number(r.num_following) });
}

export async function isFollowing(em: EntityManager, userId: number, followId: number): Promise<boolean> {
  return (await em.count(Follow, { userId, followId })) > 0;
}

/** `userId` follows `followId`; following oneself or following twice changes nothing. */
export async function follow(em: EntityManager, userId: number, followId: number): Promise<void> {
  if (userId === followId) return;
  // One statement, so following twice at once adds one row (the second waits for the first and skips).
  const added = await executeSql<{ id: number }>(
    em,
    sql`insert into follow (user_id, follow_id, created_at) values (${userId}, ${followId}, ${new Date()}) on conflict (user_id, follow_id) do nothing returning id`,
  );
  if (added.length) await refreshFollowCounts(em, [userId, followId]);
}

export async function unfollow(em: EntityManager, userId: number, followId: number): Promise<void> {
  if ((await em.nativeDelete(Follow, { userId, followId })) > 0) await refreshFollowCounts(em, [userId, followId]);
}
