// The guard matrix: every row of the table, flattened, as `npm run routes` prints it.
import type { RouteSpec } from './route-spec.ts';
import { handlers } from '../handlers/index.ts';
import { queryParameters } from './openapi.ts';
import type { RegistryRouteSpec } from './package-spec.ts';
import { handlerOf } from './package-interpreter.ts';

/** One query parameter as the matrix shows it. */
export interface MatrixQueryParam {
  name: string;
  type: string;
  format?: string;
  items?: string;
  enum?: unknown[];
  default?: unknown;
}

export interface MatrixRow {
  method: string;
  path: string;
  body: string | null;
  scope: string[];
  flag: string | null;
  deprecated: boolean;
  /** Every step in run order, after sudo and the scope check. */
  chain: string[];
  context: string[];
  gates: string[];
  guards: string[];
  /** The quota checks (Q steps), in run order. */
  quota: string[];
  /** The declared query parameters (model/schemas/query.ts), in declaration order. */
  query: MatrixQueryParam[];
  handler: string;
  implemented: boolean;
  /** The answer may be kept across requests (RouteSpec `cached`, lib/http/answer-cache.ts). */
  cached: boolean;
}

export function matrixJson(table: readonly RouteSpec[]): MatrixRow[] {
  return table.map((r) => ({
    method: r.method,
    path: r.path,
    body: r.body,
    scope: [...r.scope],
    flag: r.flag ?? null,
    deprecated: r.deprecated === true,
    chain: r.chain.map((s) => s.name),
    context: r.chain.filter((s) => s.kind === 'loader' || s.kind === 'limit').map((s) => s.name),
    gates: r.chain.filter((s) => s.kind === 'gate').map((s) => s.name),
    guards: r.chain.filter((s) => s.kind === 'guard' || s.kind === 'body').map((s) => s.name),
    quota: r.chain.filter((s) => s.kind === 'quota').map((s) => s.name),
    query: queryParameters(r).map((p) => ({
      name: String(p.name),
      type: String(p.type),
      ...(p.format ? { format: String(p.format) } : {}),
      ...(p.items ? { items: String((p.items as { type: string }).type) } : {}),
      ...(p.enum ? { enum: p.enum as unknown[] } : {}),
      ...(p.default !== undefined ? { default: p.default } : {}),
    })),
    handler: r.handler,
    implemented: r.handler in handlers,
    cached: r.cached === true,
  }));
}

/**
 * The package registries' rows (table/packages.ts) in the API rows' shape: their paths are from the
 * root URL (`/api/packages/...`, `/v2/...`), outside /api/v1, and they have no body schema, flag,
 * query declaration or quota step (an upload's quota is its handler's check).
 */
export function packageMatrixJson(rows: readonly RegistryRouteSpec[]): MatrixRow[] {
  return rows.map((r) => ({
    method: r.method,
    path: r.path,
    body: null,
    scope: [...r.scope],
    flag: null,
    deprecated: false,
    chain: r.chain.map((s) => s.name),
    context: r.chain.filter((s) => s.kind === 'loader' || s.kind === 'limit').map((s) => s.name),
    gates: r.chain.filter((s) => s.kind === 'gate').map((s) => s.name),
    guards: r.chain.filter((s) => s.kind === 'guard' || s.kind === 'body').map((s) => s.name),
    quota: r.chain.filter((s) => s.kind === 'quota').map((s) => s.name),
    query: [],
    handler: r.handler,
    implemented: handlerOf(r.handler) !== undefined,
    cached: false,
  }));
}

/** `?name:type&...` for the declared query parameters, or '' for none. */
export const queryText = (r: MatrixRow, sep = '&') =>
  r.query.length ? `?${r.query.map((p) => `${p.name}:${p.items ? `${p.items}[]` : (p.format ?? p.type)}`).join(sep)}` : '';

/** One line per row, the form the matrix snapshot test compares. */
export function matrixLine(r: MatrixRow): string {
  return `${r.method} ${r.path} | ${r.scope.join(',') || '-'} | ${r.flag ?? '-'} | ${r.chain.join(' > ') || '-'} | ${r.handler}${r.query.length ? ` | ${queryText(r)}` : ''}`;
}

export function matrixMarkdown(table: readonly RouteSpec[], packages: readonly RegistryRouteSpec[] = []): string {
  const rows = matrixJson(table);
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const out = [
    '| Method | Path | Scopes | Context | Gates | Guards | Quota | Query | Flag | Implemented | Kept |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.method} | ${esc(r.path)} | ${r.scope.join(', ') || '-'} | ${r.context.join(', ') || '-'} | ${r.gates.join(', ') || '-'} | ${r.guards.join(', ') || '-'} | ${r.quota.join(', ') || '-'} | ${esc(queryText(r, ', ').slice(1)) || '-'} | ${r.flag ?? '-'} | ${r.implemented ? 'yes' : 'no (501)'} | ${r.cached ? 'yes' : '-'} |`,
    ),
  ];
  const done = rows.filter((r) => r.implemented).length;
  out.push(
    '',
    `${rows.length} routes, ${done} implemented, ${rows.length - done} answering 501; ${rows.filter((r) => r.cached).length} with answers kept across requests.`,
  );
  if (packages.length) {
    const regs = packageMatrixJson(packages);
    out.push(
      '',
      'The package registries (table/packages.ts), outside /api/v1; rows are tried in this order:',
      '',
      '| Method | Path | Scopes | Context | Gates | Guards | Handler |',
      '|---|---|---|---|---|---|---|',
      ...regs.map(
        (r) =>
          `| ${r.method} | ${esc(r.path)} | ${r.scope.join(', ') || '-'} | ${r.context.join(', ') || '-'} | ${r.gates.join(', ') || '-'} | ${r.guards.join(', ') || '-'} | ${r.handler} |`,
      ),
      '',
      `${regs.length} registry routes.`,
    );
  }
  return `${out.join('\n')}\n`;
}
