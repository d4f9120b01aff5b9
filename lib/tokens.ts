// Personal access tokens (forgejo-facts 2.7): 40 lowercase hex characters, no prefix. Only a salted
// hash is stored, with the last eight characters for lookup. Tokens carry 160 random bits, so one
// HMAC-SHA256 is enough to make the stored value useless to a thief, and keeps each request cheap.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { AccessToken, AccessTokenRepo, type IAccessToken } from '../model/token.ts';

export const TOKEN_RE = /^[0-9a-f]{40}$/;

export function newTokenValue(): string {
  return randomBytes(20).toString('hex');
}

export function hashToken(value: string, salt: string): string {
  return createHmac('sha256', salt).update(value).digest('hex');
}

export function newSalt(): string {
  return randomBytes(16).toString('base64url').slice(0, 22);
}

export class TokenLookupError extends Error {}

/** Finds the token row for a presented value, or throws TokenLookupError with Forgejo's message. */
export async function findToken(em: EntityManager, value: string): Promise<IAccessToken> {
  if (value === '') throw new TokenLookupError('access token is empty');
  if (!TOKEN_RE.test(value)) throw new TokenLookupError(`access token does not exist [sha: ${value}]`);
  const candidates = await em.find(AccessToken, { tokenLastEight: value.slice(-8) }, { populate: ['tokenHash', 'tokenSalt'] });
  for (const t of candidates) {
    const want = Buffer.from(t.tokenHash, 'hex');
    const got = Buffer.from(hashToken(value, t.tokenSalt), 'hex');
    if (want.length === got.length && timingSafeEqual(want, got)) return t;
  }
  throw new TokenLookupError(`access token does not exist [sha: ${value}]`);
}

export async function tokenRepoIds(em: EntityManager, tokenId: number): Promise<number[] | null> {
  const rows = await em.find(AccessTokenRepo, { tokenId }, { orderBy: { repoId: 'asc' } });
  return rows.length ? rows.map((r) => r.repoId) : null;
}
