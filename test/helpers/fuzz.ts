// Malformed requests generated from the route table and the body schemas, so that no 5xx and no 2xx
// for malformed input comes back. Each row gets a few fixed probes (NUL in every path parameter, a page beyond any
// offset, the classic body breakers) and a seeded sample of fast-check cases: path tricks, query
// tricks, and a body that is valid apart from one field replaced by a malformed value.
// The verdicts: never a 5xx; and for input that is invalid by construction, a 4xx.
import fc from 'fast-check';
import { Compile } from 'typebox/compile';
import type { TSchema } from 'typebox';
import type { RouteSpec } from '../../table/route-spec.ts';
import { BodySchemas, type BodySchemaName } from '../../model/schemas/index.ts';
import type { FuzzWorld } from './fuzz-fixtures.ts';

/** FUZZ_SEED reproduces a run; FUZZ_RUNS widens it (CI keeps the default small). */
export const SEED = Number(process.env.FUZZ_SEED ?? 9005);
export const RUNS = Number(process.env.FUZZ_RUNS ?? 8);

type Expect = 'not5xx' | '4xx' | '404';
export interface Probe {
  label: string;
  method: string;
  /** Below /api/v1, already percent-encoded where it must be. */
  url: string;
  body?: { text: string | Uint8Array; type: string } | { form: FormData };
  expect: Expect;
}

type Node = Record<string, any>;
const isObj = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---------------------------------------------------------------------------------------------
// Values

const RAW = '\u0001raw:';
/** A JSON literal JSON.stringify cannot write (out-of-double numbers, extreme nesting). */
const raw = (literal: string) => `${RAW}${literal}`;
const serialise = (v: unknown) => JSON.stringify(v).replace(/"\\u0001raw:([^"]*)"/g, (_, lit: string) => lit.replace(/\\"/g, '"'));

const DEEP = raw(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
const nulString = fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })).map(([a, b]) => `${a}\u0000${b}`);
const loneSurrogate = fc
  .tuple(fc.string({ maxLength: 8 }), fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff'))
  .map(([a, s]) => `${a}${s}`);
const outOfInt64 = fc
  .constantFrom('9223372036854775808', '-9223372036854775809', '18446744073709551616', '99999999999999999999999', '1e400', '-1e400')
  .map(raw);
/** Always invalid in a body, whatever the field. */
const invalidValue = fc.oneof(
  nulString,
  loneSurrogate,
  outOfInt64,
  fc.constant(DEEP),
  fc.constant({ 'k\u0000': 1 }),
  fc.constant({ '\ud800': 'x' }),
);
/** Invalid or not depending on the field's schema (the schema is the oracle). */
const edgeValue = fc.oneof(
  fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 53, -(2 ** 53), -1, 0, 1.5),
  fc.constantFrom(256, 300, 1025, 2049, 4097, 70_000).chain((n) => fc.constantFrom('x'.repeat(n), 'é'.repeat(n), '😀'.repeat(n))),
  fc.constantFrom({}, [], true, 'x', [[]], [1, 2], { a: { b: 1 } }),
);

const PATH_NUL = ['%00', 'fuzz%00', '%00..'];
const PATH_TRICKS = [
  '%ED%A0%80',
  '%FF',
  '%C0%80',
  '%E2%82',
  '99999999999999999999',
  '9223372036854775808',
  '-9223372036854775809',
  '2147483648',
  '-1',
  '0',
  'a'.repeat(300),
  '..',
  '%2E%2E',
  'a%2Fb',
  '%20',
  '%25',
  '1e3',
  '0x10',
  ' 1',
];
/** Query parameters the handlers read (a later issue makes them declarative per row). */
const QUERY_NAMES = [
  'page',
  'limit',
  'per_page',
  'q',
  'state',
  'type',
  'sort',
  'order',
  'since',
  'before',
  'until',
  'ref',
  'sha',
  'path',
  'name',
  'labels',
  'milestones',
  'milestone',
  'assigned',
  'created',
  'mentioned',
  'poster',
  'review_requested',
  'reviewed',
  'owner',
  'priority_owner_id',
  'priority_repo_id',
  'team',
  'team_id',
  'uid',
  'source_id',
  'login_name',
  'user',
  'status',
  'subject-type',
  'status-types',
  'to-status',
  'all',
  'draft',
  'pre-release',
  'include_desc',
  'includeDesc',
  'private',
  'exclusive',
  'mode',
  'topic',
  'query',
  'starredBy',
  'only-performed-by',
  'date',
  'style',
  'purge',
  'attempt',
  'run_number',
  'event',
  'fingerprint',
  'not',
  'skip-to',
  'shas',
  'stat',
  'verification',
  'files',
  'recursive',
  'whitespace',
  'updated_at',
  'id',
  'last_read_at',
  'pattern',
  'sudo',
  'token',
  'access_token',
  'visible',
  'archived',
  'template',
  'is_private',
  'exclusive',
  'kind',
  'collaborative',
];
const QUERY_TRICKS = [
  '99999999999999999999',
  '-99999999999999999999',
  '9223372036854775808',
  '2147483648',
  '-1',
  '0',
  '1e400',
  'a'.repeat(300),
  '%ED%A0%80',
  '%FF',
  '9999-12-31T23:59:59Z',
  '99999-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '-271821-04-20T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '2024-13-45T25:61:61Z',
  '1700000000',
  'true',
  'x,y,,',
  '%2C%2C',
];

// ---------------------------------------------------------------------------------------------
// Schemas: a valid-looking body, and every place one field can be replaced

function structural(s: unknown): Node | undefined {
  if (!isObj(s)) return undefined;
  if (s.type === 'object' || s.type === 'array') return s;
  if (Array.isArray(s.anyOf))
    for (const x of s.anyOf) {
      const r = structural(x);
      if (r) return r;
    }
  return undefined;
}

/** A plausible value for a schema: required properties only, strings that pass the usual patterns. */
export function sample(s: Node): unknown {
  if (Array.isArray(s.enum)) return s.enum.find((v: unknown) => v !== '') ?? s.enum[0];
  if (Array.isArray(s.anyOf)) {
    const c = s.anyOf.find((x: Node) => 'const' in x && x.const !== '');
    return c ? c.const : sample(s.anyOf[0]);
  }
  if ('const' in s) return s.const;
  switch (s.type) {
    case 'string': {
      const p = String(s.pattern ?? '');
      if (p.includes('@')) return 'fuzz@example.com';
      if (p.includes('https?')) return 'https://example.com/fuzz';
      if (p.includes('0-9a-fA-F')) return '#aabbcc';
      return 'fuzz1';
    }
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' && s.minimum > 1 ? s.minimum : 1;
    case 'boolean':
      return false;
    case 'array':
      return s.minItems ? [sample(s.items)] : [];
    case 'object': {
      const out: Node = {};
      for (const k of (s.required ?? []) as string[]) out[k] = sample(s.properties[k]);
      return out;
    }
    default:
      return {};
  }
}

interface Site {
  path: (string | number)[];
  schema: Node;
}

/** Every property reachable in a schema (array items as element 0, maps as one key). */
export function sites(s: Node, path: (string | number)[] = [], depth = 0, out: Site[] = []): Site[] {
  if (depth > 4) return out;
  const st = structural(s);
  if (path.length) out.push({ path, schema: s });
  if (!st) return out;
  if (st.type === 'array' && isObj(st.items)) sites(st.items, [...path, 0], depth + 1, out);
  if (st.type === 'object') {
    for (const [k, v] of Object.entries((st.properties ?? {}) as Node)) sites(v, [...path, k], depth + 1, out);
    if (isObj(st.additionalProperties)) sites(st.additionalProperties, [...path, 'fuzzkey'], depth + 1, out);
  }
  return out;
}

function put(base: unknown, path: (string | number)[], value: unknown): unknown {
  const root: Node = structuredClone(isObj(base) || Array.isArray(base) ? base : {});
  let cur: any = root;
  path.forEach((k, i) => {
    if (i === path.length - 1) {
      cur[k] = value;
      return;
    }
    if (!isObj(cur[k]) && !Array.isArray(cur[k])) cur[k] = typeof path[i + 1] === 'number' ? [] : {};
    cur = cur[k];
  });
  return root;
}

const oracles = new WeakMap<object, ReturnType<typeof Compile>>();
function acceptedBy(schema: Node, v: unknown): boolean {
  let c = oracles.get(schema);
  if (!c) {
    c = Compile(schema as TSchema);
    oracles.set(schema, c);
  }
  return v === null || c.Check(v);
}

// ---------------------------------------------------------------------------------------------
// Probes for one row

const paramsOf = (path: string) => [...path.matchAll(/\{([^}]+)\}|\*/g)].map((m) => m[1] ?? '*');

function urlFor(w: FuzzWorld, row: RouteSpec, replace?: { name: string; value: string }): string {
  return row.path.replace(/\{([^}]+)\}|\*/g, (_, name?: string) => {
    const n = name ?? '*';
    if (replace?.name === n) return replace.value;
    const v = w.param(row.path, n);
    return n === '*' ? v.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(v);
  });
}

const json = (v: unknown) => ({ text: serialise(v), type: 'application/json' });
const bodySchema = (row: RouteSpec): Node | null =>
  row.body && row.body !== 'text' && row.body !== 'multipart' ? (BodySchemas[row.body as BodySchemaName] as unknown as Node) : null;

/** A body that passes validation, so a replaced field is the only fault. */
function baseBody(row: RouteSpec): unknown {
  const s = bodySchema(row);
  if (row.body === 'text') return 'fuzz';
  return s ? sample(s) : undefined;
}

function validBody(row: RouteSpec): Probe['body'] | undefined {
  if (row.body === null) return undefined;
  if (row.body === 'text') return { text: 'fuzz', type: 'text/plain' };
  if (row.body === 'multipart') {
    const form = new FormData();
    form.append('attachment', new Blob(['x']), 'fuzz.txt');
    return { form };
  }
  return json(baseBody(row));
}

/** NUL in a path parameter: 404, but 4xx for a name a write is to create (`POST/PUT contents/*`: 422, lib/http/request-input.ts). */
const nulExpect = (row: RouteSpec, name: string): Expect =>
  name === '*' && (row.method === 'POST' || row.method === 'PUT') ? '4xx' : '404';

/** The probes every row gets. */
export function fixedProbes(w: FuzzWorld, row: RouteSpec): Probe[] {
  const out: Probe[] = [];
  const body = validBody(row);
  for (const name of paramsOf(row.path)) {
    out.push({
      label: `NUL in {${name}}`,
      method: row.method,
      url: urlFor(w, row, { name, value: 'fuzz%00' }),
      body,
      expect: nulExpect(row, name),
    });
  }
  out.push({ label: 'NUL in a query value', method: row.method, url: `${urlFor(w, row)}?page=1&q=a%00b`, body, expect: '4xx' });
  if (row.method === 'GET') {
    out.push({
      label: 'page and limit beyond int64',
      method: row.method,
      url: `${urlFor(w, row)}?page=99999999999999999999&limit=99999999999999999999`,
      expect: 'not5xx',
    });
    out.push({ label: 'page beyond any offset', method: row.method, url: `${urlFor(w, row)}?page=9223372036854775807`, expect: 'not5xx' });
  }
  const s = bodySchema(row);
  if (s) {
    const url = urlFor(w, row);
    const base = baseBody(row);
    out.push({
      label: 'nesting 100000 deep',
      method: row.method,
      url,
      body: { text: '['.repeat(100_000), type: 'application/json' },
      expect: '4xx',
    });
    out.push({ label: 'nesting 100000 deep, closed', method: row.method, url, body: json(DEEP), expect: '4xx' });
    out.push({ label: 'NUL in a key', method: row.method, url, body: json(put(base, ['fuzz\u0000'], 1)), expect: '4xx' });
    const first = (pred: (x: Site) => boolean) => sites(s).find(pred);
    const str = first((x) => x.schema.type === 'string');
    if (str) {
      out.push({
        label: `NUL in ${str.path.join('.')}`,
        method: row.method,
        url,
        body: json(put(base, str.path, 'a\u0000b')),
        expect: '4xx',
      });
      out.push({
        label: `lone surrogate in ${str.path.join('.')}`,
        method: row.method,
        url,
        body: json(put(base, str.path, '\ud800')),
        expect: '4xx',
      });
    }
    // Every string one past its declared length (or past the longest varchar, 4096), every integer
    // one past int32: a column that is shorter or narrower than the schema says shows up as a 5xx.
    for (const site of sites(s)) {
      const v =
        site.schema.type === 'string'
          ? 'x'.repeat(typeof site.schema.maxLength === 'number' ? site.schema.maxLength + 1 : 4097)
          : site.schema.type === 'integer'
            ? 2 ** 31
            : undefined;
      if (v === undefined) continue;
      out.push({
        label: `${site.path.join('.')} = ${describe(v)}`,
        method: row.method,
        url,
        body: json(put(base, site.path, v)),
        expect: acceptedBy(site.schema, v) ? 'not5xx' : '4xx',
      });
    }
    const int = first((x) => x.schema.type === 'integer');
    if (int) {
      out.push({
        label: `2^63 in ${int.path.join('.')}`,
        method: row.method,
        url,
        body: json(put(base, int.path, raw('9223372036854775808'))),
        expect: '4xx',
      });
      out.push({
        label: `-2^63-1 in ${int.path.join('.')}`,
        method: row.method,
        url,
        body: json(put(base, int.path, raw('-9223372036854775809'))),
        expect: '4xx',
      });
    }
  }
  if (row.body === 'text') {
    out.push({
      label: 'NUL in a text body',
      method: row.method,
      url: urlFor(w, row),
      body: { text: 'a\u0000b', type: 'text/plain' },
      expect: '4xx',
    });
    out.push({
      label: 'invalid UTF-8 in a text body',
      method: row.method,
      url: urlFor(w, row),
      body: { text: Uint8Array.from([0x61, 0xed, 0xa0, 0x80, 0xff]), type: 'text/plain' },
      expect: 'not5xx',
    });
  }
  if (row.body === 'multipart') {
    // A lone surrogate cannot cross the wire: the client's UTF-8 turns it into U+FFFD, a valid name.
    for (const [label, name, expect] of [
      ['NUL in a file name', 'a\u0000b.txt', '4xx'],
      ['lone surrogate in a file name', 'a\ud800.txt', 'not5xx'],
    ] as const) {
      const form = new FormData();
      form.append('attachment', new Blob(['x']), name);
      out.push({ label, method: row.method, url: urlFor(w, row), body: { form }, expect });
    }
    const form = new FormData();
    form.append('attachment', new Blob(['x']), 'ok.txt');
    out.push({ label: 'NUL in the name query', method: row.method, url: `${urlFor(w, row)}?name=a%00b`, body: { form }, expect: '4xx' });
  }
  return out;
}

/** A seeded sample of random probes for a row. */
export function randomProbes(w: FuzzWorld, row: RouteSpec, seed: number, runs = RUNS): Probe[] {
  const params = paramsOf(row.path);
  const body = validBody(row);
  const arbs: fc.Arbitrary<Probe>[] = [];
  if (params.length) {
    arbs.push(
      fc.tuple(fc.constantFrom(...params), fc.constantFrom(...PATH_TRICKS, ...PATH_NUL)).map(([name, value]) => ({
        label: `{${name}} = ${value.slice(0, 40)}`,
        method: row.method,
        url: urlFor(w, row, { name, value }),
        body,
        expect: PATH_NUL.includes(value) ? nulExpect(row, name) : 'not5xx',
      })),
    );
  }
  // Tricky query values only where they cannot change anything: reads, and NUL (refused) anywhere.
  arbs.push(
    fc
      .tuple(
        fc.constantFrom(...QUERY_NAMES),
        row.method === 'GET' ? fc.constantFrom(...QUERY_TRICKS, '%00', 'a%00') : fc.constantFrom('%00', 'a%00'),
      )
      .map(([name, value]) => ({
        label: `?${name}=${value.slice(0, 40)}`,
        method: row.method,
        url: `${urlFor(w, row)}?${name}=${value}`,
        body,
        expect: value.includes('%00') ? '4xx' : 'not5xx',
      })),
  );
  const s = bodySchema(row);
  const all = s ? sites(s) : [];
  if (s && all.length) {
    const base = baseBody(row);
    const url = urlFor(w, row);
    arbs.push(
      fc
        .tuple(
          fc.constantFrom(...all),
          fc.oneof(
            invalidValue.map((v) => ({ v, invalid: true })),
            edgeValue.map((v) => ({ v, invalid: false })),
          ),
        )
        .map(([site, { v, invalid }]) => ({
          label: `${site.path.join('.')} = ${describe(v)}`,
          method: row.method,
          url,
          body: json(put(base, site.path, v)),
          expect: invalid || !acceptedBy(site.schema, v) ? '4xx' : 'not5xx',
        })),
    );
    arbs.push(
      fc
        .tuple(fc.constantFrom(...all.filter((x) => typeof x.path[0] === 'string')), fc.constantFrom('a%00', '%00', 'a%ED%A0%80'))
        .map(([site, v]) => ({
          label: `form ${String(site.path[0])}=${v}`,
          method: row.method,
          url,
          body: { text: `${encodeURIComponent(String(site.path[0]))}=${v}`, type: 'application/x-www-form-urlencoded' },
          expect: v.includes('%00') ? '4xx' : 'not5xx',
        })),
    );
  }
  return fc.sample(fc.oneof(...arbs), { seed, numRuns: runs });
}

function describe(v: unknown): string {
  const t = typeof v === 'string' ? (v.startsWith(RAW) ? v.slice(RAW.length) : JSON.stringify(v)) : JSON.stringify(v);
  return t.length > 40 ? `${t.slice(0, 20)}…(${t.length})` : t;
}

// ---------------------------------------------------------------------------------------------
// Running

export interface Failure {
  row: string;
  probe: string;
  status: number;
  text: string;
}

export async function runProbe(w: FuzzWorld, row: RouteSpec, p: Probe): Promise<Failure | null> {
  const headers: Record<string, string> = {};
  const basic = row.chain.some((st) => st.name === 'BASIC');
  headers.Authorization = basic
    ? `Basic ${Buffer.from(`${w.admin.name}:${w.admin.password}`).toString('base64')}`
    : `token ${w.admin.token}`;
  let body: BodyInit | undefined;
  if (p.body && 'form' in p.body) body = p.body.form;
  else if (p.body) {
    body = p.body.text as BodyInit;
    headers['Content-Type'] = p.body.type;
  }
  const r = await fetch(`${w.srv.api}${p.url}`, { method: p.method, headers, body, redirect: 'manual' });
  const text = await r.text();
  const bad = r.status >= 500 || (p.expect === '4xx' && (r.status < 400 || r.status > 499)) || (p.expect === '404' && r.status !== 404);
  return bad
    ? {
        row: `${row.method} ${row.path}`,
        probe: `${p.label} [${p.method} ${p.url.slice(0, 160)}]`,
        status: r.status,
        text: text.slice(0, 300),
      }
    : null;
}

/** Reads first, then writes, deletes last, so one row's success does not take another's fixture away. */
export function ordered(rows: readonly RouteSpec[]): RouteSpec[] {
  const rank = (m: string) => (m === 'GET' ? 0 : m === 'DELETE' ? 2 : 1);
  return [...rows].sort((a, b) => rank(a.method) - rank(b.method));
}

/** A stable per-row seed, so one row's failure replays alone with the same FUZZ_SEED. */
export function rowSeed(row: RouteSpec): number {
  let h = SEED;
  for (const ch of `${row.method} ${row.path}`) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

/** The rows of one of the robustness files, so the runner spreads the table over processes. */
export const isIssueTrackerRow = (row: RouteSpec) =>
  /^\/repos\/\{username\}\/\{reponame\}\/(issues|pulls|milestones|labels)(\/|$)/.test(row.path);
