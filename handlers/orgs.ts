// Organizations: list, create, read, edit, delete, rename, avatar, activity feed and blocked users
// (Forgejo's routers/api/v1/org/org.go and avatar.go; forgejo-facts 6.3).
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import type { CreateOrgOption, EditOrgOption, RenameOrgOption, UpdateUserAvatarOption } from '../model/schemas/index.ts';
import { User, type IUser, type Visibility } from '../model/user.ts';
import { OrgUser } from '../model/org.ts';
import { createOrg, type NewOrg } from '../lib/users/accounts.ts';
import { renameOwner } from '../lib/users/rename-owner.ts';
import { deleteOrg } from '../lib/users/delete-org.ts';
import { decodeAvatar, deleteAvatar, storeAvatar } from '../lib/users/avatar-store.ts';
import { blockUser, listBlocked, unblockUser } from '../lib/users/blocks.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { unprocessable } from '../lib/http/errors.ts';
import { toApiOrg } from '../lib/users/api/user.ts';
import { isSiteAdmin, need } from '../lib/http/request.ts';
import { orgFeed } from './activities.ts';
import type { QueryOf } from '../model/schemas/query.ts';

/** The fields of a CreateOrgOption, for `POST /orgs` and the admin's `POST /admin/users/{username}/orgs`. */
export function newOrgFrom(b: CreateOrgOption): NewOrg {
  return {
    name: b.username,
    fullName: b.full_name,
    email: b.email,
    description: b.description,
    website: b.website,
    location: b.location,
    visibility: b.visibility || undefined,
    repoAdminChangeTeamAccess: b.repo_admin_change_team_access,
  };
}

export const create = signedIn<CreateOrgOption>(async (c) =>
  json(201, toApiOrg(c.config, await createOrg(c.em, c.auth.doer, newOrgFrom(c.body)))),
);

/**
 * Forgejo's GetAll: public organizations for everyone; signed-in callers (not with a public-only
 * token) also see limited ones, site admins private ones too. A restricted user sees only the
 * organizations they belong to. Sorted by name.
 */
export const list: Handler = async (c) => {
  const p = pageOf(c);
  const doer = c.auth.doer;
  const visible: Visibility[] = ['public'];
  if (doer && !c.auth.token?.publicOnly) {
    visible.push('limited');
    if (isSiteAdmin(c)) visible.push('private');
  }
  const where: Record<string, unknown> = { type: 1, visibility: { $in: visible } };
  if (doer?.restricted && !isSiteAdmin(c)) {
    where.id = { $in: (await c.em.find(OrgUser, { uid: doer.id })).map((m) => m.orgId) };
  }
  const [rows, total] = await c.em.findAndCount(User, where, { orderBy: { lowerName: 'asc' }, limit: p.limit, offset: p.offset });
  return json(
    200,
    rows.map((o) => toApiOrg(c.config, o)),
    pagingHeaders(c, p, total),
  );
};

/** Forgejo hides the e-mail address from anonymous callers. */
export const get: Handler = async (c) => {
  const org = toApiOrg(c.config, need(c.org, 'org'));
  return json(200, c.auth.doer ? org : { ...org, email: '' });
};

/** Only the fields the body carries change (Forgejo would also blank absent strings). */
export const edit: Handler<EditOrgOption> = async (c) => {
  const org = need(c.org, 'org');
  const b = c.body;
  if (b.email !== undefined) org.email = b.email;
  if (b.full_name !== undefined) org.fullName = b.full_name;
  if (b.description !== undefined) org.description = b.description;
  if (b.website !== undefined) org.website = b.website;
  if (b.location !== undefined) org.location = b.location;
  if (b.visibility) org.visibility = b.visibility;
  if (b.repo_admin_change_team_access !== undefined) org.repoAdminChangeTeamAccess = b.repo_admin_change_team_access;
  await c.em.flush();
  return json(200, toApiOrg(c.config, org));
};

/** Forgejo's DeleteOrganization refuses while the organization owns repositories (ErrUserOwnRepos). */
export const remove: Handler = async (c) => {
  await deleteOrg(c.em, c.config, need(c.org, 'org'));
  return noContent();
};

export const rename: Handler<RenameOrgOption> = async (c) => {
  await renameOwner(c.em, c.services, need(c.org, 'org'), c.body.new_name);
  return noContent();
};

export const updateAvatar: Handler<UpdateUserAvatarOption> = async (c) => {
  const org = need(c.org, 'org');
  const data = decodeAvatar(c.body.image);
  const old = org.avatar;
  org.avatar = await storeAvatar(c.config, org.id, data);
  await c.em.flush();
  if (old && old !== org.avatar) await deleteAvatar(c.config, old);
  return noContent();
};

export const deleteAvatarOf: Handler = async (c) => {
  const org = need(c.org, 'org');
  const old = org.avatar;
  org.avatar = '';
  await c.em.flush();
  if (old) await deleteAvatar(c.config, old);
  return noContent();
};

export const activityFeeds: Handler<never, QueryOf<'Feeds'>> = async (c) => orgFeed(c, need(c.org, 'org'));

export const listBlockedUsers: Handler = async (c) => {
  const p = pageOf(c);
  const { items, total } = await listBlocked(c.em, need(c.org, 'org').id, p);
  return json(200, items, pagingHeaders(c, p, total));
};

function notAnOrg(u: IUser): IUser {
  if (u.type !== 0) throw unprocessable(`${u.name} is an organization not a user`);
  return u;
}

export const block: Handler = async (c) => {
  await blockUser(c.em, need(c.org, 'org'), notAnOrg(need(c.contextUser, 'user')));
  return noContent();
};

export const unblock: Handler = async (c) => {
  await unblockUser(c.em, need(c.org, 'org'), notAnOrg(need(c.contextUser, 'user')));
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `orgs.<key>`. */
export const handlers = {
  create,
  get,
  list,
  edit,
  remove,
  rename,
  updateAvatar,
  deleteAvatarOf,
  activityFeeds,
  listBlockedUsers,
  block,
  unblock,
} satisfies Record<string, Handler<never, never>>;
