// Registry tokens of the container registry (Forgejo's packages_service.CreateAuthorizationToken).
import { timingSafeEqual } from 'node:crypto';
import { type EntityManager } from '@mikro-orm/core';
import { User } from '../../../model/user.ts';
import { AccessToken } from '../../../model/token.ts';
import { type AuthResult } from '../../auth/auth.ts';
import type { TokenInfo } from '../../auth/auth-types.ts';
import { parseScopes, ScopeError } from '../../auth/scopes.ts';
import { type PackageRegistryDeps } from './common.ts';
import { E } from './container-storage.ts';

export const TOKEN_LIFETIME_MS = 24 * 3600 * 1000;

// ---------------------------------------------------------------------------------------------
// Registry tokens (Forgejo's packages_service.CreateAuthorizationToken): signed with the instance
// secret, naming the user (0: anonymous) and, when an access token was presented, that token's
// scopes, which then limit the registry token too. A revoked access token revokes its registry tokens.

export interface TokenClaims {
  u: number;
  t: { id: number; raw: string; publicOnly: boolean; repoIds: number[] | null } | null;
  e: number;
}

export const TOKEN_PREFIX = 'cairn-oci.';

export function mintToken(deps: PackageRegistryDeps, auth: AuthResult): string {
  const t = auth.token;
  const claims: TokenClaims = {
    u: auth.doer?.id ?? 0,
    t: t ? { id: t.id, raw: t.raw, publicOnly: t.publicOnly, repoIds: t.repoIds } : null,
    e: Date.now() + TOKEN_LIFETIME_MS,
  };
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${TOKEN_PREFIX}${body}.${deps.services.secrets.mac('container-token', body).toString('base64url')}`;
}

/** The caller a registry token names; null when the header holds no registry token (other credentials). */
export async function tokenAuth(em: EntityManager, deps: PackageRegistryDeps, header: string): Promise<AuthResult | null> {
  const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!m || !m[1].startsWith(TOKEN_PREFIX)) return null;
  const [body, mac] = m[1].slice(TOKEN_PREFIX.length).split('.');
  const expected = deps.services.secrets.mac('container-token', body ?? '');
  const given = Buffer.from(mac ?? '', 'base64url');
  if (!body || given.length !== expected.length || !timingSafeEqual(given, expected)) throw E.unauthorized('invalid token');
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as TokenClaims;
  if (claims.e < Date.now()) throw E.unauthorized('token expired');
  if (claims.u === 0) return { doer: null, method: null, token: null, sudoer: null };
  const doer = await em.findOne(User, { id: claims.u });
  if (!doer || !doer.isActive || doer.prohibitLogin) throw E.unauthorized('invalid token');
  let token: TokenInfo | null = null;
  if (claims.t) {
    if (!(await em.findOne(AccessToken, { id: claims.t.id, uid: doer.id }))) throw E.unauthorized('invalid token');
    let scopes: TokenInfo['scopes'] = null;
    try {
      scopes = parseScopes(claims.t.raw);
    } catch (e) {
      if (!(e instanceof ScopeError)) throw e;
    }
    token = { id: claims.t.id, scopes, raw: claims.t.raw, publicOnly: claims.t.publicOnly, repoIds: claims.t.repoIds };
  }
  return { doer, method: 'token', token, sudoer: null };
}
