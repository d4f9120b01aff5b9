// Issue and pull request events from a request: one call after a change. An issue that is a pull sends
// `pull_request` events with the same actions, as Forgejo's notifier does. Edits are found by comparing
// a snapshot taken before the change with the issue afterwards, so every route that changes labels,
// assignees, milestone, state, title or body reports it the same way.
import type { EntityManager } from '@mikro-orm/core';
import { IssueAssignee, type IComment, type IIssue } from '../../model/issue.ts';
import { PullRequest, ReviewType, type IPullRequest, type IReview } from '../../model/pull.ts';
import type { IRepository } from '../../model/repo.ts';
import { User, type IUser } from '../../model/user.ts';
import type { Auth } from '../auth/auth-types.ts';
import { need, type RequestState } from '../http/request.ts';
import { emitEvent, type Changes, type EventCtx, type IssueAction, type PullAction } from '../activity/index.ts';
import { emitRefChanges } from '../transport/index.ts';
import { labelIdsOf, nextIdOf, type NewRowKind, type RowInsert } from './issues.ts';
import { feedWatchersList, feedWatchersOver, keepFeedWatchers } from '../activity/index.ts';
import { hooksList, hooksOver, keepHooks } from '../webhooks/index.ts';
import { Slot, type ReadAhead } from '../http/read-ahead.ts';
import { executeSql } from '../../model/sql.ts';
import { Watch } from '../../model/star.ts';
import { BlockedUser } from '../../model/social.ts';
import { Webhook } from '../../model/webhook.ts';

export type EmitState = Pick<RequestState, 'em' | 'ahead' | 'config' | 'services' | 'auth' | 'repo'>;
/** The same from a signed-in handler (its row has TOK): the sender is known. */
export type SignedEmitState = Omit<EmitState, 'auth'> & { readonly auth: Auth & { readonly doer: IUser } };

export interface IssueSnapshot {
  title: string;
  content: string;
  ref: string;
  milestoneId: number;
  isClosed: boolean;
  assignees: number[];
  labels: number[];
}

const assigneeIds = async (em: EntityManager, issueId: number) =>
  (await em.find(IssueAssignee, { issueId }, { fields: ['assigneeId'] })).map((a) => a.assigneeId);

export async function snapshotIssue(em: EntityManager, issue: IIssue): Promise<IssueSnapshot> {
  await em.flush();
  const { title, content, ref, milestoneId, isClosed } = issue;
  return {
    title,
    content,
    ref,
    milestoneId,
    isClosed,
    assignees: await assigneeIds(em, issue.id),
    labels: (await labelIdsOf(em, issue.id)).sort((a, b) => a - b),
  };
}

const EARLY_TABLES = [Watch, BlockedUser, User, Webhook];

function earlyLists(c: SignedEmitState) {
  const { repo } = need(c.repo, 'repo');
  const watchers = feedWatchersList(c.em, repo.id, c.auth.doer.id);
  const hooks = c.config.SECURITY.DISABLE_WEBHOOKS ? null : hooksList(c.em, repo);
  const keep = (watcherList: unknown, hookList: unknown) => {
    keepFeedWatchers(c.em, c.ahead, repo.id, c.auth.doer.id, watcherList);
    if (hooks) keepHooks(c.em, c.ahead, repo, hookList);
  };
  return { watchers, hooks, keep };
}

/**
 * What the event of a new row will read and that does not depend on the row (the feed's watchers and
 * the hooks, lib/http/read-ahead.ts), read in the statement of its insert (a new comment's row, a new
 * issue's number and row): one statement instead of two. The reads see the snapshot the
 * insert starts from, as they would have a moment before. A new issue's number lock is then held while
 * they run too: a small part of one statement, less than the round trip of a statement of their own
 * cost every request. The inserted row, without them.
 */
export async function insertWithEventEarly(c: SignedEmitState, insert: RowInsert): Promise<Record<string, unknown>> {
  return (await withEarlyReads(c, (early) => `with ${insert.ctes} select x.*, ${early} from x`, insert.params)).row;
}

/**
 * Runs the statement `statement(early)`, whose select list includes `early`, the early reads (its own
 * parameters, `params`, come before theirs); keeps what they read and answers the rest of its one row,
 * with the number of hooks found.
 */
async function withEarlyReads(
  c: SignedEmitState,
  statement: (early: string) => string,
  params: unknown[],
): Promise<{ row: Record<string, unknown>; hooks: number }> {
  const { watchers, hooks, keep } = earlyLists(c);
  for (const entity of EARLY_TABLES) await c.em.tryFlush(entity.meta.className, {});
  const [found] = await executeSql(c.em, statement(`${watchers.sql} as cairn__watchers, ${hooks?.sql ?? `'[]'::json`} as cairn__hooks`), [
    ...params,
    ...watchers.params,
    ...(hooks?.params ?? []),
  ]);
  const { cairn__watchers: watcherList, cairn__hooks: hookList, ...row } = found!;
  keep(watcherList, hookList);
  return { row, hooks: (hookList as unknown[]).length };
}

/** What a new row's early reads found: the id it takes, and how many hooks may want its event. */
interface NewRowRead {
  id: number;
  hooks: number;
}
const NEW_ROW_READ = new Slot<NewRowRead & { kind: NewRowKind; repoId: number }>("a new row's early reads, made with the token");

/**
 * Select-list expressions over the token's row `t` and the repository `r` its statement finds
 * (lib/auth/tokens.ts) that make a new row's early reads there: the id the row takes from its table's
 * sequence (drawn whether or not the request goes on to insert it; a gap in ids is all it leaves),
 * the feed's watchers and the hooks (POST {R}/issues and POST .../comments then send
 * everything else with COMMIT, two round trips in all).
 */
export const newRowAheadColumns = (em: EntityManager, kind: NewRowKind) =>
  `${nextIdOf(kind)} as cairn__new_id, ${feedWatchersOver(em, 'r.id', 't.uid')} as cairn__watchers, ${hooksOver(em, 'r.id', 'r.owner_id')} as cairn__hooks`;

/** Keeps what `newRowAheadColumns` read in `row`, for the request's new row of `kind` in `repoId` by `actorId`. */
export function keepNewRowAhead(
  em: EntityManager,
  ahead: ReadAhead,
  kind: NewRowKind,
  repoId: number,
  actorId: number,
  row: Record<string, unknown>,
): void {
  keepFeedWatchers(em, ahead, repoId, actorId, row.cairn__watchers);
  keepHooks(em, ahead, { id: repoId }, row.cairn__hooks);
  ahead.keep(NEW_ROW_READ, { kind, repoId, id: Number(row.cairn__new_id), hooks: (row.cairn__hooks as unknown[]).length });
}

/**
 * A new issue's or comment's early reads (the feed's watchers, the hooks) before its insert, with the
 * id the row will take from its table's sequence: made by the token's statement when it could
 * (`newRowAheadColumns`), else one statement here, which locks nothing. The insert can then go with
 * COMMIT (lib/issues/issues.ts numberAtCommit, commentAtCommit) unless `hooked`: some hook may want the
 * event, whose payload needs the inserted row now.
 */
export async function newRowEarly(c: SignedEmitState, kind: NewRowKind): Promise<{ id: number; hooked: boolean }> {
  const repo = need(c.repo, 'repo').repo;
  const read = c.ahead.take(NEW_ROW_READ, (k) => k.kind === kind && k.repoId === repo.id) ?? (await readNewRowEarly(c, kind));
  return { id: read.id, hooked: !c.config.SECURITY.DISABLE_WEBHOOKS && read.hooks > 0 };
}

async function readNewRowEarly(c: SignedEmitState, kind: NewRowKind): Promise<NewRowRead> {
  const { row, hooks } = await withEarlyReads(c, (early) => `select ${nextIdOf(kind)} as id, ${early}`, []);
  return { id: Number(row.id), hooks };
}

/** One issue or pull request event; `pull` is read when the issue is a pull and none is given. */
export async function emitIssueEvent(
  c: EmitState,
  issue: IIssue,
  action: IssueAction | PullAction,
  extra: { changes?: Changes; assignee?: IUser; reviewer?: IUser; pull?: IPullRequest } = {},
): Promise<void> {
  const repo = need(c.repo, 'repo').repo;
  const sender = c.auth.doer!;
  if (!issue.isPull) {
    await emitEvent(c.em, c, {
      name: 'issues',
      repo,
      sender,
      action: action as IssueAction,
      issue,
      changes: extra.changes,
      assignee: extra.assignee,
    });
    return;
  }
  const pull = extra.pull ?? (await c.em.findOne(PullRequest, { issueId: issue.id }));
  if (!pull) return;
  await emitEvent(c.em, c, {
    name: 'pull_request',
    repo,
    sender,
    action: action as PullAction,
    issue,
    pull,
    changes: extra.changes,
    assignee: extra.assignee,
    reviewer: extra.reviewer,
  });
}

/**
 * The events of everything that changed since `before` (Forgejo sends one per kind of change:
 * edited with `changes`, closed/reopened, milestoned/demilestoned, assigned/unassigned per user,
 * label_updated or label_cleared).
 */
export async function emitIssueChanges(c: EmitState, issue: IIssue, before: IssueSnapshot): Promise<void> {
  const after = await snapshotIssue(c.em, issue);
  const changes: Changes = {};
  if (after.title !== before.title) changes.title = { from: before.title };
  if (after.content !== before.content) changes.body = { from: before.content };
  if (after.ref !== before.ref) changes.ref = { from: before.ref };
  if (Object.keys(changes).length) await emitIssueEvent(c, issue, 'edited', { changes });
  if (after.isClosed !== before.isClosed) await emitIssueEvent(c, issue, after.isClosed ? 'closed' : 'reopened');
  if (after.milestoneId !== before.milestoneId) await emitIssueEvent(c, issue, after.milestoneId ? 'milestoned' : 'demilestoned');
  for (const id of after.assignees.filter((a) => !before.assignees.includes(a)))
    await emitIssueEvent(c, issue, 'assigned', { assignee: await userOf(c.em, id) });
  for (const id of before.assignees.filter((a) => !after.assignees.includes(a)))
    await emitIssueEvent(c, issue, 'unassigned', { assignee: await userOf(c.em, id) });
  if (after.labels.join() !== before.labels.join()) await emitIssueEvent(c, issue, after.labels.length ? 'label_updated' : 'label_cleared');
}

const userOf = async (em: EntityManager, id: number) => (await em.findOne(User, { id })) ?? undefined;

/** A comment created, edited (`from` is the old text) or deleted; on a pull it is a pull request comment. */
export async function emitCommentEvent(
  c: SignedEmitState,
  issue: IIssue,
  comment: IComment,
  action: 'created' | 'edited' | 'deleted',
  from?: string,
): Promise<void> {
  const changes = from === undefined ? undefined : { body: { from } };
  await emitEvent(c.em, c, {
    name: 'issue_comment',
    repo: need(c.repo, 'repo').repo,
    sender: c.auth.doer,
    action,
    issue,
    comment,
    changes,
  });
}

/**
 * A merge: the base branch's push (refs compared with `refsBefore`, taken before the merge), then the
 * pull `closed` with `merged` set, as Forgejo sends it.
 */
export async function emitPullMerged(
  em: EntityManager,
  ctx: EventCtx,
  m: { base: IRepository; sender: IUser; pull: IPullRequest; issue: IIssue; basePath: string; refsBefore: Map<string, string> },
): Promise<void> {
  await emitRefChanges(em, ctx, m.base, m.sender, m.basePath, m.refsBefore);
  await emitEvent(em, ctx, { name: 'pull_request', repo: m.base, sender: m.sender, action: 'closed', issue: m.issue, pull: m.pull });
}

/** A pull whose head branch moved (Forgejo's `synchronized`); `doerId` pushed. */
export async function emitSynchronized(
  em: EntityManager,
  ctx: EventCtx,
  base: IRepository,
  doerId: number,
  issue: IIssue,
  pull: IPullRequest,
): Promise<void> {
  const sender = await userOf(em, doerId);
  if (sender) await emitEvent(em, ctx, { name: 'pull_request', repo: base, sender, action: 'synchronized', issue, pull });
}

/** A submitted review: approved, rejected (request changes) or comment; pending drafts send nothing. */
export async function emitReviewEvent(c: SignedEmitState, issue: IIssue, pull: IPullRequest, review: IReview): Promise<void> {
  const action = review.type === ReviewType.approve ? 'approved' : review.type === ReviewType.reject ? 'rejected' : 'comment';
  await emitEvent(c.em, c, {
    name: 'pull_request_review',
    repo: need(c.repo, 'repo').repo,
    sender: c.auth.doer,
    action,
    issue,
    pull,
    review,
  });
}
