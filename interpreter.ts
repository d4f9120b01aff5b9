// The route-table interpreter: checks the table at start, orders the rows for matching, and runs
// each request through the input check → sudo → scope check → the row's chain → handler (a write's in
// one transaction, `transactional`). It composes what the token's statement reads ahead for a row from
// the row's declarations (composeTokenReads). It alone knows @koa/router.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { RouteSpec } from './table/route-spec.ts';
import { FLAGS } from './table/route-spec.ts';
import type { Config } from './config.ts';
import type { Need, Outcome, RequestState, Step, TokenRead } from './guards/types.ts';
import { isRedirect, isSiteAdmin, step } from './guards/types.ts';
import { BODY } from './guards/body.ts';
import { handlers, PENDING, type HandlerKey } from './handlers/index.ts';
import { AfterCommit, type Handler, type HandlerCtx } from './lib/http/handler.ts';
import { BodySchemas, type BodySchemaName } from './model/schemas/index.ts';
import { compileBody } from './model/schemas/validate.ts';
import { isStorableText } from './model/schemas/storable.ts';
import { unusableMultipart } from './lib/attachments/attachments.ts';
import { HttpError, MSG } from './lib/http/errors.ts';
import { hasScope } from './lib/auth/scopes.ts';
import { applySudo } from './lib/auth/auth.ts';
import { unusableInput } from './lib/http/request-input.ts';
import { ROW_STATE } from './lib/http/request.ts';
import { parseQuery } from './lib/http/query-params.ts';
import { QuerySchemas } from './model/schemas/query.ts';
import type { TSchema } from 'typebox';
import type { TokenAhead } from './lib/auth/tokens.ts';
import type { ReadAhead } from './lib/http/read-ahead.ts';
import type { Logger } from 'pino';
import { commitWith } from './model/raw.ts';
import { hasChanges, writeAlone, type PreparedValue } from './model/sql.ts';
import { beforeCommitWrites, closeCounterQueue, openCounterQueue } from './lib/db/counters.ts';

export class TableError extends Error {}

// ---------------------------------------------------------------------------------------------
// Paths

type SegKind = 0 | 1 | 2 | 3; // static, parameter with literal text, parameter, tail
const segKind = (seg: string): SegKind => (seg === '*' ? 3 : /^\{[^}]+\}$/.test(seg) ? 2 : seg.includes('{') ? 1 : 0);
const segments = (path: string) => path.split('/').slice(1);

/** Spec spelling to @koa/router (path-to-regexp 8) syntax. */
export function routerPath(path: string): string {
  // A row spelled with a trailing slash (`/packages/{username}/`) is mounted without it: the router
  // matches a path with or without the slash, and clients call Forgejo's `/packages/{owner}`.
  return path
    .replace(/(.)\/$/, '$1')
    .split('/')
    .map((seg) => {
      if (seg === '*') return '*path';
      return seg.replace(/\{([^}]+)\}/g, (_, name: string) => (/^\w+$/.test(name) ? `:${name}` : `:"${name}"`));
    })
    .join('/');
}

/** Orders rows so that the first match is the most specific: static > parameter with text > parameter > tail. */
export function compareSpecificity(a: string, b: string): number {
  const sa = segments(a);
  const sb = segments(b);
  for (let i = 0; i < Math.max(sa.length, sb.length); i++) {
    if (sa[i] === undefined) return -1;
    if (sb[i] === undefined) return 1;
    const d = segKind(sa[i]) - segKind(sb[i]);
    if (d !== 0) return d;
  }
  return 0;
}

/** The shape two paths share when one URL could match both with no winner. */
const shape = (path: string) =>
  segments(path)
    .map((s) => (segKind(s) === 0 ? s.toLowerCase() : segKind(s) === 1 ? s.replace(/\{[^}]+\}/g, '{}') : segKind(s) === 2 ? '{}' : '*'))
    .join('/');

// ---------------------------------------------------------------------------------------------
// Start-up check

const bodyName = (b: RouteSpec['body']): b is BodySchemaName => b !== null && b !== 'text' && b !== 'multipart';

export function validateTable(table: readonly RouteSpec[]): void {
  const problems: string[] = [];
  const seen = new Map<string, RouteSpec>();
  const shapes = new Map<string, RouteSpec>();
  const readNames = new Map<string, TokenRead>();
  const implemented = new Set(Object.keys(handlers));
  for (const key of PENDING) if (implemented.has(key)) problems.push(`handler ${key} is both implemented and pending`);
  for (const r of table) {
    const id = `${r.method} ${r.path}`;
    if (seen.has(id)) problems.push(`duplicate route ${id}`);
    seen.set(id, r);
    const sh = `${r.method} ${shape(r.path)}`;
    const other = shapes.get(sh);
    if (other && other.path !== r.path) problems.push(`ambiguous routes: ${id} and ${other.method} ${other.path}`);
    shapes.set(sh, r);
    if (!implemented.has(r.handler) && !(PENDING as readonly string[]).includes(r.handler))
      problems.push(`${id}: unknown handler ${r.handler}`);
    if (bodyName(r.body) && !(r.body in BodySchemas)) problems.push(`${id}: unknown body schema ${r.body}`);
    const hasBody = r.chain.includes(BODY);
    if (r.body !== null && !hasBody) problems.push(`${id}: body ${r.body} without a BODY step`);
    if (r.body === null && hasBody) problems.push(`${id}: BODY step without a body`);
    if (r.flag !== undefined && !(r.flag in FLAGS)) problems.push(`${id}: unknown flag ${r.flag}`);
    if (r.query !== undefined && !Object.hasOwn(QuerySchemas, r.query)) problems.push(`${id}: unknown query schema ${r.query}`);
    if (r.cached && r.method !== 'GET') problems.push(`${id}: only a GET's answer may be kept (cached)`);
    const provided = new Set<Need>();
    for (const s of r.chain) {
      if (!s || typeof s.run !== 'function') {
        problems.push(`${id}: chain holds something that is not a step`);
        continue;
      }
      for (const n of s.needs) if (!provided.has(n)) problems.push(`${id}: ${s.name} needs ${n}, which no earlier step provides`);
      for (const p of s.provides) provided.add(p);
    }
    const h = (handlers as Record<string, Handler<never, never>>)[r.handler];
    for (const n of h?.needs ?? []) if (!provided.has(n)) problems.push(`${id}: handler ${r.handler} needs ${n}, which no step provides`);
    const reads = tokenReadsOf(r);
    for (const [i, read] of reads.entries()) {
      const other = readNames.get(read.name);
      if (other && other !== read) problems.push(`${id}: two token reads are named ${read.name}`);
      readNames.set(read.name, read);
      if (read.inside && !reads.slice(0, i).includes(read.inside))
        problems.push(`${id}: token read ${read.name} goes inside ${read.inside.name}, which no earlier step or the row reads`);
      if (read.inside?.inside || (read.inside && read.join))
        problems.push(`${id}: token read ${read.name} nests joins, which the composer does not`);
    }
  }
  if (problems.length) throw new TableError(`route table rejected:\n  ${problems.join('\n  ')}`);
}

// ---------------------------------------------------------------------------------------------
// Request handling

/** What a row can be served from the token's statement: its steps' declarations in chain order, then the row's own. */
export function tokenReadsOf(spec: RouteSpec): TokenRead[] {
  const reads: TokenRead[] = [];
  for (const read of [...spec.chain.map((s) => s?.ahead), ...(spec.ahead ?? [])]) if (read && !reads.includes(read)) reads.push(read);
  return reads;
}

/**
 * The part of the token's statement (lib/auth/tokens.ts) that makes `reads` for these path parameters:
 * each read the parameters allow (`values`), and whose join, when it goes inside one, is made too. The
 * text holds the select expressions of the reads over the token first, then each join with the
 * expressions of the reads inside it; the values follow that order. Null when nothing is read ahead.
 */
export function composeTokenReads(
  reads: readonly TokenRead[],
  params: Readonly<Record<string, string>>,
  ahead: ReadAhead,
  plain: boolean,
): TokenAhead | null {
  const taken: { read: TokenRead; values: readonly PreparedValue[] }[] = [];
  for (const read of reads) {
    if (read.inside && !taken.some((t) => t.read === read.inside)) continue;
    const values = read.values(params);
    if (values !== null) taken.push({ read, values });
  }
  if (taken.length === 0) return null;
  const top = taken.filter((t) => !t.read.inside);
  const inside = (outer: TokenRead) => taken.filter((t) => t.read.inside === outer);
  const joins = top.filter((t) => t.read.join);
  return {
    shape: taken.map((t) => t.read.name).join('+'),
    sql: (em) => ({
      select: top.map((t) => t.read.select?.(em) ?? '').join(''),
      join: joins
        .map((t) =>
          t.read.join!(
            em,
            inside(t.read)
              .map((i) => i.read.select?.(em) ?? '')
              .join(''),
          ),
        )
        .join(''),
    }),
    params: [
      ...top.filter((t) => !t.read.join).flatMap((t) => t.values),
      ...joins.flatMap((t) => [...inside(t.read).flatMap((i) => i.values), ...t.values]),
    ],
    keep: (em, row, uid) => {
      for (const t of taken) t.read.keep({ em, ahead, row, uid, plain, params });
    },
  };
}

/** A row with its BODY step bound to the row's schema: the chain that actually runs. */
export interface BoundRoute {
  spec: RouteSpec;
  steps: readonly Step[];
  /** What the row can be served from the token's statement (tokenReadsOf). */
  reads: readonly TokenRead[];
  /** The row's query declaration (model/schemas/query.ts), or null for none. */
  query: TSchema | null;
  handler: Handler<any> | null;
}

export function bindRoute(spec: RouteSpec): BoundRoute {
  const steps = spec.chain.map((s) => (s === BODY ? bodyStep(spec) : s));
  const handler = (handlers as unknown as Record<string, Handler<any>>)[spec.handler] ?? null;
  return { spec, steps, reads: tokenReadsOf(spec), query: spec.query ? QuerySchemas[spec.query] : null, handler };
}

function bodyStep(spec: RouteSpec): Step {
  const kind = spec.body!;
  if (kind === 'text') {
    return step('BODY', 'body', [], ['body'], async (s) => {
      const { value } = await s.readBody();
      const text = typeof value === 'string' ? value : '';
      if (!isStorableText(text)) return { status: 422, message: '[Body]: Invalid' };
      s.body = text;
      return null;
    });
  }
  if (kind === 'multipart') {
    return step('BODY', 'body', [], ['body'], async (s) => {
      const raw = (await s.readBody()).value as { files?: unknown } | undefined;
      if (!raw || typeof raw !== 'object' || !raw.files) return { status: 422, message: '[Attachment]: Required' };
      const unusable = unusableMultipart(raw);
      if (unusable) return { status: 422, message: unusable };
      s.body = raw;
      return null;
    });
  }
  const check = compileBody(BodySchemas[kind]);
  return step('BODY', 'body', [], ['body'], async (s) => {
    const { value } = await s.readBody();
    const raw = value === undefined ? {} : value;
    const r = check(raw);
    if (!r.ok) return { status: 422, message: r.message };
    s.body = r.value;
    return null;
  });
}

/** Spec, scope checks: a scoped token needs at least one of the row's categories at the method's level. */
export function scopeCheck(s: RequestState, spec: RouteSpec): Outcome {
  const token = s.auth.token;
  if (!token || spec.scope.length === 0) return null;
  if (!token.scopes) return { status: 403, message: `checking scope failed: invalid access token scope: ${token.raw}` };
  const level = s.method === 'GET' || s.method === 'HEAD' ? 'read' : 'write';
  if (spec.scope.some((c) => hasScope(token.scopes!, c, level))) return null;
  return { status: 403, message: MSG.missingScope(spec.scope.map((c) => `${level}:${c}`)) };
}

/** The request's state before the interpreter parsed its query (`q`). */
export type StateFactory = (ctx: Context, route: BoundRoute) => Omit<RequestState, 'q'>;
export type Responder = (ctx: Context, s: RequestState, outcome: NonNullable<Outcome>) => void;

export interface RunHooks {
  makeState: StateFactory;
  respond: Responder;
  render: (ctx: Context, s: RequestState, reply: Awaited<ReturnType<Handler<any>>>) => void;
  /**
   * Runs a mutating handler in one transaction (one flush per request); with `atEnd`, the transaction
   * is opened by the handler or by the queued writes at the end (lib/http/handler.ts writesAtEnd).
   */
  transactional: <T>(s: RequestState, fn: (s: RequestState) => Promise<T>, atEnd?: boolean) => Promise<T>;
}

export async function runRoute(ctx: Context, route: BoundRoute, hooks: RunHooks): Promise<void> {
  const made = hooks.makeState(ctx, route);
  // 0. Path parameters and query values no stored text can equal (NUL, lone surrogates); then the
  // query read with the row's declaration. A value Forgejo's handler would refuse is answered after
  // the chain (step 4), so 401, 403 and 404 keep coming first.
  const parsed = parseQuery(route.query, made.query);
  let s: RequestState = { ...made, q: parsed.value };
  const unusable = unusableInput(s.params, s.query, s.method);
  if (unusable) return hooks.respond(ctx, s, unusable);
  // 1. Impersonation.
  const auth = await applySudo(s.em, s.auth, { headers: s.headers, query: s.query }, isSiteAdmin(s));
  if (auth !== s.auth) s = { ...s, auth };
  // 2. Token scope.
  const denied = scopeCheck(s, route.spec);
  if (denied) return hooks.respond(ctx, s, denied);
  // 3. The chain, exactly as written.
  for (const st of route.steps) {
    const outcome = await st.run(s);
    if (outcome) return hooks.respond(ctx, s, outcome);
  }
  // 4. A refused query value, then the handler, or 501 for a row that has none yet.
  if (parsed.deny) return hooks.respond(ctx, s, parsed.deny);
  if (!route.handler) throw new HttpError(501, MSG.notImplemented);
  const handler = route.handler;
  // A handler that calls other hosts runs outside any transaction and writes in short ones of its own
  // (lib/http/handler.ts network); every other write handler runs in one transaction.
  const reply = handler.network
    ? await handler({ ...s, transaction: (work) => hooks.transactional(s, () => work()) } as HandlerCtx<unknown>)
    : s.method === 'GET' || s.method === 'HEAD'
      ? await handler(s as HandlerCtx<unknown>)
      : await hooks.transactional(s, (tx) => handler(tx as HandlerCtx<unknown>), handler.writesAtEnd === true);
  hooks.render(ctx, s, reply.body instanceof AfterCommit ? { ...reply, body: await reply.body.make() } : reply);
}

// ---------------------------------------------------------------------------------------------
// Transactions

/**
 * How a mutating row's handler runs (RunHooks `transactional`): in one transaction of the request's
 * EntityManager, with work for after the commit that logs its failures on `log` and never undoes the answer.
 */
export function transactional(log: Logger): RunHooks['transactional'] {
  // The same EntityManager runs the handler inside one transaction, so entities the chain loaded
  // stay managed and are flushed once, at commit.
  // Counter increments wait in a queue until just before COMMIT (lib/db/counters.ts), so their row
  // locks are held for that last statement only; a hot write's tail writes join that statement.
  return async (s, fn, atEnd = false) => {
    const after: (() => Promise<void>)[] = [];
    if (!atEnd) await s.em.begin();
    openCounterQueue(s.em);
    let out;
    try {
      out = await fn({
        ...s,
        afterCommit: (work) => {
          after.push(work);
        },
      });
      // A handler that writes at the end and began nothing has only queued writes, unless entities
      // changed: their flush and the queued writes then share a transaction begun here.
      if (!s.em.isInTransaction() && hasChanges(s.em)) await s.em.begin();
      if (s.em.isInTransaction()) {
        await s.em.flush();
        // The queued last writes (counters: their row locks are held from here to COMMIT only), then COMMIT.
        await commitWith(s.em, beforeCommitWrites(s.em));
      } else await writeAlone(s.em, beforeCommitWrites(s.em));
    } catch (e) {
      // A failed commitWith has ended the transaction already (nothing of it committed).
      if (s.em.isInTransaction()) await s.em.rollback();
      throw e;
    } finally {
      closeCounterQueue(s.em);
    }
    // Committed: tidying that must not undo the answer when it fails.
    for (const work of after) await work().catch((e: unknown) => log.warn({ err: e }, 'after-commit work failed'));
    return out;
  };
}

/** What a row's path says about the URLs it can match: its first segment when static, its length. */
function reach(path: string): { first: string | null; count: number; tail: boolean } {
  const segs = segments(path.replace(/(.)\/$/, '$1'));
  return { first: segKind(segs[0] ?? '') === 0 ? segs[0]!.toLowerCase() : null, count: segs.length, tail: segs.includes('*') };
}

/** A row of a group: its compiled path, and the row. */
interface Row {
  layer: Router['stack'][number];
  route: BoundRoute;
}

/** A row a request's URL matches, with the captures of its path, and its parameters once worked out. */
interface Match {
  row: Row;
  captures: RegExpExecArray;
  params?: Record<string, string>;
}

/** A mounted table: one middleware that runs the row a request's URL matches, if any. */
export interface MountedTable {
  routes(): RouterMiddleware;
  /**
   * Whether the request's caller, repository and owner may be read as plain objects (RequestState
   * plainContext): a GET or HEAD, or a row whose handler changes none of them. Asked before the
   * dispatch (authentication reads the caller), which then reuses the match.
   */
  plainContext(ctx: Context): boolean;
  /** Whether the request is a GET or HEAD of a row marked `cached` (lib/http/answer-cache.ts); reuses the match as plainContext does. */
  cached(ctx: Context): boolean;
  /**
   * What the request's row can be served from the statement that finds the caller's token, for its path
   * parameters (composeTokenReads), kept in `ahead`; null when nothing. Asked by authentication, before
   * the dispatch, which then reuses the match.
   */
  tokenAhead(ctx: Context, ahead: ReadAhead, plain: boolean): TokenAhead | null;
}
type RouterMiddleware = ReturnType<Router['routes']>;

/**
 * Mounts every row whose flag is on, most specific first. A router tests its rows one by one, so the
 * rows are also split by what a URL's first segment and number of segments allow (a few dozen instead
 * of every row for each request, issue 10): each group keeps the table's order and holds every row
 * that could match such a URL, with a segment to spare either way, and only the rows of the request's
 * method, so it answers as the whole table would. A URL that does not start with the prefix goes to
 * the router of every row.
 */
export function mountTable(table: readonly RouteSpec[], cfg: Config, hooks: RunHooks, prefix = '/api/v1'): MountedTable {
  validateTable(table);
  const ordered = [...table].sort((a, b) => compareSpecificity(a.path, b.path)).filter((spec) => !spec.flag || FLAGS[spec.flag](cfg));
  const whole = new Router({ prefix });
  const bound = ordered.map(bindRoute);
  for (const route of bound)
    whole.register(routerPath(route.spec.path), [route.spec.method], (ctx: Context) => {
      // The row that answers, for the metrics' labels (lib/http/request.ts ROW_STATE); also below.
      ctx.state[ROW_STATE] = route.spec;
      return runRoute(ctx, route, hooks);
    });
  const all = whole.routes();
  const reaches = ordered.map((spec) => reach(spec.path));
  const longest = Math.max(0, ...reaches.map((r) => r.count)) + 1;
  const firsts = new Set(reaches.map((r) => r.first).filter((f) => f !== null));
  const methods = new Set(whole.stack.flatMap((layer) => layer.methods));
  // Built on a group's first request: the keys are bounded by the table (its methods, first segments
  // and lengths), and a group is a function of the table alone.
  const groups = new Map<string, Row[]>();
  const shared = new Map<string, Row[]>();
  const groupOf = (method: string, first: string | null, n: number): Row[] => {
    const key = `${method} ${first ?? ''}/${n}`;
    let group = groups.get(key);
    if (group === undefined) {
      // The groups share the whole router's compiled rows (its `stack` of layers), in its order.
      const rows = reaches.flatMap((r, i) =>
        (r.first === null || r.first === first) &&
        (r.tail ? n >= r.count - 1 : Math.abs(n - r.count) <= 1) &&
        whole.stack[i]!.methods.includes(method)
          ? [i]
          : [],
      );
      const id = rows.join(',');
      group = shared.get(id);
      if (!group) shared.set(id, (group = rows.map((i) => ({ layer: whole.stack[i]!, route: bound[i]! }))));
      groups.set(key, group);
    }
    return group;
  };
  const base = `${prefix}/`;
  /** The first row whose path matches, as in the router (a row never passes a request on), with its captures; null for none. */
  const find = (method: string, path: string): Match | null => {
    const rest = path.endsWith('/') ? path.slice(base.length, -1) : path.slice(base.length);
    const slash = rest.indexOf('/');
    let n = rest === '' ? 0 : 1;
    for (let i = slash; i !== -1; i = rest.indexOf('/', i + 1)) n++;
    const first = (slash === -1 ? rest : rest.slice(0, slash)).toLowerCase();
    // A row answers only its own methods (and HEAD for GET, as the router registers them), so a group
    // holds only the rows of the request's method: half of the rows or fewer are tested (issue 10).
    for (const row of groupOf(methods.has(method) ? method : '', firsts.has(first) ? first : null, Math.min(n, longest))) {
      const captures = row.layer.regexp.exec(path);
      if (captures !== null) return { row, captures };
    }
    return null;
  };
  // A request's match, when something asked for it before the dispatch (plainContext).
  const matched = new WeakMap<Context, Match | null>();
  const matchOf = (ctx: Context): Match | null => {
    let m = matched.get(ctx);
    if (m === undefined) matched.set(ctx, (m = find(ctx.method, ctx.path)));
    return m;
  };
  const dispatch: RouterMiddleware = (ctx, next) => {
    const path = ctx.path;
    if (!path.startsWith(base)) return all(ctx, next);
    // The parameters the router would give the row; without the router's dispatch, which tests every
    // row and composes a chain for each request.
    const m = matched.get(ctx as Context) ?? find(ctx.method, path);
    if (m === null) return next();
    ctx.params = m.params ?? m.row.layer.params(path, m.captures.slice(1));
    ctx.state[ROW_STATE] = m.row.route.spec;
    return runRoute(ctx as Context, m.row.route, hooks);
  };
  const plainContext = (ctx: Context): boolean => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD') return true;
    if (!ctx.path.startsWith(base)) return false;
    return !!matchOf(ctx)?.row.route.handler?.plainContext;
  };
  const cached = (ctx: Context): boolean => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.path.startsWith(base)) return false;
    const spec = matchOf(ctx)?.row.route.spec;
    if (spec?.cached !== true) return false;
    // A kept answer is sent without running the row: it is still the row's answer (ROW_STATE).
    ctx.state[ROW_STATE] = spec;
    return true;
  };
  const tokenAhead = (ctx: Context, ahead: ReadAhead, plain: boolean): TokenAhead | null => {
    if (!ctx.path.startsWith(base)) return null;
    const m = matchOf(ctx);
    if (m === null || m.row.route.reads.length === 0) return null;
    m.params ??= m.row.layer.params(ctx.path, m.captures.slice(1));
    return composeTokenReads(m.row.route.reads, m.params, ahead, plain);
  };
  return { routes: () => dispatch, plainContext, cached, tokenAhead };
}

export const isImplemented = (key: HandlerKey) => key in handlers;
export const redirectOutcome = isRedirect;
