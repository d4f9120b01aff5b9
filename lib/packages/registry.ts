// The package registries, outside /api/v1 (Forgejo routers/api/packages/api.go): `<ROOT>api/packages/<owner>/<type>/...`
// for the types of lib/packages/registries/ (generic, npm, pypi, cargo, maven). The caller authenticates as on the API. Access to
// the owner's packages follows PKGREAD/PKGWRITE (guards/pkg.ts packageAccess): each operation says whether
// it reads or writes. As in Forgejo's reqPackageAccess, a token without `read:package`/`write:package` or a
// caller without the access gets 401 with a Basic challenge (package clients then send credentials), and a
// public-only token 403 on a non-public owner. Errors are plain text unless the registry renders its own.
import { pathSegments } from '../http/url-path.ts';
import type { Context, Middleware } from 'koa';
import { User } from '../../model/user.ts';
import { authenticate } from '../auth/auth.ts';
import { HttpError } from '../http/errors.ts';
import { checkAccess, RegistryError, type PackageRegistryDeps, type Registry, type RegistryRequest } from './registries/common.ts';
import { generic } from './registries/generic.ts';
import { npm } from './registries/npm.ts';
import { pypi } from './registries/pypi.ts';
import { cargo } from './registries/cargo.ts';
import { maven } from './registries/maven.ts';

export type { PackageRegistryDeps } from './registries/common.ts';

const REGISTRIES = new Map<string, Registry>([generic, npm, pypi, cargo, maven].map((r) => [r.type, r]));

/** `Authorization: <token>` (one word, as Cargo sends it) read as `token <token>`; any other header as it is. */
function schemedToken(headers: Context['headers']): Context['headers'] {
  const value = typeof headers.authorization === 'string' ? headers.authorization.trim() : '';
  return value && !/\s/.test(value) ? { ...headers, authorization: `token ${value}` } : headers;
}

async function serve(
  ctx: Context,
  deps: PackageRegistryDeps,
  registry: Registry | undefined,
  ownerName: string,
  rest: string[],
): Promise<void> {
  const op = registry?.route(ctx.method, rest);
  if (!op) throw new RegistryError(404, 'Not Found');
  const em = deps.orm.em.fork();
  const auth = await authenticate(em, deps.config, deps.authDeps, {
    headers: registry?.rawToken ? schemedToken(ctx.headers) : ctx.headers,
    query: new URLSearchParams(ctx.querystring),
    peer: ctx.req.socket.remoteAddress,
  });
  const owner = await em.findOne(User, { lowerName: ownerName.toLowerCase() });
  if (!owner) throw new RegistryError(404, 'user does not exist');
  const r: RegistryRequest = { ctx, deps, em, auth, owner };
  await checkAccess(deps.config, r, op.level);
  await op.run(r);
}

function renderPlain(ctx: Context, err: RegistryError): void {
  ctx.status = err.status;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = err.message;
}

/** Koa middleware; mount it before the body parser, which must not read the uploads. */
export function servePackageRegistry(deps: PackageRegistryDeps): Middleware {
  const prefix = `${deps.config.appSubUrl}/api/packages/`;
  return async (ctx, next) => {
    if (!ctx.path.startsWith(prefix)) return next();
    const parts = pathSegments(ctx.path.slice(prefix.length));
    const registry = parts && parts.length >= 2 ? REGISTRIES.get(parts[1]) : undefined;
    try {
      if (!parts) throw new RegistryError(400, 'invalid path');
      await serve(ctx, deps, registry, parts[0] ?? '', parts.slice(2));
    } catch (e) {
      const err = e instanceof RegistryError ? e : e instanceof HttpError && e.status < 500 ? new RegistryError(e.status, e.message) : null;
      if (!err) throw e;
      if (e instanceof HttpError) for (const [k, v] of Object.entries(e.extra.headers ?? {})) ctx.set(k, v);
      if (err.challenge) ctx.set('WWW-Authenticate', 'Basic realm="Forgejo Package API"');
      (registry?.renderError ?? renderPlain)(ctx, err);
    }
  };
}
