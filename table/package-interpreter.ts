// Serves the package registries' rows (table/packages.ts), a thin sibling of interpreter.ts: checks the
// rows at start, then for each request under `<ROOT>api/packages/` or `<ROOT>v2/` runs the first row
// whose method and path match: its steps in order, then its handler. A refusal renders in the registry's
// clients' shape (transports/registries/<type>.ts renderError; plain text otherwise).
import type { Middleware } from 'koa';
import { HttpError } from '../lib/http/errors.ts';
import { pathSegments } from '../lib/http/url-path.ts';
import {
  REGISTRIES,
  RegistryError,
  renderPlain,
  type PackageRegistryDeps,
  type RegistryHandler,
  type RegistryNeed,
  type RegistryState,
} from '../transports/registries/index.ts';
import { TableError } from '../interpreter.ts';
import { matchPattern, parsePattern, type RegistryRouteSpec } from './package-spec.ts';

interface BoundRow {
  spec: RegistryRouteSpec;
  pattern: ReturnType<typeof parsePattern>;
  handler: RegistryHandler;
}

/** The registry a row serves: the `<type>` after `/api/packages/{owner}/`, or `container` for `/v2/`. */
export function registryOf(path: string): string | null {
  const segs = path.split('/').filter((s) => s !== '');
  if (segs[0] === 'v2') return 'container';
  return segs[0] === 'api' && segs[1] === 'packages' && segs[2] === '{owner}' && segs[3] && !segs[3].includes('{') ? segs[3] : null;
}

/** The handler a row's `<type>.<key>` names, if that registry has it. */
export function handlerOf(key: string): RegistryHandler | undefined {
  const dot = key.indexOf('.');
  return REGISTRIES.get(key.slice(0, dot))?.handlers[key.slice(dot + 1)];
}

/**
 * The start-up check: every row's path parses and names its registry, its handler exists there, no two
 * rows share a method and path, each step finds what it needs provided earlier, a row that resolves
 * an owner checks the caller's access to the owner's packages (PKG_ACCESS) before its handler, and the
 * row's scope is `package` exactly when it does.
 */
export function validatePackageTable(rows: readonly RegistryRouteSpec[]): BoundRow[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const bound: BoundRow[] = [];
  for (const r of rows) {
    const id = `${r.method} ${r.path}`;
    if (seen.has(id)) problems.push(`duplicate route ${id}`);
    seen.add(id);
    let pattern: BoundRow['pattern'] = [];
    try {
      pattern = parsePattern(r.path);
    } catch (e) {
      problems.push(`${id}: ${(e as Error).message}`);
    }
    const registry = registryOf(r.path);
    if (registry === null || !REGISTRIES.has(registry)) problems.push(`${id}: names no registry`);
    else if (!r.handler.startsWith(`${registry}.`)) problems.push(`${id}: handler ${r.handler} is not one of ${registry}'s`);
    const handler = handlerOf(r.handler);
    if (!handler) problems.push(`${id}: unknown handler ${r.handler}`);
    const provided = new Set<RegistryNeed>();
    for (const s of r.chain) {
      for (const n of s.needs) if (!provided.has(n)) problems.push(`${id}: ${s.name} needs ${n}, which no earlier step provides`);
      for (const p of s.provides) provided.add(p);
    }
    for (const n of handler?.needs ?? [])
      if (!provided.has(n)) problems.push(`${id}: handler ${r.handler} needs ${n}, which no step provides`);
    const checksAccess = r.chain.some((s) => s.name.startsWith('PKG_ACCESS('));
    if (provided.has('owner') && !checksAccess)
      problems.push(`${id}: resolves an owner without checking access to its packages (PKG_ACCESS)`);
    // The scope column says what PKG_ACCESS checks of a token: `package` at the row's level.
    if (r.scope.length !== (checksAccess ? 1 : 0))
      problems.push(`${id}: scope ${checksAccess ? 'must be [package]' : 'must be empty'} (PKG_ACCESS)`);
    if (handler) bound.push({ spec: r, pattern, handler });
  }
  if (problems.length) throw new TableError(`package route table rejected:\n  ${problems.join('\n  ')}`);
  return bound;
}

/** The first row a method and the path's segments (below the root URL) match, with its parameters; null for none. */
export function matchPackageRoute(
  rows: readonly BoundRow[],
  method: string,
  parts: readonly string[],
): { row: BoundRow; params: Record<string, string> } | null {
  for (const row of rows) {
    if (row.spec.method !== method) continue;
    const params = matchPattern(row.pattern, parts);
    if (params) return { row, params };
  }
  return null;
}

/** Koa middleware for `<ROOT>api/packages/` and `<ROOT>v2/`; mount it before the body parser, which must not read the uploads. */
export function servePackageRoutes(rows: readonly RegistryRouteSpec[], deps: PackageRegistryDeps): Middleware {
  const bound = validatePackageTable(rows);
  const byRegistry = new Map<string, BoundRow[]>();
  for (const row of bound) {
    const name = registryOf(row.spec.path)!;
    byRegistry.set(name, [...(byRegistry.get(name) ?? []), row]);
  }
  const root = deps.config.appSubUrl;
  return async (ctx, next) => {
    const path = ctx.path;
    const isContainer = path === `${root}/v2` || path.startsWith(`${root}/v2/`);
    if (!isContainer && !path.startsWith(`${root}/api/packages/`)) return next();
    const parts = pathSegments(path.slice(root.length));
    const name = isContainer ? 'container' : (parts?.[3] ?? '');
    const registry = REGISTRIES.get(name);
    try {
      if (!parts) throw new RegistryError(400, isContainer ? 'NAME_INVALID:invalid path' : 'invalid path');
      const found = matchPackageRoute(byRegistry.get(name) ?? [], ctx.method, parts);
      if (!found) throw new RegistryError(404, isContainer ? 'NOT_FOUND:not found' : 'Not Found');
      const s: RegistryState = { ctx, deps, em: deps.orm.em.fork(), params: found.params };
      for (const step of found.row.spec.chain) await step.run(s);
      await found.row.handler.run(s, found.params);
    } catch (e) {
      const err =
        e instanceof RegistryError
          ? e
          : e instanceof HttpError && e.status < 500
            ? new RegistryError(e.status, e.message, isContainer && e.status === 401)
            : null;
      if (!err) throw e;
      if (e instanceof HttpError) for (const [k, v] of Object.entries(e.extra.headers ?? {})) ctx.set(k, v);
      // The container registry answers 401 with its Bearer challenge (its renderError), the others with Basic.
      if (err.challenge && !isContainer) ctx.set('WWW-Authenticate', 'Basic realm="Forgejo Package API"');
      if (registry?.renderError) registry.renderError(ctx, err, deps.config.appUrl);
      else renderPlain(ctx, err);
    }
  };
}
