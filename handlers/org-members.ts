// Organization members and public members (Forgejo's routers/api/v1/org/member.go).
import type { Handler, HandlerCtx } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import { OrgUser } from '../model/org.ts';
import { User } from '../model/user.ts';
import { removeOrgMember } from '../lib/users/teams.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { notFound } from '../lib/http/errors.ts';
import { toApiUser } from '../lib/users/api/user.ts';
import { isOrgMember } from '../lib/auth/membership.ts';
import { isSiteAdmin, need } from '../lib/http/request.ts';

/** Forgejo's FindOrgMembers: members and site admins see every member, others the public ones. */
async function listMembers(c: HandlerCtx<never>, publicOnly: boolean) {
  const org = need(c.org, 'org');
  const p = pageOf(c);
  const where = publicOnly ? { orgId: org.id, isPublic: true } : { orgId: org.id };
  const [rows, total] = await c.em.findAndCount(OrgUser, where, { orderBy: { id: 'asc' }, limit: p.limit, offset: p.offset });
  const users = await c.em.find(User, { id: { $in: rows.map((r) => r.uid) } });
  const byId = new Map(users.map((u) => [u.id, u]));
  const viewer = { doer: c.auth.doer, siteAdmin: isSiteAdmin(c) };
  const out = rows.flatMap((r) => {
    const u = byId.get(r.uid);
    return u ? [toApiUser(c.config, u, viewer)] : [];
  });
  return json(200, out, pagingHeaders(c, p, total));
}

const seesAll = async (c: HandlerCtx<never>) =>
  isSiteAdmin(c) || (!!c.auth.doer && (await isOrgMember(c.em, need(c.org, 'org').id, c.auth.doer.id)));

export const list: Handler = async (c) => listMembers(c, !(await seesAll(c)));
export const listPublic: Handler = async (c) => listMembers(c, true);

/**
 * Forgejo's IsMember: members and site admins learn the answer (204 or 404); asking about oneself
 * as a non-member is 404; anyone else is sent to the public-membership check (303 See Other).
 */
export const isMember: Handler = async (c) => {
  const org = need(c.org, 'org');
  const user = need(c.contextUser, 'user');
  if (await seesAll(c)) {
    if (await isOrgMember(c.em, org.id, user.id)) return noContent();
    throw notFound();
  }
  if (c.auth.doer?.id === user.id) throw notFound();
  const location = `${c.config.appSubUrl}/api/v1/orgs/${encodeURIComponent(org.name)}/public_members/${encodeURIComponent(user.name)}`;
  return { status: 303, headers: { Location: location } };
};

export const isPublicMember: Handler = async (c) => {
  const n = await c.em.count(OrgUser, { orgId: need(c.org, 'org').id, uid: need(c.contextUser, 'user').id, isPublic: true });
  if (n === 0) throw notFound();
  return noContent();
};

async function setPublic(c: HandlerCtx<never>, isPublic: boolean) {
  await c.em.nativeUpdate(OrgUser, { orgId: need(c.org, 'org').id, uid: need(c.contextUser, 'user').id }, { isPublic });
  return noContent();
}

export const publicize: Handler = (c) => setPublic(c, true);
export const conceal: Handler = (c) => setPublic(c, false);

/** Removes the user from the organization and all its teams; not a member is already done. */
export const remove: Handler = async (c) => {
  await removeOrgMember(c.em, need(c.org, 'org').id, need(c.contextUser, 'user').id);
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `orgMembers.<key>`. */
export const handlers = {
  list,
  isMember,
  remove,
  listPublic,
  isPublicMember,
  publicize,
  conceal,
} satisfies Record<string, Handler<never, never>>;
