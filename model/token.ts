import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A personal access token. Only a salted PBKDF2 hash of the value is kept (forgejo-facts 2.7). */
export const AccessToken = defineEntity({
  name: 'AccessToken',
  tableName: 'access_token',
  properties: {
    id: p.integer().primary().autoincrement(),
    uid: p.integer().index(),
    name: p.string().length(255),
    tokenHash: p.string().length(128).unique().hidden().lazy(true, false),
    tokenSalt: p.string().length(32).hidden().lazy(true, false),
    tokenLastEight: p.string().length(8).index(),
    scope: p.string().length(512).default(''),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['uid', 'name'] }],
});
export type IAccessToken = InferEntity<typeof AccessToken>;

/** The repositories a repo-specific token is limited to. */
export const AccessTokenRepo = defineEntity({
  name: 'AccessTokenRepo',
  tableName: 'access_token_repo',
  properties: {
    id: p.integer().primary().autoincrement(),
    tokenId: p.integer().index(),
    repoId: p.integer().index(),
  },
  uniques: [{ properties: ['tokenId', 'repoId'] }],
});
export type IAccessTokenRepo = InferEntity<typeof AccessTokenRepo>;
