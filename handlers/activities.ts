// Activity feeds of a repository, a user, an organization and a team, and a user's heatmap
// (Forgejo's routers/api/v1/{repo/repo.go,user/user.go,org/org.go,org/team.go} ...ActivityFeeds and
// GetUserHeatmapData). The rows come from lib/activity/feeds.ts; the chains decided who may ask.
import type { Handler } from '../lib/http/handler.ts';
import { json } from '../lib/http/handler.ts';
import { actionRepos, findFeeds, heatmapOf, type FeedQuery } from '../lib/activity/feeds.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import type { IAction } from '../model/action.ts';
import { Comment } from '../model/issue.ts';
import { OrgUser } from '../model/org.ts';
import { User, type IUser } from '../model/user.ts';
import { toApiActivity } from '../lib/activity/api/activity.ts';
import { commentsToApi, usersById } from '../lib/issues/api/issue.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/http/request.ts';
import { callerOf } from './repo-lists.ts';
import { reposJson } from '../lib/repos/api/repo-json.ts';
import type { HandlerCtx } from '../lib/http/handler.ts';
import type { QueryOf } from '../model/schemas/query.ts';

/** Forgejo's convert.ToActivities for one page of rows. */
async function activitiesJson(s: RequestState, rows: IAction[]) {
  const viewer = { doer: s.auth.doer, siteAdmin: isSiteAdmin(s) };
  const repos = await actionRepos(s.em, rows);
  const actors = await usersById(
    s.em,
    rows.map((a) => a.actUserId),
  );
  const commentIds = [...new Set(rows.map((a) => a.commentId).filter((id) => id > 0))];
  const comments = commentIds.length ? await s.em.find(Comment, { id: { $in: commentIds } }) : [];
  const commentJson = new Map((await commentsToApi(s.em, s.config, viewer, comments)).map((c) => [c.id, c]));
  const repoJsonById = new Map((await reposJson(s, [...repos.values()])).map((r) => [r.id, r]));
  return rows.map((a) => {
    const repo = repos.get(a.repoId)!;
    return toApiActivity(s.config, viewer, a, {
      actUser: actors.get(a.actUserId)!,
      repo: repoJsonById.get(repo.id)!,
      isPrivate: repo.isPrivate,
      comment: commentJson.get(a.commentId) ?? null,
    });
  });
}

/**
 * One page of a feed. Forgejo answers the user and team feeds with the Link header too, the
 * repository and organization feeds with X-Total-Count alone.
 */
async function feed(c: HandlerCtx<unknown, QueryOf<'Feeds'>>, q: Omit<FeedQuery, 'date'>, links: boolean) {
  const p = pageOf(c);
  const { rows, total } = await findFeeds(c.em, callerOf(c), { ...q, date: c.q.date ?? null }, p);
  const headers = links ? pagingHeaders(c, p, total) : { 'X-Total-Count': String(total), 'Access-Control-Expose-Headers': 'X-Total-Count' };
  return json(200, await activitiesJson(c, rows), headers);
}

/** Every activity in the repository once (the actor's own row), private ones included: the chain let the caller read it. */
export const listFeeds: Handler<never, QueryOf<'Feeds'>> = async (c) =>
  feed(c, { repo: need(c.repo, 'repo').repo, onlyPerformedByActor: true, includePrivate: true }, false);

/** The user's feed; private activities only for the user themself and site admins. */
export async function userFeed(c: HandlerCtx<unknown, QueryOf<'UserFeeds'>>) {
  const user = need(c.contextUser, 'user');
  const doer = c.auth.doer;
  const includePrivate = !!doer && (isSiteAdmin(c) || doer.id === user.id);
  return feed(c, { user, includePrivate, onlyPerformedBy: c.q['only-performed-by'] === true }, true);
}

/** The organization's feed; private activities for its members and site admins. */
export async function orgFeed(c: HandlerCtx<unknown, QueryOf<'Feeds'>>, org: IUser) {
  const doer = c.auth.doer;
  const includePrivate = !!doer && (isSiteAdmin(c) || (await c.em.count(OrgUser, { orgId: org.id, uid: doer.id })) > 0);
  return feed(c, { user: org, includePrivate }, false);
}

/** The team's feed: the organization's feed limited to the team's repositories. */
export async function teamFeed(c: HandlerCtx<unknown, QueryOf<'Feeds'>>) {
  const team = need(c.team, 'team');
  const org = await c.em.findOneOrFail(User, { id: team.orgId });
  return feed(c, { user: org, team, includePrivate: true }, true);
}

export async function userHeatmap(c: RequestState) {
  return json(200, await heatmapOf(c.em, callerOf(c), need(c.contextUser, 'user')));
}

/** This family's handlers; `routes.table.ts` names each `activities.<key>`. */
export const handlers = {
  listFeeds,
} satisfies Record<string, Handler<never, never>>;
