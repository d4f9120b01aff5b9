// The HTTP server: Koa, the body parser, authentication, the mounted route table, the API
// description, and the one place where errors become responses.
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import Koa, { type Context, type Middleware } from 'koa';
import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';
import { routes } from './routes.table.ts';
import { SIG } from './guards/index.ts';
import { mountTable, transactional, type RunHooks } from './interpreter.ts';
import type { Outcome, RequestState } from './guards/types.ts';
import { isRedirect } from './guards/types.ts';
import { HttpError, NOT_FOUND } from './lib/http/errors.ts';
import { authenticate, type AuthDeps, type AuthResult } from './lib/auth/auth.ts';
import { createAuthLimiter } from './lib/auth/limits.ts';
import { clientAddressOf } from './lib/http/client-address.ts';
import { CACHE_CONTROL, etagOf, noneMatch } from './lib/http/conditional-get.ts';
import { createApiLimiter } from './lib/http/api-limit.ts';
import { serveWebRaw } from './lib/repos/web-raw.ts';
import { JSON_TYPE, RenderedBytes, renderJson, renderJsonBytes } from './lib/http/json.ts';
import { isStream, type Reply } from './lib/http/handler.ts';
import { SecretBox } from './lib/auth/secretbox.ts';
import { repoPathFor, type Services } from './lib/http/services.ts';
import { clockOf, requestEm, type Orm } from './model/db.ts';
import { onStatementAnswered } from './model/connection.ts';
import { answerCache } from './lib/http/answer-cache.ts';
import { answerScopes } from './lib/http/answer-scopes.ts';
import { ROW_STATE } from './lib/http/request.ts';
import type { RouteSpec } from './table/route-spec.ts';
import { ReadAhead } from './lib/http/read-ahead.ts';
import { openApiDocument } from './table/openapi.ts';
import { serveAvatars } from './lib/users/avatar-serve.ts';
import { serveSwaggerUi } from './lib/http/swagger-ui.ts';
import { serveHealthCheck } from './lib/runtime/healthz.ts';
import { createMetrics } from './lib/runtime/metrics.ts';
import { serveAttachments } from './lib/attachments/serve.ts';
import { servePackageRoutes } from './table/package-interpreter.ts';
import { packageRoutes } from './table/packages.ts';
import { removeUploads } from './lib/attachments/attachments.ts';
import { bodyReader, closeUnreadBody, once } from './lib/http/request-body.ts';
import { createGitHttp } from './git-http.ts';
import { createGitLfs } from './git-lfs.ts';
import { installWebhooks } from './lib/webhooks/tasks.ts';
import { isDatabaseUnavailable, outageLog, serviceUnavailable } from './lib/db/outage.ts';
import { isClientGone, logAppError } from './lib/http/client-gone.ts';

export interface AppOptions {
  config: Config;
  orm: Orm;
  log?: Logger;
}

const STATE_AUTH = 'cairnAuth';
const STATE_ANSWERED = 'cairnAnswered';

/** The instance secret: [security] SECRET_KEY, or a key generated once under the data path. */
export function secretKey(cfg: Config): string {
  if (cfg.SECURITY.SECRET_KEY) return cfg.SECURITY.SECRET_KEY;
  const file = path.join(cfg.dataPath, 'secret_key');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(cfg.dataPath, { recursive: true });
  const key = randomBytes(32).toString('hex');
  // `wx`: when two processes start together, the first writer wins and the other reads its key.
  try {
    fs.writeFileSync(file, key, { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return fs.readFileSync(file, 'utf8').trim();
  }
  return key;
}

export function createApp({ config, orm, log }: AppOptions): Koa {
  const logger = log ?? pino({ level: config.LOG.LEVEL });
  const services: Services = { log: logger, secrets: new SecretBox(secretKey(config)), repoPath: repoPathFor(config) };
  const apiLimiter = createApiLimiter(config, orm);
  const authDeps: AuthDeps = { secrets: services.secrets, limiter: createAuthLimiter(config, orm), addressOf: clientAddressOf(config) };
  installWebhooks();
  const swaggerUrl = `${config.appUrl}api/swagger`;
  const app = new Koa();
  app.proxy = true;
  // Errors after the answer began (a streamed body whose client left) reach Koa's `error` event,
  // whose default listener prints a raw stack: they go through the log instead.
  app.on('error', (e: unknown, ctx?: Context) => logAppError(logger, e, ctx));

  const errorBody = (
    status: number,
    message: string,
    extra: { errors?: string[]; bare?: boolean; fields?: Record<string, unknown> } = {},
  ) => {
    const body: Record<string, unknown> = extra.bare ? { message } : { message, url: swaggerUrl };
    if (extra.errors && !extra.bare) body.errors = extra.errors;
    return Object.assign(body, extra.fields);
  };
  // A database outage is logged when it begins and when the database answers again (lib/db/outage.ts).
  const outage = outageLog(logger);
  if (clockOf(orm) && config.DATABASE.URL) {
    onStatementAnswered(orm, () => outage.answered());
  }
  const sendJson = (ctx: Context, status: number, body: unknown) => {
    ctx.status = status;
    ctx.type = JSON_TYPE;
    ctx.body = renderJson(body);
  };

  // GET /metrics and the measuring of every request, when [metrics] ENABLED (lib/runtime/metrics.ts);
  // first, so it sees each answer's final status.
  const metrics = createMetrics(config, orm, logger);
  if (metrics) app.use(metrics.middleware);

  // Errors: HttpError is rendered as it says; anything else is logged with the request id and
  // answered 500 without internals. Then a large body left unread closes the connection. One
  // middleware with the headers every answer carries (fewer steps per request).
  app.use(async (ctx, next) => {
    const requestId = randomUUID();
    // Headers every answer carries are set on Node's response directly: Koa's `ctx.set` builds arrays
    // for each call.
    const res = ctx.res;
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('Cache-Control', CACHE_CONTROL);
    res.setHeader('X-Frame-Options', 'SAMEORIGIN');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    try {
      await next();
    } catch (e) {
      if (e instanceof HttpError) {
        for (const [k, v] of Object.entries(e.extra.headers ?? {})) ctx.set(k, v);
        return sendJson(ctx, e.status, errorBody(e.status, e.message, e.extra));
      }
      const status = (e as { status?: number; expose?: boolean }).status;
      if (typeof status === 'number' && status >= 400 && status < 500 && (e as { expose?: boolean }).expose) {
        // Body parser and HTTP framework errors (malformed JSON, body too large).
        return sendJson(ctx, status, errorBody(status, (e as Error).message));
      }
      // A client that went away mid-request (its body cut short, its connection closed) gets no answer
      // and is no error of ours; its socket errors carry codes a database connection's can too.
      if (ctx.req.socket.destroyed && isClientGone(e)) return logAppError(logger, e, ctx);
      if (isDatabaseUnavailable(e)) {
        outage.failed(e);
        logger.debug({ err: e, requestId, method: ctx.method, path: ctx.path }, 'answered 503: database unavailable');
        const answer = serviceUnavailable();
        for (const [k, v] of Object.entries(answer.extra.headers ?? {})) ctx.set(k, v);
        return sendJson(ctx, answer.status, errorBody(answer.status, answer.message));
      }
      logger.error({ err: e, requestId, method: ctx.method, path: ctx.path }, 'unexpected error');
      sendJson(ctx, 500, errorBody(500, ''));
    } finally {
      closeUnreadBody(ctx);
    }
  });

  // What answers outside the API. None of it answers a path under /api/v1/, which goes straight to
  // the API's middleware below (a dozen fewer steps for every API request).
  const outside: Middleware[] = [];
  // The health check for load balancers and probes (lib/runtime/healthz.ts), first: it reads no credentials.
  outside.push(serveHealthCheck(config, orm, logger));
  // Avatar images, where every `avatar_url` points.
  outside.push(serveAvatars(config));
  // Attachment downloads, where every `browser_download_url` points.
  outside.push(serveAttachments({ config, orm, services, authDeps }));
  // The package registries (`/api/packages/...`, and the container registry at `/v2/...`), the rows of
  // table/packages.ts; they read uploads themselves, so they precede the body parser.
  outside.push(servePackageRoutes(packageRoutes, { config, orm, services, authDeps }));

  // The API description, generated from the table, and Swagger UI over it at /api/swagger.
  outside.push(serveSwaggerUi(config));
  outside.push(async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/swagger.v1.json' && config.API.ENABLE_SWAGGER) {
      ctx.type = JSON_TYPE;
      ctx.body = renderJson(openApiDocument(routes, config));
      return;
    }
    return next();
  });

  // Git over HTTP (smart protocol) lives outside /api/v1; it must see request bodies unparsed.
  outside.push(createGitHttp({ config, orm, services, authDeps }));
  // Git LFS (`<repo>.git/info/lfs/...`), also outside /api/v1; it streams uploads itself.
  outside.push(createGitLfs({ config, orm, services, authDeps }));

  // The web `raw` and `media` links of contents answers, answered by the API's rows (lib/repos/web-raw.ts).
  outside.push(serveWebRaw(config, services));

  const api: Middleware[] = [];
  // Kept answers of the table's `cached` rows, sent again while the database shows no change
  // (lib/http/answer-cache.ts). Not with rate limits, which count every request in the database, nor with a
  // reverse proxy's identity header, which the key does not hold.
  const clock = clockOf(orm);
  if (
    clock &&
    config.CACHE.ANSWERS &&
    config.CACHE.ANSWERS_MAX_MB > 0 &&
    !apiLimiter &&
    !config.SERVICE.ENABLE_REVERSE_PROXY_AUTHENTICATION_API
  ) {
    api.push(
      answerCache({
        read: () =>
          clock.read().then((gen) => {
            outage.answered();
            return gen;
          }),
        changedAfter: (gen, scopes) => clock.changedAfter(gen, scopes),
        scopesOf: (ctx) => answerScopes((ctx.state[ROW_STATE] as RouteSpec | undefined)?.handler, ctx.state[STATE_ANSWERED]),
        maxBytes: config.CACHE.ANSWERS_MAX_MB * 1024 * 1024,
        maxAgeMs: config.answersMaxAgeMs,
        cachedRow: (ctx) => router.cached(ctx),
        onLookup: metrics?.keptAnswer,
      }),
    );
  }
  // Authentication, for every API request (bad credentials are 401 on every route).
  api.push(async (ctx, next) => {
    if (!ctx.path.startsWith('/api/v1')) return next();
    const em = requestEm(orm);
    const query = new URLSearchParams(ctx.querystring);
    const plain = router.plainContext(ctx);
    // The request's read-ahead, which its state carries from here to the handler (lib/http/read-ahead.ts).
    const ahead = new ReadAhead();
    const auth: AuthResult = await authenticate(em, config, authDeps, {
      headers: ctx.headers,
      query,
      peer: ctx.req.socket.remoteAddress,
      plain,
      // What the row's steps and the row itself declare they can be served from the token's statement.
      ahead: () => router.tokenAhead(ctx, ahead, plain),
    });
    if (auth.warning) ctx.set('Warning', auth.warning);
    // forgejo-facts 2.6 with the spec's preference for 401 on sign-in-required instances.
    if (!auth.doer && config.SERVICE.REQUIRE_SIGNIN_VIEW) throw new HttpError(401, 'Only signed in user is allowed to call APIs.');
    ctx.state[STATE_AUTH] = { auth, em, ahead, query };
    // Visible rate limits, when the instance sets them (lib/http/api-limit.ts).
    const budget =
      apiLimiter &&
      (await apiLimiter.take({
        userId: auth.doer?.id ?? null,
        address: () => authDeps.addressOf(ctx.req.socket.remoteAddress, ctx.headers),
      }));
    if (budget) ctx.set(budget.headers);
    try {
      await next();
    } finally {
      // Bodies are read when the row's chain asks for them (lib/http/request-body.ts); uploads left behind
      // by an answered request are removed.
      const removing = removeUploads(ctx);
      if (removing) await removing;
    }
    if (budget && ctx.status === 304) await budget.refund();
  });

  const readBody = bodyReader(config);

  const hooks: RunHooks = {
    makeState(ctx, route) {
      const { auth, em, ahead, query } = ctx.state[STATE_AUTH] as {
        auth: AuthResult;
        em: RequestState['em'];
        ahead: ReadAhead;
        query: URLSearchParams;
      };
      const params: Record<string, string> = {};
      for (const [k, v] of Object.entries(ctx.params ?? {})) params[k] = Array.isArray(v) ? v.join('/') : String(v ?? '');
      // What the body may be, worked out when a step reads it (most requests read none).
      const wanted = () => ({
        uploads: !!auth.doer,
        // SIG checks the Digest of the text as received.
        text: route.spec.chain.includes(SIG),
        multipart: route.spec.body === 'multipart',
      });
      return {
        config,
        services,
        em,
        ahead,
        method: ctx.method,
        plainContext: ctx.method === 'GET' || ctx.method === 'HEAD' || !!route.handler?.plainContext,
        path: ctx.path.slice('/api/v1'.length) || '/',
        params,
        query,
        headers: ctx.headers,
        auth: { doer: auth.doer, method: auth.method, token: auth.token, sudoer: auth.sudoer, task: auth.task ?? null },
        readBody: once(() => readBody(ctx, wanted())),
        requestUri: ctx.url,
      };
    },
    respond(ctx, _s, outcome: NonNullable<Outcome>) {
      if (isRedirect(outcome)) {
        ctx.status = outcome.status;
        ctx.set('Location', outcome.location);
        ctx.body = '';
        return;
      }
      sendJson(ctx, outcome.status, errorBody(outcome.status, outcome.message, outcome));
    },
    render(ctx, s, reply: Reply) {
      // The state a kept answer's scopes are read from (lib/http/answer-scopes.ts).
      ctx.state[STATE_ANSWERED] = s;
      ctx.status = reply.status;
      for (const [k, v] of Object.entries(reply.headers ?? {})) ctx.set(k, v);
      if (reply.body === undefined || reply.status === 204) {
        ctx.body = null;
        ctx.status = reply.status;
        return;
      }
      if (isStream(reply.body) || Buffer.isBuffer(reply.body) || (typeof reply.body === 'string' && reply.type)) {
        ctx.type = reply.type ?? 'application/octet-stream';
        ctx.body = reply.body;
        return;
      }
      if (reply.status === 205) return sendResetContent(ctx, renderJson(reply.body));
      // Encoded once: the tag hashes these bytes and the socket writes them, where a string
      // body was encoded twice more (the hash, the write) and scanned for its length.
      const text = renderJsonBytes(reply.body);
      // What `ctx.type = JSON_TYPE` sets, without its lookup of the type.
      const res = ctx.res;
      res.setHeader('Content-Type', JSON_TYPE);
      if ((ctx.method === 'GET' || ctx.method === 'HEAD') && reply.status === 200) {
        // Conditional GETs (lib/http/conditional-get.ts).
        const etag = reply.body instanceof RenderedBytes ? reply.body.etag : etagOf(text);
        // Cache-Control is the one every answer carries (set first, above).
        res.setHeader('ETag', etag);
        if (noneMatch(ctx.req.headers['if-none-match'] || undefined, etag)) {
          ctx.status = 304;
          ctx.body = null;
          return;
        }
      }
      ctx.body = text;
    },
    transactional: transactional(services.log),
  };

  const router = mountTable(routes, config, hooks);
  api.push(router.routes() as Middleware);

  // GET /api/v1/swagger is a table row (flag `swagger`); everything else under /api/v1 is unknown.
  api.push(async (ctx) => {
    if (ctx.path.startsWith('/api/')) return sendJson(ctx, 404, errorBody(404, NOT_FOUND, { errors: [] }));
    sendJson(ctx, 404, errorBody(404, NOT_FOUND, { errors: [] }));
  });
  const everything = chain([...outside, ...api]);
  const apiOnly = chain(api);
  // Git LFS's `/<owner>/<repo>/info/lfs` is the one pattern outside that also takes an /api/v1/ path
  // (`api` is a reserved name, but the answer is LFS's).
  app.use((ctx, next) => (ctx.path.startsWith('/api/v1/') && !ctx.path.startsWith('/api/v1/info/lfs') ? apiOnly : everything)(ctx, next));
  return app;
}

/** Middleware run in order, as app.use would (koa-compose without its checks). */
function chain(steps: readonly Middleware[]): Middleware {
  return (ctx, next) => {
    const run = (i: number): Promise<unknown> =>
      i === steps.length ? Promise.resolve(next()) : Promise.resolve(steps[i]!(ctx, () => run(i + 1)));
    return run(0);
  };
}

/**
 * Koa empties every 205 answer, but Forgejo's notification routes answer 205 with the changed
 * threads (Go's net/http allows a body there), so this one is written past Koa.
 */
function sendResetContent(ctx: Context, json: string): void {
  ctx.respond = false;
  ctx.res.statusCode = 205;
  ctx.res.setHeader('Content-Type', JSON_TYPE);
  ctx.res.setHeader('Content-Length', Buffer.byteLength(json));
  ctx.res.end(json);
}

export interface Running {
  server: http.Server;
  url: string;
  close(): Promise<void>;
}

export async function listen(app: Koa, host: string, port: number): Promise<Running> {
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address();
  const actualPort = typeof addr === 'object' && addr ? addr.port : port;
  return {
    server,
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${actualPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
