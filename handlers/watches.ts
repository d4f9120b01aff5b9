// Watching a repository (Forgejo routers/api/v1/repo/subscriber.go, user/watch.go).
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import { Watch } from '../model/star.ts';
import { User } from '../model/user.ts';
import type { IRepository } from '../model/repo.ts';
import type { IUser } from '../model/user.ts';
import { notFound } from '../lib/http/errors.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { WATCHING, isWatching, setWatch } from '../lib/repos/social.ts';
import { toApiUser } from '../lib/users/api/user.ts';
import { toApiWatchInfo } from '../lib/repos/api/watch.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/http/request.ts';

function watchInfo(s: RequestState, repo: IRepository, owner: IUser) {
  const url = `${s.config.appUrl}api/v1/repos/${owner.name}/${repo.name}`;
  return toApiWatchInfo(true, repo.createdAt, `${url}/subscription`, url);
}

export const subscribers: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const p = pageOf(c);
  const [rows, total] = await c.em.findAndCount(
    Watch,
    { repoId: repo.id, mode: { $in: WATCHING } },
    { orderBy: { id: 'asc' }, limit: p.limit, offset: p.offset },
  );
  const users = rows.length ? await c.em.find(User, { id: { $in: rows.map((w) => w.userId) } }) : [];
  const viewer = { doer: c.auth.doer, siteAdmin: isSiteAdmin(c) };
  const out = rows
    .map((w) => users.find((u) => u.id === w.userId))
    .filter((u) => u !== undefined)
    .map((u) => toApiUser(c.config, u, viewer));
  return json(200, out, pagingHeaders(c, p, total));
};

export const get = signedIn(async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  if (!(await isWatching(c.em, c.auth.doer.id, repo.id))) throw notFound();
  return json(200, watchInfo(c, repo, owner));
});

export const put = signedIn(async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  await setWatch(c.em, c.auth.doer.id, repo, true);
  return json(200, watchInfo(c, repo, owner));
});

export const remove = signedIn(async (c) => {
  await setWatch(c.em, c.auth.doer.id, need(c.repo, 'repo').repo, false);
  return noContent();
});

/** This family's handlers; `routes.table.ts` names each `watches.<key>`. */
export const handlers = {
  subscribers,
  get,
  put,
  remove,
} satisfies Record<string, Handler<never, never>>;
