import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** `userId` follows `followId` (Forgejo's follow table). */
export const Follow = defineEntity({
  name: 'Follow',
  tableName: 'follow',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer().index(),
    followId: p.integer().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['userId', 'followId'] }],
});
export type IFollow = InferEntity<typeof Follow>;

/** `userId` (a user or an organization) has blocked `blockId` (Forgejo's forgejo_blocked_user). */
export const BlockedUser = defineEntity({
  name: 'BlockedUser',
  tableName: 'blocked_user',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer().index(),
    blockId: p.integer().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['userId', 'blockId'] }],
});
export type IBlockedUser = InferEntity<typeof BlockedUser>;
