// Site administration of users (Forgejo's routers/api/v1/admin/user.go, org.go): list, create,
// edit, delete, rename, a user's organizations, and all organizations (forgejo-facts 6.2, 6.3).
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import type { CreateOrgOption, CreateUserOption, EditUserOption, RenameUserOption } from '../model/schemas/index.ts';
import { EmailAddress, User, type IUser } from '../model/user.ts';
import { createOrg, createUser } from '../lib/users/accounts.ts';
import { hashPassword } from '../lib/auth/password.ts';
import { deleteUser } from '../lib/users/delete-user.ts';
import { renameOwner } from '../lib/users/rename-owner.ts';
import { isValidEmail } from '../lib/users/emails.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { badRequest, unprocessable } from '../lib/http/errors.ts';
import { toApiOrg, toApiUser } from '../lib/users/api/user.ts';
import { need, type RequestState } from '../lib/http/request.ts';
import { userOrder } from './users.ts';
import { newOrgFrom } from './orgs.ts';
import { INT32_MAX } from '../lib/http/query-values.ts';
import type { QueryOf } from '../model/schemas/query.ts';

/** Forgejo's default [security] MIN_PASSWORD_LENGTH. */
const MIN_PASSWORD_LENGTH = 8;

const asAdmin = (s: RequestState) => ({ doer: s.auth.doer, siteAdmin: true });

function individual(u: IUser): IUser {
  if (u.type !== 0) throw unprocessable(`${u.name} is an organization not a user`);
  return u;
}

export const list: Handler<never, QueryOf<'AdminUsers'>> = async (c) => {
  const p = pageOf(c);
  const where: Record<string, unknown> = { type: 0 };
  const source = c.q.source_id ?? 0;
  if (source > 0) where.sourceId = source <= INT32_MAX ? source : -1;
  const login = (c.q.login_name ?? '').trim();
  if (login) where.loginName = login;
  const [rows, total] = await c.em.findAndCount(User, where, { orderBy: userOrder(c.q.sort), limit: p.limit, offset: p.offset });
  return json(
    200,
    rows.map((u) => toApiUser(c.config, u, asAdmin(c))),
    pagingHeaders(c, p, total),
  );
};

/** Forgejo refuses a local account whose password is shorter than MIN_PASSWORD_LENGTH (400). */
export const create: Handler<CreateUserOption> = async (c) => {
  const b = c.body;
  if (!b.source_id && (b.password ?? '').length < MIN_PASSWORD_LENGTH) throw badRequest('PasswordIsRequired');
  const user = await createUser(c.em, {
    name: b.username,
    email: b.email,
    password: b.password,
    fullName: b.full_name,
    loginName: b.login_name,
    sourceId: b.source_id,
    restricted: b.restricted,
    visibility: b.visibility || undefined,
    // Forgejo makes API-created users change their password unless told otherwise.
    mustChangePassword: b.must_change_password ?? true,
  });
  if (b.created_at) {
    const created = new Date(b.created_at);
    if (Number.isNaN(created.getTime())) throw unprocessable('[Created]: Invalid date');
    user.createdAt = created;
  }
  await c.em.flush();
  return json(201, toApiUser(c.config, user, asAdmin(c)));
};

/** Forgejo's AdminAddOrSetPrimaryEmailAddress: an address of another user is refused (400 there). */
async function setPrimaryEmail(c: RequestState, user: IUser, email: string) {
  if (email.toLowerCase() === user.email.toLowerCase()) return;
  if (!isValidEmail(email)) throw badRequest(`e-mail invalid [email: ${email}]`);
  const lower = email.toLowerCase();
  const other = await c.em.findOne(EmailAddress, { lowerEmail: lower });
  if (other && other.uid !== user.id) throw badRequest(`e-mail already in use [email: ${email}]`);
  await c.em.nativeUpdate(EmailAddress, { uid: user.id, isPrimary: true }, { isPrimary: false });
  if (other) {
    other.isPrimary = true;
    other.isActivated = true;
  } else c.em.create(EmailAddress, { uid: user.id, email, lowerEmail: lower, isActivated: true, isPrimary: true });
  user.email = email;
}

export const edit: Handler<EditUserOption> = async (c) => {
  const user = need(c.contextUser, 'user');
  const b = c.body;
  if ((b.source_id === undefined) !== (b.login_name === undefined))
    throw unprocessable('source_id and login_name must be specified together');
  if (b.password && b.password.length < MIN_PASSWORD_LENGTH)
    throw badRequest(`password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  if (b.admin === false && user.isAdmin && (await c.em.count(User, { isAdmin: true, type: 0 })) <= 1) {
    throw badRequest(`can not delete the last admin user [uid: ${user.id}]`);
  }
  if (b.email !== undefined) await setPrimaryEmail(c, user, b.email);
  if (b.password) user.passwordHash = await hashPassword(b.password);
  if (b.login_name !== undefined) user.loginName = b.login_name;
  if (b.source_id !== undefined) user.sourceId = b.source_id;
  if (b.full_name !== undefined) user.fullName = b.full_name;
  if (b.must_change_password !== undefined) user.mustChangePassword = b.must_change_password;
  if (b.website !== undefined) user.website = b.website;
  if (b.location !== undefined) user.location = b.location;
  if (b.pronouns !== undefined) user.pronouns = b.pronouns;
  if (b.description !== undefined) user.description = b.description;
  if (b.active !== undefined) user.isActive = b.active;
  if (b.admin !== undefined) user.isAdmin = b.admin;
  if (b.allow_create_organization !== undefined) user.allowCreateOrganization = b.allow_create_organization;
  if (b.hide_email !== undefined) user.keepEmailPrivate = b.hide_email;
  if (b.max_repo_creation !== undefined) user.maxRepoCreation = b.max_repo_creation;
  if (b.prohibit_login !== undefined) user.prohibitLogin = b.prohibit_login;
  if (b.restricted !== undefined) user.restricted = b.restricted;
  if (b.visibility) user.visibility = b.visibility;
  await c.em.flush();
  return json(200, toApiUser(c.config, user, asAdmin(c)));
};

/** Refuses while the user owns repositories or belongs to organizations, unless `purge`, as Forgejo does. */
export const remove: Handler<never, QueryOf<'Purge'>> = async (c) => {
  const user = individual(need(c.contextUser, 'user'));
  if (user.id === c.auth.doer?.id) throw unprocessable('you cannot delete yourself');
  await deleteUser(c.em, c.config, c.services, user, c.q.purge === true);
  return noContent();
};

/** The old name keeps redirecting (307) to the user; repositories move with the owner. */
export const rename: Handler<RenameUserOption> = async (c) => {
  const user = individual(need(c.contextUser, 'user'));
  await renameOwner(c.em, c.services, user, c.body.new_username);
  return noContent();
};

/** Forgejo's admin CreateOrg: a new organization whose first owner is `{username}`. */
export const createOrgFor: Handler<CreateOrgOption> = async (c) => {
  const owner = individual(need(c.contextUser, 'user'));
  return json(201, toApiOrg(c.config, await createOrg(c.em, owner, newOrgFrom(c.body))));
};

/** Forgejo's GetAllOrgs: every organization, by name. */
export const listOrgs: Handler = async (c) => {
  const p = pageOf(c);
  const [rows, total] = await c.em.findAndCount(
    User,
    { type: 1 },
    { orderBy: { name: 'asc', id: 'asc' }, limit: p.limit, offset: p.offset },
  );
  return json(
    200,
    rows.map((o) => toApiOrg(c.config, o)),
    pagingHeaders(c, p, total),
  );
};

/** This family's handlers; `routes.table.ts` names each `adminUsers.<key>`. */
export const handlers = {
  list,
  create,
  edit,
  remove,
  rename,
  createOrgFor,
  listOrgs,
} satisfies Record<string, Handler<never, never>>;
