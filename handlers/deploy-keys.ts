// Deploy keys of a repository: SSH keys with read or read/write access to one repository. They are
// public_key rows of type `deploy` whose owner is the repository.
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import type { CreateKeyOption } from '../model/schemas/index.ts';
import { KeyType, PublicKey, type IPublicKey } from '../model/keys.ts';
import { parseSshKey } from '../lib/users/ssh-keys.ts';
import { notFound, unprocessable } from '../lib/http/errors.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { need, type RequestState } from '../lib/http/request.ts';
import { repoJson } from '../lib/repos/api/repo-json.ts';
import { toApiDeployKey } from '../lib/users/api/key.ts';
import { rowId } from '../lib/http/query-values.ts';
import type { QueryOf } from '../model/schemas/query.ts';

/** Deploy keys of the addressed repository; its api.Repository is converted once for all of them. */
async function deployKeysJson(s: RequestState, keys: IPublicKey[]) {
  if (keys.length === 0) return [];
  const ctx = need(s.repo, 'repo');
  const repository = await repoJson(s, ctx.repo, ctx.owner);
  return keys.map((k) => toApiDeployKey(s.config, k, ctx, repository));
}

const deployKeyJson = async (s: RequestState, key: IPublicKey) => (await deployKeysJson(s, [key]))[0]!;

const keyOf = async (s: RequestState) => {
  const id = rowId(s.params.id) ?? 0;
  const key = await s.em.findOne(PublicKey, { id, type: KeyType.deploy, ownerId: need(s.repo, 'repo').repo.id });
  if (!key) throw notFound();
  return key;
};

export const list: Handler<never, QueryOf<'RepoKeys'>> = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const p = pageOf(c);
  const where: Record<string, unknown> = { type: KeyType.deploy, ownerId: repo.id };
  const fingerprint = c.q.fingerprint;
  if (fingerprint) where.fingerprint = fingerprint;
  const [rows, total] = await c.em.findAndCount(PublicKey, where, { orderBy: { id: 'asc' }, limit: p.limit, offset: p.offset });
  return json(200, await deployKeysJson(c, rows), pagingHeaders(c, p, total));
};

export const get: Handler = async (c) => json(200, await deployKeyJson(c, await keyOf(c)));

export const create: Handler<CreateKeyOption> = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const parsed = parseSshKey(c.body.key);
  // One key serves one purpose: a user's login key cannot also be a deploy key, nor be added twice.
  const taken = await c.em.findOne(PublicKey, {
    fingerprint: parsed.fingerprint,
    $or: [{ type: KeyType.user }, { type: KeyType.deploy, ownerId: repo.id }],
  });
  if (taken)
    throw unprocessable(
      taken.type === KeyType.user ? 'Key content has been used as non-deploy key' : 'A key with the same name already exists',
    );
  if ((await c.em.count(PublicKey, { type: KeyType.deploy, ownerId: repo.id, name: c.body.title })) > 0)
    throw unprocessable('A key with the same name already exists');
  const key = c.em.create(PublicKey, {
    ownerId: repo.id,
    name: c.body.title,
    fingerprint: parsed.fingerprint,
    content: parsed.content,
    mode: c.body.read_only ? 1 : 2,
    type: KeyType.deploy,
    verified: false,
  });
  await c.em.flush();
  return json(201, await deployKeyJson(c, key));
};

export const remove: Handler = async (c) => {
  c.em.remove(await keyOf(c));
  await c.em.flush();
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `deployKeys.<key>`. */
export const handlers = {
  list,
  create,
  get,
  remove,
} satisfies Record<string, Handler<never, never>>;
