// Domain events of a repository, dispatched in process. A subscriber runs inside the transaction of
// the change that emitted the event (same EntityManager), so whatever it writes (webhook tasks, feed
// rows) commits or rolls back with that change, and two processes on one database never disagree
// about what happened. A subscriber that fails fails the change: subscribers only write rows; slow
// work (HTTP deliveries) happens later, from those rows.
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import type { IComment, IIssue } from '../../model/issue.ts';
import type { IPullRequest, IReview } from '../../model/pull.ts';
import type { IRelease } from '../../model/release.ts';
import type { IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import type { Services } from '../http/services.ts';
import type { ReadAhead } from '../http/read-ahead.ts';
import type { WriteQueue } from '../db/counters.ts';

/** What a subscriber may use besides the EntityManager: a request state fits. */
export interface EventCtx {
  readonly config: Config;
  readonly services: Services;
  /** The read-ahead of the request the event comes from (lib/http/read-ahead.ts), if it comes from one. */
  readonly ahead?: ReadAhead;
  /** The write queue of the request the event comes from (lib/db/counters.ts), if it has one. */
  readonly writes?: WriteQueue;
}

/** `repo` is the repository the event is about; `sender` did it. */
interface Base {
  repo: IRepository;
  sender: IUser;
}

export interface PushCommit {
  sha: string;
  message: string;
  author: { name: string; email: string };
  committer: { name: string; email: string };
  /** RFC 3339 in the commit's own offset (the author date, as Forgejo's CommitToPushCommit). */
  timestamp: string;
  added: string[];
  removed: string[];
  modified: string[];
  /** The commit's gpgsig header and what it signs, when signed. */
  signature?: string;
  signedPayload?: string;
}

/** Commits of a push, newest first, at most a few (Forgejo caps the list); `total` counts them all. */
export interface PushCommits {
  commits: PushCommit[];
  total: number;
  /** The commit the ref now names (null for a deletion). */
  head: PushCommit | null;
}

export type IssueAction =
  | 'opened'
  | 'edited'
  | 'closed'
  | 'reopened'
  | 'assigned'
  | 'unassigned'
  | 'label_updated'
  | 'label_cleared'
  | 'milestoned'
  | 'demilestoned'
  | 'deleted';
/** A merge is `closed` with the pull's `hasMerged` set, as Forgejo sends it; `deleted` when its issue is deleted. */
export type PullAction = IssueAction | 'synchronized' | 'review_requested' | 'review_request_removed';

/** Previous values of an edit (Forgejo's `changes`). */
export interface Changes {
  title?: { from: string };
  body?: { from: string };
  ref?: { from: string };
}

export type RepoEvent =
  | (Base & {
      name: 'push';
      /** Full ref name, `refs/heads/x` or `refs/tags/x`. */
      ref: string;
      /** Zero oid for a new ref. */
      before: string;
      after: string;
      forced?: boolean;
      /** Read from git only when a subscriber wants them (memoised). */
      commits(): Promise<PushCommits>;
    })
  | (Base & { name: 'create'; refType: 'branch' | 'tag'; ref: string; sha: string })
  | (Base & { name: 'delete'; refType: 'branch' | 'tag'; ref: string })
  | (Base & { name: 'issues'; action: IssueAction; issue: IIssue; changes?: Changes; assignee?: IUser })
  | (Base & { name: 'issue_comment'; action: 'created' | 'edited' | 'deleted'; issue: IIssue; comment: IComment; changes?: Changes })
  | (Base & {
      name: 'pull_request';
      action: PullAction;
      issue: IIssue;
      pull: IPullRequest;
      changes?: Changes;
      assignee?: IUser;
      reviewer?: IUser;
    })
  | (Base & {
      name: 'pull_request_review';
      action: 'approved' | 'rejected' | 'comment';
      issue: IIssue;
      pull: IPullRequest;
      review: IReview;
    })
  | (Base & { name: 'release'; action: 'published' | 'updated' | 'deleted'; release: IRelease })
  | (Base & { name: 'repository'; action: 'created' | 'deleted' })
  /** `repo` is the forked repository, `fork` the new one. */
  | (Base & { name: 'fork'; fork: IRepository })
  | (Base & { name: 'wiki'; action: 'created' | 'edited' | 'deleted' | 'renamed'; page: string; comment?: string; sha?: string });

export type EventName = RepoEvent['name'];
export type EventOf<N extends EventName> = Extract<RepoEvent, { name: N }>;
export type Subscriber<E extends RepoEvent = RepoEvent> = (em: EntityManager, ctx: EventCtx, ev: E) => Promise<void>;

const subscribers = new Map<EventName | '*', Subscriber[]>();

/** Subscribes to one event kind, or to all with `'*'`. Subscribe at module load, once. */
export function onEvent<N extends EventName>(name: N, fn: Subscriber<EventOf<N>>): void;
export function onEvent(name: '*', fn: Subscriber): void;
export function onEvent(name: EventName | '*', fn: Subscriber<never>): void {
  const list = subscribers.get(name) ?? [];
  list.push(fn as Subscriber);
  subscribers.set(name, list);
}

/**
 * Runs the subscribers of `ev` in order, in the caller's transaction. A caller outside a transaction
 * (git over HTTP, background work) gets one for the subscribers, so their rows land together; a
 * request's EntityManager that has not begun its transaction runs them as they are, their writes queued.
 */
export async function emitEvent(em: EntityManager, ctx: EventCtx, ev: RepoEvent): Promise<void> {
  const fns = [...(subscribers.get(ev.name) ?? []), ...(subscribers.get('*') ?? [])];
  if (!fns.length) return;
  const run = async (tem: EntityManager) => {
    for (const fn of fns) await fn(tem, ctx, ev);
  };
  // A request that writes at its end (lib/http/handler.ts writesAtEnd) queues the subscribers' writes.
  if (em.isInTransaction() || ctx.writes) await run(em);
  else await em.transactional(run);
}

/** Emits several events in order (a push that creates a branch is `create`, then `push`). */
export async function emitEvents(em: EntityManager, ctx: EventCtx, evs: RepoEvent[]): Promise<void> {
  for (const ev of evs) await emitEvent(em, ctx, ev);
}
