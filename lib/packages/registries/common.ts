// What the package registries share (their routes are rows of table/packages.ts, which name the
// handlers of transports/registries/): the state the rows' steps fill, the request a handler is handed
// once the owner is resolved, the access check, the error type each renders in its clients' shape and the
// uploader's quota check. Capped body reads and file downloads are transports/registries/common.ts's.
import type { Context } from 'koa';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../../config.ts';
import type { Orm } from '../../../model/db.ts';
import type { Services } from '../../http/services.ts';
import type { IUser } from '../../../model/user.ts';
import type { AuthResult, AuthDeps } from '../../auth/auth.ts';
import { withinQuota } from '../../quota/index.ts';
import { MSG } from '../../http/errors.ts';
import { hasScope } from '../../auth/scopes.ts';
import { isSiteAdmin } from '../../http/request.ts';
import { packageAccess } from '../../auth/membership.ts';

export interface PackageRegistryDeps {
  config: Config;
  orm: Orm;
  services: Services;
  authDeps: AuthDeps;
}

/** A refusal, rendered by the registry in its clients' shape (plain text unless the registry says otherwise). */
export class RegistryError extends Error {
  readonly status: number;
  readonly challenge: boolean;
  constructor(status: number, message: string, challenge = false) {
    super(message);
    this.status = status;
    this.challenge = challenge;
  }
}

export interface RegistryRequest {
  ctx: Context;
  deps: PackageRegistryDeps;
  em: EntityManager;
  auth: AuthResult;
  owner: IUser;
}

/** What a registry row's steps provide and its handler needs: the caller, the owner, the image (container). */
export type RegistryNeed = 'caller' | 'owner' | 'image';

/** A registry request while its row's steps run (guards/registry.ts); each step fills what it provides. */
export interface RegistryState {
  ctx: Context;
  deps: PackageRegistryDeps;
  em: EntityManager;
  /** The row's path parameters, percent-decoded. */
  params: Readonly<Record<string, string>>;
  auth?: AuthResult;
  /** The caller holds a container registry token (container-token.ts), an anonymous one too. */
  registryToken?: boolean;
  owner?: IUser;
  image?: string;
}

export type RegistryParams = Readonly<Record<string, string>>;

/** A registry operation as a row names it: what the row's steps must have provided, and what it does. */
export interface RegistryHandler {
  readonly needs: readonly RegistryNeed[];
  run(s: RegistryState, p: RegistryParams): Promise<void>;
}

/** The request of a handler that needs the caller and the owner; the table check guarantees both. */
export function requestOf(s: RegistryState): RegistryRequest {
  if (!s.auth || !s.owner) throw new Error('registry row without the caller or owner its handler needs');
  return { ctx: s.ctx, deps: s.deps, em: s.em, auth: s.auth, owner: s.owner };
}

/** A handler of the owner's packages (the caller and the owner resolved by the row's steps). */
export const ofOwner = (run: (r: RegistryRequest, p: RegistryParams) => Promise<void>): RegistryHandler => ({
  needs: ['caller', 'owner'],
  run: (s, p) => run(requestOf(s), p),
});

export interface Registry {
  /** The `{type}` path segment (`container`: served at `/v2/`). */
  type: string;
  /** Its operations, by the key a row of table/packages.ts names as `<type>.<key>`. */
  handlers: Readonly<Record<string, RegistryHandler>>;
  /** Renders an error; plain text when absent. */
  renderError?(ctx: Context, err: RegistryError, appUrl: string): void;
}

/** Forgejo's reqPackageAccess for the level the operation needs. */
export async function checkAccess(cfg: Config, r: RegistryRequest, level: 'read' | 'write'): Promise<void> {
  const { auth, owner } = r;
  const token = auth.token;
  if (token) {
    if (!token.scopes || !hasScope(token.scopes, 'package', level)) throw new RegistryError(401, MSG.packageAccess, true);
    if (token.publicOnly && owner.visibility !== 'public') throw new RegistryError(403, MSG.publicOnly('packages'));
  }
  if (isSiteAdmin({ auth })) return;
  const mode = !auth.doer && cfg.SERVICE.REQUIRE_SIGNIN_VIEW ? 0 : await packageAccess(r.em, owner, auth.doer);
  if (mode < (level === 'read' ? 1 : 2)) throw new RegistryError(401, MSG.packageAccess, true);
}

/** The uploader: write access implies a signed-in caller, this only narrows the type. */
export function uploader(r: RegistryRequest): IUser {
  if (!r.auth.doer) throw new RegistryError(401, MSG.packageAccess, true);
  return r.auth.doer;
}

/** Forgejo's enforcePackagesQuota: the uploader's package quota, checked before the bytes are read. */
export async function checkQuota(r: RegistryRequest, creator: IUser): Promise<void> {
  if (!(await withinQuota(r.em, r.deps.config, creator.id, 'size:assets:packages:all'))) throw new RegistryError(413, MSG.quotaExceeded);
}
