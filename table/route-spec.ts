// The shape of one row of routes.table.ts. One rule for defaults: a field that has its default is
// omitted from the row (each optional field names its default below); method, path, body, scope, chain
// and handler are always spelled out.
import type { Step, TokenRead } from '../guards/types.ts';
import type { BodySchemaName } from '../model/schemas/index.ts';
import type { QuerySchemaName } from '../model/schemas/query.ts';
import type { HandlerKey } from '../handlers/index.ts';
import type { Category } from '../lib/auth/scopes.ts';
import type { Config } from '../config.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type BodyKind = BodySchemaName | 'text' | 'multipart';

/** Instance settings that decide whether a route exists at all (spec, "What the service does" 3). */
export const FLAGS = {
  swagger: (c: Config) => c.API.ENABLE_SWAGGER,
  federation: (c: Config) => c.FEDERATION.ENABLED,
  heatmap: (c: Config) => c.SERVICE.ENABLE_USER_HEATMAP,
  quota: (c: Config) => c.QUOTA.ENABLED,
  stars: (c: Config) => !c.REPOSITORY.DISABLE_STARS,
  forks: (c: Config) => !c.REPOSITORY.DISABLE_FORKS,
  flags: (c: Config) => c.REPOSITORY.ENABLE_FLAGS,
} as const;
export type Flag = keyof typeof FLAGS;

export interface RouteSpec {
  readonly method: Method;
  /** Spelled as in the spec, below /api/v1: `{param}` segments, `*` for a tail. */
  readonly path: string;
  readonly body: BodyKind | null;
  /** The query parameters the operation reads (model/schemas/query.ts); absent: none. */
  readonly query?: QuerySchemaName;
  /** Token scope categories; a scoped token needs at least one at the method's level. */
  readonly scope: readonly Exclude<Category, 'misc'>[];
  /** The instance setting (FLAGS) without which the route does not exist. Absent: always mounted. */
  readonly flag?: Flag;
  /** Forgejo marks the operation deprecated. Absent: not deprecated. */
  readonly deprecated?: true;
  /** The steps after sudo and the scope check, in the order they run. */
  readonly chain: readonly Step[];
  readonly handler: HandlerKey;
  /**
   * The answer may be kept and sent again while the database and the repositories have not changed
   * (lib/http/answer-cache.ts). Only for a GET whose answer is made from the request's path, query and
   * credentials, the database's rows and git data alone: no other header, no clock, no file outside
   * git. Absent: never kept.
   */
  readonly cached?: true;
  /**
   * What the handler can be served from the statement that finds the caller's token, besides what the
   * chain's steps declare (guards/token-reads.ts); the interpreter composes them into that statement.
   */
  readonly ahead?: readonly TokenRead[];
}
