// Access tokens of a user (forgejo-facts 2.9): list, create (value shown once), delete by id or name.
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import type { CreateAccessTokenOption } from '../model/schemas/index.ts';
import { AccessToken, AccessTokenRepo, type IAccessToken } from '../model/token.ts';
import { Repository } from '../model/repo.ts';
import { User } from '../model/user.ts';
import { newSalt, newTokenValue, hashToken } from '../lib/auth/tokens.ts';
import { normalizeScopes, ScopeError } from '../lib/auth/scopes.ts';
import { badRequest, notFound, unprocessable } from '../lib/http/errors.ts';
import { pageOf } from '../lib/http/paging.ts';
import { repoPermission, userPermission } from '../lib/auth/perm.ts';
import { toApiAccessToken, type ApiAccessToken } from '../lib/auth/api/token.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/http/request.ts';
import { rowId } from '../lib/http/query-values.ts';

const REPO_TOKEN_SCOPES = new Set(['read:issue', 'write:issue', 'read:repository', 'write:repository']);

/** A token on the wire: a repo-specific token lists the repositories the caller may still see. */
async function apiToken(s: RequestState, t: IAccessToken, value: string): Promise<ApiAccessToken> {
  const links = await s.em.find(AccessTokenRepo, { tokenId: t.id }, { orderBy: { repoId: 'asc' } });
  if (!links.length) return toApiAccessToken(t, value, null);
  const repos = await s.em.find(Repository, { id: { $in: links.map((l) => l.repoId) } }, { orderBy: { id: 'asc' } });
  const owners = new Map((await s.em.find(User, { id: { $in: [...new Set(repos.map((r) => r.ownerId))] } })).map((u) => [u.id, u]));
  const visible = [];
  for (const r of repos) {
    const owner = owners.get(r.ownerId);
    if (!owner) continue;
    const perm = await repoPermission(s.em, { repo: r, owner, doer: s.auth.doer, siteAdmin: isSiteAdmin(s), token: null });
    if (perm.hasAnyAccess()) visible.push({ id: r.id, name: r.name, owner: owner.name, full_name: `${owner.name}/${r.name}` });
  }
  return toApiAccessToken(t, value, visible);
}

export const list: Handler = async (c) => {
  const user = need(c.contextUser, 'user');
  const p = pageOf(c);
  const [rows, total] = await c.em.findAndCount(
    AccessToken,
    { uid: user.id },
    { orderBy: { id: 'desc' }, limit: p.limit, offset: p.offset },
  );
  const out = [];
  for (const t of rows) out.push(await apiToken(c, t, ''));
  return json(200, out, { 'X-Total-Count': String(total) });
};

export const create: Handler<CreateAccessTokenOption> = async (c) => {
  const user = need(c.contextUser, 'user');
  const body = c.body;
  let scopes: string[];
  try {
    scopes = normalizeScopes(body.scopes ?? []);
  } catch (e) {
    if (e instanceof ScopeError) throw badRequest(`invalid access token scope provided: ${e.message}`);
    throw e;
  }
  if (scopes.length === 0) throw badRequest('access token must have a scope');
  const repoIds: number[] = [];
  if (body.repositories) {
    // Spec, "Access token creation": a present but empty list must not make an all-access token.
    if (body.repositories.length === 0) throw badRequest('Access tokens with specified repositories must have at least one repository.');
    if (scopes.includes('public-only'))
      throw badRequest('Access tokens with specified repositories cannot be combined with the public-only scope.');
    if (!scopes.every((sc) => REPO_TOKEN_SCOPES.has(sc))) {
      throw badRequest(
        'Access tokens with specified repositories can only be used with the read:issue, write:issue, read:repository, and write:repository scopes.',
      );
    }
    for (const target of body.repositories) {
      const ownerName = String(target.owner ?? '');
      const name = String(target.name ?? '');
      const owner = await c.em.findOne(User, { lowerName: ownerName.toLowerCase() });
      const repo = owner && (await c.em.findOne(Repository, { ownerId: owner.id, lowerName: name.toLowerCase() }));
      const perm = repo && owner && (await userPermission(c.em, repo, owner, user));
      if (!repo || !perm || !perm.hasAnyAccess()) throw badRequest(`repository ${ownerName}/${name} does not exist`);
      if (!repoIds.includes(repo.id)) repoIds.push(repo.id);
    }
  }
  if ((await c.em.count(AccessToken, { uid: user.id, name: body.name })) > 0) throw badRequest('access token name has been used already');
  const value = newTokenValue();
  const salt = newSalt();
  const token = c.em.create(AccessToken, {
    uid: user.id,
    name: body.name,
    tokenHash: hashToken(value, salt),
    tokenSalt: salt,
    tokenLastEight: value.slice(-8),
    scope: scopes.join(','),
  });
  await c.em.flush();
  for (const repoId of repoIds) c.em.create(AccessTokenRepo, { tokenId: token.id, repoId });
  await c.em.flush();
  return json(201, await apiToken(c, token, value));
};

export const remove: Handler = async (c) => {
  const user = need(c.contextUser, 'user');
  const key = c.params.id;
  let token: IAccessToken | null = null;
  const id = rowId(key);
  if (id !== null) token = await c.em.findOne(AccessToken, { uid: user.id, id });
  if (!token) {
    const named = await c.em.find(AccessToken, { uid: user.id, name: key });
    if (named.length > 1) throw unprocessable(`multiple matches for token name '${key}'`);
    token = named[0] ?? null;
  }
  if (!token) throw notFound();
  await c.em.nativeDelete(AccessTokenRepo, { tokenId: token.id });
  c.em.remove(token);
  await c.em.flush();
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `tokens.<key>`. */
export const handlers = {
  list,
  create,
  remove,
  adminList: list,
  adminCreate: create,
  adminRemove: remove,
} satisfies Record<string, Handler<never, never>>;
