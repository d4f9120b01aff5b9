// SSH public keys of users (Forgejo's routers/api/v1/user/key.go and admin/user.go): list, get,
// add (parsed and fingerprinted with sshpk), delete; the admin variants act on `{username}`.
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import type { CreateKeyOption } from '../model/schemas/index.ts';
import { KeyType, PublicKey, type IPublicKey } from '../model/keys.ts';
import { User, type IUser } from '../model/user.ts';
import { toApiPublicKey } from '../lib/users/api/key.ts';
import { parseSshKey } from '../lib/users/ssh-keys.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { unprocessable } from '../lib/http/errors.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/http/request.ts';
import type { HandlerCtx } from '../lib/http/handler.ts';
import type { QueryOf } from '../model/schemas/query.ts';

/** api.PublicKey of `key`; its owner is read unless given (the listed user). */
export async function keyJson(s: RequestState, key: IPublicKey, owner?: IUser) {
  const privileged = isSiteAdmin(s) || s.auth.doer?.id === key.ownerId;
  const u =
    !privileged || key.type !== KeyType.user ? null : owner?.id === key.ownerId ? owner : await s.em.findOne(User, { id: key.ownerId });
  return toApiPublicKey(s.config, key, privileged, u);
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
  const [keys, total] = await c.em.findAndCount(
    PublicKey,
    { ownerId: user.id, type: KeyType.user },
    { orderBy: { id: 'asc' }, limit: p.limit, offset: p.offset },
  );
  const out = [];
  for (const k of keys) out.push(await keyJson(c, k, user));
  return json(200, out, pagingHeaders(c, p, total));
}

export const listMine = signedIn(async (c) => listFor(c, c.auth.doer));
export const listOfUser: Handler = async (c) => listFor(c, need(c.contextUser, 'user'));

/** Forgejo answers any key by id here, with the private parts only for its owner (or an admin). */
export const get: Handler = async (c) => json(200, await keyJson(c, need(c.key, 'key')));

/** Adds a key for `owner`; a fingerprint already in use or a title the owner already has is 422. */
async function addKey(c: RequestState, owner: IUser, body: CreateKeyOption) {
  const parsed = parseSshKey(body.key);
  if ((await c.em.count(PublicKey, { fingerprint: parsed.fingerprint })) > 0)
    throw unprocessable('Key content has been used as non-deploy key');
  if ((await c.em.count(PublicKey, { ownerId: owner.id, name: body.title, type: KeyType.user })) > 0)
    throw unprocessable('Key title has been used');
  const key = c.em.create(PublicKey, {
    ownerId: owner.id,
    name: body.title,
    fingerprint: parsed.fingerprint,
    content: parsed.content,
    mode: 2,
    type: KeyType.user,
  });
  await c.em.flush();
  return json(201, await keyJson(c, key, owner));
}

export const create = signedIn<CreateKeyOption>(async (c) => addKey(c, c.auth.doer, c.body));
export const adminCreate: Handler<CreateKeyOption> = async (c) => addKey(c, need(c.contextUser, 'user'), c.body);

/** Forgejo's DeletePublicKey: KEY loaded the key and KEY_OWNER decided who may. */
export const remove: Handler = async (c) => {
  c.em.remove(need(c.key, 'key'));
  await c.em.flush();
  return noContent();
};
export const adminRemove = remove;

/** This family's handlers; `routes.table.ts` names each `keys.<key>`. */
export const handlers = {
  listOfUser,
  listMine,
  get,
  create,
  remove,
  adminCreate,
  adminRemove,
} satisfies Record<string, Handler<never, never>>;
