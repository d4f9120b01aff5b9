// GET /metrics in Prometheus's text format, as Forgejo serves it under [metrics] ENABLED
// (routers/common/metrics.go, modules/metrics/collector.go): outside /api/v1, so no API
// authentication, no kept answer and no rate limit; with [metrics] TOKEN set, a scrape must send
// `Authorization: Bearer <TOKEN>` exactly, else 401 with an empty body, as Forgejo answers.
//
// What it exports:
// - Forgejo's instance gauges under Forgejo's names (`gitea_users`, `gitea_repositories`, ...), read on
//   each scrape by ONE statement (instanceStatement); tables that only grow (actions, comments, hook
//   tasks) are PostgreSQL's estimate once it says they hold ESTIMATE_FROM rows or more, else counted.
//   The statement answers within STATS_LIMIT_MS or the scrape goes without the instance gauges (and
//   says so in `cairn_instance_stats_up 0`); a statement still running is shared by the next scrape
//   rather than joined by another, so a slow database holds one at most.
// - Per table row: `cairn_http_requests_total{method,route,status}` and
//   `cairn_http_request_duration_seconds{method,route}`, labelled with the row's method and path as
//   the table spells it (the interpreter records the row on the request's state, ROW_STATE), never
//   the raw path; requests no row answers (git over HTTP, LFS, registries, unknown paths) are
//   `route="unmatched"`. A request is counted when its response is closed (sent or abandoned), so a
//   streamed answer's time includes its body.
// - Kept answers (lib/http/answer-cache.ts): `cairn_kept_answers_total{result="hit"|"miss"}`.
// - The database pool: knex's pool (tarn), through its public counters (the embedded database's
//   driver has one too, of its one connection); `cairn_db_pool_max` is [database] POOL_MAX.
// - The process's own metrics (prom-client's collectDefaultMetrics: CPU, memory, event loop, GC), and
//   `cairn_worker_http_requests_total{pid}`, which shows how requests spread over worker processes.
//
// Everything lives in registries of this app's own: a process may hold several apps (the tests do).
// With worker processes (lib/runtime/workers.ts) the per-process figures of a scrape are every live
// worker's, aggregated; the instance gauges, read from the database, are the answering worker's.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../../config.ts';
import type { Orm } from '../../model/db.ts';
import { poolCounters, type PoolCounters } from '../../model/connection.ts';
import { executeSql, type Sql, sql } from '../../model/sql.ts';
import { ROW_STATE, type RowLabel } from '../http/request.ts';
import { API_VERSION } from './version.ts';
import { processMetrics, shareMetrics } from './workers.ts';

export const METRICS_PATH = '/metrics';
const STATS_LIMIT_MS = 5000;
/** From this many rows (PostgreSQL's estimate), a table that only grows is not counted but estimated. */
const ESTIMATE_FROM = 100_000;

/** Forgejo's gauges: its name without `gitea_`, help text, and the statement's column. */
const INSTANCE_GAUGES = [
  ['accesses', 'Number of Accesses'],
  ['actions', 'Number of Actions'],
  ['attachments', 'Number of Attachments'],
  ['comments', 'Number of Comments'],
  ['follows', 'Number of Follows'],
  ['hooktasks', 'Number of HookTasks'],
  ['issues', 'Number of Issues'],
  ['issues_closed', 'Number of closed Issues'],
  ['issues_open', 'Number of open Issues'],
  ['labels', 'Number of Labels'],
  ['loginsources', 'Number of LoginSources'],
  ['milestones', 'Number of Milestones'],
  ['mirrors', 'Number of Mirrors'],
  ['oauths', 'Number of Oauths'],
  ['organizations', 'Number of Organizations'],
  ['projects', 'Number of projects'],
  ['projects_boards', 'Number of project boards'],
  ['publickeys', 'Number of PublicKeys'],
  ['releases', 'Number of Releases'],
  ['repositories', 'Number of Repositories'],
  ['stars', 'Number of Stars'],
  ['teams', 'Number of Teams'],
  ['updatetasks', 'Number of UpdateTasks'],
  ['users', 'Number of Users'],
  ['watches', 'Number of Watches'],
  ['webhooks', 'Number of Webhooks'],
] as const;
type GaugeName = (typeof INSTANCE_GAUGES)[number][0];

/**
 * What the statement computes for each gauge. cairn keeps no `access` table (access is decided per
 * request), no login sources, projects or update tasks, and Forgejo itself reports 0 OAuth: those are
 * 0, so dashboards made for Forgejo find every series.
 */
const count = (table: string, where = '') => `(select count(*) from ${table}${where ? ` where ${where}` : ''})`;
const growing = (table: string) =>
  `(select case when c.reltuples >= ${ESTIMATE_FROM} then c.reltuples::bigint else ${count(table)} end from pg_class c where c.oid = '${table}'::regclass)`;
const COLUMNS: Record<GaugeName, string> = {
  accesses: '0',
  actions: growing('action'),
  attachments: count('attachment'),
  comments: growing('comment'),
  follows: count('follow'),
  hooktasks: growing('hook_task'),
  issues: 'i.open + i.closed',
  issues_closed: 'i.closed',
  issues_open: 'i.open',
  labels: count('label'),
  loginsources: '0',
  milestones: count('milestone'),
  mirrors: count('mirror'),
  oauths: '0',
  organizations: count('"user"', 'type = 1'),
  projects: '0',
  projects_boards: '0',
  publickeys: count('public_key'),
  releases: count('release'),
  repositories: count('repository'),
  stars: count('star'),
  teams: count('team'),
  updatetasks: '0',
  users: count('"user"', 'type = 0'),
  watches: count('watch'),
  webhooks: count('webhook'),
};

/** The one statement of a scrape; its text depends on the settings only. */
function instanceStatement(cfg: Config): Sql {
  const cols = INSTANCE_GAUGES.map(([name]) => `${COLUMNS[name]}::float8 as ${name}`);
  // Forgejo's queries: issues (and pulls) per label name, per `owner/repository`.
  if (cfg.METRICS.ENABLED_ISSUE_BY_LABEL)
    cols.push(
      `(select coalesce(json_agg(json_build_array(x.name, x.n)), '[]') from (select l.name, count(*)::float8 as n from issue_label il left join label l on l.id = il.label_id group by l.name) x) as by_label`,
    );
  if (cfg.METRICS.ENABLED_ISSUE_BY_REPOSITORY)
    cols.push(
      `(select coalesce(json_agg(json_build_array(x.repository, x.n)), '[]') from (select r.owner_name || '/' || r.name as repository, count(*)::float8 as n from issue i left join repository r on r.id = i.repo_id group by r.owner_name, r.name) x) as by_repository`,
    );
  // Program constants only: the gauges' column expressions and Forgejo's fixed queries.
  return sql.raw(
    `select ${cols.join(', ')} from (select count(*) filter (where not is_closed) as open, count(*) filter (where is_closed) as closed from issue) i`,
  );
}

type StatsRow = Record<GaugeName, number | string> & { by_label?: unknown; by_repository?: unknown };

export interface Metrics {
  /** Answers GET /metrics and measures every other request; goes first, before the error middleware. */
  middleware: Middleware;
  /** Counts a kept answer's lookup (lib/http/answer-cache.ts `onLookup`). */
  keptAnswer(hit: boolean): void;
}

/** The metrics of one app, or null when [metrics] ENABLED is off (then nothing is measured). */
export function createMetrics(cfg: Config, orm: Orm, log: Logger): Metrics | null {
  if (!cfg.METRICS.ENABLED) return null;
  // `registry`: this process's figures (summed over workers); `instance`: the database's and the build's.
  const registry = new Registry();
  const instance = new Registry();
  collectDefaultMetrics({ register: registry });
  shareMetrics(registry);
  new Gauge({
    name: 'gitea_build_info',
    help: 'Build information',
    labelNames: ['goarch', 'goos', 'goversion', 'version'],
    registers: [instance],
  }).set({ goarch: process.arch, goos: process.platform, goversion: process.version, version: API_VERSION }, 1);

  const gauges = new Map<GaugeName, Gauge>(
    INSTANCE_GAUGES.map(([name, help]) => [name, new Gauge({ name: `gitea_${name}`, help, registers: [instance] })]),
  );
  const byLabel = cfg.METRICS.ENABLED_ISSUE_BY_LABEL
    ? new Gauge({ name: 'gitea_issues_by_label', help: 'Number of Issues', labelNames: ['label'], registers: [instance] })
    : null;
  const byRepository = cfg.METRICS.ENABLED_ISSUE_BY_REPOSITORY
    ? new Gauge({ name: 'gitea_issues_by_repository', help: 'Number of Issues', labelNames: ['repository'], registers: [instance] })
    : null;
  const statsUp = new Gauge({
    name: 'cairn_instance_stats_up',
    help: `1 when the instance gauges (gitea_*) were read for this scrape, 0 when the database did not answer within ${STATS_LIMIT_MS} ms`,
    registers: [instance],
  });
  const stats = instanceStats(orm, instanceStatement(cfg), log);

  const requests = new Counter({
    name: 'cairn_http_requests_total',
    help: 'HTTP requests answered, by route-table row (method and path as the table spells them; "unmatched" for none) and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'cairn_http_request_duration_seconds',
    help: 'Time from a request to its response closed, by route-table row',
    labelNames: ['method', 'route'],
    registers: [registry],
  });
  const kept = new Counter({
    name: 'cairn_kept_answers_total',
    help: 'Lookups of kept answers (reads of rows marked cached): "hit" sent again, "miss" made',
    labelNames: ['result'],
    registers: [registry],
  });
  const byWorker = new Counter({
    name: 'cairn_worker_http_requests_total',
    help: 'HTTP requests answered, by the process (worker) that answered them',
    labelNames: ['pid'],
    registers: [registry],
  });
  const pid = String(process.pid);
  poolGauges(orm, registry);

  const wanted = cfg.METRICS.TOKEN === '' ? null : digest(`Bearer ${cfg.METRICS.TOKEN}`);
  const middleware: Middleware = async (ctx, next) => {
    if (ctx.path === METRICS_PATH && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.set('Cache-Control', 'no-store');
      if (wanted && !timingSafeEqual(digest(ctx.get('Authorization')), wanted)) {
        ctx.status = 401;
        ctx.type = 'text/plain; charset=utf-8';
        ctx.body = '\n';
        return;
      }
      const row = await stats();
      statsUp.set(row ? 1 : 0);
      for (const [name, gauge] of gauges) {
        if (row) gauge.set(Number(row[name]));
        else gauge.reset();
      }
      setLabelled(byLabel, 'label', row?.by_label);
      setLabelled(byRepository, 'repository', row?.by_repository);
      ctx.type = registry.contentType;
      ctx.body = (await processMetrics(registry)) + (await instance.metrics());
      return;
    }
    const started = process.hrtime.bigint();
    ctx.res.once('close', () => {
      const row = ctx.state[ROW_STATE] as RowLabel | undefined;
      const method = row?.method ?? ctx.method;
      const route = row?.path ?? 'unmatched';
      requests.inc({ method, route, status: String(ctx.res.statusCode) });
      byWorker.inc({ pid });
      durations.observe({ method, route }, Number(process.hrtime.bigint() - started) / 1e9);
    });
    await next();
  };
  return {
    middleware,
    keptAnswer: (hit) => kept.inc({ result: hit ? 'hit' : 'miss' }),
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** A labelled gauge's series replaced by the statement's `[label, count]` pairs (none when it did not answer). */
function setLabelled(gauge: Gauge | null, label: string, pairs: unknown): void {
  if (!gauge) return;
  gauge.reset();
  const list = typeof pairs === 'string' ? (JSON.parse(pairs) as unknown) : pairs;
  if (!Array.isArray(list)) return;
  // A label that names nothing (an issue_label row of a deleted label) is Forgejo's empty label.
  for (const [name, n] of list as [string | null, number][]) gauge.set({ [label]: name ?? '' }, Number(n));
}

/**
 * The statement's row, or null when it did not answer within the limit (or failed, which is logged).
 * A statement still running when the next scrape comes is awaited again, not sent twice.
 */
function instanceStats(orm: Orm, statement: Sql, log: Logger): () => Promise<StatsRow | null> {
  let pending: Promise<StatsRow | null> | null = null;
  return async () => {
    pending ??= executeSql<StatsRow>(orm.em, statement)
      .then(
        (rows) => rows[0] ?? null,
        (e: unknown) => {
          log.error({ err: e }, 'metrics: reading the instance gauges failed');
          return null;
        },
      )
      .finally(() => {
        pending = null;
      });
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), STATS_LIMIT_MS);
    });
    const row = await Promise.race([pending, limit]);
    clearTimeout(timer);
    return row;
  };
}

/**
 * The pool's gauges, read on each scrape from knex's `client.pool` (declared in knex's types) and
 * tarn's counting methods.
 */
function poolGauges(orm: Orm, registry: Registry): void {
  const pool = (): PoolCounters | null => poolCounters(orm);
  const gauge = (name: string, help: string, read: (p: PoolCounters) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const p = pool();
        this.set(p ? read(p) : 0);
      },
    });
  if (pool() === null) return;
  gauge('cairn_db_pool_connections_used', 'Database connections lent out by the pool', (p) => p.numUsed());
  gauge('cairn_db_pool_connections_free', 'Idle database connections in the pool', (p) => p.numFree());
  gauge('cairn_db_pool_pending_acquires', 'Requests for a database connection waiting for one', (p) => p.numPendingAcquires());
  gauge('cairn_db_pool_pending_creates', 'Database connections being opened', (p) => p.numPendingCreates());
  const max = orm.config.get('pool')?.max;
  if (max !== undefined)
    new Gauge({ name: 'cairn_db_pool_max', help: 'Most database connections the pool opens', registers: [registry] }).set(max);
}
