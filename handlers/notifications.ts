// Notification threads of the caller (Forgejo's routers/api/v1/notify/*.go). Threads are written by
// lib/activity/notify.ts; these routes list them and change their status.
// Loading this module (handlers/index.ts does at start) subscribes lib/activity/notify.ts to lib/events.ts.
import '../lib/activity/notify.ts';
import type { Handler } from '../lib/http/handler.ts';
import { json } from '../lib/http/handler.ts';
import {
  Notification,
  NotificationSource,
  NotificationStatus,
  type INotification,
  type NotificationStatusName,
} from '../model/notification.ts';
import { threadsToApi } from '../lib/activity/api/notification.ts';
import { pageOf } from '../lib/http/paging.ts';
import { positiveInt } from '../lib/issues/issues.ts';
import { PUBLIC } from '../lib/repos/search.ts';
import { notFound } from '../lib/http/errors.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/http/request.ts';
import type { HandlerCtx } from '../lib/http/handler.ts';
import type { QueryOf } from '../model/schemas/query.ts';
import { executeSql, sql, type Sql } from '../model/sql.ts';

/** A time of the query (RFC 3339, checked by the row's declaration) in whole seconds; Go's zero time means no bound. */
const seconds = (t: Date | undefined): number => (!t || t.getUTCFullYear() <= 1 ? 0 : Math.floor(t.getTime() / 1000));

const statusOf = (s: string): number => {
  const name = s.trim().toLowerCase();
  return Object.hasOwn(NotificationStatus, name) ? NotificationStatus[name as NotificationStatusName] : 0;
};

/** `status-types` (repeatable); unknown names are dropped, and none at all means the defaults. */
function statuses(given: readonly string[], defaults: NotificationStatusName[]): number[] {
  return (given.length ? given : defaults).map(statusOf).filter((s) => s > 0);
}

/** `subject-type` (repeatable). Forgejo ignores unknown names, so only unknown names filter nothing. */
function sources(given: readonly string[]): number[] {
  const names = given.map((s) => s.toLowerCase());
  return names.filter((s) => Object.hasOwn(NotificationSource, s)).map((s) => NotificationSource[s as keyof typeof NotificationSource]);
}

interface Filter {
  repoId?: number;
  status?: number[];
  source?: number[];
  since?: number;
  before?: number;
}

/**
 * SQL over `notification n` for the caller's threads. A public-only token only sees threads of
 * public repositories of public owners (spec, token kinds: "Public-only tokens may not reach private
 * resources"), which Forgejo leaves to the route's repository, so the plain lists would leak them.
 */
function where(c: RequestState, f: Filter): Sql {
  const parts = [sql`n.user_id = ${need(c.auth.doer ?? undefined, 'user').id}`];
  if (f.repoId) parts.push(sql`n.repo_id = ${f.repoId}`);
  if (f.status?.length) parts.push(sql`n.status in (${sql.list(f.status)})`);
  if (f.source?.length) parts.push(sql`n.source in (${sql.list(f.source)})`);
  // Forgejo compares whole seconds (updated_unix >= since, <= before); our times carry milliseconds.
  if (f.since) parts.push(sql`n.updated_at >= ${new Date(f.since * 1000)}`);
  if (f.before) parts.push(sql`n.updated_at < ${new Date((f.before + 1) * 1000)}`);
  if (c.auth.token?.publicOnly) parts.push(sql`exists (select 1 from repository r where r.id = n.repo_id and ${PUBLIC})`);
  return sql.join(parts, ' and ');
}

async function findThreads(c: RequestState, f: Filter, page?: { limit: number; offset: number }): Promise<INotification[]> {
  const w = where(c, f);
  const limit = page ? sql` limit ${page.limit} offset ${page.offset}` : sql.empty;
  const rows = await executeSql<{ id: number }>(
    c.em,
    sql`select n.id from notification n where ${w} order by n.updated_at desc, n.id desc${limit}`,
  );
  const ids = rows.map((r) => Number(r.id));
  const found = ids.length ? await c.em.find(Notification, { id: { $in: ids } }) : [];
  const byId = new Map(found.map((n) => [n.id, n]));
  return ids.map((id) => byId.get(id)).filter((n): n is INotification => !!n);
}

async function countThreads(c: RequestState, f: Filter): Promise<number> {
  const w = where(c, f);
  const rows = await executeSql<{ n: number }>(c.em, sql`select count(*)::int as n from notification n where ${w}`);
  return Number(rows[0]?.n ?? 0);
}

const viewerOf = (c: RequestState) => ({ doer: c.auth.doer, siteAdmin: isSiteAdmin(c) });

/** Forgejo's getFindNotificationOptions: unread and pinned unless `all`, a bad time is 422. */
function listFilter(q: QueryOf<'Notifications'>, repoId?: number): Filter {
  return {
    repoId,
    since: seconds(q.since),
    before: seconds(q.before),
    status: q.all === true ? undefined : statuses(q['status-types'], ['unread', 'pinned']),
    source: sources(q['subject-type']),
  };
}

async function listThreads(c: HandlerCtx<unknown, QueryOf<'Notifications'>>, repoId?: number) {
  const f = listFilter(c.q, repoId);
  const page = pageOf(c);
  const total = await countThreads(c, f);
  const threads = await threadsToApi(c.em, c.config, viewerOf(c), await findThreads(c, f, page));
  // Forgejo sets X-Total-Count alone here (SetTotalCountHeader), no Link header.
  return json(200, threads, { 'X-Total-Count': String(total), 'Access-Control-Expose-Headers': 'X-Total-Count' });
}

const toStatus = (q: { 'to-status'?: string }) => statusOf(q['to-status'] ?? '') || NotificationStatus.read;

/**
 * Forgejo's ReadNotifications: the threads in `status-types` (default unread, or every status with
 * `all`) last updated no later than `last_read_at` get `to-status` (default read). Changing a status
 * moves the thread's update time, as Forgejo's full-row update does. 205 with the changed threads.
 */
async function markThreads(c: HandlerCtx<unknown, QueryOf<'NotificationsRead'>>, repoId?: number) {
  const f: Filter = {
    repoId,
    before: seconds(c.q.last_read_at),
    status: c.q.all === true ? undefined : statuses(c.q['status-types'], ['unread']),
  };
  const threads = await findThreads(c, f);
  const target = toStatus(c.q);
  const now = new Date();
  for (const n of threads) {
    n.status = target;
    n.updatedAt = now;
  }
  await c.em.flush();
  return json(205, await threadsToApi(c.em, c.config, viewerOf(c), threads));
}

/** The caller's thread `{id}`. Another user's thread is 404, not Forgejo's 403, so ids cannot be probed. */
async function ownThread(c: RequestState): Promise<INotification> {
  const id = positiveInt(c.params.id);
  if (!id) throw notFound();
  const w = where(c, {});
  const rows = await executeSql<{ id: number }>(c.em, sql`select n.id from notification n where n.id = ${id} and ${w}`);
  const n = rows.length ? await c.em.findOne(Notification, { id }) : null;
  if (!n) throw notFound();
  return n;
}

export const countNew: Handler = async (c) => json(200, { new: await countThreads(c, { status: [NotificationStatus.unread] }) });

export const list: Handler<never, QueryOf<'Notifications'>> = async (c) => listThreads(c);

export const markAll: Handler<never, QueryOf<'NotificationsRead'>> = async (c) => markThreads(c);

export const getThread: Handler = async (c) => {
  const [thread] = await threadsToApi(c.em, c.config, viewerOf(c), [await ownThread(c)]);
  if (!thread) throw notFound();
  return json(200, thread);
};

export const markThread: Handler<never, QueryOf<'NotificationThread'>> = async (c) => {
  const n = await ownThread(c);
  n.status = toStatus(c.q);
  n.updatedAt = new Date();
  await c.em.flush();
  const [thread] = await threadsToApi(c.em, c.config, viewerOf(c), [n]);
  return json(205, thread ?? null);
};

export const listOfRepo: Handler<never, QueryOf<'Notifications'>> = async (c) => listThreads(c, need(c.repo, 'repo').repo.id);

export const markRepo: Handler<never, QueryOf<'NotificationsRead'>> = async (c) => markThreads(c, need(c.repo, 'repo').repo.id);

/** This family's handlers; `routes.table.ts` names each `notifications.<key>`. */
export const handlers = {
  countNew,
  list,
  markAll,
  getThread,
  markThread,
  listOfRepo,
  markRepo,
} satisfies Record<string, Handler<never, never>>;
