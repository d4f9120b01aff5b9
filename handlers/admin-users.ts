// Site administration of users: list, create, edit, delete (forgejo-facts 6.2 for the shape).
import type { Handler } from '../lib/handler.ts';
import { json, noContent } from '../lib/handler.ts';
import type { CreateUserOption, EditUserOption } from '../model/schemas/index.ts';
import { EmailAddress, User, type IUser } from '../model/user.ts';
import { AccessToken, AccessTokenRepo } from '../model/token.ts';
import { Collaboration, Repository } from '../model/repo.ts';
import { OrgUser, TeamUser } from '../model/org.ts';
import { createUser } from '../lib/accounts.ts';
import { hashPassword } from '../lib/password.ts';
import { deleteRepository } from '../lib/repos.ts';
import { pageOf, pagingHeaders } from '../lib/paging.ts';
import { unprocessable } from '../lib/errors.ts';
import { toApiUser } from '../model/api-user.ts';
import { need, type RequestState } from '../guards/types.ts';

const asAdmin = (s: RequestState) => ({ doer: s.auth.doer, siteAdmin: true });

export const list: Handler = async (c) => {
  const p = pageOf(c);
  const where: Record<string, unknown> = { type: 0 };
  const source = c.query.get('source_id');
  if (source && /^\d+$/.test(source)) where.sourceId = Number(source);
  const login = c.query.get('login_name');
  if (login) where.loginName = login;
  const [rows, total] = await c.em.findAndCount(User, where, { orderBy: { id: 'asc' }, limit: p.limit, offset: p.offset });
  return json(200, rows.map((u) => toApiUser(c.config, u, asAdmin(c))), pagingHeaders(c, p, total));
};

export const create: Handler<CreateUserOption> = async (c) => {
  const b = c.body;
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
  if (b.created_at) user.createdAt = new Date(b.created_at);
  await c.em.flush();
  return json(201, toApiUser(c.config, user, asAdmin(c)));
};

export const edit: Handler<EditUserOption> = async (c) => {
  const user = need(c.contextUser, 'user');
  const b = c.body;
  if (b.email !== undefined && b.email.toLowerCase() !== user.email.toLowerCase()) {
    const lower = b.email.toLowerCase();
    const other = await c.em.findOne(EmailAddress, { lowerEmail: lower });
    if (other && other.uid !== user.id) throw unprocessable(`e-mail already in use [email: ${b.email}]`);
    await c.em.nativeUpdate(EmailAddress, { uid: user.id, isPrimary: true }, { isPrimary: false });
    if (other) other.isPrimary = true;
    else c.em.create(EmailAddress, { uid: user.id, email: b.email, lowerEmail: lower, isActivated: true, isPrimary: true });
    user.email = b.email;
  }
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

/** Refuses while the user owns repositories (unless `purge`) or belongs to organizations, as Forgejo does. */
export const remove: Handler = async (c) => {
  const user = need(c.contextUser, 'user');
  if (user.type !== 0) throw unprocessable(`user does not exist [name: ${user.name}]`);
  if (user.id === c.auth.doer?.id) throw unprocessable('you cannot delete yourself');
  const purge = c.query.get('purge') === 'true';
  const repos = await c.em.find(Repository, { ownerId: user.id });
  if (repos.length && !purge) throw unprocessable(`user still has ownership of repositories [uid: ${user.id}]`);
  if (!purge && (await c.em.count(OrgUser, { uid: user.id })) > 0) throw unprocessable(`user still has membership of organizations [uid: ${user.id}]`);
  for (const r of repos) await deleteRepository(c.em, c.services, r, user);
  await purgeUserRows(c.em, user);
  return noContent();
};

async function purgeUserRows(em: RequestState['em'], user: IUser) {
  const tokens = await em.find(AccessToken, { uid: user.id });
  if (tokens.length) await em.nativeDelete(AccessTokenRepo, { tokenId: { $in: tokens.map((t) => t.id) } });
  await em.nativeDelete(AccessToken, { uid: user.id });
  await em.nativeDelete(EmailAddress, { uid: user.id });
  await em.nativeDelete(Collaboration, { userId: user.id });
  await em.nativeDelete(TeamUser, { uid: user.id });
  await em.nativeDelete(OrgUser, { uid: user.id });
  em.remove(user);
  await em.flush();
}
