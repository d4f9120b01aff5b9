// Commit statuses: create, list by sha or ref, combined status (Forgejo routers/api/v1/repo/status.go,
// models/git/commit_status.go, services/convert ToCommitStatus / ToCombinedStatus).
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../config.ts';
import type { Handler } from '../lib/http/handler.ts';
import { json } from '../lib/http/handler.ts';
import type { CreateStatusOption } from '../model/schemas/index.ts';
import { CommitStatus, type ICommitStatus } from '../model/commit-status.ts';
import { nextIndex } from '../model/counter.ts';
import { User } from '../model/user.ts';
import { toApiCommitStatus, type ApiCombinedStatus } from '../lib/repos/api/status.ts';
import { lookupRef } from '../git/lookup.ts';
import { isValidRefName } from '../git/refname.ts';
import { badRequest, notFound, unprocessable } from '../lib/http/errors.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { gitCtx, type GitCtx } from '../lib/repos/git.ts';
import { repoJson } from '../lib/repos/api/repo-json.ts';
import { runScheduledMerges } from '../lib/pulls/merge.ts';
import type { HandlerCtx } from '../lib/http/handler.ts';
import type { QueryOf } from '../model/schemas/query.ts';

/** Worst first: a combined state is the worst of the latest status per context. */
const PRIORITY: Record<string, number> = { error: 0, failure: 1, warning: 2, pending: 3, success: 4, skipped: 5 };
const STATES = Object.keys(PRIORITY);

const contextHash = (context: string) => createHash('sha1').update(context).digest('hex');

/** api.CommitStatus of each row, their creators read once. */
async function statusesJson(em: EntityManager, cfg: Config, g: GitCtx, rows: ICommitStatus[]) {
  const ids = [...new Set(rows.map((r) => r.creatorId).filter((id) => id > 0))];
  const creators = new Map((ids.length ? await em.find(User, { id: { $in: ids } }) : []).map((u) => [u.id, u]));
  return rows.map((r) => toApiCommitStatus(cfg, g.urls, r, creators.get(r.creatorId) ?? null));
}

/** A full commit id for a branch, tag or (abbreviated) id; anything else is looked up as given. */
async function commitOf(g: GitCtx, name: string): Promise<string> {
  if (name === '') throw badRequest('ref/sha not given');
  const found = g.repo.isEmpty || !isValidRefName(name) ? null : await lookupRef(g.path, name);
  return found?.commit ?? name;
}

export const create: Handler<CreateStatusOption> = async (c) => {
  const g = gitCtx(c);
  const sha = c.params.sha ?? '';
  if (sha === '') throw badRequest('sha not given');
  const found = g.repo.isEmpty || !isValidRefName(sha) ? null : await lookupRef(g.path, sha);
  if (!found?.commit) throw notFound(`object does not exist [id: ${sha}, rel_path: ]`);
  const state = c.body.state ?? '';
  if (!STATES.includes(state)) throw unprocessable(`invalid commit status state [state: ${state}]`);
  const context = c.body.context ?? '';
  const row = c.em.create(CommitStatus, {
    index: await nextIndex(c.em, `cs:${createHash('sha1').update(found.commit).digest('base64url')}`, g.repo.id),
    repoId: g.repo.id,
    sha: found.commit,
    state,
    targetUrl: c.body.target_url ?? '',
    description: c.body.description ?? '',
    context,
    contextHash: contextHash(context),
    creatorId: c.auth.doer?.id ?? 0,
  });
  await c.em.flush();
  await runScheduledMerges(c.em, c.services, c.config, g.repo, found.commit);
  return json(201, (await statusesJson(c.em, c.config, g, [row]))[0]);
};

const ORDER: Record<string, Record<string, 'asc' | 'desc'>> = {
  oldest: { createdAt: 'asc' },
  recentupdate: { updatedAt: 'desc' },
  leastupdate: { updatedAt: 'asc' },
  // Forgejo's own (inverted) naming of the index orders.
  leastindex: { index: 'desc' },
  highestindex: { index: 'asc' },
};

async function listFor(c: HandlerCtx<unknown, QueryOf<'Statuses'>>, name: string) {
  const g = gitCtx(c);
  const sha = await commitOf(g, name);
  const page = pageOf(c);
  const where: Record<string, unknown> = { repoId: g.repo.id, sha };
  const state = c.q.state;
  if (state) where.state = state;
  const orderBy = [ORDER[c.q.sort ?? ''] ?? { createdAt: 'desc' }, { id: 'desc' as const }];
  const [rows, total] = await c.em.findAndCount(CommitStatus, where, { orderBy, limit: page.limit, offset: page.offset });
  return json(200, await statusesJson(c.em, c.config, g, rows), pagingHeaders(c, page, total));
}

export const listBySha: Handler = (c) => listFor(c, c.params.sha ?? '');
export const listByRef: Handler = (c) => listFor(c, c.params.ref ?? '');

export const combined: Handler = async (c) => {
  const g = gitCtx(c);
  const sha = await commitOf(g, c.params.ref ?? '');
  const page = pageOf(c);
  const all = await c.em.find(CommitStatus, { repoId: g.repo.id, sha }, { orderBy: { id: 'desc' } });
  // The latest status of each context, newest context first.
  const latest: ICommitStatus[] = [];
  const seen = new Set<string>();
  for (const s of all)
    if (!seen.has(s.contextHash)) {
      seen.add(s.contextHash);
      latest.push(s);
    }
  if (latest.length === 0)
    return json(200, {
      state: '',
      sha: '',
      total_count: 0,
      statuses: null,
      repository: null,
      commit_url: '',
      url: '',
    } satisfies ApiCombinedStatus);
  const slice = latest.slice(page.offset, page.offset + page.limit);
  let state = '';
  for (const s of slice) if (state === '' || (s.state in PRIORITY && PRIORITY[s.state] <= (PRIORITY[state] ?? 99))) state = s.state;
  if (state === 'error') state = 'failure';
  const statuses = await statusesJson(c.em, c.config, g, slice);
  return json(
    200,
    {
      state,
      sha,
      total_count: slice.length,
      statuses,
      repository: await repoJson(c, g.repo, g.owner),
      commit_url: '',
      url: '',
    } satisfies ApiCombinedStatus,
    pagingHeaders(c, page, latest.length),
  );
};

/** This family's handlers; `routes.table.ts` names each `statuses.<key>`. */
export const handlers = {
  combined,
  listByRef,
  listBySha,
  create,
} satisfies Record<string, Handler<never, never>>;
