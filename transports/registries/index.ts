// The package registries, outside /api/v1 (Forgejo routers/api/packages/api.go): `<ROOT>api/packages/<owner>/<type>/...`
// for the types of this folder (generic, npm, pypi, cargo, maven), and the container registry at
// `<ROOT>v2/`. Their routes are rows of table/packages.ts, which table/package-interpreter.ts serves: the
// caller authenticates as on the API, and each row's steps (guards/registry.ts) check access to the owner's
// packages as Forgejo's reqPackageAccess does (a token without `read:package`/`write:package` or a caller
// without the access gets 401 with a challenge, so package clients then send credentials; a public-only
// token 403 on a non-public owner). Errors are plain text unless the registry renders its own.
import type { Context } from 'koa';
import type { Registry, RegistryError } from '../../lib/packages/registries/common.ts';
import { generic } from './generic.ts';
import { npm } from './npm.ts';
import { pypi } from './pypi.ts';
import { cargo } from './cargo.ts';
import { maven } from './maven.ts';
import { container } from './container.ts';

export {
  RegistryError,
  type PackageRegistryDeps,
  type RegistryHandler,
  type RegistryNeed,
  type RegistryParams,
  type RegistryState,
} from '../../lib/packages/registries/common.ts';
export { packageNameAt } from './npm.ts';
export { indexedCrate } from './cargo.ts';

/** The registries by their `{type}` path segment (`container`: the one at `/v2/`). */
export const REGISTRIES: ReadonlyMap<string, Registry> = new Map([generic, npm, pypi, cargo, maven, container].map((r) => [r.type, r]));

/** An error as plain text, for a registry that does not render its own. */
export function renderPlain(ctx: Context, err: RegistryError): void {
  ctx.status = err.status;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = err.message;
}
