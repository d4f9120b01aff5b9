// From domain events to hook tasks (Forgejo's services/webhook/notifier.go and PrepareWebhooks): for
// every active hook of the repository, its owner and the instance that wants the event (and whose
// branch filter passes, for push, create and delete), one HookTask row with the API payload
// (modules/structs/hook.go shapes), written in the transaction of the change. Delivery happens later
// (lib/webhooks/deliver.ts).
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { RequestState } from '../http/request.ts';
import { commentsToApi, issueToApi } from '../issues/index.ts';
import { repoUrls, toVerification, CommitUsers } from '../repos/index.ts';
import { pullToApi } from '../pulls/index.ts';
import { releaseToApi } from '../repos/index.ts';
import { toApiRepo } from '../repos/index.ts';
import { toApiUser, type Viewer } from '../users/index.ts';
import type { IRepository } from '../../model/repo.ts';
import { User, type IUser } from '../../model/user.ts';
import { HookTask, Webhook, type IWebhook } from '../../model/webhook.ts';
import { onEvent, type EventCtx, type EventOf, type PushCommit, type RepoEvent } from '../activity/index.ts';
import { Mode, RepoPermission, enabledUnits, userById, type AccessMode } from '../auth/perm.ts';
import { repoUnits } from '../repos/index.ts';
import { branchMatches, hasEvent, hooksFor, RAW_PAYLOAD_TYPES } from './webhooks.ts';
import { ReadAhead } from '../http/read-ahead.ts';

const ANONYMOUS: Viewer = { doer: null, siteAdmin: false };
/** Nudged after tasks were written, so the deliverer looks soon (a hint only; the rows decide). */
type Nudge = () => void;
let nudge: Nudge = () => {};
export const setDeliveryNudge = (fn: Nudge) => {
  nudge = fn;
};

/** The fine event type of an event (Forgejo's HookEventType), which hooks subscribe to. */
export function fineType(ev: RepoEvent): string {
  switch (ev.name) {
    case 'issues':
      return (
        (
          {
            assigned: 'issue_assign',
            unassigned: 'issue_assign',
            label_updated: 'issue_label',
            label_cleared: 'issue_label',
            milestoned: 'issue_milestone',
            demilestoned: 'issue_milestone',
          } as Record<string, string>
        )[ev.action] ?? 'issues'
      );
    case 'pull_request':
      return (
        (
          {
            assigned: 'pull_request_assign',
            unassigned: 'pull_request_assign',
            label_updated: 'pull_request_label',
            label_cleared: 'pull_request_label',
            milestoned: 'pull_request_milestone',
            demilestoned: 'pull_request_milestone',
            synchronized: 'pull_request_sync',
            review_requested: 'pull_request_review_request',
            review_request_removed: 'pull_request_review_request',
          } as Record<string, string>
        )[ev.action] ?? 'pull_request'
      );
    case 'issue_comment':
      return ev.issue.isPull ? 'pull_request_comment' : 'issue_comment';
    case 'pull_request_review':
      return `pull_request_review_${ev.action}`;
    default:
      return ev.name;
  }
}

/** The branch (or ref) a branch filter is matched against; null when the filter does not apply. */
function filteredRef(ev: RepoEvent): string | null {
  if (ev.name === 'push') return ev.ref.replace(/^refs\/heads\//, '');
  if (ev.name === 'create' || ev.name === 'delete') return ev.ref;
  return null;
}

/** Hooks that get this event: active, subscribed, branch filter passed. */
async function targets(em: EntityManager, ev: RepoEvent, fine: string, ahead: ReadAhead | undefined): Promise<IWebhook[]> {
  const ref = filteredRef(ev);
  const repo = ev.repo;
  let hooks = await hooksFor(em, repo, ahead);
  // Forgejo sends a new repository's event to its organization, not to its user owner (notifier CreateRepository).
  if (ev.name === 'repository' && ev.action === 'created') {
    const owner = await em.findOne(User, { id: repo.ownerId });
    if (owner?.type !== 1) hooks = hooks.filter((h) => h.ownerId === 0);
  }
  return hooks.filter((h) => hasEvent(h.events, fine) && (ref === null || branchMatches(h.events.branch_filter, ref)));
}

/** The subscriber: one task per hook that wants the event. */
export async function queueHookTasks(em: EntityManager, ctx: EventCtx, ev: RepoEvent): Promise<void> {
  if (ctx.config.SECURITY.DISABLE_WEBHOOKS) return;
  const fine = fineType(ev);
  const hooks = await targets(em, ev, fine, ctx.ahead);
  if (!hooks.length) return;
  const payload = await buildPayload(em, ctx, ev);
  // Forgejo's PrepareWebhook: chat services are not told of "0 new commits" (a branch created or
  // deleted by a push); the raw-payload types still get the push.
  const noCommits = ev.name === 'push' && Array.isArray(payload.commits) && payload.commits.length === 0;
  for (const h of hooks) {
    if (noCommits && !RAW_PAYLOAD_TYPES.includes(h.type)) continue;
    await insertTask(em, h, ev.repo.id, fine, payloadFor(h, ev, payload));
  }
  nudge();
}

/** For `gitea` hooks Forgejo shortens the ref of create and delete payloads (forgejo-facts 11.2). */
function payloadFor(h: IWebhook, ev: RepoEvent, payload: Record<string, unknown>): Record<string, unknown> {
  if (h.type === 'gitea' && (ev.name === 'create' || ev.name === 'delete')) return { ...payload, ref: ev.ref };
  return payload;
}

export async function insertTask(
  em: EntityManager,
  h: Pick<IWebhook, 'id'>,
  repoId: number,
  fine: string,
  payload: unknown,
): Promise<void> {
  // A native insert: the handler may clear its identity map later (reloads), which must not drop the task.
  await em.insert(HookTask, {
    hookId: h.id,
    repoId,
    uuid: randomUUID(),
    eventType: fine,
    payload: JSON.stringify(payload, null, 2),
    isDelivered: false,
    isSucceed: false,
    requestInfo: null,
    responseInfo: null,
    attempts: 0,
    nextAttemptAt: null,
    createdAt: new Date(),
    deliveredAt: null,
  });
}

/** A deleted repository's own hooks go with it, with their tasks (Forgejo's DeleteRepository); owner and system hooks still hear of it. */
async function dropRepoHooks(em: EntityManager, _ctx: EventCtx, ev: EventOf<'repository'>): Promise<void> {
  if (ev.action !== 'deleted') return;
  const ids = (await em.find(Webhook, { repoId: ev.repo.id }, { fields: ['id'] })).map((h) => h.id);
  if (!ids.length) return;
  await em.nativeDelete(HookTask, { hookId: { $in: ids } });
  await em.nativeDelete(Webhook, { id: { $in: ids } });
}

/** A deleted user's or organization's hooks go with it, with their tasks. */
export async function deleteOwnerHooks(em: EntityManager, ownerId: number): Promise<void> {
  const ids = (await em.find(Webhook, { ownerId, repoId: 0 }, { fields: ['id'] })).map((h) => h.id);
  if (!ids.length) return;
  await em.nativeDelete(HookTask, { hookId: { $in: ids } });
  await em.nativeDelete(Webhook, { id: { $in: ids } });
}

let installed = false;
/** Subscribes the webhook queue to the event bus (once per process). */
export function installWebhooks(): void {
  if (installed) return;
  installed = true;
  onEvent('repository', dropRepoHooks);
  onEvent('*', queueHookTasks);
}

// ---------------------------------------------------------------------------------------------------
// Payloads

/** A request-shaped view for the converters that take one: anonymous, as Forgejo converts for hooks. */
function converterState(em: EntityManager, ctx: EventCtx): RequestState {
  return {
    config: ctx.config,
    services: ctx.services,
    em,
    ahead: new ReadAhead(),
    method: 'POST',
    path: '',
    params: {},
    query: new URLSearchParams(),
    q: {},
    headers: {},
    auth: { doer: null, method: null, token: null, sudoer: null },
    readBody: async () => ({ value: null }),
  };
}

/**
 * api.Repository with the given access (Forgejo converts with owner access for issue, pull, release
 * and repository payloads, and with none for push, create and delete).
 */
async function repoApi(em: EntityManager, ctx: EventCtx, repo: IRepository, mode: AccessMode) {
  const owner = (await userById(em, repo.ownerId, ctx.ahead)) ?? (await em.findOneOrFail(User, { id: repo.ownerId }));
  const units = await repoUnits(em, repo.id);
  const perm = new RepoPermission(mode, new Map(), await enabledUnits(em, repo.id, ctx.ahead));
  return toApiRepo(ctx.config, { repo, owner, units, perm }, ANONYMOUS);
}

const userApi = (ctx: EventCtx, u: IUser) => toApiUser(ctx.config, u, ANONYMOUS);

async function payloadCommit(em: EntityManager, ctx: EventCtx, repo: IRepository, c: PushCommit) {
  const owner = await em.findOneOrFail(User, { id: repo.ownerId });
  const users = new CommitUsers(em, ctx.config);
  await users.load([c.author.email, c.committer.email]);
  return {
    id: c.sha,
    message: c.message,
    url: `${repoUrls(ctx.config, owner, repo).html}/commit/${c.sha}`,
    author: { name: c.author.name, email: c.author.email, username: users.get(c.author.email)?.name ?? '' },
    committer: { name: c.committer.name, email: c.committer.email, username: users.get(c.committer.email)?.name ?? '' },
    verification: toVerification(c),
    timestamp: c.timestamp,
    added: c.added,
    removed: c.removed,
    modified: c.modified,
  };
}

/** PushPayload (Forgejo's notifier PushCommits). */
export async function pushPayload(
  em: EntityManager,
  ctx: EventCtx,
  repo: IRepository,
  sender: IUser,
  p: { ref: string; before: string; after: string; commits: PushCommit[]; total: number; head: PushCommit | null },
) {
  const owner = await em.findOneOrFail(User, { id: repo.ownerId });
  const commits = [];
  for (const c of p.commits) commits.push(await payloadCommit(em, ctx, repo, c));
  return {
    ref: p.ref,
    before: p.before,
    after: p.after,
    compare_url: `${repoUrls(ctx.config, owner, repo).html}/compare/${p.before}...${p.after}`,
    commits,
    total_commits: p.total,
    head_commit: p.head ? await payloadCommit(em, ctx, repo, p.head) : null,
    repository: await repoApi(em, ctx, repo, Mode.none),
    pusher: userApi(ctx, sender),
    sender: userApi(ctx, sender),
  };
}

async function buildPayload(em: EntityManager, ctx: EventCtx, ev: RepoEvent): Promise<Record<string, unknown>> {
  const sender = userApi(ctx, ev.sender);
  const repoOwner = () => repoApi(em, ctx, ev.repo, Mode.owner);
  switch (ev.name) {
    case 'push': {
      const c = await ev.commits();
      return pushPayload(em, ctx, ev.repo, ev.sender, { ref: ev.ref, before: ev.before, after: ev.after, ...c });
    }
    case 'create':
      return {
        sha: ev.sha,
        ref: `refs/${ev.refType === 'branch' ? 'heads' : 'tags'}/${ev.ref}`,
        ref_type: ev.refType,
        repository: await repoApi(em, ctx, ev.repo, Mode.none),
        sender,
      };
    case 'delete':
      return {
        ref: `refs/${ev.refType === 'branch' ? 'heads' : 'tags'}/${ev.ref}`,
        ref_type: ev.refType,
        pusher_type: 'user',
        repository: await repoApi(em, ctx, ev.repo, Mode.none),
        sender,
      };
    case 'issues':
      return {
        action: ev.action,
        number: ev.issue.index,
        ...(ev.changes ? { changes: ev.changes } : {}),
        issue: await issueToApi(em, ctx.config, ANONYMOUS, ev.issue),
        repository: await repoOwner(),
        sender,
        commit_id: '',
      };
    case 'issue_comment': {
      const [comment] = await commentsToApi(em, ctx.config, ANONYMOUS, [ev.comment], new Map([[ev.issue.id, ev.issue]]));
      return {
        action: ev.action,
        issue: await issueToApi(em, ctx.config, ANONYMOUS, ev.issue),
        comment,
        ...(ev.changes ? { changes: ev.changes } : {}),
        repository: await repoOwner(),
        sender,
        is_pull: ev.issue.isPull,
      };
    }
    case 'pull_request':
      return {
        action: ev.action,
        number: ev.issue.index,
        ...(ev.changes ? { changes: ev.changes } : {}),
        pull_request: await pullToApi(converterState(em, ctx), ev.pull),
        requested_reviewer: ev.reviewer ? userApi(ctx, ev.reviewer) : null,
        repository: await repoOwner(),
        sender,
        commit_id: '',
        review: null,
      };
    case 'pull_request_review':
      return {
        action: 'reviewed',
        number: ev.issue.index,
        pull_request: await pullToApi(converterState(em, ctx), ev.pull),
        requested_reviewer: null,
        repository: await repoOwner(),
        sender,
        commit_id: ev.review.commitId,
        review: { type: fineType(ev), content: ev.review.content },
      };
    case 'release': {
      const owner = await em.findOneOrFail(User, { id: ev.repo.ownerId });
      return {
        action: ev.action,
        release: await releaseToApi(em, ctx.config, ANONYMOUS, repoUrls(ctx.config, owner, ev.repo), ev.release),
        repository: await repoOwner(),
        sender,
      };
    }
    case 'repository': {
      const owner = await em.findOneOrFail(User, { id: ev.repo.ownerId });
      return { action: ev.action, repository: await repoOwner(), organization: owner.type === 1 ? userApi(ctx, owner) : null, sender };
    }
    case 'fork':
      // Forgejo's naming: `forkee` is the repository that was forked, `repository` the new fork.
      return { forkee: await repoOwner(), repository: await repoApi(em, ctx, ev.fork, Mode.owner), sender };
    case 'wiki':
      return { action: ev.action, repository: await repoOwner(), sender, page: ev.page, comment: ev.comment ?? '' };
  }
}

/**
 * POST {R}/hooks/{id}/tests: a push payload of the commit at `ref` (the default branch) goes to this
 * hook whatever its events, branch filter or active state (spec: always a push payload, delivered even
 * when the hook does not subscribe to push). Forgejo sends it with before = after = that commit.
 */
export async function queueTestDelivery(
  em: EntityManager,
  ctx: EventCtx,
  hook: IWebhook,
  repo: IRepository,
  sender: IUser,
  ref: string,
  head: PushCommit,
): Promise<void> {
  const payload = await pushPayload(em, ctx, repo, sender, { ref, before: head.sha, after: head.sha, commits: [head], total: 1, head });
  await insertTask(em, hook, repo.id, 'push', payload);
  nudge();
}
