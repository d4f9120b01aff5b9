import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A user's star on a repository; `repository.num_stars` counts them. */
export const Star = defineEntity({
  name: 'Star',
  tableName: 'star',
  properties: {
    id: p.integer().primary().autoincrement(),
    uid: p.integer().index(),
    repoId: p.integer().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['uid', 'repoId'] }],
});
export type IStar = InferEntity<typeof Star>;

/** Forgejo's watch modes: a row with `none` or `dont` is not a watcher; `auto` came from creating or pushing. */
export const WatchMode = { none: 0, normal: 1, dont: 2, auto: 3 } as const;

/** A user's subscription to a repository; `repository.num_watches` counts normal and auto rows. */
export const Watch = defineEntity({
  name: 'Watch',
  tableName: 'watch',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer().index(),
    repoId: p.integer().index(),
    mode: p.smallint().default(1),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['userId', 'repoId'] }],
});
export type IWatch = InferEntity<typeof Watch>;
