// Actions variables of a repository, an organization or the signed-in user (Forgejo's
// routers/api/v1/{repo,org,user}/action.go over services/actions/variables.go). Each operation is
// written once and bound to the scope its route's chain loaded (SCOPES in action-secrets.ts).
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Handler, HandlerCtx } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import type { ActionVariable as ApiVariable, CreateVariableOption, UpdateVariableOption } from '../model/schemas/index.ts';
import { ActionVariable, normalizeLineBreaks, variableNameError, type IActionVariable } from '../model/action-secret.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { badRequest, conflict, HttpError } from '../lib/http/errors.ts';
import { SCOPES, type ScopeOf } from './action-secrets.ts';

const toApiVariable = (v: IActionVariable): ApiVariable => ({ owner_id: v.ownerId, repo_id: v.repoId, name: v.name, data: v.data });

const pathName = (c: HandlerCtx<unknown>) => c.params.variablename ?? '';

/** Forgejo's rule (400 with its message), then the stored upper-case form. */
function validName(name: string): string {
  const bad = variableNameError(name);
  if (bad) throw badRequest(bad);
  return name.toUpperCase();
}

const exists = (name: string) => conflict(`variable name ${name} already exists`);

async function findVariable(c: HandlerCtx<unknown>, scopeOf: ScopeOf): Promise<IActionVariable> {
  const v = await c.em.findOne(ActionVariable, { ...scopeOf(c), name: pathName(c).toUpperCase() });
  if (!v) throw new HttpError(404, 'variable not found');
  return v;
}

/** A concurrent request may take the name between our check and the write: still a 409. */
async function flushName(c: HandlerCtx<unknown>, name: string): Promise<void> {
  try {
    await c.em.flush();
  } catch (e) {
    if (e instanceof UniqueConstraintViolationException) throw exists(name);
    throw e;
  }
}

const list =
  (scopeOf: ScopeOf): Handler =>
  async (c) => {
    const p = pageOf(c);
    const [rows, total] = await c.em.findAndCount(ActionVariable, scopeOf(c), { orderBy: { id: 'asc' }, limit: p.limit, offset: p.offset });
    return json(200, rows.map(toApiVariable), pagingHeaders(c, p, total));
  };

const get =
  (scopeOf: ScopeOf): Handler =>
  async (c) =>
    json(200, toApiVariable(await findVariable(c, scopeOf)));

/** Forgejo looks for the name before validating it (409 before 400) and answers 204, not 201. */
const create =
  (scopeOf: ScopeOf): Handler<CreateVariableOption> =>
  async (c) => {
    const scope = scopeOf(c);
    const raw = pathName(c);
    if (await c.em.count(ActionVariable, { ...scope, name: raw.toUpperCase() })) throw exists(raw);
    c.em.create(ActionVariable, { ...scope, name: validName(raw), data: normalizeLineBreaks(c.body.value) });
    await flushName(c, raw);
    return noContent();
  };

/**
 * An empty or absent `name` keeps the current one. Renaming onto another variable's name is a 409
 * here; Forgejo lets the unique index fail (500).
 */
const update =
  (scopeOf: ScopeOf): Handler<UpdateVariableOption> =>
  async (c) => {
    const v = await findVariable(c, scopeOf);
    const raw = c.body.name || pathName(c);
    const name = validName(raw);
    if (name !== v.name && (await c.em.count(ActionVariable, { ownerId: v.ownerId, repoId: v.repoId, name }))) throw exists(raw);
    v.name = name;
    v.data = normalizeLineBreaks(c.body.value);
    await flushName(c, raw);
    return noContent();
  };

/** Forgejo validates the name first: an invalid one is a 400 even though it cannot exist. */
const remove =
  (scopeOf: ScopeOf): Handler =>
  async (c) => {
    validName(pathName(c));
    c.em.remove(await findVariable(c, scopeOf));
    await c.em.flush();
    return noContent();
  };

const forScope = (scopeOf: ScopeOf) => ({
  list: list(scopeOf),
  get: get(scopeOf),
  create: create(scopeOf),
  update: update(scopeOf),
  remove: remove(scopeOf),
});

export const repo = forScope(SCOPES.repo);
export const org = forScope(SCOPES.org);
export const user = forScope(SCOPES.user);

/** This family's handlers; `routes.table.ts` names each `actionVariables.<key>`. */
export const handlers = {
  repoList: repo.list,
  repoGet: repo.get,
  repoCreate: repo.create,
  repoUpdate: repo.update,
  repoRemove: repo.remove,
  orgList: org.list,
  orgGet: org.get,
  orgCreate: org.create,
  orgUpdate: org.update,
  orgRemove: org.remove,
  userList: user.list,
  userGet: user.get,
  userCreate: user.create,
  userUpdate: user.update,
  userRemove: user.remove,
} satisfies Record<string, Handler<never, never>>;
