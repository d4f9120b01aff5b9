// Tracked time and stopwatches (Forgejo's routers/api/v1/repo/issue_tracked_time.go and
// issue_stopwatch.go, models/issues/{tracked_time,stopwatch}.go). Deleting a time only marks it,
// as Forgejo does, so the timeline keeps its history; every change leaves a timeline event.
import { secToTime } from '../model/duration.ts';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import type { AddTimeOption } from '../model/schemas/index.ts';
import { CommentType, Issue, Stopwatch, TrackedTime, type IIssue, type IStopwatch, type ITrackedTime } from '../model/issue.ts';
import { User, type IUser } from '../model/user.ts';
import { issuesToApi, toApiStopWatch, toApiTrackedTime, usersById } from '../lib/issues/api/issue.ts';
import { addComment, canReadIssue } from '../lib/issues/issues.ts';
import { reachable } from '../lib/repos/search.ts';
import { executeSql, sql, type Sql } from '../model/sql.ts';
import { pageOf, pagingHeaders, type Page } from '../lib/http/paging.ts';
import { conflict, notFound, unprocessable } from '../lib/http/errors.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/http/request.ts';
import type { HandlerCtx } from '../lib/http/handler.ts';
import type { QueryOf } from '../model/schemas/query.ts';

/** Forgejo stores these times as unix seconds; keeping whole seconds makes since/before exact. */
const wholeSeconds = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000);
const unixSeconds = (d: Date) => Math.floor(d.getTime() / 1000);
const doerOf = (c: RequestState): IUser => need(c.auth.doer ?? undefined, 'user');

/** Go's time.Parse(time.RFC3339, v); null when it does not parse. */
function rfc3339(v: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(v)) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

// ---------------------------------------------------------------------------------------------
// Queries

interface TimeFilter {
  repoId?: number;
  issueId?: number;
  userId?: number;
  since?: Date;
  before?: Date;
  where?: Sql;
}

/** Forgejo's GetQueryBeforeSince (the row's declaration refused a bad time): Go's zero time means no bound. */
const timeParam = (d: Date | undefined): Date | undefined => (d && d.getUTCFullYear() <= 1 ? undefined : d);

/** Times on pull requests need the pulls unit, times on issues the issues unit. */
function readableKinds(c: RequestState): Sql | undefined {
  const issues = canReadIssue(c, { isPull: false });
  const pulls = canReadIssue(c, { isPull: true });
  if (issues && pulls) return undefined;
  return sql.raw(issues ? 'not i.is_pull' : pulls ? 'i.is_pull' : 'false');
}

/** One page (or all, with a null page) of the undeleted times matching `f`, oldest first, and the total. */
async function findTimes(c: RequestState, f: TimeFilter, page: Page | null): Promise<{ times: ITrackedTime[]; total: number }> {
  const conds = [sql`not t.deleted`];
  if (f.repoId !== undefined) conds.push(sql`i.repo_id = ${f.repoId}`);
  if (f.issueId !== undefined) conds.push(sql`t.issue_id = ${f.issueId}`);
  if (f.userId !== undefined) conds.push(sql`t.user_id = ${f.userId}`);
  if (f.since) conds.push(sql`t.created_at >= ${wholeSeconds(f.since)}`);
  if (f.before) conds.push(sql`t.created_at <= ${wholeSeconds(f.before)}`);
  if (f.where) conds.push(sql`(${f.where})`);
  const from = sql`from tracked_time t join issue i on i.id = t.issue_id join repository r on r.id = i.repo_id where ${sql.join(conds, ' and ')}`;
  const counted = await executeSql<{ n: number }>(c.em, sql`select count(*)::int as n ${from}`);
  const limit = page ? sql` limit ${page.limit} offset ${page.offset}` : sql.empty;
  const found = await executeSql<{ id: number }>(c.em, sql`select t.id ${from} order by t.id asc${limit}`);
  const ids = found.map((r) => Number(r.id));
  const rows = ids.length ? await c.em.find(TrackedTime, { id: { $in: ids } }) : [];
  const byId = new Map(rows.map((t) => [t.id, t]));
  return { times: ids.map((id) => byId.get(id)).filter((t): t is ITrackedTime => !!t), total: Number(counted[0]?.n ?? 0) };
}

/** api.TrackedTime, each with its api.Issue (Forgejo's ToTrackedTime after LoadAttributes). */
async function timesToApi(c: RequestState, times: ITrackedTime[]) {
  const viewer = { doer: c.auth.doer, siteAdmin: isSiteAdmin(c) };
  const issues = times.length ? await c.em.find(Issue, { id: { $in: [...new Set(times.map((t) => t.issueId))] } }) : [];
  const [apiIssues, users] = await Promise.all([
    issuesToApi(c.em, c.config, viewer, issues),
    usersById(
      c.em,
      times.map((t) => t.userId),
    ),
  ]);
  const issueById = new Map(apiIssues.map((i) => [i.id, i]));
  return times.map((t) => toApiTrackedTime(t, users.get(t.userId)?.name ?? '', issueById.get(t.issueId) ?? null));
}

async function userByName(c: RequestState, name: string): Promise<IUser | null> {
  return c.em.findOne(User, { lowerName: name.toLowerCase() });
}

/**
 * The `user` filter of the repository and issue lists (Forgejo's cantSetUser): site admins and
 * writers of the issues unit may ask for anyone (or everyone); others see their own times only
 * (TIMES_QUERY_USER refused asking for someone else's).
 */
async function userFilter(c: HandlerCtx<unknown, QueryOf<'TrackedTimes'>>): Promise<number | undefined> {
  const doer = doerOf(c);
  const name = (c.q.user ?? '').trim();
  let userId: number | undefined;
  if (name !== '') {
    const u = await userByName(c, name);
    if (!u) throw notFound('User does not exist', [`user does not exist [uid: 0, name: ${name}]`]);
    userId = u.id;
  }
  const mayQueryOthers = isSiteAdmin(c) || need(c.repo, 'repo').perm.canWrite('issues');
  if (mayQueryOthers || userId === doer.id) return userId;
  // Asking for someone else's times without the right was refused by TIMES_QUERY_USER.
  return doer.id;
}

async function listPage(c: HandlerCtx<unknown, QueryOf<'TimeRange'>>, f: TimeFilter) {
  const p = pageOf(c);
  const { times, total } = await findTimes(c, { ...f, since: timeParam(c.q.since), before: timeParam(c.q.before) }, p);
  return json(200, await timesToApi(c, times), pagingHeaders(c, p, total));
}

// ---------------------------------------------------------------------------------------------
// Tracked times of an issue

// The issue routes below run after the chain's TIME_TRACKER_GATE or TRACK_TIME (Forgejo's
// CanUseTimetracker: 400 when time tracking is off, 403 when it is on but not for this caller).

export const listOfIssue: Handler<never, QueryOf<'TrackedTimes'>> = async (c) => {
  const issue = need(c.issue, 'issue');
  const userId = await userFilter(c);
  return listPage(c, { repoId: issue.repoId, issueId: issue.id, userId });
};

/** Go's binding takes `created` as a time.Time: RFC 3339, and the zero time means "now". */
function createdAt(v: string | undefined): Date {
  if (v === undefined || v === '') return new Date();
  const d = rfc3339(v);
  if (!d) throw unprocessable('[Created]: Invalid');
  return d.getUTCFullYear() <= 1 ? new Date() : d;
}

/**
 * Forgejo's AddTime: `user_name` counts only for site admins and repository admins naming someone
 * else; for anyone else it is ignored and the time is the caller's. The timeline event is the time
 * owner's, with Forgejo's `|<seconds>` content.
 */
export const addToIssue: Handler<AddTimeOption> = async (c) => {
  const b = c.body;
  // Go's `binding:"Required"` rejects the zero value; negative amounts pass, as in Forgejo.
  if (b.time === 0) throw unprocessable('[Time]: Required');
  if (!Number.isSafeInteger(b.time)) throw unprocessable('[Time]: Invalid');
  const created = createdAt(b.created);
  const issue = need(c.issue, 'issue');
  const doer = doerOf(c);
  let owner = doer;
  const name = b.user_name ?? '';
  if (name !== '' && (isSiteAdmin(c) || (need(c.repo, 'repo').perm.isAdmin() && doer.lowerName !== name.toLowerCase()))) {
    const u = await userByName(c, name);
    if (!u) throw unprocessable(`user does not exist [uid: 0, name: ${name}]`);
    owner = u;
  }
  const t = c.em.create(TrackedTime, { issueId: issue.id, userId: owner.id, time: b.time, createdAt: wholeSeconds(created) });
  await c.em.flush();
  await addComment(c.em, issue, owner.id, CommentType.addTimeManual, { content: `|${b.time}`, timeId: t.id });
  return json(200, (await timesToApi(c, [t]))[0]);
};

/** Marks the caller's times on the issue deleted; 404 when there were none. */
export const resetOfIssue: Handler = async (c) => {
  const issue = need(c.issue, 'issue');
  const doer = doerOf(c);
  const removed = await executeSql<{ time: string | number }>(
    c.em,
    sql`update tracked_time set deleted = true where issue_id = ${issue.id} and user_id = ${doer.id} and not deleted returning time`,
  );
  if (removed.length === 0) throw notFound(undefined, ['tracked_time does not exist']);
  const seconds = removed.reduce((sum, r) => sum + Number(r.time), 0);
  await addComment(c.em, issue, doer.id, CommentType.deleteTimeManual, { content: `|${seconds}` });
  return noContent();
};

/** The chain loaded the time (TRACKED_TIME) and checked it is the caller's or they are a site admin (TIME_OWNER). */
export const removeFromIssue: Handler = async (c) => {
  const issue = need(c.issue, 'issue');
  const t = need(c.trackedTime, 'time');
  const marked = await c.em.nativeUpdate(TrackedTime, { id: t.id, deleted: false }, { deleted: true });
  if (marked === 0) throw notFound(undefined, [`tracked time [${t.id}] already deleted`]);
  await addComment(c.em, issue, t.userId, CommentType.deleteTimeManual, { content: `|${t.time}` });
  return noContent();
};

// ---------------------------------------------------------------------------------------------
// Tracked times of a repository and of the caller

// The repository's lists run after the chain's TIME_TRACKING_ON (400 while tracking is off).

export const list: Handler<never, QueryOf<'TrackedTimes'>> = async (c) => {
  const userId = await userFilter(c);
  return listPage(c, { repoId: need(c.repo, 'repo').repo.id, userId, where: readableKinds(c) });
};

/**
 * Deprecated in Forgejo: one user's times in the repository, all of them, without paging headers. The
 * chain loaded the user and checked the caller may see their times (TIMES_USER, TIMES_OF_USER).
 */
export const get: Handler = async (c) => {
  const user = need(c.contextUser, 'user');
  const { times } = await findTimes(c, { repoId: need(c.repo, 'repo').repo.id, userId: user.id, where: readableKinds(c) }, null);
  return json(200, await timesToApi(c, times));
};

/**
 * The caller's times everywhere. Unlike Forgejo, times in repositories the caller (or the token)
 * cannot reach are left out, like every other listing (spec, token kinds).
 */
export const listMine: Handler<never, QueryOf<'TimeRange'>> = async (c) => {
  const caller = { doer: c.auth.doer, siteAdmin: isSiteAdmin(c), token: c.auth.token };
  return listPage(c, { userId: doerOf(c).id, where: reachable(caller) });
};

// ---------------------------------------------------------------------------------------------
// Stopwatches

/** The chain's STOPWATCH (Forgejo's prepareIssueStopwatch) allowed the caller to toggle it. */
const stopwatchIssue = (c: RequestState): IIssue => need(c.issue, 'issue');

const findStopwatch = (c: RequestState, issue: IIssue) => c.em.findOne(Stopwatch, { userId: doerOf(c).id, issueId: issue.id });

/**
 * Removes a stopwatch; false when another request removed it first, so two concurrent stops never
 * both book the time.
 */
async function claim(c: RequestState, sw: IStopwatch): Promise<boolean> {
  return (await c.em.nativeDelete(Stopwatch, { id: sw.id })) > 0;
}

/** Books the elapsed whole seconds as a tracked time with a stop_tracking event (Forgejo's FinishIssueStopwatch). */
async function finish(c: RequestState, sw: IStopwatch, issue: IIssue): Promise<void> {
  const now = new Date();
  const seconds = unixSeconds(now) - unixSeconds(sw.createdAt);
  const t = c.em.create(TrackedTime, { issueId: issue.id, userId: sw.userId, time: seconds, createdAt: wholeSeconds(now) });
  await c.em.flush();
  await addComment(c.em, issue, sw.userId, CommentType.stopTracking, { content: secToTime(seconds), timeId: t.id });
}

/** Starting a stopwatch stops the caller's running one on another issue, as Forgejo does. */
export const startStopwatch: Handler = async (c) => {
  const issue = stopwatchIssue(c);
  if (await findStopwatch(c, issue)) throw conflict('cannot start a stopwatch again if it already exists');
  const doer = doerOf(c);
  for (const other of await c.em.find(Stopwatch, { userId: doer.id, issueId: { $ne: issue.id } })) {
    const otherIssue = await c.em.findOne(Issue, { id: other.issueId });
    if ((await claim(c, other)) && otherIssue) await finish(c, other, otherIssue);
  }
  c.em.create(Stopwatch, { userId: doer.id, issueId: issue.id, createdAt: wholeSeconds(new Date()) });
  try {
    await c.em.flush();
  } catch (e) {
    // A concurrent start won the race for the (user, issue) pair.
    if (e instanceof UniqueConstraintViolationException) throw conflict('cannot start a stopwatch again if it already exists');
    throw e;
  }
  await addComment(c.em, issue, doer.id, CommentType.startTracking);
  return { status: 201 };
};

const NO_STOPWATCH = 'cannot stop/cancel a non existent stopwatch';

export const stopStopwatch: Handler = async (c) => {
  const issue = stopwatchIssue(c);
  const sw = await findStopwatch(c, issue);
  if (!sw || !(await claim(c, sw))) throw conflict(NO_STOPWATCH);
  await finish(c, sw, issue);
  return { status: 201 };
};

export const cancelStopwatch: Handler = async (c) => {
  const issue = stopwatchIssue(c);
  const sw = await findStopwatch(c, issue);
  if (!sw || !(await claim(c, sw))) throw conflict(NO_STOPWATCH);
  await addComment(c.em, issue, doerOf(c).id, CommentType.cancelTracking);
  return noContent();
};

/** The caller's running stopwatches (api.StopWatch), in repositories the caller can still reach. */
export const listStopwatches: Handler = async (c) => {
  const where = reachable({ doer: c.auth.doer, siteAdmin: isSiteAdmin(c), token: c.auth.token });
  const from = sql`from stopwatch s join issue i on i.id = s.issue_id join repository r on r.id = i.repo_id where s.user_id = ${doerOf(c).id} and (${where})`;
  const p = pageOf(c);
  const counted = await executeSql<{ n: number }>(c.em, sql`select count(*)::int as n ${from}`);
  const rows = await executeSql<{ created_at: string | Date; index: number; title: string; owner_name: string; name: string }>(
    c.em,
    sql`select s.created_at, i."index", i.title, r.owner_name, r.name ${from} order by s.id asc limit ${p.limit} offset ${p.offset}`,
  );
  const now = new Date();
  const body = rows.map((r) =>
    toApiStopWatch(
      { createdAt: new Date(r.created_at), index: Number(r.index), title: r.title, ownerName: r.owner_name, repoName: r.name },
      now,
    ),
  );
  return json(200, body, pagingHeaders(c, p, Number(counted[0]?.n ?? 0)));
};

/** This family's handlers; `routes.table.ts` names each `issueTimes.<key>`. */
export const handlers = {
  listOfIssue,
  addToIssue,
  resetOfIssue,
  removeFromIssue,
  list,
  get,
  listMine,
  startStopwatch,
  stopStopwatch,
  cancelStopwatch,
  listStopwatches,
} satisfies Record<string, Handler<never, never>>;
