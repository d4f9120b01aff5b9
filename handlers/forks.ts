// Forks and fork sync (Forgejo routers/api/v1/repo/fork.go, sync_fork.go).
import { emitRefChanges, refSnapshot } from '../lib/transport/push-events.ts';
import { emitEvents } from '../lib/activity/events.ts';
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import type { CreateForkOption } from '../model/schemas/index.ts';
import { User } from '../model/user.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { allOf, findRepos, forksOf, reachable, ORDER_BY_ID } from '../lib/repos/search.ts';
import { forkRepository, syncFork, syncInfo } from '../lib/repos/forks.ts';
import { need } from '../lib/http/request.ts';
import { repoJson, reposJson } from '../lib/repos/api/repo-json.ts';
import { callerOf } from './repo-lists.ts';

export const list: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const p = pageOf(c);
  const { repos, total } = await findRepos(c.em, allOf([forksOf(repo.id), reachable(callerOf(c))]), ORDER_BY_ID, p);
  return json(200, await reposJson(c, repos), pagingHeaders(c, p, total));
};

/** 202 with the fork, as Forgejo answers. The FORK_TARGET guard has vetted `organization`. */
export const create = signedIn<CreateForkOption>(async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  const doer = c.auth.doer;
  const forker = c.body.organization ? await c.em.findOneOrFail(User, { lowerName: c.body.organization.toLowerCase() }) : doer;
  const fork = await forkRepository(c.em, c.config, c.services, doer, repo, owner, forker, c.body.name || repo.name);
  await emitEvents(c.em, c, [
    { name: 'fork', repo, sender: doer, fork },
    { name: 'repository', repo: fork, sender: doer, action: 'created' },
  ]);
  return json(202, await repoJson(c, fork, forker));
});

const branchOf = (c: Parameters<Handler>[0]) => c.params.branch ?? need(c.repo, 'repo').repo.defaultBranch;

export const getSync: Handler = async (c) => {
  const { base: _base, ...info } = await syncInfo(c.em, c.services, need(c.repo, 'repo').repo, branchOf(c));
  return json(200, info);
};

export const sync: Handler = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  const repoPath = c.services.repoPath(owner.name, repo.name);
  const refsBefore = await refSnapshot(repoPath);
  await syncFork(c.em, c.services, repo, branchOf(c));
  await emitRefChanges(c.em, c, repo, c.auth.doer!, repoPath, refsBefore);
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `forks.<key>`. */
export const handlers = {
  list,
  create,
  getSync,
  sync,
  getBranchSync: getSync,
  syncBranch: sync,
} satisfies Record<string, Handler<never, never>>;
