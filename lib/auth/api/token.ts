// Wire shapes of a user's access tokens and blocks: api.AccessToken (Forgejo's convert of
// auth_model.AccessToken; the value only right after creation) and api.BlockedUser.
import type { IAccessToken } from '../../../model/token.ts';
import type { AccessToken, BlockedUser, RepositoryMeta, Wire } from '../../../model/schemas/index.ts';
import { fmtTime } from '../../../model/time.ts';

export type ApiAccessToken = Wire<AccessToken>;
export type ApiRepositoryMeta = Wire<RepositoryMeta>;
export type ApiBlockedUser = Wire<BlockedUser>;

/**
 * `value` is the token itself on creation and '' afterwards; `repositories` the repositories of a
 * repo-specific token the caller may still see, or null for a token of all repositories.
 */
export function toApiAccessToken(t: IAccessToken, value: string, repositories: ApiRepositoryMeta[] | null): ApiAccessToken {
  return {
    id: t.id,
    name: t.name,
    sha1: value,
    token_last_eight: t.tokenLastEight,
    scopes: t.scope ? t.scope.split(',') : [],
    created_at: fmtTime(t.createdAt),
    repositories,
  };
}

export function toApiBlockedUser(b: { blockId: number; createdAt: Date }): ApiBlockedUser {
  return { block_id: b.blockId, created_at: fmtTime(b.createdAt) };
}
