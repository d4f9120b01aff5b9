// Request-body validation with Forgejo-style 422 messages, and response validation helpers.
//
// `compileBody(schema)` returns a checker producing `[<GoName>]: <Rule>` for the FIRST failure,
// which is how Forgejo (go-chi/binding) words its 422 "validationError" messages:
//   - a missing required property, or an empty string for a required string property → `Required`
//     (Go's `binding:"Required"` rejects zero values; only strings are treated so here);
//   - a JSON type mismatch → `Invalid` (Go's decoder message cannot be reproduced exactly);
//   - a `pattern` failure → the property's `x-binding` (e.g. `AlphaDashDot`, `Url`), else `Pattern`;
//   - `maxLength`/`maxItems` → `MaxSize`, `minLength`/`minItems` → `MinSize`, an enum miss → `In`.
// GoName is the `x-go-name` of the innermost property involved (the missing one for `Required`).
// Like Go, decoding (type) errors win; otherwise the failure of the earliest property in schema
// order is reported. A non-object body for an object schema gives `[]: Invalid`.
//
// Properties whose value is JSON `null` are dropped before validation (Go decodes `null` into a
// field as "leave it unset"), and the returned `value` is that cleaned copy; a top-level `null`
// body is treated as `{}` for the same reason.
//
// That copy is made without recursion, and before anything recursive
// (TypeBox included) sees the value it refuses, as the first failure, in breadth-first order:
//   - nesting deeper than MAX_DEPTH → `Invalid` (no Forgejo body comes close);
//   - a string or key holding NUL or a lone surrogate → `Invalid` (storable.ts: it cannot be stored
//     as sent; Go's decoder would also fail or rewrite it);
//   - a number outside ±(2^53−1) or not finite → `Range`: JSON.parse has already rounded it, so
//     2^63 and −2^63−1 arrive as neighbours of valid int64 values and only this bound is exact.
// Schema `minimum`/`maximum` (the int32 range of `integer` columns, product limits) give `Range` too.
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { isStorableText } from './storable.ts';

export type BodyCheck<T> = (value: unknown) => { ok: true; value: T } | { ok: false; message: string };

type Node = Record<string, unknown>;
type Compiled = ReturnType<typeof Compile>;

interface Issue {
  /** property indexes along the path, for ordering */
  order: number[];
  goName: string;
  rule: string;
  /** 0 = decode/type error (reported before any validation error) */
  phase: 0 | 1;
  rank: number;
}

const compiledCache = new WeakMap<object, Compiled>();
const bodyCache = new WeakMap<object, BodyCheck<unknown>>();

function compiled(schema: TSchema): Compiled {
  let c = compiledCache.get(schema);
  if (!c) {
    c = Compile(schema);
    compiledCache.set(schema, c);
  }
  return c;
}

const isObj = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

export const MAX_DEPTH = 32;

type Seg = string | number;

/** The Go name and ordering keys of the property an instance path ends in (or last crosses). */
function locate(root: TSchema, path: readonly Seg[]): { goName: string; order: number[] } {
  let node: unknown = root;
  let goName = '';
  const order: number[] = [];
  for (const seg of path) {
    const s = structural(node);
    if (typeof seg === 'number') {
      order.push(seg);
      node = s?.type === 'array' ? s.items : undefined;
      continue;
    }
    order.push(propertyIndex(s, seg));
    const props = s && isObj(s.properties) ? s.properties : {};
    node = seg in props ? props[seg] : isObj(s?.additionalProperties) ? s.additionalProperties : undefined;
    goName = seg in props ? goNameOf(node, seg) : seg;
  }
  return { goName, order };
}

const badLeaf = (v: unknown): string | null => {
  if (typeof v === 'string') return isStorableText(v) ? null : 'Invalid';
  if (typeof v === 'number') return Number.isFinite(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER ? null : 'Range';
  return null;
};

/** A copy of a parsed JSON body without `null` properties, or the first thing in it that cannot be stored. */
function prepare(root: TSchema, input: unknown): { value: unknown } | { issue: Issue } {
  const fail = (path: readonly Seg[], rule: string) => ({ issue: { ...locate(root, path), rule, phase: 0 as const, rank: 0 } });
  if (!isObj(input) && !Array.isArray(input)) {
    const rule = badLeaf(input);
    return rule ? fail([], rule) : { value: input };
  }
  const top: Node | unknown[] = Array.isArray(input) ? [] : {};
  // Breadth first with a moving head, so the shallowest fault is reported and no frame nests.
  const queue: { src: Node | unknown[]; dst: Node | unknown[]; path: Seg[] }[] = [{ src: input, dst: top, path: [] }];
  for (let head = 0; head < queue.length; head++) {
    const { src, dst, path } = queue[head];
    if (path.length >= MAX_DEPTH) return fail(path, 'Invalid');
    const entries: [Seg, unknown][] = Array.isArray(src) ? src.map((v, i) => [i, v]) : Object.entries(src);
    for (const [k, v] of entries) {
      if (typeof k === 'string' && !isStorableText(k)) return fail(path, 'Invalid');
      if (v === null && !Array.isArray(src)) continue;
      let copy = v;
      if (isObj(v) || Array.isArray(v)) {
        copy = Array.isArray(v) ? [] : {};
        queue.push({ src: v, dst: copy as Node | unknown[], path: [...path, k] });
      } else {
        const rule = badLeaf(v);
        if (rule) return fail([...path, k], rule);
      }
      // defineProperty: a `__proto__` key stays a property, as JSON.parse made it, not a prototype.
      Object.defineProperty(dst, k, { value: copy, enumerable: true, writable: true, configurable: true });
    }
  }
  return { value: top };
}

function decodePointer(seg: string): string {
  return seg.replace(/~1/g, '/').replace(/~0/g, '~');
}

function goNameOf(schema: unknown, key: string): string {
  if (isObj(schema) && typeof schema['x-go-name'] === 'string') return schema['x-go-name'];
  return key;
}

function propertyIndex(objectSchema: unknown, key: string): number {
  if (isObj(objectSchema) && isObj(objectSchema.properties)) {
    const i = Object.keys(objectSchema.properties).indexOf(key);
    if (i >= 0) return i;
  }
  return Number.MAX_SAFE_INTEGER;
}

/** Walks a schemaPath ('#/properties/a/items/properties/b') and returns the final node plus the
 *  innermost property (key, schema) and the ordering keys of the properties crossed. */
function walk(root: TSchema, schemaPath: string) {
  const segs = schemaPath
    .replace(/^#\/?/, '')
    .split('/')
    .filter((s) => s !== '')
    .map(decodePointer);
  let node: unknown = root;
  let propKey = '';
  let propSchema: unknown = undefined;
  const order: number[] = [];
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    if (!isObj(node)) return { node: undefined, propKey, propSchema, order };
    if (seg === 'properties' && i + 1 < segs.length && isObj(node.properties)) {
      const key = segs[++i];
      order.push(propertyIndex(node, key));
      node = (node.properties as Node)[key];
      propKey = key;
      propSchema = node;
      continue;
    }
    node = (node as Node)[seg];
  }
  return { node, propKey, propSchema, order };
}

function isLiteralUnion(schema: unknown): boolean {
  if (!isObj(schema)) return false;
  if (Array.isArray(schema.enum)) return true;
  return Array.isArray(schema.anyOf) && schema.anyOf.length > 0 && schema.anyOf.every((s) => isObj(s) && 'const' in s);
}

function isStringSchema(schema: unknown): boolean {
  if (!isObj(schema)) return false;
  if (schema.type === 'string') return true;
  return isLiteralUnion(schema) && Array.isArray(schema.anyOf) && schema.anyOf.every((s) => isObj(s) && typeof s.const === 'string');
}

/** The object-or-array variant of a schema (looking through unions), for descending into values. */
function structural(schema: unknown): Node | undefined {
  if (!isObj(schema)) return undefined;
  if (schema.type === 'object' || schema.type === 'array') return schema;
  if (Array.isArray(schema.anyOf))
    for (const s of schema.anyOf) {
      const r = structural(s);
      if (r) return r;
    }
  return undefined;
}

/** Required string properties sent as '' (Go's Required rejects zero values). */
function emptyRequired(schema: unknown, value: unknown, order: number[], out: Issue[]): void {
  const s = structural(schema);
  if (!s) return;
  if (s.type === 'array') {
    if (Array.isArray(value)) value.forEach((v, i) => emptyRequired(s.items, v, [...order, i], out));
    return;
  }
  if (!isObj(value) || !isObj(s.properties)) return;
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  Object.entries(s.properties).forEach(([key, ps], i) => {
    if (!(key in value)) return;
    if (value[key] === '' && required.includes(key) && isStringSchema(ps)) {
      out.push({ order: [...order, i], goName: goNameOf(ps, key), rule: 'Required', phase: 1, rank: 0 });
    } else {
      emptyRequired(ps, value[key], [...order, i], out);
    }
  });
}

/** The JSON value at an instancePath ('/a/0/b'). */
function at(value: unknown, pointer: string): unknown {
  let v = value;
  for (const seg of pointer.split('/').slice(1).map(decodePointer)) {
    if (Array.isArray(v)) v = v[Number(seg)];
    else if (isObj(v)) v = v[seg];
    else return undefined;
  }
  return v;
}

function literalType(schema: unknown): string {
  if (isObj(schema) && Array.isArray(schema.enum)) return typeof schema.enum[0];
  if (isObj(schema) && Array.isArray(schema.anyOf) && isObj(schema.anyOf[0])) return typeof schema.anyOf[0].const;
  return 'undefined';
}

const RANK: Record<string, number> = { Required: 0, In: 2, Range: 3, MaxSize: 3, MinSize: 4 };

function toIssues(root: TSchema, c: Compiled, value: unknown): Issue[] {
  const out: Issue[] = [];
  for (const e of c.Errors(value)) {
    const { node, propKey, propSchema, order } = walk(root, e.schemaPath);
    const goName = propSchema === undefined ? '' : goNameOf(propSchema, propKey);
    switch (e.keyword) {
      case 'required': {
        const missing = (e.params as { requiredProperties?: string[] }).requiredProperties ?? [];
        const props = isObj(node) && isObj(node.properties) ? node.properties : {};
        for (const key of missing) {
          out.push({ order: [...order, propertyIndex(node, key)], goName: goNameOf(props[key], key), rule: 'Required', phase: 1, rank: 0 });
        }
        break;
      }
      case 'type':
      case 'const':
      case 'enum':
      case 'anyOf': {
        const union = isLiteralUnion(node) ? node : isLiteralUnion(propSchema) ? propSchema : undefined;
        if (union !== undefined && typeof at(value, e.instancePath) === literalType(union)) {
          out.push({ order, goName, rule: 'In', phase: 1, rank: 2 });
        } else if (e.keyword === 'type' || e.keyword === 'anyOf' || union !== undefined) {
          out.push({ order, goName, rule: 'Invalid', phase: 0, rank: 1 });
        } else {
          out.push({ order, goName, rule: 'In', phase: 1, rank: 2 });
        }
        break;
      }
      case 'pattern': {
        const binding = (isObj(node) && node['x-binding']) || (isObj(propSchema) && propSchema['x-binding']);
        out.push({ order, goName, rule: typeof binding === 'string' ? binding : 'Pattern', phase: 1, rank: 1 });
        break;
      }
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        out.push({ order, goName, rule: 'Range', phase: 1, rank: 3 });
        break;
      case 'maxLength':
      case 'maxItems':
        out.push({ order, goName, rule: 'MaxSize', phase: 1, rank: 3 });
        break;
      case 'minLength':
      case 'minItems':
        out.push({ order, goName, rule: 'MinSize', phase: 1, rank: 4 });
        break;
      default:
        out.push({ order, goName, rule: 'Invalid', phase: 1, rank: 5 });
    }
  }
  return out;
}

function compareIssues(a: Issue, b: Issue): number {
  if (a.phase !== b.phase) return a.phase - b.phase;
  const n = Math.min(a.order.length, b.order.length);
  for (let i = 0; i < n; i++) if (a.order[i] !== b.order[i]) return a.order[i] - b.order[i];
  if (a.order.length !== b.order.length) return a.order.length - b.order.length;
  return (RANK[a.rule] ?? a.rank) - (RANK[b.rule] ?? b.rank);
}

/** Compiles (once per schema object) a request-body checker giving Forgejo's 422 message format. */
export function compileBody<S extends TSchema>(schema: S): BodyCheck<Static<S>> {
  const hit = bodyCache.get(schema);
  if (hit) return hit as BodyCheck<Static<S>>;
  const c = compiled(schema);
  const wantsObject = (schema as unknown as Node).type === 'object';
  const check: BodyCheck<Static<S>> = (input) => {
    const prepared = prepare(schema, input);
    if ('issue' in prepared) return { ok: false, message: `[${prepared.issue.goName}]: ${prepared.issue.rule}` };
    let value = prepared.value;
    if (value === null && wantsObject) value = {};
    if (wantsObject && !isObj(value)) return { ok: false, message: '[]: Invalid' };
    const issues: Issue[] = [];
    if (!c.Check(value)) issues.push(...toIssues(schema, c, value));
    emptyRequired(schema, value, [], issues);
    if (issues.length === 0) return { ok: true, value: value as Static<S> };
    issues.sort(compareIssues);
    return { ok: false, message: `[${issues[0].goName}]: ${issues[0].rule}` };
  };
  bodyCache.set(schema, check as BodyCheck<unknown>);
  return check;
}

/** Validates a response-shaped value; returns readable errors (JSON pointer + message). */
export function validateResponse(schema: TSchema, value: unknown): { ok: true } | { ok: false; errors: string[] } {
  const c = compiled(schema);
  if (c.Check(value)) return { ok: true };
  return { ok: false, errors: [...c.Errors(value)].map((e) => `${e.instancePath || '/'} ${e.message}`) };
}
