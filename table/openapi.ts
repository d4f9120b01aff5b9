// The API description (Swagger 2.0, like Forgejo's), generated from the route table and the
// TypeBox schemas, so the document, the matrix and the mounted routes cannot drift apart.
import type { RouteSpec } from './route-spec.ts';
import type { Config } from '../config.ts';
import { ApiSchemas } from '../model/schemas/index.ts';
import { handlers } from '../handlers/index.ts';
import { API_VERSION } from '../lib/runtime/version.ts';
import { QuerySchemas } from '../model/schemas/query.ts';
import { queryFields } from '../lib/http/query-params.ts';

type Json = Record<string, unknown>;

/** TypeBox schemas are JSON Schema; Swagger 2.0 wants `$ref`s to definitions and no `anyOf` with null. */
function toSwagger(schema: unknown, root = true): unknown {
  if (Array.isArray(schema)) return schema.map((s) => toSwagger(s, false));
  if (!schema || typeof schema !== 'object') return schema;
  const s = schema as Json;
  if (!root && typeof s.$id === 'string') return { $ref: `#/definitions/${s.$id}` };
  const any = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(any)) {
    const nonNull = any.filter((x) => (x as Json).type !== 'null');
    if (nonNull.length === 1) return { ...(toSwagger(nonNull[0], false) as Json), 'x-nullable': true };
    if (nonNull.every((x) => 'const' in (x as Json))) return { type: 'string', enum: nonNull.map((x) => (x as Json).const) };
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === '$id' || k === 'x-binding' || k === '~kind' || k === '~optional') continue;
    if (k === 'const') {
      out.enum = [v];
      continue;
    }
    if (k === 'x-format') {
      out.format = v;
      continue;
    }
    out[k] =
      k === 'properties' ? Object.fromEntries(Object.entries(v as Json).map(([p, ps]) => [p, toSwagger(ps, false)])) : toSwagger(v, false);
  }
  return out;
}

/** A row's query declaration as Swagger 2.0 `in: query` parameters. */
export function queryParameters(r: RouteSpec): Json[] {
  return queryFields(r.query ? QuerySchemas[r.query] : null).map(([name, f]) => {
    const p: Json = { name, in: 'query', type: f.type ?? 'string' };
    if (f.description) p.description = f.description;
    if (f.format) p.format = f.format;
    if (f.enum) p.enum = [...f.enum];
    if (f.default !== undefined) p.default = f.default;
    if (f.type === 'array') {
      p.items = { type: f.items?.type ?? 'string', ...(f.items?.enum ? { enum: [...f.items.enum] } : {}) };
      p.collectionFormat = 'multi';
    }
    return p;
  });
}

export function operationId(spec: RouteSpec): string {
  return spec.handler.replace(/\.(\w)/, (_, c: string) => c.toUpperCase());
}

export function openApiDocument(table: readonly RouteSpec[], cfg: Config): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const r of table) {
    const parameters: Json[] = [];
    for (const m of r.path.matchAll(/\{([^}]+)\}/g)) parameters.push({ name: m[1], in: 'path', required: true, type: 'string' });
    if (r.path.endsWith('*'))
      parameters.push({ name: 'path', in: 'path', required: true, type: 'string', description: 'the rest of the path' });
    if (r.body === 'text') parameters.push({ name: 'body', in: 'body', schema: { type: 'string' } });
    else if (r.body === 'multipart') parameters.push({ name: 'attachment', in: 'formData', type: 'file', required: true });
    else if (r.body) parameters.push({ name: 'body', in: 'body', schema: { $ref: `#/definitions/${r.body}` } });
    parameters.push(...queryParameters(r));
    const path = r.path.replace(/\*$/, '{path}');
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = {
      operationId: operationId(r),
      tags: [r.handler.split('.')[0]],
      summary: r.handler,
      deprecated: r.deprecated || undefined,
      consumes: r.body === 'multipart' ? ['multipart/form-data'] : r.body === 'text' ? ['text/plain'] : undefined,
      parameters,
      responses: { default: { description: "See Forgejo's API description for the response type." } },
      'x-cairn-scope': r.scope,
      'x-cairn-flag': r.flag ?? null,
      'x-cairn-chain': r.chain.map((s) => s.name),
      'x-cairn-implemented': r.handler in handlers,
    };
  }
  const definitions = Object.fromEntries(Object.entries(ApiSchemas).map(([name, schema]) => [name, toSwagger(schema)]));
  return {
    swagger: '2.0',
    info: {
      title: 'cairn API',
      description: "A code-hosting service API, wire-compatible with Forgejo's API v1.",
      version: API_VERSION,
      license: { name: 'MIT', url: 'http://opensource.org/licenses/MIT' },
    },
    basePath: `${cfg.appSubUrl}/api/v1`,
    schemes: ['https', 'http'],
    consumes: ['application/json', 'text/plain'],
    produces: ['application/json', 'text/html'],
    securityDefinitions: {
      AuthorizationHeaderToken: {
        type: 'apiKey',
        name: 'Authorization',
        in: 'header',
        description: 'API tokens must be prepended with "token" followed by a space.',
      },
      BasicAuth: { type: 'basic' },
      SudoHeader: {
        type: 'apiKey',
        name: 'Sudo',
        in: 'header',
        description: 'Sudo API request as the user provided as the key. Admin privileges are required.',
      },
      SudoParam: {
        type: 'apiKey',
        name: 'sudo',
        in: 'query',
        description: 'Sudo API request as the user provided as the key. Admin privileges are required.',
      },
      TOTPHeader: {
        type: 'apiKey',
        name: 'X-FORGEJO-OTP',
        in: 'header',
        description: 'Must be used in combination with BasicAuth if two-factor authentication is enabled.',
      },
    },
    security: [{ BasicAuth: [] }, { AuthorizationHeaderToken: [] }, { SudoParam: [] }, { SudoHeader: [] }, { TOTPHeader: [] }],
    paths,
    definitions,
  };
}
