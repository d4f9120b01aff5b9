// The guard matrix: every row of the table, flattened, as `npm run routes` prints it.
import type { RouteSpec } from './route-spec.ts';
import { handlers } from '../handlers/index.ts';

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
  handler: string;
  implemented: boolean;
}

export function matrixJson(table: readonly RouteSpec[]): MatrixRow[] {
  return table.map((r) => ({
    method: r.method,
    path: r.path,
    body: r.body,
    scope: [...r.scope],
    flag: r.flag,
    deprecated: r.deprecated,
    chain: r.chain.map((s) => s.name),
    context: r.chain.filter((s) => s.kind === 'loader' || s.kind === 'limit').map((s) => s.name),
    gates: r.chain.filter((s) => s.kind === 'gate').map((s) => s.name),
    guards: r.chain.filter((s) => s.kind === 'guard' || s.kind === 'body').map((s) => s.name),
    handler: r.handler,
    implemented: r.handler in handlers,
  }));
}

/** One line per row, the form the matrix snapshot test compares. */
export function matrixLine(r: MatrixRow): string {
  return `${r.method} ${r.path} | ${r.scope.join(',') || '-'} | ${r.flag ?? '-'} | ${r.chain.join(' > ') || '-'} | ${r.handler}`;
}

export function matrixMarkdown(table: readonly RouteSpec[]): string {
  const rows = matrixJson(table);
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const out = [
    '| Method | Path | Scopes | Context | Gates | Guards | Flag | Implemented |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((r) =>
      `| ${r.method} | ${esc(r.path)} | ${r.scope.join(', ') || '-'} | ${r.context.join(', ') || '-'} | ${r.gates.join(', ') || '-'} | ${r.guards.join(', ') || '-'} | ${r.flag ?? '-'} | ${r.implemented ? 'yes' : 'no (501)'} |`),
  ];
  const done = rows.filter((r) => r.implemented).length;
  out.push('', `${rows.length} routes, ${done} implemented, ${rows.length - done} answering 501.`);
  return `${out.join('\n')}\n`;
}
