// Reads a query string with a row's declaration (model/schemas/query.ts), once, before the chain.
// Lenient where Forgejo's form helpers are (a bad integer is 0, an unknown sort is
// the default); a value Forgejo refuses (a bad time, an invalid mode) gives a Deny, which the
// interpreter answers after the chain, where Forgejo's handler would. Unknown names are ignored.
import type { TSchema } from 'typebox';
import type { QueryParse, QueryValues } from '../../model/schemas/query.ts';
import type { Deny } from './request.ts';
import { atoi } from './query-values.ts';

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** One declared field, as the parser and the API description read it. */
export type QueryField = TSchema & {
  type?: string;
  description?: string;
  format?: string;
  'x-parse': QueryParse;
  'x-invalid'?: string;
  'x-status'?: 400 | 422;
  'x-comma'?: boolean;
  'x-unchecked'?: boolean;
  default?: unknown;
  enum?: readonly string[];
  items?: { type?: string; enum?: readonly string[] };
};

export interface ParsedQuery {
  value: QueryValues;
  deny: Deny | null;
}

/** The declared fields of a query schema, by name, in declaration order. */
export function queryFields(schema: TSchema | null): [string, QueryField][] {
  const props = (schema as { properties?: Record<string, QueryField> } | null)?.properties ?? {};
  return Object.entries(props);
}

export function parseQuery(schema: TSchema | null, query: URLSearchParams): ParsedQuery {
  const value: Record<string, unknown> = {};
  let deny: Deny | null = null;
  for (const [name, f] of queryFields(schema)) {
    const r = parseField(name, f, query);
    value[name] = r.value;
    if (r.deny && !deny) deny = r.deny;
  }
  return { value, deny };
}

const denyOf = (f: QueryField, name: string, value: string): Deny => ({
  status: f['x-status'] ?? 422,
  message: (f['x-invalid'] ?? '[{name}]: Invalid').replaceAll('{name}', name).replaceAll('{value}', value),
});

function parseField(name: string, f: QueryField, query: URLSearchParams): { value: unknown; deny?: Deny } {
  if (f['x-parse'] === 'list') {
    const all = f['x-comma']
      ? query
          .getAll(name)
          .flatMap((v) => v.split(','))
          .filter((v) => v !== '')
      : query.getAll(name);
    const bad = f['x-invalid'] && f.items?.enum ? all.find((v) => !f.items!.enum!.includes(v)) : undefined;
    if (bad !== undefined) return { value: [], deny: denyOf(f, name, bad) };
    return { value: all };
  }
  const raw = query.get(name);
  const dflt = f.default;
  const invalid = (text = raw ?? ''): { value: unknown; deny: Deny } => ({ value: dflt, deny: denyOf(f, name, text) });
  switch (f['x-parse']) {
    case 'atoi':
      return { value: raw === null || raw === '' ? dflt : atoi(raw) };
    case 'bool':
      return { value: raw === null || raw === '' ? dflt : TRUE.has(raw) };
    case 'optbool':
      return { value: raw !== null && TRUE.has(raw) ? true : raw !== null && FALSE.has(raw) ? false : undefined };
    case 'string':
      return { value: raw ?? dflt };
    case 'enum': {
      if (raw === null || raw === '') return { value: dflt };
      if (f.enum?.includes(raw) || f['x-unchecked']) return { value: raw };
      return f['x-invalid'] ? invalid() : { value: dflt };
    }
    case 'time': {
      const v = (raw ?? '').trim();
      if (v === '') return { value: undefined };
      const d = RFC3339.test(v) ? new Date(v) : null;
      return d && !Number.isNaN(d.getTime()) ? { value: d } : { ...invalid(v), value: undefined };
    }
  }
}

/** `ref`, which several rows declare (Ref): the revision to read, when given. */
export const refQuery = (s: { readonly q: QueryValues }): string | undefined => (typeof s.q.ref === 'string' ? s.q.ref : undefined);
