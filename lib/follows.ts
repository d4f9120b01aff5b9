// Following users (Forgejo's follow table). The follower counters on the user rows are recounted
// after each change, so they cannot drift.
import type { EntityManager } from '@mikro-orm/core';
import { Follow } from '../model/social.ts';
import { User } from '../model/user.ts';

export async function refreshFollowCounts(em: EntityManager, userIds: number[]): Promise<void> {
  for (const u of await em.find(User, { id: { $in: userIds } })) {
    u.numFollowers = await em.count(Follow, { followId: u.id });
    u.numFollowing = await em.count(Follow, { userId: u.id });
  }
  await em.flush();
}

export async function isFollowing(em: EntityManager, userId: number, followId: number): Promise<boolean> {
  return (await em.count(Follow, { userId, followId })) > 0;
}

/** `userId` follows `followId`; following oneself or following twice changes nothing. */
export async function follow(em: EntityManager, userId: number, followId: number): Promise<void> {
  if (userId === followId || (await isFollowing(em, userId, followId))) return;
  em.create(Follow, { userId, followId });
  await em.flush();
  await refreshFollowCounts(em, [userId, followId]);
}

export async function unfollow(em: EntityManager, userId: number, followId: number): Promise<void> {
  if ((await em.nativeDelete(Follow, { userId, followId })) > 0) await refreshFollowCounts(em, [userId, followId]);
}
