// Followers, following and blocking (Forgejo's routers/api/v1/user/follower.go and user.go).
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import { User, type IUser } from '../model/user.ts';
import { Follow } from '../model/social.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { canSeeUserFilter } from '../lib/auth/user-visibility.ts';
import { follow, isFollowing, unfollow } from '../lib/users/follows.ts';
import { blockUser, listBlocked, unblockUser } from '../lib/users/blocks.ts';
import { notFound, unprocessable } from '../lib/http/errors.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/http/request.ts';
import { usersJson } from './users.ts';

/** Users on one side of `user`'s follows that the caller may see, one page of them. */
async function followList(c: RequestState, user: IUser, side: 'followers' | 'following') {
  const p = pageOf(c);
  const rows = await c.em.find(Follow, side === 'followers' ? { followId: user.id } : { userId: user.id });
  const ids = rows.map((f) => (side === 'followers' ? f.userId : f.followId));
  const where = { $and: [{ id: { $in: ids }, type: 0 }, await canSeeUserFilter(c.em, c.auth.doer, isSiteAdmin(c))] };
  const [users, total] = await c.em.findAndCount(User, where, { orderBy: { id: 'asc' }, limit: p.limit, offset: p.offset });
  return json(200, await usersJson(c, users), pagingHeaders(c, p, total));
}

export const listFollowers: Handler = async (c) => followList(c, need(c.contextUser, 'user'), 'followers');
export const listFollowing: Handler = async (c) => followList(c, need(c.contextUser, 'user'), 'following');
export const listMyFollowers = signedIn(async (c) => followList(c, c.auth.doer, 'followers'));
export const listMyFollowing = signedIn(async (c) => followList(c, c.auth.doer, 'following'));

const followAnswer = async (c: RequestState, userId: number, followId: number) => {
  if (await isFollowing(c.em, userId, followId)) return noContent();
  throw notFound();
};

/** Whether `{username}` follows `{target}` (TARGET_USER resolved it, or redirected a renamed one). */
export const checkFollowing: Handler = async (c) => followAnswer(c, need(c.contextUser, 'user').id, need(c.targetUser, 'target-user').id);

export const checkMyFollowing = signedIn(async (c) => followAnswer(c, c.auth.doer.id, need(c.contextUser, 'user').id));

export const putFollowing = signedIn(async (c) => {
  await follow(c.em, c.auth.doer.id, need(c.contextUser, 'user').id);
  return noContent();
});

export const removeFollowing = signedIn(async (c) => {
  await unfollow(c.em, c.auth.doer.id, need(c.contextUser, 'user').id);
  return noContent();
});

export const listBlockedUsers = signedIn(async (c) => {
  const p = pageOf(c);
  const { items, total } = await listBlocked(c.em, c.auth.doer.id, p);
  return json(200, items, pagingHeaders(c, p, total));
});

function individual(u: IUser): IUser {
  if (u.type !== 0) throw unprocessable(`${u.name} is an organization not a user`);
  return u;
}

export const block = signedIn(async (c) => {
  await blockUser(c.em, c.auth.doer, individual(need(c.contextUser, 'user')));
  return noContent();
});

export const unblock = signedIn(async (c) => {
  await unblockUser(c.em, c.auth.doer, individual(need(c.contextUser, 'user')));
  return noContent();
});

/** This family's handlers; `routes.table.ts` names each `follows.<key>`. */
export const handlers = {
  listFollowers,
  listFollowing,
  checkFollowing,
  listMyFollowers,
  listMyFollowing,
  checkMyFollowing,
  putFollowing,
  removeFollowing,
  listBlockedUsers,
  block,
  unblock,
} satisfies Record<string, Handler<never, never>>;
