// Notification threads from issue and pull-request events (Forgejo's services/uinotification and
// models/activities/notification_list.go createOrUpdateIssueNotifications). A subscriber of
// lib/activity/events.ts, so the threads commit or roll back with the change that caused them.
import type { EntityManager } from '@mikro-orm/core';
import { Comment, CommentType, type IIssue } from '../../model/issue.ts';
import type { IRepository } from '../../model/repo.ts';
import { User } from '../../model/user.ts';
import { Notification, NotificationSource, NotificationStatus } from '../../model/notification.ts';
import { isWorkInProgress } from '../issues/index.ts';
import type { IUser } from '../../model/user.ts';
import { onEvent } from './events.ts';
import { mentionedUsers } from '../issues/index.ts';
import { everyoneReads, readersOf, repoById, userById } from '../auth/perm.ts';
import { intArray, plainPrefixed, prefixedColumns, textOf, type Plain } from '../../model/raw.ts';
import { readRows } from '../../model/sql.ts';
import { tailWrite, type WriteQueue } from '../db/counters.ts';
import { numberPending } from '../issues/index.ts';
import { WATCHING } from '../repos/index.ts';
import type { ReadAhead } from '../http/read-ahead.ts';

export interface IssueNotice {
  issue: IIssue;
  /** Who caused it: never notified, and recorded as `updated_by`. */
  doerId: number;
  /** The comment the change wrote, if any (0 when none). */
  commentId?: number;
  /** Notify only this user (an assignee, a requested reviewer) instead of everyone following. */
  receiverId?: number;
  /** The read-ahead of the request the change comes from (lib/http/read-ahead.ts). */
  ahead?: ReadAhead;
  /** The write queue of the request the change comes from (lib/db/counters.ts), if it has one. */
  writes?: WriteQueue;
}

/** The comment types whose posters follow an issue (Forgejo's GetParticipantIDsByIssue): migration CommentParticipants' partial index holds them. */
const PARTICIPATING = `(${CommentType.comment}, ${CommentType.code}, ${CommentType.review})`;
/**
 * The distinct posters of an issue's comments, code comments and reviews (two placeholders, the
 * issue's id twice), read as a loose scan of that index: one probe per poster, the next poster id
 * above the last, instead of every comment of the issue (a new comment on an issue with
 * 10,000 comments read them all).
 */
const POSTERS_SQL = `with recursive p(uid) as (
           (select poster_id from comment where issue_id = ? and type in ${PARTICIPATING} order by poster_id limit 1)
           union all
           select (select c.poster_id from comment c where c.issue_id = ? and c.type in ${PARTICIPATING} and c.poster_id > p.uid order by c.poster_id limit 1)
             from p where p.uid is not null
         ) select uid from p where uid is not null`;

/** `followersOf` for a new issue opened by its poster: the repository's watchers (kind 2), less the doer and the users who blocked the doer. */
let newIssueFollowers: string | undefined;
const newIssueFollowersSql = () =>
  (newIssueFollowers ??= `select w.user_id as uid, 2 as kind from watch w
       where w.repo_id = ? and w.mode in (${WATCHING.join(',')}) and ? and w.user_id > 0 and w.user_id <> ?
         and w.user_id not in (select user_id from blocked_user where block_id = ?)`);

/**
 * Who follows the issue (its watchers, the repository's watchers except for work-in-progress pulls, its
 * poster, the posters of comments, code comments and reviews as Forgejo's GetParticipantIDsByIssue, its
 * assignees), less explicit unsubscriptions, users who blocked the doer, and the doer, as the rows
 * (uid, kind) of a subquery with its parameters. Users are read in that order of kinds, as the threads are written.
 */
function followersOf(issue: IIssue, doerId: number): { sql: string; params: unknown[] } {
  const repoWatchers = !issue.isPull || !isWorkInProgress(issue.title);
  // An issue the doer opens whose row goes with COMMIT (lib/issues/issues.ts numberPending: no labels,
  // assignees or milestone) has no comments, no assignees and no watch but the poster's: its
  // followers are the repository's watchers. The same rows as below from a much smaller plan
  // (pgbench put the statement of the threads and feed rows at 0.07 ms less of PostgreSQL's CPU).
  if (numberPending(issue) && issue.posterId === doerId) {
    return { sql: newIssueFollowersSql(), params: [issue.repoId, repoWatchers, doerId, doerId] };
  }
  return {
    sql: FOLLOWERS_SQL,
    params: [issue.posterId, issue.id, issue.repoId, repoWatchers, issue.id, issue.id, issue.id, doerId, issue.id, doerId],
  };
}

/** Everyone who follows an issue, with the kind that ranks them (see `followersOf`). */
const FOLLOWERS_SQL = `select f.uid, min(f.kind) as kind from (
         select ?::int as uid, 0 as kind
         union all select user_id, 1 from issue_watch where issue_id = ? and is_watching
         union all select user_id, 2 from watch where repo_id = ? and mode in (${WATCHING.join(',')}) and ?
         union all select uid, 3 from (${POSTERS_SQL}) posters
         union all select assignee_id, 4 from issue_assignees where issue_id = ?
       ) f
       where f.uid > 0 and f.uid <> ?
         and f.uid not in (select user_id from issue_watch where issue_id = ? and not is_watching)
         and f.uid not in (select user_id from blocked_user where block_id = ?)
       group by f.uid`;

/** The followers of the issue with their user rows: one statement. */
async function candidatesOf(em: EntityManager, issue: IIssue, doerId: number): Promise<Plain<IUser>[]> {
  const f = followersOf(issue, doerId);
  const rows = await readRows<Record<string, unknown>>(
    em,
    [User],
    textOf(
      ['candidates', f.sql],
      () => `select ${prefixedColumns(em, User, 'u')} from (${f.sql}) c join "user" u on u.id = c.uid order by c.kind, c.uid`,
    ),
    f.params,
  );
  return rows.map((r) => plainPrefixed(em, User, r, 'u')!);
}

/** Users who may read the issue (the issues unit, or pulls for a pull request), as Forgejo's CheckRepoUnitUser. */
async function readers(em: EntityManager, repo: IRepository, issue: IIssue, users: IUser[], ahead?: ReadAhead): Promise<number[]> {
  if (!users.length) return [];
  const owner = await userById(em, repo.ownerId, ahead);
  if (!owner) return [];
  return (await readersOf(em, repo, owner, users, issue.isPull ? 'pulls' : 'issues', ahead)).map((u) => u.id);
}

/**
 * One upsert per user on the (user, issue) thread. A thread that was read becomes unread again and
 * points at this comment; an unread or pinned one keeps its status and first unseen comment (Forgejo:
 * "otherwise you may miss some old comments"). Either way it moves to the top.
 */
const UPSERT_THREAD = `on conflict (user_id, issue_id) where issue_id <> 0 do update set
       status = case when notification.status = ${NotificationStatus.read} then ${NotificationStatus.unread} else notification.status end,
       comment_id = case when notification.status = ${NotificationStatus.read} then excluded.comment_id else notification.comment_id end,
       repo_id = excluded.repo_id, source = excluded.source,
       updated_by = excluded.updated_by, updated_at = excluded.updated_at`;
const THREAD_COLUMNS = 'user_id, repo_id, status, source, issue_id, comment_id, updated_by, created_at, updated_at';

const THREADS_OF_USERS = `insert into notification (${THREAD_COLUMNS})
     select r.uid, ?::int, ?::int, ?::int, ?::int, ?::int, ?::int, ?::timestamptz, ?::timestamptz
     from unnest(?::int[]) with ordinality as r(uid, n) order by r.n
     ${UPSERT_THREAD}`;

async function upsertThreads(
  em: EntityManager,
  writes: WriteQueue | undefined,
  issue: IIssue,
  userIds: number[],
  commentId: number,
  doerId: number,
): Promise<void> {
  if (!userIds.length) return;
  const source = issue.isPull ? NotificationSource.pull : NotificationSource.issue;
  const now = new Date();
  // One fixed text for any number of users, in their order (lib/db/counters.ts tailWrite).
  const part: ThreadsPart = {
    kind: 'threads',
    users: userIds,
    repoId: issue.repoId,
    source,
    issueId: issue.id,
    commentId,
    doerId,
    at: now,
  };
  await tailWrite(
    em,
    writes,
    'notification',
    THREADS_OF_USERS,
    [issue.repoId, NotificationStatus.unread, source, issue.id, commentId, doerId, now, now, intArray(userIds)],
    part,
  );
}

/**
 * The same for every follower at once, found by the insert itself: when every signed-in user may read
 * the issue, nothing is asked per user, so one statement does it all.
 */
async function upsertFollowerThreads(
  em: EntityManager,
  writes: WriteQueue | undefined,
  issue: IIssue,
  commentId: number,
  doerId: number,
): Promise<void> {
  const source = issue.isPull ? NotificationSource.pull : NotificationSource.issue;
  const now = new Date();
  const f = followersOf(issue, doerId);
  const part: ThreadsPart = {
    kind: 'threads',
    users: f.sql === FOLLOWERS_SQL ? 'followers' : 'watchers',
    repoId: issue.repoId,
    source,
    issueId: issue.id,
    commentId,
    doerId,
    at: now,
    issuePosterId: issue.posterId,
    repoWatchers: !issue.isPull || !isWorkInProgress(issue.title),
  };
  await tailWrite(
    em,
    writes,
    'notification',
    textOf(
      ['threads', f.sql],
      () => `insert into notification (${THREAD_COLUMNS})
     select c.uid, ?::int, ?::int, ?::int, ?::int, ?::int, ?::int, ?::timestamptz, ?::timestamptz
     from (${f.sql}) c join "user" u on u.id = c.uid order by c.kind, c.uid
     ${UPSERT_THREAD}`,
    ),
    [issue.repoId, NotificationStatus.unread, source, issue.id, commentId, doerId, now, now, ...f.params],
    part,
  );
}

/**
 * A queued write of notification threads, as values (lib/db/counters.ts WritePart): for the users
 * listed in their order, for every follower of the issue (`followersOf`'s full list, which names the
 * issue's poster and whether the repository's watchers follow), or for the repository's watchers
 * (`followersOf` for a new issue its poster opens, whose row goes with COMMIT).
 */
export interface ThreadsPart {
  readonly kind: 'threads';
  readonly users: readonly number[] | 'followers' | 'watchers';
  readonly repoId: number;
  readonly source: number;
  readonly issueId: number;
  readonly commentId: number;
  readonly doerId: number;
  readonly at: Date;
  readonly issuePosterId?: number;
  readonly repoWatchers?: boolean;
}

/** Creates or updates the threads of everyone who should hear about a change of `issue`. */
export async function notifyIssueEvent(em: EntityManager, notice: IssueNotice): Promise<void> {
  const { issue, doerId, ahead } = notice;
  const repo = await repoById(em, issue.repoId, ahead);
  if (!repo) return;
  if (!notice.receiverId) {
    // With the units the request read already (lib/auth/perm.ts knownRepo), whether everyone may read is
    // known without a statement.
    const owner = await userById(em, repo.ownerId, ahead);
    const all = owner && everyoneReads(ahead, repo, owner, issue.isPull ? 'pulls' : 'issues');
    if (all === false) return;
    if (all) {
      await upsertFollowerThreads(em, notice.writes, issue, notice.commentId ?? 0, doerId);
      return;
    }
  }
  let candidates: IUser[];
  if (notice.receiverId) {
    candidates = notice.receiverId === doerId ? [] : await em.find(User, { id: notice.receiverId });
  } else {
    candidates = await candidatesOf(em, issue, doerId);
  }
  await upsertThreads(em, notice.writes, issue, await readers(em, repo, issue, candidates, ahead), notice.commentId ?? 0, doerId);
}

/** The comment a review wrote (type review), so the thread can point at it. */
async function reviewCommentId(em: EntityManager, reviewId: number): Promise<number> {
  const c = await em.findOne(Comment, { reviewId, type: CommentType.review }, { fields: ['id'] });
  return c?.id ?? 0;
}

/**
 * Forgejo's mention notifications (uinotification NewIssue, CreateIssueComment, PullRequestReview,
 * PullRequestCodeComment): everyone `text` mentions gets the issue's thread, pointing at `commentId`,
 * if they may read the issue. Only new text mentions: an edit notifies no one, as in Forgejo.
 */
async function notifyMentions(
  em: EntityManager,
  issue: IIssue,
  sender: IUser,
  text: string,
  commentId: number,
  ctx: { ahead?: ReadAhead; writes?: WriteQueue },
): Promise<void> {
  if (!text.includes('@')) return;
  const { ahead, writes } = ctx;
  const repo = await repoById(em, issue.repoId, ahead);
  const owner = repo && (await userById(em, repo.ownerId, ahead));
  if (!repo || !owner) return;
  for (const receiverId of await mentionedUsers(em, repo, owner, issue, sender, text)) {
    await notifyIssueEvent(em, { issue, doerId: sender.id, commentId, receiverId, ahead, writes });
  }
}

/** Forgejo's DeleteIssue removes the issue's threads with it. */
const dropThreads = (em: EntityManager, issueId: number) => em.nativeDelete(Notification, { issueId });

onEvent('issues', async (em, ctx, ev) => {
  const doerId = ev.sender.id;
  if (ev.action === 'deleted') await dropThreads(em, ev.issue.id);
  else if (ev.action === 'opened' || ev.action === 'closed' || ev.action === 'reopened')
    await notifyIssueEvent(em, { issue: ev.issue, doerId, ahead: ctx.ahead, writes: ctx.writes });
  else if (ev.action === 'assigned' && ev.assignee)
    await notifyIssueEvent(em, { issue: ev.issue, doerId, receiverId: ev.assignee.id, ahead: ctx.ahead, writes: ctx.writes });
  if (ev.action === 'opened') await notifyMentions(em, ev.issue, ev.sender, ev.issue.content, 0, ctx);
});

onEvent('issue_comment', async (em, ctx, ev) => {
  if (ev.action !== 'created') return;
  await notifyIssueEvent(em, { issue: ev.issue, doerId: ev.sender.id, commentId: ev.comment.id, ahead: ctx.ahead, writes: ctx.writes });
  await notifyMentions(em, ev.issue, ev.sender, ev.comment.content, ev.comment.id, ctx);
});

onEvent('pull_request', async (em, ctx, ev) => {
  const doerId = ev.sender.id;
  // lib/issues/events.ts sends a deleted pull's `deleted` here too, though PullAction does not list it.
  if ((ev.action as string) === 'deleted') await dropThreads(em, ev.issue.id);
  else if (ev.action === 'opened' || ev.action === 'closed' || ev.action === 'reopened')
    await notifyIssueEvent(em, { issue: ev.issue, doerId, ahead: ctx.ahead, writes: ctx.writes });
  else if (ev.action === 'assigned' && ev.assignee)
    await notifyIssueEvent(em, { issue: ev.issue, doerId, receiverId: ev.assignee.id, ahead: ctx.ahead, writes: ctx.writes });
  else if (ev.action === 'review_requested' && ev.reviewer)
    await notifyIssueEvent(em, { issue: ev.issue, doerId, receiverId: ev.reviewer.id, ahead: ctx.ahead, writes: ctx.writes });
  if (ev.action === 'opened') await notifyMentions(em, ev.issue, ev.sender, ev.issue.content, 0, ctx);
});

onEvent('pull_request_review', async (em, ctx, ev) => {
  const commentId = await reviewCommentId(em, ev.review.id);
  await notifyIssueEvent(em, { issue: ev.issue, doerId: ev.sender.id, commentId, ahead: ctx.ahead, writes: ctx.writes });
  await notifyMentions(em, ev.issue, ev.sender, ev.review.content, commentId, ctx);
  // The review's line comments mention people too, each pointing at its own comment.
  for (const c of await em.find(Comment, { reviewId: ev.review.id, type: CommentType.code }, { orderBy: { id: 'asc' } })) {
    await notifyMentions(em, ev.issue, ev.sender, c.content, c.id, ctx);
  }
});
