// Users: the signed-in user, profiles, search, heatmap, activity feed, a user's organizations and
// organization permissions, starred and watched repositories (Forgejo's routers/api/v1/user/user.go,
// star.go, watch.go and org/org.go; forgejo-facts 6.2, 12.2).
import type { Handler } from '../lib/http/handler.ts';
import { json, signedIn } from '../lib/http/handler.ts';
import type { IUser } from '../model/user.ts';
import { User } from '../model/user.ts';
import { OrgUser, Team, TeamUser } from '../model/org.ts';
import { Repository } from '../model/repo.ts';
import { Star, Watch, WatchMode } from '../model/star.ts';
import { toApiOrg, toApiUser } from '../lib/users/api/user.ts';
import { pseudoUser } from '../lib/auth/pseudo-users.ts';
import { pageOf, pagingHeaders, type Page } from '../lib/http/paging.ts';
import { canSeeUserFilter } from '../lib/auth/user-visibility.ts';
import { Mode, repoPermission } from '../lib/auth/perm.ts';
import { isOrgOwner } from '../lib/auth/membership.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/http/request.ts';
import { repoJson } from '../lib/repos/api/repo-json.ts';
import { starCount } from '../lib/repos/social.ts';
import { userFeed, userHeatmap } from './activities.ts';
import { INT32_MAX } from '../lib/http/query-values.ts';
import type { QueryOf } from '../model/schemas/query.ts';

/** One user as the caller may see it, with Forgejo's counters. */
export async function userJson(s: RequestState, u: IUser) {
  // Read with the caller's token on GET /user.
  const stars = await starCount(s.em, u.id, s.ahead);
  return toApiUser(s.config, u, { doer: s.auth.doer, siteAdmin: isSiteAdmin(s) }, { stars });
}

export async function usersJson(s: RequestState, users: IUser[]) {
  const out = [];
  for (const u of users) out.push(await userJson(s, u));
  return out;
}

export const me = signedIn(async (c) => json(200, await userJson(c, c.auth.doer)));

export const get: Handler = async (c) => json(200, await userJson(c, need(c.contextUser, 'user')));

/** Forgejo's pseudo users, which `uid` can name (forgejo-facts 12.2): Ghost (-1) and the Actions user (-2). */
function pseudoUserJson(c: RequestState, id: -1 | -2) {
  const ghost = id === -1;
  const out = toApiUser(c.config, pseudoUser(id), { doer: c.auth.doer, siteAdmin: isSiteAdmin(c) });
  return ghost ? { ...out, html_url: '' } : out;
}

const SORTS: Record<string, Record<string, 'asc' | 'desc'>> = {
  oldest: { createdAt: 'asc' },
  newest: { createdAt: 'desc' },
  alphabetically: { name: 'asc' },
  reversealphabetically: { name: 'desc' },
  recentupdate: { updatedAt: 'desc' },
  leastupdate: { updatedAt: 'asc' },
};
export const userOrder = (sort: string | undefined) => ({ ...(SORTS[sort ?? ''] ?? SORTS.alphabetically), id: 'asc' as const });

/** `q` matches the name, the full name, or an e-mail address the caller may see (Forgejo's SearchUsers). */
export const search: Handler<never, QueryOf<'UserSearch'>> = async (c) => {
  const p = pageOf(c);
  const uid = c.q.uid ?? 0;
  if (uid === -1 || uid === -2) return json(200, { ok: true, data: [pseudoUserJson(c, uid)] }, pagingHeaders(c, p, 1));
  const doer = c.auth.doer;
  const and: object[] = [{ type: 0 }, await canSeeUserFilter(c.em, doer, isSiteAdmin(c))];
  if (c.auth.token?.publicOnly) and.push({ visibility: 'public' });
  if (uid > 0) and.push({ id: uid <= INT32_MAX ? uid : -1 });
  const q = (c.q.q ?? '').trim().toLowerCase();
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    const email: object = !doer
      ? { email: { $ilike: like }, keepEmailPrivate: false }
      : isSiteAdmin(c)
        ? { email: { $ilike: like } }
        : { email: { $ilike: like }, $or: [{ keepEmailPrivate: false }, { id: doer.id }] };
    and.push({ $or: [{ lowerName: { $like: like } }, { fullName: { $ilike: like } }, email] });
  }
  const [rows, total] = await c.em.findAndCount(User, { $and: and }, { orderBy: userOrder(c.q.sort), limit: p.limit, offset: p.offset });
  return json(200, { ok: true, data: await usersJson(c, rows) }, pagingHeaders(c, p, total));
};

export const heatmap: Handler = async (c) => userHeatmap(c);

export const activityFeeds: Handler<never, QueryOf<'UserFeeds'>> = async (c) => userFeed(c);

/**
 * Forgejo's listUserOrgs: organizations where the user's membership is public and the organization
 * is public; everything for the user themself and site admins.
 */
async function listOrgsOf(c: RequestState, user: IUser) {
  const p = pageOf(c);
  const all = !!c.auth.doer && (c.auth.doer.id === user.id || isSiteAdmin(c));
  const memberships = await c.em.find(OrgUser, all ? { uid: user.id } : { uid: user.id, isPublic: true });
  const where = all
    ? { type: 1, id: { $in: memberships.map((m) => m.orgId) } }
    : { type: 1, visibility: 'public' as const, id: { $in: memberships.map((m) => m.orgId) } };
  const [rows, total] = await c.em.findAndCount(User, where, { orderBy: { lowerName: 'asc' }, limit: p.limit, offset: p.offset });
  return json(
    200,
    rows.map((o) => toApiOrg(c.config, o)),
    pagingHeaders(c, p, total),
  );
}

export const listMyOrgs = signedIn(async (c) => listOrgsOf(c, c.auth.doer));
export const listOrgs: Handler = async (c) => listOrgsOf(c, need(c.contextUser, 'user'));

/** Forgejo's GetUserOrgsPermissions: the user's highest team mode in the organization (USER_ORG resolved it). */
export const orgPermissions: Handler = async (c) => {
  const user = need(c.contextUser, 'user');
  const org = need(c.org, 'org');
  const teamIds = (await c.em.find(TeamUser, { orgId: org.id, uid: user.id })).map((t) => t.teamId);
  const teams = teamIds.length ? await c.em.find(Team, { id: { $in: teamIds } }) : [];
  const level = Math.max(Mode.none, ...teams.map((t) => t.accessMode));
  const owner = await isOrgOwner(c.em, org.id, user.id);
  return json(200, {
    can_read: level > Mode.none,
    can_write: level > Mode.read,
    is_admin: level > Mode.write,
    is_owner: level > Mode.admin,
    can_create_repository: owner || teams.some((t) => t.canCreateOrgRepo),
  });
};

/**
 * Repositories by id, newest link first, keeping those the caller can reach (spec, token kinds:
 * starred and subscriptions routes never list what the token cannot reach), one page of them.
 */
async function reachableRepos(c: RequestState, repoIds: number[], p: Page) {
  const repos = repoIds.length ? await c.em.find(Repository, { id: { $in: repoIds } }) : [];
  const byId = new Map(repos.map((r) => [r.id, r]));
  const visible = [];
  for (const id of repoIds) {
    const repo = byId.get(id);
    // The caller may be a plain object on a GET, which no lookup by id finds in the EntityManager.
    const owner = repo && (repo.ownerId === c.auth.doer?.id ? c.auth.doer : await c.em.findOne(User, { id: repo.ownerId }));
    if (!repo || !owner) continue;
    const perm = await repoPermission(c.em, { repo, owner, doer: c.auth.doer, siteAdmin: isSiteAdmin(c), token: c.auth.token });
    if (perm.hasAnyAccess()) visible.push({ repo, owner });
  }
  const out = [];
  for (const { repo, owner } of visible.slice(p.offset, p.offset + p.limit)) out.push(await repoJson(c, repo, owner));
  return json(200, out, pagingHeaders(c, p, visible.length));
}

export const listStarred: Handler = async (c) => {
  const user = need(c.contextUser, 'user');
  const stars = await c.em.find(Star, { uid: user.id }, { orderBy: { id: 'desc' } });
  return reachableRepos(
    c,
    stars.map((s) => s.repoId),
    pageOf(c),
  );
};

async function watchedBy(c: RequestState, user: IUser) {
  const watches = await c.em.find(
    Watch,
    { userId: user.id, mode: { $in: [WatchMode.normal, WatchMode.auto] } },
    { orderBy: { id: 'desc' } },
  );
  return reachableRepos(
    c,
    watches.map((w) => w.repoId),
    pageOf(c),
  );
}

export const listSubscriptions: Handler = async (c) => watchedBy(c, need(c.contextUser, 'user'));
export const listMySubscriptions = signedIn(async (c) => watchedBy(c, c.auth.doer));

/** This family's handlers; `routes.table.ts` names each `users.<key>`. */
export const handlers = {
  get,
  me,
  search,
  heatmap,
  activityFeeds,
  listOrgs,
  orgPermissions,
  listStarred,
  listSubscriptions,
  listMySubscriptions,
  listMyOrgs,
  listUsersOrgs: listOrgs,
} satisfies Record<string, Handler<never, never>>;
