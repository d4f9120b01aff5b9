// The steps of the package registries' rows (table/packages.ts): who calls, whose packages, and Forgejo's
// reqPackageAccess. They share the API steps' vocabulary (name, kind, needs, provides) and run on the
// registry's state; a refusal is a RegistryError, which the registry renders in its clients' shape.
import type { Context } from 'koa';
import { User } from '../model/user.ts';
import { authenticate } from '../lib/auth/auth.ts';
import type { StepKind } from './types.ts';
import { checkAccess, requestOf, RegistryError, type RegistryNeed, type RegistryState } from '../lib/packages/registries/common.ts';
import { E, IMAGE } from '../lib/packages/registries/container-storage.ts';
import { tokenAuth } from '../lib/packages/registries/container-token.ts';

export interface RegistryStep {
  /** As printed in the route matrix, e.g. `PKG_ACCESS(write)`. */
  readonly name: string;
  readonly kind: StepKind;
  readonly needs: readonly RegistryNeed[];
  readonly provides: readonly RegistryNeed[];
  run(s: RegistryState): Promise<void> | void;
}

const step = (
  name: string,
  kind: StepKind,
  needs: readonly RegistryNeed[],
  provides: readonly RegistryNeed[],
  run: RegistryStep['run'],
): RegistryStep => Object.freeze({ name, kind, needs, provides, run });

const authenticated = (s: RegistryState, headers: Context['headers']) =>
  authenticate(s.em, s.deps.config, s.deps.authDeps, {
    headers,
    query: new URLSearchParams(s.ctx.querystring),
    peer: s.ctx.req.socket.remoteAddress,
  });

/** The caller, authenticated as on the API (an invalid credential is refused there); anonymous when none. */
export const PKG_CALLER = step('PKG_CALLER', 'loader', [], ['caller'], async (s) => {
  s.auth = await authenticated(s, s.ctx.headers);
});

/** As PKG_CALLER, and `Authorization: <token>` (one word, as Cargo sends it) read as `token <token>`. */
export const PKG_CALLER_RAW_TOKEN = step('PKG_CALLER_RAW_TOKEN', 'loader', [], ['caller'], async (s) => {
  const value = typeof s.ctx.headers.authorization === 'string' ? s.ctx.headers.authorization.trim() : '';
  s.auth = await authenticated(s, value && !/\s/.test(value) ? { ...s.ctx.headers, authorization: `token ${value}` } : s.ctx.headers);
});

/** The container registry's caller: a registry token (lib/packages/registries/container-token.ts), else as on the API. */
export const OCI_CALLER = step('OCI_CALLER', 'loader', [], ['caller'], async (s) => {
  const header = typeof s.ctx.headers.authorization === 'string' ? s.ctx.headers.authorization : '';
  const signed = await tokenAuth(s.em, s.deps, header);
  s.registryToken = signed !== null;
  s.auth = signed ?? (await authenticated(s, s.ctx.headers));
});

/** A caller with credentials or a registry token (an anonymous one too, unless REQUIRE_SIGNIN_VIEW); else 401 and the Bearer challenge. */
export const OCI_TOKEN = step('OCI_TOKEN', 'guard', ['caller'], [], (s) => {
  if (!s.auth?.doer && (!s.registryToken || s.deps.config.SERVICE.REQUIRE_SIGNIN_VIEW)) throw E.unauthorized();
});

/** [service] REQUIRE_SIGNIN_VIEW: an anonymous caller gets 401 and the Bearer challenge. */
export const OCI_SIGNIN_VIEW = step('OCI_SIGNIN_VIEW', 'guard', ['caller'], [], (s) => {
  if (!s.auth?.doer && s.deps.config.SERVICE.REQUIRE_SIGNIN_VIEW) throw E.unauthorized();
});

const ownerNamed = (s: RegistryState) => s.em.findOne(User, { lowerName: (s.params.owner ?? '').toLowerCase() });

/** The owner `{owner}` names, user or organization; 404 `user does not exist`. */
export const PKG_OWNER = step('PKG_OWNER', 'loader', [], ['owner'], async (s) => {
  const owner = await ownerNamed(s);
  if (!owner) throw new RegistryError(404, 'user does not exist');
  s.owner = owner;
});

/** The image `{image}` names, in the distribution spec's grammar; else 400 NAME_INVALID. */
export const IMAGE_NAME = step('IMAGE_NAME', 'gate', [], ['image'], (s) => {
  const image = s.params.image ?? '';
  if (!IMAGE.test(image)) throw E.nameInvalid();
  s.image = image;
});

/** The image's owner `{owner}`; 404 NAME_UNKNOWN. */
export const IMAGE_OWNER = step('IMAGE_OWNER', 'loader', [], ['owner'], async (s) => {
  const owner = await ownerNamed(s);
  if (!owner) throw E.nameUnknown();
  s.owner = owner;
});

/**
 * Forgejo's reqPackageAccess: a token needs `read:package`/`write:package` for the level, a public-only
 * token a public owner (else 403); a site admin passes; else the caller's access to the owner's packages
 * must reach the level. Refused: 401 with a challenge, so package clients send credentials.
 */
export const PKG_ACCESS = (level: 'read' | 'write'): RegistryStep => (level === 'read' ? PKG_READ : PKG_WRITE);
const access = (level: 'read' | 'write') =>
  step(`PKG_ACCESS(${level})`, 'guard', ['caller', 'owner'], [], (s) => checkAccess(s.deps.config, requestOf(s), level));
const PKG_READ = access('read');
const PKG_WRITE = access('write');
