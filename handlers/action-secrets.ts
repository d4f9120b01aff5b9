// Actions secrets of a repository, an organization or the signed-in user (Forgejo's
// routers/api/v1/{repo,org,user}/action.go over services/secrets). Each operation is written once and
// bound to the scope its route's chain loaded. Values are sealed with services.secrets before they
// reach the database and are never answered: a secret on the wire is only {name, created_at}.
import type { Handler, HandlerCtx, Reply } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import type { CreateOrUpdateSecretOption } from '../model/schemas/index.ts';
import { toApiSecret } from '../lib/actions/api/actions.ts';
import { ActionSecret, normalizeLineBreaks, secretNameError, type ActionScope } from '../model/action-secret.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { badRequest, HttpError } from '../lib/http/errors.ts';
import { need } from '../lib/http/request.ts';
import { executeSql, sql } from '../model/sql.ts';

/** Reads the scope a route works in from what its chain loaded. */
export type ScopeOf = (c: HandlerCtx<unknown>) => ActionScope;

/** Forgejo keeps repository rows at owner 0, so an owner's list never picks up its repositories' rows. */
export const SCOPES = {
  repo: (c) => ({ ownerId: 0, repoId: need(c.repo, 'repo').repo.id }),
  org: (c) => ({ ownerId: need(c.org, 'org').id, repoId: 0 }),
  user: (c) => {
    if (!c.auth.doer) throw new Error('chain bug: /user actions routes run after TOK');
    return { ownerId: c.auth.doer.id, repoId: 0 };
  },
} satisfies Record<string, ScopeOf>;

/** The `{secretname}` of the path once Forgejo's rule accepts it (400 with its message otherwise). */
function secretName(c: HandlerCtx<unknown>): string {
  const name = c.params.secretname ?? '';
  const bad = secretNameError(name);
  if (bad) throw badRequest(bad);
  return name.toUpperCase();
}

/** Forgejo orders secrets by name, then id. */
const list =
  (scopeOf: ScopeOf): Handler =>
  async (c) => {
    const p = pageOf(c);
    const [rows, total] = await c.em.findAndCount(ActionSecret, scopeOf(c), {
      fields: ['name', 'createdAt'],
      orderBy: { name: 'asc', id: 'asc' },
      limit: p.limit,
      offset: p.offset,
    });
    return json(200, rows.map(toApiSecret), pagingHeaders(c, p, total));
  };

/**
 * 201 when the secret is new, 204 when its value was replaced. One statement decides, so two
 * concurrent PUTs of a new name cannot both insert (`xmax = 0` marks a row this statement inserted).
 */
const put =
  (scopeOf: ScopeOf): Handler<CreateOrUpdateSecretOption> =>
  async (c): Promise<Reply> => {
    const name = secretName(c);
    const { ownerId, repoId } = scopeOf(c);
    const sealed = c.services.secrets.seal(normalizeLineBreaks(c.body.data));
    const rows = await executeSql<{ created: boolean }>(
      c.em,
      sql`insert into action_secret (owner_id, repo_id, name, data, created_at) values (${ownerId}, ${repoId}, ${name}, ${sealed}, ${new Date()})
     on conflict (owner_id, repo_id, name) do update set data = excluded.data
     returning (xmax = 0) as created`,
    );
    return rows[0]?.created ? { status: 201 } : noContent();
  };

/** Forgejo's message leaves the name empty (ErrSecretNotFound{}); we name the secret. */
const remove =
  (scopeOf: ScopeOf): Handler =>
  async (c) => {
    const name = secretName(c);
    const deleted = await c.em.nativeDelete(ActionSecret, { ...scopeOf(c), name });
    if (deleted === 0) throw new HttpError(404, `secret was not found [name: ${name}]`);
    return noContent();
  };

const forScope = (scopeOf: ScopeOf) => ({ list: list(scopeOf), put: put(scopeOf), remove: remove(scopeOf) });

export const repo = forScope(SCOPES.repo);
export const org = forScope(SCOPES.org);
export const user = forScope(SCOPES.user);

/** This family's handlers; `routes.table.ts` names each `actionSecrets.<key>`. */
export const handlers = {
  repoList: repo.list,
  repoPut: repo.put,
  repoRemove: repo.remove,
  orgList: org.list,
  orgPut: org.put,
  orgRemove: org.remove,
  userPut: user.put,
  userRemove: user.remove,
} satisfies Record<string, Handler<never, never>>;
