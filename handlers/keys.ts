// SSH public keys of users (Forgejo's routers/api/v1/user/key.go and admin/user.go): list, get,
// add (parsed and fingerprinted with sshpk), delete; the admin variants act on `{username}`.
import type { Handler } from '../lib/handler.ts';
import { json, noContent } from '../lib/handler.ts';
import type { CreateKeyOption } from '../model/schemas/index.ts';
import { KeyType, PublicKey, type IPublicKey } from '../model/keys.ts';
import { User, type IUser } from '../model/user.ts';
import { toApiUser } from '../lib/api/user.ts';
import { fmtTime } from '../model/time.ts';
import { parseSshKey } from '../lib/ssh-keys.ts';
import { pageOf, pagingHeaders } from '../lib/paging.ts';
import { forbidden, notFound, unprocessable } from '../lib/errors.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/request.ts';
import { rowId } from '../lib/query-values.ts';
import type { HandlerCtx } from '../lib/handler.ts';
import type { QueryOf } from '../model/schemas/query.ts';

const idParam = (v: string | undefined) => rowId(v) ?? 0;

/**
 * Forgejo's ToPublicKey; the key's owner and kind are added only for the owner and site admins
 * (appendPrivateInformation). User keys always have write access, so `read_only` (omitempty) is left out.
 */
export async function keyJson(s: RequestState, key: IPublicKey, owner?: IUser) {
  const out: Record<string, unknown> = {
    id: key.id,
    key: key.content,
    url: `${s.config.appUrl}api/v1/user/keys/${key.id}`,
    title: key.name,
    fingerprint: key.fingerprint,
    created_at: fmtTime(key.createdAt),
    updated_at: fmtTime(key.updatedAt),
    verified: key.verified,
  };
  // api.PublicKey tags read_only `omitempty`, while verified is always sent.
  if (key.mode === 1) out.read_only = true;
  if (isSiteAdmin(s) || s.auth.doer?.id === key.ownerId) {
    out.key_type = key.type === KeyType.user ? 'user' : key.type === KeyType.deploy ? 'deploy' : 'unknown';
    if (key.type === KeyType.user) {
      const u = owner?.id === key.ownerId ? owner : await s.em.findOne(User, { id: key.ownerId });
      // Forgejo renders the owner as seen by the owner.
      if (u) out.user = toApiUser(s.config, u, { doer: u, siteAdmin: false });
    }
  }
  return out;
}

/** `fingerprint` filters (and then there is no paging); otherwise one page, oldest first. */
async function listFor(c: HandlerCtx<unknown, QueryOf<'Keys'>>, user: IUser) {
  const fingerprint = c.q.fingerprint ?? '';
  if (fingerprint) {
    const keys = await c.em.find(PublicKey, { ownerId: user.id, fingerprint, type: KeyType.user }, { orderBy: { id: 'asc' } });
    const out = [];
    for (const k of keys) out.push(await keyJson(c, k, user));
    return json(200, out, { 'X-Total-Count': String(keys.length) });
  }
  const p = pageOf(c);
  const [keys, total] = await c.em.findAndCount(PublicKey, { ownerId: user.id, type: KeyType.user }, { orderBy: { id: 'asc' }, limit: p.limit, offset: p.offset });
  const out = [];
  for (const k of keys) out.push(await keyJson(c, k, user));
  return json(200, out, pagingHeaders(c, p, total));
}

export const listMine: Handler = async (c) => listFor(c, c.auth.doer!);
export const listOfUser: Handler = async (c) => listFor(c, need(c.contextUser, 'user'));

/** Forgejo answers any key by id here, with the private parts only for its owner (or an admin). */
export const get: Handler = async (c) => {
  const key = await c.em.findOne(PublicKey, { id: idParam(c.params.id), type: KeyType.user });
  if (!key) throw notFound();
  return json(200, await keyJson(c, key));
};

/** Adds a key for `owner`; a fingerprint already in use or a title the owner already has is 422. */
async function addKey(c: RequestState, owner: IUser, body: CreateKeyOption) {
  const parsed = parseSshKey(body.key);
  if ((await c.em.count(PublicKey, { fingerprint: parsed.fingerprint })) > 0) throw unprocessable('Key content has been used as non-deploy key');
  if ((await c.em.count(PublicKey, { ownerId: owner.id, name: body.title, type: KeyType.user })) > 0) throw unprocessable('Key title has been used');
  const key = c.em.create(PublicKey, {
    ownerId: owner.id, name: body.title, fingerprint: parsed.fingerprint, content: parsed.content, mode: 2, type: KeyType.user,
  });
  await c.em.flush();
  return json(201, await keyJson(c, key, owner));
}

export const create: Handler<CreateKeyOption> = async (c) => addKey(c, c.auth.doer!, c.body);
export const adminCreate: Handler<CreateKeyOption> = async (c) => addKey(c, need(c.contextUser, 'user'), c.body);

/**
 * Forgejo's DeletePublicKey(actor, id): the key must be the actor's, or the actor a site admin (403).
 * The actor is the caller on /user/keys and the named user on the admin route, as in Forgejo.
 */
async function removeKey(c: RequestState, actor: IUser, actorIsAdmin: boolean) {
  const key = await c.em.findOne(PublicKey, { id: idParam(c.params.id), type: KeyType.user });
  if (!key) throw notFound();
  if (key.ownerId !== actor.id && !actorIsAdmin) throw forbidden('You do not have access to this key');
  c.em.remove(key);
  await c.em.flush();
  return noContent();
}

export const remove: Handler = async (c) => removeKey(c, c.auth.doer!, isSiteAdmin(c));
export const adminRemove: Handler = async (c) => {
  const user = need(c.contextUser, 'user');
  return removeKey(c, user, user.isAdmin);
};
