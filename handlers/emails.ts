// E-mail addresses (Forgejo's routers/api/v1/user/email.go, admin/user.go and admin/email.go):
// a user's own list, add and delete; the admin list and delete for a user; all addresses and search.
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import type { CreateEmailOption, DeleteEmailOption } from '../model/schemas/index.ts';
import { EmailAddress, User, type IUser } from '../model/user.ts';
import { emailJson, emailsOf, isValidEmail } from '../lib/users/emails.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { notFound, unprocessable } from '../lib/http/errors.ts';
import { need, type RequestState } from '../lib/http/request.ts';
import type { QueryOf } from '../model/schemas/query.ts';

const listOf = async (s: RequestState, user: IUser) => (await emailsOf(s.em, user.id)).map((e) => emailJson(e, user));

function individual(u: IUser): IUser {
  if (u.type !== 0) throw unprocessable(`${u.name} is an organization not a user`);
  return u;
}

export const listMine = signedIn(async (c) => json(200, await listOf(c, c.auth.doer)));

/** Forgejo's AddEmailAddresses: each address valid and unused by anyone (case-insensitively), else 422. */
export const add = signedIn<CreateEmailOption>(async (c) => {
  const doer = c.auth.doer;
  const emails = c.body.emails ?? [];
  if (emails.length === 0) throw unprocessable('Email list empty');
  const seen = new Set<string>();
  for (const email of emails) {
    if (!isValidEmail(email)) throw unprocessable(`Email address "${email}" invalid`);
    const lower = email.toLowerCase();
    if (seen.has(lower) || (await c.em.count(EmailAddress, { lowerEmail: lower })) > 0)
      throw unprocessable(`Email address has been used: ${email}`);
    seen.add(lower);
  }
  // Without mail confirmation (cairn sends no mail), new addresses are activated at once, as in Forgejo.
  for (const email of emails)
    c.em.create(EmailAddress, { uid: doer.id, email, lowerEmail: email.toLowerCase(), isActivated: true, isPrimary: false });
  await c.em.flush();
  return json(201, await listOf(c, doer));
});

/** Forgejo's DeleteEmailAddresses: every address must be the user's (404) and none the primary one (422). */
async function removeFrom(c: RequestState, user: IUser, emails: string[]) {
  for (const email of emails) {
    const row = await c.em.findOne(EmailAddress, { uid: user.id, lowerEmail: email.toLowerCase() });
    if (!row) throw notFound(`email address does not exist [email: ${email}]`);
    if (row.isPrimary) throw unprocessable(`primary email address cannot be deleted [email: ${email}]`);
    c.em.remove(row);
  }
  await c.em.flush();
  return noContent();
}

export const removeMine = signedIn<DeleteEmailOption>(async (c) => removeFrom(c, c.auth.doer, c.body.emails ?? []));

export const adminListOfUser: Handler = async (c) => {
  const user = individual(need(c.contextUser, 'user'));
  return json(200, await listOf(c, user));
};

export const adminRemoveFromUser: Handler<DeleteEmailOption> = async (c) =>
  removeFrom(c, individual(need(c.contextUser, 'user')), c.body.emails ?? []);

/** Forgejo's SearchEmails (only individual users have address rows), `q` matching the address or the user's names. */
async function searchEmails(c: RequestState, keyword: string) {
  const p = pageOf(c);
  const where: Record<string, unknown> = {};
  if (keyword) {
    const like = `%${keyword.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    const owners = await c.em.find(
      User,
      { type: 0, $or: [{ lowerName: { $like: like } }, { fullName: { $ilike: like } }] },
      { fields: ['id'] },
    );
    where.$or = [{ lowerEmail: { $like: like } }, { uid: { $in: owners.map((u) => u.id) } }];
  }
  const [rows, total] = await c.em.findAndCount(EmailAddress, where, { orderBy: { id: 'asc' }, limit: p.limit, offset: p.offset });
  const owners = rows.length ? await c.em.find(User, { id: { $in: rows.map((r) => r.uid) } }) : [];
  const byId = new Map(owners.map((u) => [u.id, u]));
  return json(
    200,
    rows.map((r) => emailJson(r, byId.get(r.uid) ?? { id: r.uid, name: '' })),
    pagingHeaders(c, p, total),
  );
}

export const adminListAll: Handler = async (c) => searchEmails(c, '');
export const adminSearch: Handler<never, QueryOf<'Search'>> = async (c) => searchEmails(c, (c.q.q ?? '').trim());

/** This family's handlers; `routes.table.ts` names each `emails.<key>`. */
export const handlers = {
  listMine,
  add,
  removeMine,
  adminListOfUser,
  adminRemoveFromUser,
  adminListAll,
  adminSearch,
} satisfies Record<string, Handler<never, never>>;
