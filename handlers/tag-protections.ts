// Tag protection rules: list, get, create, edit, delete (Forgejo routers/api/v1/repo/tag.go,
// services/convert ToTagProtection).
import type { EntityManager } from '@mikro-orm/core';
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import type { CreateTagProtectionOption, EditTagProtectionOption } from '../model/schemas/index.ts';
import { ProtectedTag, type IProtectedTag } from '../model/branch-protection.ts';
import { tagProtectionsToApi } from '../lib/repos/api/protection.ts';
import { badRequest, conflict403, notFound, unprocessable } from '../lib/http/errors.ts';
import { teamIds, writerIds } from '../lib/repos/allowlists.ts';
import { tagPattern } from '../lib/repos/branch-rules.ts';
import { need, type RequestState } from '../lib/http/request.ts';
import { rowId } from '../lib/http/query-values.ts';

const protectionJson = async (em: EntityManager, t: IProtectedTag) => (await tagProtectionsToApi(em, [t]))[0]!;

function checkPattern(pattern: string): void {
  if (tagPattern(pattern) === null) throw unprocessable(`invalid name pattern [pattern: ${pattern}]`);
}

export const list: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const rows = await c.em.find(ProtectedTag, { repoId: repo.id }, { orderBy: { id: 'asc' } });
  return json(200, await tagProtectionsToApi(c.em, rows));
};

async function byId(c: RequestState): Promise<IProtectedTag> {
  const { repo } = need(c.repo, 'repo');
  const id = rowId(c.params.id) ?? 0;
  const row = id > 0 ? await c.em.findOne(ProtectedTag, { id, repoId: repo.id }) : null;
  if (!row) throw notFound();
  return row;
}

export const get: Handler = async (c) => json(200, await protectionJson(c.em, await byId(c)));

export const create: Handler<CreateTagProtectionOption> = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  const b = c.body;
  const pattern = (b.name_pattern ?? '').trim();
  if (pattern === '') throw badRequest('name_pattern are empty');
  if (!b.whitelist_usernames?.length && !b.whitelist_teams?.length)
    throw badRequest('both whitelist_usernames and whitelist_teams are empty');
  if (await c.em.findOne(ProtectedTag, { repoId: repo.id, namePattern: pattern })) throw conflict403('Tag protection already exist');
  checkPattern(pattern);
  const row = c.em.create(ProtectedTag, {
    repoId: repo.id,
    namePattern: pattern,
    allowlistUserIds: await writerIds(c.em, repo, owner, b.whitelist_usernames ?? []),
    allowlistTeamIds: await teamIds(c.em, repo, owner, b.whitelist_teams ?? []),
  });
  await c.em.flush();
  return json(201, await protectionJson(c.em, row));
};

export const edit: Handler<EditTagProtectionOption> = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  const row = await byId(c);
  const b = c.body;
  if (b.name_pattern !== undefined) {
    checkPattern(b.name_pattern.trim());
    row.namePattern = b.name_pattern.trim();
  }
  if (b.whitelist_teams !== undefined) row.allowlistTeamIds = await teamIds(c.em, repo, owner, b.whitelist_teams);
  if (b.whitelist_usernames !== undefined) row.allowlistUserIds = await writerIds(c.em, repo, owner, b.whitelist_usernames);
  row.updatedAt = new Date();
  await c.em.flush();
  return json(200, await protectionJson(c.em, row));
};

export const remove: Handler = async (c) => {
  const row = await byId(c);
  c.em.remove(row);
  await c.em.flush();
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `tagProtections.<key>`. */
export const handlers = {
  list,
  get,
  create,
  edit,
  remove,
} satisfies Record<string, Handler<never, never>>;
