// The token `git-lfs-authenticate` hands out over SSH, for git-lfs to call the LFS HTTP endpoints
// with (`Authorization: Bearer <token>`). As Forgejo's (services/lfs/server.go Claims), it is an
// HS256 JWT naming the repository, the operation and the user, valid for [server]
// LFS_HTTP_AUTH_EXPIRY; cairn signs it with a key derived from the instance secret, so every
// process sharing SECRET_KEY accepts it. A deploy key's token names the key instead of a user.
// The token only says who the caller is: access is decided again when it is used.
import { timingSafeEqual } from 'node:crypto';
import type { SecretBox } from '../auth/secretbox.ts';

export type LfsOperation = 'upload' | 'download';

export interface LfsClaims {
  RepoID: number;
  Op: LfsOperation;
  /** 0 for a deploy key. */
  UserID: number;
  /** 0 for a user's key. */
  DeployKeyID: number;
  /** Seconds since the epoch. */
  exp: number;
  nbf: number;
}

const PURPOSE = 'lfs-jwt';
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export function signLfsToken(
  secrets: SecretBox,
  claims: Omit<LfsClaims, 'exp' | 'nbf'>,
  expiryMs: number,
  now = Date.now(),
): { token: string; expiresAt: Date } {
  const nbf = Math.floor(now / 1000);
  const exp = Math.floor((now + expiryMs) / 1000);
  const body = Buffer.from(JSON.stringify({ ...claims, exp, nbf })).toString('base64url');
  const signature = secrets.mac(PURPOSE, `${HEADER}.${body}`).toString('base64url');
  return { token: `${HEADER}.${body}.${signature}`, expiresAt: new Date(exp * 1000) };
}

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The claims of a valid, current token signed by this instance; null for anything else. */
export function verifyLfsToken(secrets: SecretBox, token: string, now = Date.now()): LfsClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return null;
  const expected = secrets.mac(PURPOSE, `${parts[0]}.${parts[1]}`);
  const given = Buffer.from(parts[2], 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let claims: Partial<LfsClaims>;
  try {
    claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as Partial<LfsClaims>;
  } catch (e) {
    // Signed by us, so this cannot happen short of a key compromise; refuse rather than fail.
    if (e instanceof SyntaxError) return null;
    throw e;
  }
  const seconds = now / 1000;
  if (!isId(claims.RepoID) || !isId(claims.UserID) || !isId(claims.DeployKeyID) || !isId(claims.exp) || !isId(claims.nbf)) return null;
  if (claims.Op !== 'upload' && claims.Op !== 'download') return null;
  if (seconds >= claims.exp || seconds + 60 < claims.nbf) return null;
  return claims as LfsClaims;
}

/** Whether a bearer value looks like one of these tokens (rather than an access token). */
export const looksLikeLfsToken = (value: string) => value.startsWith(`${HEADER}.`);
