// GET /api/healthz, answered as Forgejo answers it (routers/web/healthcheck/check.go): the shape of
// the IETF health check draft (`status` pass or fail, `description` the instance's APP_NAME, and per
// check a list of `{status, time}`, time in RFC 3339 UTC seconds), pretty-printed,
// `application/health+json` (the draft's media type), 200 when every check passes and 500 when one
// fails (Forgejo's handler says 424 Failed Dependency and `application/json`; probes and load
// balancers treat both as a failure), `Cache-Control: no-store`.
// It answers outside /api/v1: no authentication, no kept answer, no rate limit.
//
// A probe may come every second, so the database check is one `select 1` that waits at most
// PING_LIMIT_MS, however long the pool or the network makes it wait. While a ping is in flight, probes
// share it instead of queueing more: an unreachable database holds one pending ping at most.
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Orm } from '../../model/db.ts';
import { executeSql, sql } from '../../model/sql.ts';

export const HEALTHZ_PATH = '/api/healthz';
const PING_LIMIT_MS = 1000;

type Status = 'pass' | 'fail';
interface ComponentStatus {
  status: Status;
  time: string;
}

/** Go's time.RFC3339 of now in UTC: seconds, no fraction. */
const checkTime = () => `${new Date().toISOString().slice(0, 19)}Z`;

export function serveHealthCheck(config: Config, orm: Orm, log: Logger): Middleware {
  const ping = databasePing(orm, log);
  return async (ctx, next) => {
    if (ctx.path !== HEALTHZ_PATH || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const checks: Record<string, ComponentStatus[]> = {};
    // Forgejo's cache check pings its cache service; cairn's cache is the kept answers in this
    // process's memory, which answer whenever the process does.
    if (config.CACHE.ANSWERS) checks['cache:ping'] = [{ status: 'pass', time: checkTime() }];
    checks['database:ping'] = [{ status: (await ping()) ? 'pass' : 'fail', time: checkTime() }];
    const status: Status = Object.values(checks).every((list) => list.every((c) => c.status === 'pass')) ? 'pass' : 'fail';
    ctx.status = status === 'pass' ? 200 : 500;
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'application/health+json';
    ctx.body = JSON.stringify({ status, description: config.DEFAULT.APP_NAME, checks }, null, 2);
  };
}

/**
 * True when the database answered `select 1` within the limit. A ping still unanswered when the
 * next probe comes is awaited again (with a new limit), not joined by another.
 */
function databasePing(orm: Orm, log: Logger): () => Promise<boolean> {
  let pending: Promise<Error | null> | null = null;
  let failing = false;
  return async () => {
    pending ??= executeSql(orm.em, sql`select 1`)
      .then(
        () => null,
        (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
      )
      .finally(() => {
        pending = null;
      });
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<Error>((resolve) => {
      timer = setTimeout(() => resolve(new Error(`no answer within ${PING_LIMIT_MS} ms`)), PING_LIMIT_MS);
    });
    const error = await Promise.race([pending, limit]);
    clearTimeout(timer);
    // Logged when the state changes, not on every probe of an outage.
    if (error && !failing) log.error({ err: error }, 'health check: database ping failed');
    if (!error && failing) log.info('health check: database answers again');
    failing = error !== null;
    return !failing;
  };
}
