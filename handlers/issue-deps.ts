// Issue dependencies (Forgejo's routers/api/v1/repo/issue_dependency.go, models/issues/dependency.go).
// A row says `issue` depends on (is blocked by) `dependency`. The `{index}/dependencies` routes take
// the path issue as the dependent one ("target") and the body's IssueMeta as its dependency; the
// `{index}/blocks` routes take them the other way round. Either side may live in another repository
// the caller can reach (Forgejo's ALLOW_CROSS_REPOSITORY_DEPENDENCIES, on by default).
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Handler } from '../lib/http/handler.ts';
import { json } from '../lib/http/handler.ts';
import type { IssueMeta } from '../model/schemas/index.ts';
import { CommentType, Issue, IssueDependency, type IIssue } from '../model/issue.ts';
import { issueToApi, issuesToApi } from '../lib/issues/api/issue.ts';
import { addComment, canReadIssue } from '../lib/issues/issues.ts';
import { permissionsOf, trackerConfig } from '../lib/issues/tracker.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { conflict, notFound, unprocessable } from '../lib/http/errors.ts';
import { isSiteAdmin, need, type LoadedRepo, type RequestState } from '../lib/http/request.ts';
import { executeSql, sql } from '../model/sql.ts';

/** An issue with the repository it lives in, as the caller sees that repository. */
interface Side {
  issue: IIssue;
  at: LoadedRepo;
}

const readable = (c: RequestState, s: Side) => canReadIssue({ repo: s.at, auth: c.auth }, s.issue);
const viewer = (c: RequestState) => ({ doer: c.auth.doer, siteAdmin: isSiteAdmin(c) });

const pathSide = (c: RequestState): Side => ({ issue: need(c.issue, 'issue'), at: need(c.repo, 'repo') });
/** The issue the body names (DEPENDENCY; DEPENDENCY_MANAGER decided who may change the dependent side). */
const bodySide = (c: RequestState): Side => need(c.dependency, 'dependency');

const dependencyExists = (c: RequestState, issueId: number, dependencyId: number) =>
  c.em.count(IssueDependency, { issueId, dependencyId }).then((n) => n > 0);

/** Whether `from` already depends, directly or through other issues, on `to`. */
async function dependsOn(c: RequestState, from: number, to: number): Promise<boolean> {
  const rows = await executeSql(
    c.em,
    sql`with recursive chain(id) as (
       select dependency_id from issue_dependency where issue_id = ${from}
       union
       select d.dependency_id from issue_dependency d join chain on d.issue_id = chain.id
     ) select 1 from chain where id = ${to} limit 1`,
  );
  return rows.length > 0;
}

/** Forgejo's CreateIssueDependency, refusing a self-dependency and cycles of any length. */
async function link(c: RequestState, target: Side, dependency: Side): Promise<void> {
  const [t, d] = [target.issue.id, dependency.issue.id];
  if (t === d) throw unprocessable('You cannot make an issue depend on itself.');
  if (await dependencyExists(c, t, d)) throw conflict(`issue dependency does already exist [issue id: ${t}, dependency id: ${d}]`);
  if (await dependencyExists(c, d, t))
    throw conflict(`circular dependencies exists (two issues blocking each other) [issue id: ${t}, dependency id: ${d}]`);
  if (await dependsOn(c, d, t)) throw conflict(`circular dependencies exists [issue id: ${t}, dependency id: ${d}]`);
  c.em.create(IssueDependency, { userId: need(c.auth.doer ?? undefined, 'user').id, issueId: t, dependencyId: d, createdAt: new Date() });
  try {
    await c.em.flush();
  } catch (e) {
    if (e instanceof UniqueConstraintViolationException)
      throw conflict(`issue dependency does already exist [issue id: ${t}, dependency id: ${d}]`);
    throw e;
  }
  await recordOnBoth(c, target.issue, dependency.issue, CommentType.addDependency);
}

async function unlink(c: RequestState, target: Side, dependency: Side): Promise<void> {
  const [t, d] = [target.issue.id, dependency.issue.id];
  const removed = await c.em.nativeDelete(IssueDependency, { issueId: t, dependencyId: d });
  if (removed === 0) throw notFound(undefined, [`issue dependency does not exist [issue id: ${t}, dependency id: ${d}]`]);
  await recordOnBoth(c, target.issue, dependency.issue, CommentType.removeDependency);
}

/** One timeline event on each issue, each naming the other (Forgejo's createIssueDependencyComment). */
async function recordOnBoth(c: RequestState, target: IIssue, dependency: IIssue, type: number): Promise<void> {
  const doer = need(c.auth.doer ?? undefined, 'user').id;
  await addComment(c.em, target, doer, type, { dependentIssueId: dependency.id });
  await addComment(c.em, dependency, doer, type, { dependentIssueId: target.id });
}

/** The path issue as api.Issue, which every write answers with. */
const answer = async (c: RequestState, status: number, s: Side) => json(status, await issueToApi(c.em, c.config, viewer(c), s.issue));

export const addDependency: Handler<IssueMeta> = async (c) => {
  const target = pathSide(c);
  await link(c, target, bodySide(c));
  return answer(c, 201, target);
};

/** Forgejo's code answers 201 here; its API description (and so this service) says 200. */
export const removeDependency: Handler<IssueMeta> = async (c) => {
  const target = pathSide(c);
  await unlink(c, target, bodySide(c));
  return answer(c, 200, target);
};

export const addBlock: Handler<IssueMeta> = async (c) => {
  const dependency = pathSide(c);
  await link(c, bodySide(c), dependency);
  return answer(c, 201, dependency);
};

export const removeBlock: Handler<IssueMeta> = async (c) => {
  const dependency = pathSide(c);
  await unlink(c, bodySide(c), dependency);
  return answer(c, 200, dependency);
};

/**
 * The issues on the other end of the path issue's dependencies, those of its own repository first,
 * then by repository id, newest first (Forgejo's BlockedByDependencies / BlockingDependencies).
 * Only issues the caller can read are listed and counted (spec, token kinds: dependency and blocking
 * routes); Forgejo shows writers a stand-in "HIDDEN" issue instead.
 */
async function listLinked(c: RequestState, direction: 'blockers' | 'blocked') {
  const issue = need(c.issue, 'issue');
  const here = need(c.repo, 'repo');
  const [mine, theirs] = direction === 'blockers' ? ['issue_id', 'dependency_id'] : ['dependency_id', 'issue_id'];
  const rows = await executeSql<{ id: number }>(
    c.em,
    sql`select i.id from issue i join issue_dependency d on d.${sql.raw(theirs)} = i.id where d.${sql.raw(mine)} = ${issue.id}
     order by case when i.repo_id = ${issue.repoId} then 0 else i.repo_id end, i.created_at desc, i.id desc`,
  );
  const ids = rows.map((r) => Number(r.id));
  const found = ids.length ? await c.em.find(Issue, { id: { $in: ids } }) : [];
  const byId = new Map(found.map((i) => [i.id, i]));
  const linked = ids.map((id) => byId.get(id)).filter((i): i is IIssue => !!i);
  const perms = await permissionsOf(
    c,
    linked.map((i) => i.repoId),
    here,
  );
  const visible = linked.filter((i) => {
    const at = perms.get(i.repoId);
    return !!at && readable(c, { issue: i, at });
  });
  const p = pageOf(c);
  const page = visible.slice(p.offset, p.offset + p.limit);
  return json(200, await issuesToApi(c.em, c.config, viewer(c), page), pagingHeaders(c, p, visible.length));
}

/** With dependencies off in this repository there are none to show (Forgejo: 404). */
export const listDependencies: Handler = async (c) => {
  if (!trackerConfig(need(c.repo, 'repo').units ?? []).dependencies) throw notFound();
  return listLinked(c, 'blockers');
};

/** Blocked issues may live in repositories with dependencies on, so this one's setting does not matter. */
export const listBlocks: Handler = async (c) => listLinked(c, 'blocked');

/** This family's handlers; `routes.table.ts` names each `issueDeps.<key>`. */
export const handlers = {
  listDependencies,
  addDependency,
  removeDependency,
  listBlocks,
  addBlock,
  removeBlock,
} satisfies Record<string, Handler<never, never>>;
