// Blocking (Forgejo's user blocking): a user or organization `a` blocks user `b`. A block ends the
// follows between them and `b`'s collaborations on `a`'s repositories; other features ask isBlocked
// before letting `b` act on `a`'s things (follow, collaborate, later issues and comments).
import type { EntityManager } from '@mikro-orm/core';
import { BlockedUser, Follow } from '../../model/social.ts';
import { Collaboration, Repository } from '../../model/repo.ts';
import { Watch } from '../../model/star.ts';
import { recountStarsAndWatches } from '../repos/index.ts';
import type { IUser } from '../../model/user.ts';
import { refreshFollowCounts } from './follows.ts';
import { toApiBlockedUser } from '../auth/api/token.ts';
import { intArray } from '../../model/raw.ts';
import { readRows } from '../../model/sql.ts';

/** Whether `a` has blocked `b` (user ids). */
export async function isBlocked(em: EntityManager, a: number, b: number): Promise<boolean> {
  return isBlockedByAny(em, [a], b);
}

const BLOCKED_BY_ANY = 'select exists (select 1 from blocked_user where user_id = any(?::int[]) and block_id = ?) as blocked';

/**
 * Whether any of `blockers` has blocked `b`, in one statement; none when the only one asked is `b`
 * itself: nobody blocks themselves (`blockUser` refuses it), so an owner or poster acting on their
 * own repository or issue is not blocked by them (a write's guard chain).
 */
export async function isBlockedByAny(em: EntityManager, blockers: readonly number[], b: number): Promise<boolean> {
  const ids = [...new Set(blockers)].filter((a) => a !== b);
  if (!ids.length) return false;
  const [row] = await readRows<{ blocked: boolean }>(em, [BlockedUser], BLOCKED_BY_ANY, [intArray(ids), b]);
  return !!row?.blocked;
}

/** Whether either of the two has blocked the other. */
export async function isBlockedEither(em: EntityManager, a: number, b: number): Promise<boolean> {
  return (
    (await em.count(BlockedUser, {
      $or: [
        { userId: a, blockId: b },
        { userId: b, blockId: a },
      ],
    })) > 0
  );
}

/** `blocker` blocks `blocked`; blocking oneself or blocking twice changes nothing. */
export async function blockUser(em: EntityManager, blocker: IUser, blocked: IUser): Promise<void> {
  if (blocker.id === blocked.id || (await isBlocked(em, blocker.id, blocked.id))) return;
  em.create(BlockedUser, { userId: blocker.id, blockId: blocked.id });
  const follows = await em.nativeDelete(Follow, {
    $or: [
      { userId: blocker.id, followId: blocked.id },
      { userId: blocked.id, followId: blocker.id },
    ],
  });
  if (follows > 0) await refreshFollowCounts(em, [blocker.id, blocked.id]);
  const repoIds = (await em.find(Repository, { ownerId: blocker.id }, { fields: ['id'] })).map((r) => r.id);
  if (repoIds.length) {
    await em.nativeDelete(Collaboration, { userId: blocked.id, repoId: { $in: repoIds } });
    const watched = await em.find(Watch, { userId: blocked.id, repoId: { $in: repoIds } });
    if (watched.length) {
      await em.nativeDelete(Watch, { id: { $in: watched.map((w) => w.id) } });
      await recountStarsAndWatches(
        em,
        watched.map((w) => w.repoId),
      );
    }
  }
  await em.flush();
}

export async function unblockUser(em: EntityManager, blocker: IUser, blocked: IUser): Promise<void> {
  await em.nativeDelete(BlockedUser, { userId: blocker.id, blockId: blocked.id });
}

/** A page of `blocker`'s blocks, newest last, in the BlockedUser wire shape. */
export async function listBlocked(em: EntityManager, blockerId: number, page: { limit: number; offset: number }) {
  const [rows, total] = await em.findAndCount(
    BlockedUser,
    { userId: blockerId },
    { orderBy: { id: 'asc' }, limit: page.limit, offset: page.offset },
  );
  return { total, items: rows.map(toApiBlockedUser) };
}
