// Actions runners of a repository, a user, an organization or the instance (Forgejo's
// routers/api/v1/shared/runners.go): registration, registration tokens, listing with the visibility
// rules, lookup, deletion, and the jobs waiting for a runner. The chains decided who may call.
import type { FilterQuery } from '@mikro-orm/core';
import type { Handler, HandlerCtx } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import type { RegisterRunnerOptions } from '../model/schemas/index.ts';
import { ActionRunJob, ActionRunner, type IActionRunJob } from '../model/actions.ts';
import { toApiRunJob, toApiRunner } from '../lib/actions/api/actions.ts';
import {
  loadRunner,
  registerRunner,
  registrationToken,
  runnerEditable,
  runnerWhere,
  runsOnLabels,
  type RunnerScope,
} from '../lib/actions/actions.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { notFound } from '../lib/http/errors.ts';
import { need, type RequestState } from '../lib/http/request.ts';
import type { QueryOf } from '../model/schemas/query.ts';

type ScopeOf = (c: RequestState) => RunnerScope;

const repoScope: ScopeOf = (c) => {
  const { repo } = need(c.repo, 'repo');
  return { ownerId: 0, repoId: repo.id, repoOwnerId: repo.ownerId };
};
const orgScope: ScopeOf = (c) => ({ ownerId: need(c.org, 'org').id, repoId: 0 });
const userScope: ScopeOf = (c) => ({ ownerId: c.auth.doer?.id ?? 0, repoId: 0 });
const instanceScope: ScopeOf = () => ({ ownerId: 0, repoId: 0 });

function listRunners(scopeOf: ScopeOf): Handler<never, QueryOf<'Runners'>> {
  return async (c) => {
    const where = runnerWhere(scopeOf(c), c.q.visible === true);
    const p = pageOf(c);
    const [rows, total] = await c.em.findAndCount(ActionRunner, where, {
      orderBy: { lastOnline: 'desc nulls last', id: 'asc' },
      limit: p.limit,
      offset: p.offset,
    });
    return json(200, rows.map(toApiRunner), pagingHeaders(c, p, total));
  };
}

function getRunner(scopeOf: ScopeOf): Handler {
  return async (c) => json(200, toApiRunner(await loadRunner(c.em, scopeOf(c), c.params.runner_id)));
}

/** A runner visible from the scope but owned above it (the instance's, say) is absent for deletion too. */
function removeRunner(scopeOf: ScopeOf): Handler {
  return async (c) => {
    const scope = scopeOf(c);
    const runner = await loadRunner(c.em, scope, c.params.runner_id);
    if (!runnerEditable(runner, scope)) throw notFound();
    await c.em.nativeDelete(ActionRunner, { id: runner.id });
    return noContent();
  };
}

function createRunner(scopeOf: ScopeOf): Handler<RegisterRunnerOptions> {
  return async (c: HandlerCtx<RegisterRunnerOptions>) => {
    const { runner, token } = await registerRunner(c.em, scopeOf(c), {
      name: c.body.name,
      description: c.body.description,
      ephemeral: c.body.ephemeral,
    });
    // The answer does not echo `ephemeral` (spec, runner registration).
    return json(201, { id: runner.id, uuid: runner.uuid, token });
  };
}

function getRegistrationToken(scopeOf: ScopeOf): Handler {
  return async (c) => json(200, { token: await registrationToken(c.em, scopeOf(c)) });
}

/**
 * Jobs waiting for or held by a runner (Forgejo's GetActionRunJobs). `labels` is a comma list: without
 * it every job is listed, with it only jobs whose labels are all among the given ones; an empty
 * `labels` lists the jobs that ask for no label.
 */
function listRunnerJobs(scopeOf: ScopeOf): Handler<never, QueryOf<'RunnerJobs'>> {
  return async (c) => {
    const scope = scopeOf(c);
    const where: FilterQuery<IActionRunJob> = { status: { $in: ['waiting', 'running'] } };
    if (scope.repoId) where.repoId = scope.repoId;
    if (scope.ownerId) where.ownerId = scope.ownerId;
    const labels = c.q.labels !== undefined ? c.q.labels.trim().split(',') : null;
    const jobs = await c.em.find(ActionRunJob, where, { orderBy: { id: 'asc' } });
    return json(200, jobs.filter((j) => runsOnLabels(j, labels)).map(toApiRunJob));
  };
}

export const repoList = listRunners(repoScope);
export const repoGet = getRunner(repoScope);
export const repoRemove = removeRunner(repoScope);
export const repoCreate = createRunner(repoScope);
export const repoToken = getRegistrationToken(repoScope);
export const repoJobs = listRunnerJobs(repoScope);

export const orgList = listRunners(orgScope);
export const orgGet = getRunner(orgScope);
export const orgRemove = removeRunner(orgScope);
export const orgCreate = createRunner(orgScope);
export const orgToken = getRegistrationToken(orgScope);
export const orgJobs = listRunnerJobs(orgScope);

export const userList = listRunners(userScope);
export const userGet = getRunner(userScope);
export const userRemove = removeRunner(userScope);
export const userCreate = createRunner(userScope);
export const userToken = getRegistrationToken(userScope);
export const userJobs = listRunnerJobs(userScope);

export const adminList = listRunners(instanceScope);
export const adminGet = getRunner(instanceScope);
export const adminRemove = removeRunner(instanceScope);
export const adminCreate = createRunner(instanceScope);
export const adminToken = getRegistrationToken(instanceScope);
export const adminJobs = listRunnerJobs(instanceScope);

/** This family's handlers; `routes.table.ts` names each `actionsRunners.<key>`. */
export const handlers = {
  repoList,
  repoCreate,
  repoToken,
  repoGet,
  repoRemove,
  repoJobs,
  orgList,
  orgCreate,
  orgToken,
  orgGet,
  orgRemove,
  orgJobs,
  userList,
  userCreate,
  userToken,
  userGet,
  userRemove,
  userJobs,
  adminList,
  adminCreate,
  adminToken,
  legacyAdminToken: adminToken,
  adminGet,
  adminRemove,
  adminJobs,
  legacyAdminJobs: adminJobs,
} satisfies Record<string, Handler<never, never>>;
