// Repository listings and search. Each one is limited to what the caller can reach (lib/repos/search.ts).
import type { Handler } from '../lib/http/handler.ts';
import { json, signedIn } from '../lib/http/handler.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import {
  allOf,
  findRepos,
  orderByParam,
  ownedBy,
  ownedOrCollaborating,
  reachable,
  searchCondition,
  ORDER_BY_ID,
  type Caller,
  type Sql,
} from '../lib/repos/search.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/http/request.ts';
import { reposJson } from '../lib/repos/api/repo-json.ts';
import type { QueryOf } from '../model/schemas/query.ts';

export const callerOf = (s: RequestState): Caller => ({ doer: s.auth.doer, siteAdmin: isSiteAdmin(s), token: s.auth.token });

/** `prepared`: the condition has no keyword, so its plan is the same for any values (lib/repos/search.ts pageWithTotal). */
async function page(s: RequestState, where: Sql, order: Sql, prepared = true) {
  const p = pageOf(s);
  const { repos, total } = await findRepos(s.em, where, order, p, { keepTotal: true, prepared });
  return { data: await reposJson(s, repos), headers: pagingHeaders(s, p, total) };
}

/** `GET /repos/search`: Forgejo wraps the list as `{ok, data}` (forgejo-facts 12.2). */
export const search: Handler<never, QueryOf<'RepoSearch'>> = async (c) => {
  const { where, order } = searchCondition(callerOf(c), c.q);
  const { data, headers } = await page(c, where, order, !c.q.q?.trim());
  return json(200, { ok: true, data }, headers);
};

/** `GET /user/repos`: owned and collaborative repositories of the caller. */
export const listMine = signedIn<never, QueryOf<'MyRepos'>>(async (c) => {
  const { data, headers } = await page(
    c,
    allOf([ownedOrCollaborating(c.auth.doer.id), reachable(callerOf(c))]),
    orderByParam(c.q.order_by ?? 'name'),
  );
  return json(200, data, headers);
});

/** `GET /users/{username}/repos` and `GET /orgs/{org}/repos`: repositories the owner owns. */
export const listOfUser: Handler = async (c) => {
  const { data, headers } = await page(c, allOf([ownedBy(need(c.contextUser, 'user').id), reachable(callerOf(c))]), ORDER_BY_ID);
  return json(200, data, headers);
};

export const listOfOrg: Handler = async (c) => {
  const { data, headers } = await page(c, allOf([ownedBy(need(c.org, 'org').id), reachable(callerOf(c))]), ORDER_BY_ID);
  return json(200, data, headers);
};

/** This family's handlers; `routes.table.ts` names each `repoLists.<key>`. */
export const handlers = {
  listOfUser,
  listMine,
  listOfOrg,
  search,
} satisfies Record<string, Handler<never, never>>;
