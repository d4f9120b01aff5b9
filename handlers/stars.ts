// Stars (Forgejo routers/api/v1/user/star.go, repo/star.go).
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import { Star } from '../model/star.ts';
import { User } from '../model/user.ts';
import { notFound } from '../lib/http/errors.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { allOf, findRepos, reachable, starredBy } from '../lib/repos/search.ts';
import { setStar } from '../lib/repos/social.ts';
import { sql } from '../model/sql.ts';
import { toApiUser } from '../lib/users/api/user.ts';
import { isSiteAdmin, need } from '../lib/http/request.ts';
import { reposJson } from '../lib/repos/api/repo-json.ts';
import { callerOf } from './repo-lists.ts';

/** `GET /user/starred`: the caller's starred repositories it can still reach, newest star first. */
export const listMine = signedIn(async (c) => {
  const uid = c.auth.doer.id;
  const p = pageOf(c);
  const order = sql`(select s.id from star s where s.repo_id = r.id and s.uid = ${uid}) desc`;
  const { repos, total } = await findRepos(c.em, allOf([starredBy(uid), reachable(callerOf(c))]), order, p);
  return json(200, await reposJson(c, repos), pagingHeaders(c, p, total));
});

export const isStarring = signedIn(async (c) => {
  const { repo } = need(c.repo, 'repo');
  if ((await c.em.count(Star, { uid: c.auth.doer.id, repoId: repo.id })) === 0) throw notFound();
  return noContent();
});

export const star = signedIn(async (c) => {
  await setStar(c.em, c.auth.doer.id, need(c.repo, 'repo').repo, true);
  return noContent();
});

export const unstar = signedIn(async (c) => {
  await setStar(c.em, c.auth.doer.id, need(c.repo, 'repo').repo, false);
  return noContent();
});

/** `GET {R}/stargazers`. */
export const stargazers: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const p = pageOf(c);
  const [stars, total] = await c.em.findAndCount(Star, { repoId: repo.id }, { orderBy: { id: 'asc' }, limit: p.limit, offset: p.offset });
  const users = stars.length ? await c.em.find(User, { id: { $in: stars.map((s) => s.uid) } }) : [];
  const viewer = { doer: c.auth.doer, siteAdmin: isSiteAdmin(c) };
  const out = stars
    .map((s) => users.find((u) => u.id === s.uid))
    .filter((u) => u !== undefined)
    .map((u) => toApiUser(c.config, u, viewer));
  return json(200, out, pagingHeaders(c, p, total));
};

/** This family's handlers; `routes.table.ts` names each `stars.<key>`. */
export const handlers = {
  listMine,
  isStarring,
  star,
  unstar,
  stargazers,
} satisfies Record<string, Handler<never, never>>;
