// Repository flags (Forgejo's routers/api/v1/repo/flags.go, models/repo/repo_flags.go): free-form
// names a site administrator attaches to a repository. Forgejo checks nothing about a name; a name
// must here fit its column (1 to 255 characters) instead of failing the insert with a 500, and a
// name given twice in a replacement is stored once instead of breaking the unique index.
import type { Handler, HandlerCtx } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import { notFound, unprocessable } from '../lib/http/errors.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { need } from '../lib/http/request.ts';
import { RepoFlag } from '../model/repo-flag.ts';
import type { ReplaceFlagsOption } from '../model/schemas/index.ts';

const MAX_NAME = 255;

function flagName(name: string, field = 'Flag'): string {
  if (name === '' || [...name].length > MAX_NAME) throw unprocessable(`[${field}]: flag names must have 1 to ${MAX_NAME} characters`);
  return name;
}

const repoIdOf = (c: HandlerCtx<unknown>) => need(c.repo, 'repo').repo.id;

/** All flags, ordered by name; Forgejo sends the whole list with X-Total-Count (no paging). */
export const list: Handler = async (c) => {
  const rows = await c.em.find(RepoFlag, { repoId: repoIdOf(c) }, { orderBy: { name: 'asc' } });
  return json(
    200,
    rows.map((f) => f.name),
    pagingHeaders(c, { ...pageOf(c), page: 1, limit: Math.max(rows.length, 1) }, rows.length),
  );
};

export const replaceAll: Handler<ReplaceFlagsOption> = async (c) => {
  const repoId = repoIdOf(c);
  const names = [...new Set((c.body.flags ?? []).map((n) => flagName(n, 'Flags')))];
  await c.em.nativeDelete(RepoFlag, { repoId });
  for (const name of names) c.em.create(RepoFlag, { repoId, name });
  await c.em.flush();
  return noContent();
};

export const removeAll: Handler = async (c) => {
  await c.em.nativeDelete(RepoFlag, { repoId: repoIdOf(c) });
  return noContent();
};

export const get: Handler = async (c) => {
  const found = await c.em.count(RepoFlag, { repoId: repoIdOf(c), name: c.params.flag ?? '' });
  if (!found) throw notFound();
  return noContent();
};

/** Adding a flag that is already set changes nothing (204 as well). */
export const add: Handler = async (c) => {
  const repoId = repoIdOf(c);
  const name = flagName(c.params.flag ?? '');
  if (!(await c.em.count(RepoFlag, { repoId, name }))) {
    c.em.create(RepoFlag, { repoId, name });
    await c.em.flush();
  }
  return noContent();
};

/** Removing a flag that is not set is no error (Forgejo deletes by bean and answers 204). */
export const remove: Handler = async (c) => {
  await c.em.nativeDelete(RepoFlag, { repoId: repoIdOf(c), name: c.params.flag ?? '' });
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `flags.<key>`. */
export const handlers = {
  list,
  replaceAll,
  removeAll,
  get,
  add,
  remove,
} satisfies Record<string, Handler<never, never>>;
