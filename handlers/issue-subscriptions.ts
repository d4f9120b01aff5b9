// Issue subscriptions (Forgejo's routers/api/v1/repo/issue_subscription.go, models/issues/issue_watch.go).
// An IssueWatch row is an explicit choice; without one a user follows the issue when watching the
// repository or taking part in it (its poster, or a poster of a comment, code comment or review).
import type { EntityManager } from '@mikro-orm/core';
import type { Handler } from '../lib/http/handler.ts';
import { json } from '../lib/http/handler.ts';
import { Comment, CommentType, IssueWatch, type IIssue } from '../model/issue.ts';
import { User } from '../model/user.ts';
import { repoApiUrl } from '../lib/issues/api/issue.ts';
import { toApiUser } from '../lib/users/api/user.ts';
import { toApiWatchInfo } from '../lib/repos/api/watch.ts';
import { isWatching } from '../lib/repos/social.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/http/request.ts';
import { executeSql, sql, writeSql } from '../model/sql.ts';

/** Forgejo's IsUserParticipantsOfIssue. */
async function isParticipant(em: EntityManager, userId: number, issue: IIssue): Promise<boolean> {
  if (issue.posterId === userId) return true;
  const types = [CommentType.comment, CommentType.code, CommentType.review];
  return (await em.count(Comment, { issueId: issue.id, posterId: userId, type: { $in: types } })) > 0;
}

/** Forgejo's CheckIssueWatch. */
async function watches(em: EntityManager, userId: number, issue: IIssue): Promise<boolean> {
  const row = await em.findOne(IssueWatch, { userId, issueId: issue.id });
  if (row) return row.isWatching;
  return (await isWatching(em, userId, issue.repoId)) || isParticipant(em, userId, issue);
}

/** Users with an explicit subscription who may still sign in, paged; a page is ordered by name as Forgejo's GetUsersByIDs does. */
export const listSubscriptions: Handler = async (c) => {
  const issue = need(c.issue, 'issue');
  const page = pageOf(c);
  const from = sql`from issue_watch w join "user" u on u.id = w.user_id where w.issue_id = ${issue.id} and w.is_watching and u.is_active and not u.prohibit_login`;
  const counted = await executeSql<{ n: number }>(c.em, sql`select count(*)::int as n ${from}`);
  const found = await executeSql<{ id: number }>(
    c.em,
    sql`select u.id ${from} order by w.id asc limit ${page.limit} offset ${page.offset}`,
  );
  const users = found.length ? await c.em.find(User, { id: { $in: found.map((r) => Number(r.id)) } }, { orderBy: { name: 'asc' } }) : [];
  const viewer = { doer: c.auth.doer, siteAdmin: isSiteAdmin(c) };
  return json(
    200,
    users.map((u) => toApiUser(c.config, u, viewer)),
    pagingHeaders(c, page, Number(counted[0]?.n ?? 0)),
  );
};

/** WatchInfo of the caller; `created_at` is the issue's creation time, as in Forgejo. */
export const listSubscriptionsCheck: Handler = async (c) => {
  const issue = need(c.issue, 'issue');
  const { repo } = need(c.repo, 'repo');
  const subscribed = await watches(c.em, need(c.auth.doer ?? undefined, 'user').id, issue);
  const repoUrl = repoApiUrl(c.config, repo.ownerName, repo.name);
  return json(200, toApiWatchInfo(subscribed, issue.createdAt, `${repoUrl}/issues/${issue.index}/subscriptions`, repoUrl));
};

/**
 * The chain loaded `{user}` and checked the caller may (un)subscribe them (SUBSCRIBER, SUBSCRIBER_SELF).
 * Answers have no body: 200 when the state was already the wanted one, 201 when it changed.
 */
async function setSubscription(c: RequestState, watch: boolean) {
  const issue = need(c.issue, 'issue');
  const user = need(c.contextUser, 'user');
  if ((await watches(c.em, user.id, issue)) === watch) return { status: 200 };
  // One upsert, so concurrent requests for the same pair cannot collide on the unique key.
  await writeSql(
    c.em,
    sql`insert into issue_watch (user_id, issue_id, is_watching, created_at, updated_at) values (${user.id}, ${issue.id}, ${watch}, ${new Date()}, ${new Date()})
     on conflict (user_id, issue_id) do update set is_watching = excluded.is_watching, updated_at = excluded.updated_at`,
  );
  return { status: 201 };
}

export const putSubscriptions: Handler = async (c) => setSubscription(c, true);
export const removeSubscriptions: Handler = async (c) => setSubscription(c, false);

/** This family's handlers; `routes.table.ts` names each `issueSubscriptions.<key>`. */
export const handlers = {
  listSubscriptions,
  listSubscriptionsCheck,
  putSubscriptions,
  removeSubscriptions,
} satisfies Record<string, Handler<never, never>>;
