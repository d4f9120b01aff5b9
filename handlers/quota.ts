// Quota rules, groups and usage (Forgejo's routers/api/v1/admin/quota*.go, routers/api/v1/shared/quota.go
// behind /user/quota and /orgs/{org}/quota). Errors keep Forgejo's texts: a duplicate is 409
// `rule already exists: [name: x]`, an unknown subject 422 `unrecognized quota limit subject: [subject: x]`,
// a missing group or rule in the path the default 404.
import type { Handler, HandlerCtx } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import type {
  CreateQuotaGroupOptions,
  CreateQuotaRuleOptions,
  EditQuotaRuleOptions,
  SetUserQuotaGroupsOptions,
} from '../model/schemas/index.ts';
import {
  QuotaGroup,
  QuotaGroupMapping,
  QuotaGroupRule,
  QuotaMappingKind,
  QuotaRule,
  type IQuotaGroup,
  type IQuotaRule,
} from '../model/quota.ts';
import { User, type IUser } from '../model/user.ts';
import { toApiQuotaGroup, toApiQuotaInfo, toApiQuotaRule } from '../lib/quota/api/quota.ts';
import { toApiUser } from '../lib/users/api/user.ts';
import { groupsForUser, groupsNamed, quotaUsage, withinQuota } from '../lib/quota/quota.ts';
import { parseLimitSubject, unrecognizedSubject } from '../lib/quota/rules.ts';
import { listQuotaArtifacts, listQuotaAttachments, listQuotaPackages } from '../lib/quota/lists.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { conflict, HttpError, notFound, unprocessable } from '../lib/http/errors.ts';
import { isSiteAdmin, need } from '../lib/http/request.ts';
import type { QueryOf } from '../model/schemas/query.ts';

// ---- lookups ---------------------------------------------------------------------------------

async function ruleOf(c: HandlerCtx<unknown>): Promise<IQuotaRule> {
  const rule = await c.em.findOne(QuotaRule, { name: c.params.quotarule ?? '' });
  if (!rule) throw notFound();
  return rule;
}

async function groupOf(c: HandlerCtx<unknown>): Promise<IQuotaGroup> {
  const group = await c.em.findOne(QuotaGroup, { name: c.params.quotagroup ?? '' });
  if (!group) throw notFound();
  return group;
}

/** `{username}` of the group-member routes, whose rows carry no USER loader (Forgejo's UserAssignmentAPI message). */
async function memberOf(c: HandlerCtx<unknown>): Promise<IUser> {
  const name = (c.params.username ?? '').toLowerCase();
  const user = await c.em.findOne(User, { lowerName: name });
  if (!user) throw new HttpError(404, `user redirect does not exist [name: ${name}]`);
  return user;
}

/** Canonical subject names, or Forgejo's 422 for the first it does not know. */
function subjectsOf(raw: readonly string[] | undefined): string[] {
  return (raw ?? []).map((s) => {
    const parsed = parseLimitSubject(s);
    if (!parsed) throw unprocessable(unrecognizedSubject(s));
    return parsed;
  });
}

/** Go's binding:"Required" on the option's Name. */
function requiredName(name: string | undefined): string {
  if (!name) throw unprocessable('[Name]: Required');
  return name;
}

const oneGroup = async (c: HandlerCtx<unknown>, name: string) => (await groupsNamed(c.em, [name]))[0];

// ---- rules -----------------------------------------------------------------------------------

export const listRules: Handler = async (c) => {
  const rules = await c.em.find(QuotaRule, {}, { orderBy: { name: 'asc' } });
  return json(
    200,
    rules.map((r) => toApiQuotaRule(r, true)),
  );
};

async function insertRule(c: HandlerCtx<unknown>, opts: CreateQuotaRuleOptions, limit: number): Promise<IQuotaRule> {
  const name = requiredName(opts.name);
  const subjects = subjectsOf(opts.subjects);
  if (await c.em.findOne(QuotaRule, { name })) throw conflict(`rule already exists: [name: ${name}]`);
  const rule = c.em.create(QuotaRule, { name, limit, subjects });
  await c.em.flush();
  return rule;
}

export const createRule: Handler<CreateQuotaRuleOptions> = async (c) => {
  requiredName(c.body.name);
  // Forgejo checks the limit by hand: `limit` is a pointer so that 0 can be told from "missing".
  if (c.body.limit === undefined) throw unprocessable('[Limit]: Required');
  return json(201, toApiQuotaRule(await insertRule(c, c.body, c.body.limit), true));
};

export const getRule: Handler = async (c) => json(200, toApiQuotaRule(await ruleOf(c), true));

export const editRule: Handler<EditQuotaRuleOptions> = async (c) => {
  const rule = await ruleOf(c);
  const subjects = c.body.subjects !== undefined ? subjectsOf(c.body.subjects) : null;
  if (c.body.limit !== undefined) rule.limit = c.body.limit;
  if (subjects) rule.subjects = subjects;
  await c.em.flush();
  return json(200, toApiQuotaRule(rule, true));
};

export const removeRule: Handler = async (c) => {
  const rule = await ruleOf(c);
  await c.em.nativeDelete(QuotaGroupRule, { ruleName: rule.name });
  c.em.remove(rule);
  await c.em.flush();
  return noContent();
};

// ---- groups ----------------------------------------------------------------------------------

export const listGroups: Handler = async (c) => {
  const groups = await c.em.find(QuotaGroup, {}, { orderBy: { name: 'asc' } });
  const full = await groupsNamed(
    c.em,
    groups.map((g) => g.name),
  );
  return json(
    200,
    full.map((g) => toApiQuotaGroup(g, true)),
  );
};

/**
 * Forgejo createQuotaGroupWithRules: rules that do not exist yet are created from the options (limit
 * 0 when missing); rules that exist are added as they are. All or nothing: the handler's transaction.
 */
export const createGroup: Handler<CreateQuotaGroupOptions> = async (c) => {
  const name = requiredName(c.body.name);
  if (await c.em.findOne(QuotaGroup, { name })) throw conflict(`group already exists: [name: ${name}]`);
  c.em.create(QuotaGroup, { name });
  await c.em.flush();
  for (const opts of c.body.rules ?? []) {
    const ruleName = requiredName(opts.name);
    if (!(await c.em.findOne(QuotaRule, { name: ruleName }))) await insertRule(c, opts, opts.limit ?? 0);
    await addRule(c, name, ruleName);
  }
  return json(201, toApiQuotaGroup(await oneGroup(c, name), true));
};

export const getGroup: Handler = async (c) => json(200, toApiQuotaGroup(await oneGroup(c, (await groupOf(c)).name), true));

export const removeGroup: Handler = async (c) => {
  const group = await groupOf(c);
  await c.em.nativeDelete(QuotaGroupMapping, { groupName: group.name });
  await c.em.nativeDelete(QuotaGroupRule, { groupName: group.name });
  c.em.remove(group);
  await c.em.flush();
  return noContent();
};

async function addRule(c: HandlerCtx<unknown>, groupName: string, ruleName: string): Promise<void> {
  if (await c.em.findOne(QuotaGroupRule, { groupName, ruleName }))
    throw conflict(`rule already in group: [group: ${groupName}, rule: ${ruleName}]`);
  c.em.create(QuotaGroupRule, { groupName, ruleName });
  await c.em.flush();
}

/** The group is resolved before the rule, as Forgejo's nested assignments do. */
export const putGroupRule: Handler = async (c) => {
  const group = await groupOf(c);
  const rule = await ruleOf(c);
  await addRule(c, group.name, rule.name);
  return noContent();
};

export const removeGroupRule: Handler = async (c) => {
  const group = await groupOf(c);
  const rule = await ruleOf(c);
  const link = await c.em.findOne(QuotaGroupRule, { groupName: group.name, ruleName: rule.name });
  if (!link) throw notFound();
  c.em.remove(link);
  await c.em.flush();
  return noContent();
};

// ---- group members ---------------------------------------------------------------------------

export const listGroupUsers: Handler = async (c) => {
  const group = await groupOf(c);
  const links = await c.em.find(QuotaGroupMapping, { kind: QuotaMappingKind.user, groupName: group.name });
  const users = await c.em.find(User, { id: { $in: links.map((l) => l.mappedId) } }, { orderBy: { id: 'asc' } });
  const viewer = { doer: c.auth.doer, siteAdmin: isSiteAdmin(c) };
  return json(
    200,
    users.map((u) => toApiUser(c.config, u, viewer)),
  );
};

async function addMember(c: HandlerCtx<unknown>, groupName: string, user: IUser): Promise<void> {
  const where = { kind: QuotaMappingKind.user, mappedId: user.id, groupName };
  if (await c.em.findOne(QuotaGroupMapping, where)) throw conflict(`user already in group: [group: ${groupName}, userID: ${user.id}]`);
  c.em.create(QuotaGroupMapping, where);
  await c.em.flush();
}

export const putGroupUser: Handler = async (c) => {
  const group = await groupOf(c);
  await addMember(c, group.name, await memberOf(c));
  return noContent();
};

export const removeGroupUser: Handler = async (c) => {
  const group = await groupOf(c);
  const user = await memberOf(c);
  const link = await c.em.findOne(QuotaGroupMapping, { kind: QuotaMappingKind.user, mappedId: user.id, groupName: group.name });
  if (!link) throw notFound();
  c.em.remove(link);
  await c.em.flush();
  return noContent();
};

/** Replaces the user's groups (Forgejo SetUserGroups); an unknown group is 422 and nothing changes. */
export const setUserGroups: Handler<SetUserQuotaGroupsOptions> = async (c) => {
  const user = need(c.contextUser, 'user');
  await c.em.nativeDelete(QuotaGroupMapping, { kind: QuotaMappingKind.user, mappedId: user.id });
  for (const name of c.body.groups) {
    if (!(await c.em.findOne(QuotaGroup, { name }))) throw unprocessable(`group not found: [group: ${name}]`);
    await addMember(c, name, user);
  }
  return noContent();
};

// ---- usage -----------------------------------------------------------------------------------

async function quotaInfo(c: HandlerCtx<unknown>, owner: IUser, withNames: boolean) {
  const [used, groups] = [await quotaUsage(c.em, owner.id), await groupsForUser(c.em, c.config, owner.id)];
  return json(200, toApiQuotaInfo(used, groups, withNames));
}

async function check(c: HandlerCtx<unknown, QueryOf<'QuotaCheck'>>, owner: IUser) {
  const raw = (c.q.subject ?? '').trim();
  const subject = parseLimitSubject(raw);
  if (!subject) throw unprocessable(unrecognizedSubject(raw));
  return json(200, await withinQuota(c.em, c.config, owner.id, subject));
}

type Lister = typeof listQuotaAttachments;
async function listed(c: HandlerCtx<unknown>, owner: IUser, list: Lister) {
  const p = pageOf(c);
  const { items, total } = await list(c.em, c.config, owner.id, p);
  return json(200, items, pagingHeaders(c, p, total));
}

export const adminUserQuota: Handler = async (c) => quotaInfo(c, need(c.contextUser, 'user'), true);

const doer = (c: HandlerCtx<unknown>) => {
  if (!c.auth.doer) throw new Error('chain bug: TOK before a /user route');
  return c.auth.doer;
};
export const myQuota: Handler = async (c) => quotaInfo(c, doer(c), false);
export const myQuotaCheck: Handler = async (c) => check(c, doer(c));
export const myQuotaAttachments: Handler = async (c) => listed(c, doer(c), listQuotaAttachments);
export const myQuotaPackages: Handler = async (c) => listed(c, doer(c), listQuotaPackages);
export const myQuotaArtifacts: Handler = async (c) => listed(c, doer(c), listQuotaArtifacts);

export const orgQuota: Handler = async (c) => quotaInfo(c, need(c.org, 'org'), false);
export const orgQuotaCheck: Handler = async (c) => check(c, need(c.org, 'org'));
export const orgQuotaAttachments: Handler = async (c) => listed(c, need(c.org, 'org'), listQuotaAttachments);
export const orgQuotaPackages: Handler = async (c) => listed(c, need(c.org, 'org'), listQuotaPackages);
export const orgQuotaArtifacts: Handler = async (c) => listed(c, need(c.org, 'org'), listQuotaArtifacts);

/** This family's handlers; `routes.table.ts` names each `quota.<key>`. */
export const handlers = {
  listRules,
  createRule,
  getRule,
  editRule,
  removeRule,
  listGroups,
  createGroup,
  getGroup,
  removeGroup,
  putGroupRule,
  removeGroupRule,
  listGroupUsers,
  putGroupUser,
  removeGroupUser,
  adminUserQuota,
  setUserGroups,
  myQuota,
  myQuotaCheck,
  myQuotaAttachments,
  myQuotaPackages,
  myQuotaArtifacts,
  orgQuota,
  orgQuotaCheck,
  orgQuotaAttachments,
  orgQuotaPackages,
  orgQuotaArtifacts,
} satisfies Record<string, Handler<never, never>>;
