// Activity feeds (Forgejo's models/activities/action.go and services/feed/action.go): recording one
// `action` row per receiver when something happens in a repository, and the feed and heatmap queries.
//
// Recording follows NotifyWatchers: a row for the actor, one for the owning organization (when the
// actor is not the organization), and one for each active watcher who has not blocked the actor and
// may read the unit the activity belongs to. Rows are written in the transaction of the change that
// caused them (lib/activity/events.ts subscribers), so a failed change leaves no activity behind.
//
// Deviations, on purpose:
// - Visibility (`is_private`) is read from the repository as it is now, not as it was when the row
//   was written: Forgejo rewrites the rows when a repository's visibility changes, which amounts to
//   the same answer without the rewrite.
// - Days (`date`) and heatmap buckets are in UTC (Forgejo uses the server's default UI time zone).
// - Stars and watches record nothing, as in Forgejo (its star_repo/watch_repo types are only used by
//   federation). Renames, transfers, mirror syncs, review dismissals, ready-for-review and auto-merges
//   record nothing yet: no event in lib/activity/events.ts tells of them (an auto-merge is an ordinary merge).
// - `content` of issue activities is Forgejo's long-standing `<index>|<text>` (newer Forgejo writes a
//   JSON array).
import type { EntityManager } from '@mikro-orm/core';
import { Action, OpType, type IAction, type OpName } from '../../model/action.ts';
import { User, type IUser } from '../../model/user.ts';
import { Repository, type IRepository } from '../../model/repo.ts';
import { Watch } from '../../model/star.ts';
import { intArray, jsonList, plainRows, type Plain } from '../../model/raw.ts';
import { allOf, executeSql, readRows, sql, type Sql } from '../../model/sql.ts';
import { tailWrite, type WriteQueue } from '../db/counters.ts';
import { WATCHING } from '../repos/index.ts';
import { Slot, type ReadAhead } from '../http/read-ahead.ts';
import { BlockedUser } from '../../model/social.ts';
import { CommentType, Comment, type IComment } from '../../model/issue.ts';
import { numberPending } from '../issues/index.ts';
import type { ITeam } from '../../model/org.ts';
import { readersOf, userById, type UnitName } from '../auth/perm.ts';
import { reachableRepos, type Caller } from '../repos/index.ts';
import type { Page } from '../http/paging.ts';
import { onEvent, type EventOf, type PushCommit, type RepoEvent } from './events.ts';

export interface NewAction {
  op: OpName;
  actUserId: number;
  repo: IRepository;
  commentId?: number;
  refName?: string;
  content?: string;
  /**
   * The issue whose number is taken with COMMIT (lib/issues/issues.ts numberPending): `content` is
   * `<number>|` followed by `content`, the number read in SQL from the issue's row, which the statement
   * before has inserted.
   */
  numberOf?: number;
}

/** The unit a watcher must be able to read to receive the activity (NotifyWatchers' switch). */
const UNIT_OF: Partial<Record<OpName, UnitName>> = {
  commit_repo: 'code',
  push_tag: 'code',
  delete_tag: 'code',
  publish_release: 'code',
  delete_branch: 'code',
  create_issue: 'issues',
  comment_issue: 'issues',
  close_issue: 'issues',
  reopen_issue: 'issues',
  create_pull_request: 'pulls',
  comment_pull: 'pulls',
  merge_pull_request: 'pulls',
  close_pull_request: 'pulls',
  reopen_pull_request: 'pulls',
  auto_merge_pull_request: 'pulls',
};

/**
 * A repository's active watchers (normal or auto) other than the actor who have not blocked the actor,
 * with their user rows, as a select-list expression (model/raw.ts jsonList) and its parameters.
 */
export function feedWatchersList(em: EntityManager, repoId: number, actorId: number): { sql: string; params: unknown[] } {
  return { sql: feedWatchersOver(em, '?', '?'), params: [repoId, actorId, actorId] };
}

/** The same over SQL expressions for the repository's and the actor's id (the actor's is used twice). */
export function feedWatchersOver(em: EntityManager, repoId: string, actorId: string): string {
  return jsonList(
    em,
    User,
    'u',
    `u.is_active
      and u.id in (select w.user_id from watch w where w.repo_id = ${repoId} and w.mode in (${WATCHING.join(',')}) and w.user_id <> ${actorId})
      and not exists (select 1 from blocked_user b where b.user_id = u.id and b.block_id = ${actorId})`,
  );
}

/** The users `feedWatchersList` selected. */
const feedWatchersOf = (em: EntityManager, list: unknown) => plainRows(em, User, list as unknown[]);

async function readFeedWatchers(em: EntityManager, repoId: number, actorId: number): Promise<Plain<IUser>[]> {
  const list = feedWatchersList(em, repoId, actorId);
  const [row] = await readRows<{ watchers: unknown }>(em, [Watch, BlockedUser, User], `select ${list.sql} as watchers`, list.params);
  return feedWatchersOf(em, row!.watchers);
}

/** What `feedWatchersList` selected, read early by the request, for its next activity of `actorId` in `repoId`. */
const FEED_WATCHERS = new Slot<{ repoId: number; actorId: number; users: Plain<IUser>[] }>("a feed's watchers, read early");

/** Keep what `feedWatchersList` selected, read now, for the next activity of `actorId` (lib/http/read-ahead.ts). */
export function keepFeedWatchers(em: EntityManager, ahead: ReadAhead, repoId: number, actorId: number, list: unknown): void {
  ahead.keep(FEED_WATCHERS, { repoId, actorId, users: feedWatchersOf(em, list) });
}

/** Users who should see the activity besides the actor and the organization: watchers who may read the unit. */
async function watcherIds(em: EntityManager, a: NewAction, owner: IUser, ahead: ReadAhead | undefined): Promise<number[]> {
  const users =
    ahead?.take(FEED_WATCHERS, (k) => k.repoId === a.repo.id && k.actorId === a.actUserId)?.users ??
    (await readFeedWatchers(em, a.repo.id, a.actUserId));
  if (!users.length) return [];
  const unit = UNIT_OF[a.op];
  return (unit ? await readersOf(em, a.repo, owner, users, unit, ahead) : users).map((u) => u.id);
}

/**
 * A queued write of feed rows, as values (lib/db/counters.ts WritePart): one row per receiver, in
 * their order; `numberOf` as in NewAction.
 */
export interface ActionsPart {
  readonly kind: 'actions';
  readonly op: number;
  readonly actUserId: number;
  readonly repoId: number;
  readonly commentId: number;
  readonly refName: string;
  readonly isPrivate: boolean;
  readonly content: string;
  readonly numberOf?: number;
  readonly at: Date;
  readonly receivers: readonly number[];
}

/**
 * Writes the activity into every feed that receives it; `ahead` and `writes` are the request's
 * read-ahead and write queue, if it comes from one.
 */
export async function recordAction(em: EntityManager, a: NewAction, ahead?: ReadAhead, writes?: WriteQueue): Promise<void> {
  const owner = await userById(em, a.repo.ownerId, ahead);
  if (!owner) return;
  const receivers = new Set([a.actUserId]);
  if (owner.type === 1 && owner.id !== a.actUserId) receivers.add(owner.id);
  for (const id of await watcherIds(em, a, owner, ahead)) receivers.add(id);
  // One row per receiver, in their order, from one fixed statement (model/sql.ts executeSql), or part
  // of the statement before COMMIT (lib/db/counters.ts tailWrite).
  const at = new Date();
  const head = [OpType[a.op], a.actUserId, a.repo.id, a.commentId ?? 0, a.refName ?? '', a.repo.isPrivate];
  const tail = [a.content ?? '', at, intArray(receivers)];
  const part: ActionsPart = {
    kind: 'actions',
    op: OpType[a.op],
    actUserId: a.actUserId,
    repoId: a.repo.id,
    commentId: a.commentId ?? 0,
    refName: a.refName ?? '',
    isPrivate: a.repo.isPrivate,
    content: a.content ?? '',
    numberOf: a.numberOf,
    at,
    receivers: [...receivers],
  };
  if (a.numberOf === undefined) await tailWrite(em, writes, 'action', INSERT_ACTIONS, [...head, ...tail], part);
  else await tailWrite(em, writes, 'action', INSERT_NUMBERED_ACTIONS, [...head, a.numberOf, ...tail], part);
}

const actionsInsert = (
  content: string,
) => `insert into "action" (user_id, op_type, act_user_id, repo_id, comment_id, ref_name, is_private, content, created_at)
  select r.uid, ?::smallint, ?::int, ?::int, ?::int, ?::varchar, ?::boolean, ${content}, ?::timestamptz
  from unnest(?::int[]) with ordinality as r(uid, n) order by r.n`;
const INSERT_ACTIONS = actionsInsert('?::text');
/** `content` after the number of the issue whose id comes before it (`NewAction.numberOf`). */
const INSERT_NUMBERED_ACTIONS = actionsInsert(`(select i.index || '|' from issue i where i.id = ?::int) || ?::text`);

/** `<index>|<text>`: the issue an activity is about, as Forgejo's GetIssueInfos reads it. */
const issueContent = (index: number, text: string) => `${index}|${text}`;

/** Forgejo cuts a comment to 200 bytes, and drops a broken last word of a Latin-script text. */
export function truncateComment(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= 200) return text;
  let cut = bytes
    .subarray(0, 200)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
  const space = cut.lastIndexOf(' ');
  if (space !== -1 && Buffer.byteLength(cut, 'utf8') - Buffer.byteLength(cut.slice(0, space), 'utf8') < 15) cut = `${cut.slice(0, space)}…`;
  return cut;
}

// ---- event subscribers -------------------------------------------------------------------------

/** Forgejo's repository.PushCommit as it marshals it into `content`. */
const pushCommitJson = (c: PushCommit) => ({
  Sha1: c.sha,
  Message: c.message,
  AuthorEmail: c.author.email,
  AuthorName: c.author.name,
  CommitterEmail: c.committer.email,
  CommitterName: c.committer.name,
  Timestamp: c.timestamp,
});

/** Forgejo stores full ref names; `create`/`delete` events carry the short one. */
const branchRef = (ref: string) => (ref.startsWith('refs/') ? ref : `refs/heads/${ref}`);

const isZeroOid = (oid: string) => /^0+$/.test(oid);

/** `recordAction` for one event's request. */
type Record1 = (a: NewAction) => Promise<void>;

async function onPush(record: Record1, ev: EventOf<'push'>) {
  const tag = ev.ref.startsWith('refs/tags/');
  const deleted = isZeroOid(ev.after);
  // A deleted branch is recorded from its `delete` event (Forgejo's DeleteRef).
  if (deleted && !tag) return;
  const op: OpName = tag ? (deleted ? 'delete_tag' : 'push_tag') : 'commit_repo';
  const pc = await ev.commits();
  const compare = isZeroOid(ev.before) || deleted ? '' : `${ev.repo.ownerName}/${ev.repo.name}/compare/${ev.before}...${ev.after}`;
  const content = JSON.stringify({
    HeadCommit: pc.head ? pushCommitJson(pc.head) : null,
    Commits: pc.commits.map(pushCommitJson),
    CompareURL: compare,
    Len: pc.total,
  });
  await record({ op, actUserId: ev.sender.id, repo: ev.repo, refName: ev.ref, content });
}

/** The close or reopen comment just written for the issue, which Forgejo links to the activity. */
async function statusCommentId(em: EntityManager, issueId: number, closed: boolean): Promise<number> {
  const c = await em.findOne(Comment, { issueId, type: closed ? CommentType.close : CommentType.reopen }, { orderBy: { id: 'desc' } });
  return c?.id ?? 0;
}

async function onIssueOrPull(em: EntityManager, record: Record1, ev: EventOf<'issues'> | EventOf<'pull_request'>) {
  const pull = ev.name === 'pull_request';
  const { issue, repo, sender } = ev;
  if (ev.action === 'opened') {
    const op = pull ? 'create_pull_request' : 'create_issue';
    if (numberPending(issue)) await record({ op, actUserId: sender.id, repo, content: issue.title, numberOf: issue.id });
    else await record({ op, actUserId: sender.id, repo, content: issueContent(issue.index, issue.title) });
  } else if (ev.action === 'closed' && pull && ev.pull.hasMerged) {
    await record({ op: 'merge_pull_request', actUserId: sender.id, repo, content: issueContent(issue.index, issue.title) });
  } else if (ev.action === 'closed' || ev.action === 'reopened') {
    const closed = ev.action === 'closed';
    const op: OpName = pull ? (closed ? 'close_pull_request' : 'reopen_pull_request') : closed ? 'close_issue' : 'reopen_issue';
    await record({
      op,
      actUserId: sender.id,
      repo,
      content: issueContent(issue.index, ''),
      commentId: await statusCommentId(em, issue.id, closed),
    });
  }
}

async function onReview(em: EntityManager, record: Record1, ev: EventOf<'pull_request_review'>) {
  const { review } = ev;
  // Forgejo skips a plain comment review without a body.
  if (ev.action === 'comment' && !review.content.trim()) return;
  const op: OpName = ev.action === 'approved' ? 'approve_pull_request' : ev.action === 'rejected' ? 'reject_pull_request' : 'comment_pull';
  const c = await em.findOne(Comment, { issueId: ev.issue.id, type: CommentType.review, reviewId: review.id }, { orderBy: { id: 'desc' } });
  await record({
    op,
    actUserId: ev.sender.id,
    repo: ev.repo,
    commentId: c?.id ?? 0,
    content: issueContent(ev.issue.index, review.content.split('\n')[0]),
  });
}

/** Issue and pull activities are about `<index>|...`: Forgejo's DeleteIssueActions drops them with the issue. */
const ISSUE_OPS: OpName[] = [
  'create_issue',
  'create_pull_request',
  'comment_issue',
  'comment_pull',
  'close_issue',
  'reopen_issue',
  'close_pull_request',
  'reopen_pull_request',
  'merge_pull_request',
  'approve_pull_request',
  'reject_pull_request',
  'pull_review_dismissed',
  'pull_request_ready_for_review',
  'auto_merge_pull_request',
];

async function forgetIssue(em: EntityManager, repoId: number, index: number) {
  await em.nativeDelete(Action, { repoId, opType: { $in: ISSUE_OPS.map((o) => OpType[o]) }, content: { $like: `${index}|%` } });
}

/** Records what one repository event adds to the feeds (Forgejo's actionNotifier). */
export async function recordEvent(em: EntityManager, ev: RepoEvent, ahead?: ReadAhead, writes?: WriteQueue): Promise<void> {
  const record: Record1 = (a) => recordAction(em, a, ahead, writes);
  const base = { actUserId: ev.sender.id, repo: ev.repo };
  switch (ev.name) {
    case 'push':
      return onPush(record, ev);
    // A new tag is already recorded from its push (Forgejo's CreateRef skips tags).
    case 'create':
      if (ev.refType === 'branch') await record({ ...base, op: 'commit_repo', refName: branchRef(ev.ref) });
      return;
    case 'delete':
      if (ev.refType === 'branch') await record({ ...base, op: 'delete_branch', refName: branchRef(ev.ref) });
      return;
    case 'issues':
    case 'pull_request':
      if (ev.action === 'deleted') return forgetIssue(em, ev.repo.id, ev.issue.index);
      return onIssueOrPull(em, record, ev);
    case 'issue_comment': {
      if (ev.action !== 'created') return;
      const content = issueContent(ev.issue.index, truncateComment(ev.comment.content));
      await record({ ...base, op: ev.issue.isPull ? 'comment_pull' : 'comment_issue', commentId: ev.comment.id, content });
      return;
    }
    case 'pull_request_review':
      return onReview(em, record, ev);
    case 'release':
      if (ev.action === 'published')
        await record({ ...base, op: 'publish_release', content: ev.release.title, refName: ev.release.tagName });
      return;
    case 'repository':
      // A fork is recorded from its `fork` event, which comes with this one (Forgejo's ForkRepository).
      if (ev.action === 'created' && !ev.repo.isFork) await record({ ...base, op: 'create_repo' });
      // Forgejo deletes a repository's activities with it.
      if (ev.action === 'deleted') await em.nativeDelete(Action, { repoId: ev.repo.id });
      return;
    case 'fork':
      return record({ ...base, op: 'create_repo', repo: ev.fork });
    case 'wiki':
      return;
  }
}

onEvent('*', (em, ctx, ev) => recordEvent(em, ev, ctx.ahead, ctx.writes));

// ---- queries -----------------------------------------------------------------------------------

/** What one feed asks for (Forgejo's GetFeedsOptions). `user` is the team's organization for team feeds. */
export interface FeedQuery {
  user?: IUser;
  team?: ITeam;
  repo?: IRepository;
  includePrivate: boolean;
  /** Only what `user` did. */
  onlyPerformedBy?: boolean;
  /** Only the actor's own copy of each activity (one row per activity). */
  onlyPerformedByActor?: boolean;
  /** `YYYY-MM-DD`; a value that does not parse is ignored, as Forgejo does. */
  date?: string | null;
}

/**
 * Whose activities the caller may see (Forgejo's activityQueryCondition): anonymous callers and
 * public-only tokens those of public users who show their activity; signed-in callers also limited
 * users, themselves, and the organization asked about or the organizations of the user asked about.
 */
function actorCondition(c: Caller, q: FeedQuery): Sql | null {
  if (c.siteAdmin) return null;
  if (!c.doer || c.token?.publicOnly) {
    return sql`a.act_user_id in (select u.id from "user" u where not u.hide_activity and u.visibility = 'public')`;
  }
  const extra = !q.user
    ? sql`false`
    : q.user.type === 1
      ? sql`u.id = ${q.user.id}`
      : sql`u.type = 1 and u.id in (select tu.org_id from team_user tu where tu.uid = ${q.user.id})`;
  return sql`a.act_user_id in (select u.id from "user" u where (not u.hide_activity and u.visibility in ('public', 'limited')) or u.id = ${c.doer.id} or (${extra}))`;
}

function teamRepos(team: ITeam): Sql {
  return team.includesAllRepositories
    ? sql`r.owner_id = ${team.orgId}`
    : sql`a.repo_id in (select tr.repo_id from team_repo tr where tr.team_id = ${team.id})`;
}

/** The UTC day named by `YYYY-MM-DD`, or null. */
export function dayRange(date: string): [Date, Date] | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const start = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (start.getUTCDate() !== Number(m[3]) || start.getUTCMonth() !== Number(m[2]) - 1) return null;
  return [start, new Date(start.getTime() + 86_400_000)];
}

/** WHERE over `action a join repository r`. */
function feedCondition(c: Caller, q: FeedQuery): Sql {
  const parts: Sql[] = [];
  if (q.onlyPerformedByActor) parts.push(sql`a.user_id = a.act_user_id`);
  const actor = actorCondition(c, q);
  if (actor) parts.push(actor);
  // The caller must reach the repository (token kinds included: public-only and repo-specific tokens
  // give no administrator view, spec "token kinds").
  parts.push(reachableRepos(c));
  if (q.repo) parts.push(sql`a.repo_id = ${q.repo.id}`);
  if (q.team) parts.push(teamRepos(q.team));
  if (q.user) {
    parts.push(sql`a.user_id = ${q.user.id}`);
    if (q.onlyPerformedBy) parts.push(sql`a.act_user_id = ${q.user.id}`);
  }
  if (!q.includePrivate) parts.push(sql`not r.is_private`);
  const day = q.date ? dayRange(q.date) : null;
  if (day) parts.push(sql`a.created_at >= ${day[0]} and a.created_at < ${day[1]}`);
  return allOf(parts);
}

/** One page of a feed, newest first, and the number of rows in it. */
export async function findFeeds(em: EntityManager, c: Caller, q: FeedQuery, page: Page): Promise<{ rows: IAction[]; total: number }> {
  const where = feedCondition(c, q);
  const from = sql`action a join repository r on r.id = a.repo_id`;
  const count = await executeSql<{ n: number }>(em, sql`select count(*)::int as n from ${from} where ${where}`);
  const ids = await executeSql<{ id: number }>(
    em,
    sql`select a.id from ${from} where ${where} order by a.created_at desc, a.id desc limit ${page.limit} offset ${page.offset}`,
  );
  const found = ids.length ? await em.find(Action, { id: { $in: ids.map((r) => Number(r.id)) } }) : [];
  const byId = new Map(found.map((a) => [a.id, a]));
  return { rows: ids.map((r) => byId.get(Number(r.id))).filter((a): a is IAction => !!a), total: Number(count[0]?.n ?? 0) };
}

/** Forgejo's ActivityReadable: a user who hides their activity shows it only to themself and admins. */
export const activityReadable = (user: IUser, c: Caller) => !user.hideActivity || (!!c.doer && (c.siteAdmin || c.doer.id === user.id));

/** 371 days: the 53 full weeks a heatmap shows. */
const HEATMAP_DAYS = 371;

/**
 * Forgejo's GetUserHeatmapDataByUser: contributions per 15-minute bucket (Unix seconds, so a client
 * can shift them into its time zone) over the last 371 days. A user's own actions count; for an
 * organization, everything in its feed.
 */
export async function heatmapOf(em: EntityManager, c: Caller, user: IUser): Promise<{ timestamp: number; contributions: number }[]> {
  if (!activityReadable(user, c)) return [];
  const where = allOf([
    feedCondition(c, { user, includePrivate: true, onlyPerformedBy: user.type !== 1 }),
    sql`a.created_at >= ${new Date(Date.now() - HEATMAP_DAYS * 86_400_000)}`,
  ]);
  const rows = await executeSql<{ ts: number; n: number }>(
    em,
    sql`select (floor(extract(epoch from a.created_at) / 900) * 900)::bigint as ts, count(*)::int as n
       from action a join repository r on r.id = a.repo_id where ${where} group by ts order by ts`,
  );
  return rows.map((r) => ({ timestamp: Number(r.ts), contributions: Number(r.n) }));
}

/** Repositories of a page of activities, by id (the join guarantees they exist). */
export async function actionRepos(em: EntityManager, rows: IAction[]): Promise<Map<number, IRepository>> {
  const ids = [...new Set(rows.map((a) => a.repoId))];
  const repos = ids.length ? await em.find(Repository, { id: { $in: ids } }) : [];
  return new Map(repos.map((r) => [r.id, r]));
}

/** One activity as ActivityPub serves it, with what its note names. */
export interface PublicActivity {
  action: IAction;
  repo: IRepository;
  owner: IUser;
  comment: IComment | null;
}

/**
 * Activity `id` of `user`'s own feed, when a remote server may read it (Forgejo's getActivity and
 * Action.IsActionPrivate): the user's own row of something the user did, in a public repository whose
 * owner is public and shows their activity, by a user who is public and shows theirs. Anything else
 * reads as absent.
 */
export async function publicActivityOf(em: EntityManager, user: IUser, id: number): Promise<PublicActivity | null> {
  if (user.visibility !== 'public' || user.hideActivity) return null;
  const action = await em.findOne(Action, { id, userId: user.id, actUserId: user.id });
  if (!action || action.isPrivate) return null;
  const repo = await em.findOne(Repository, { id: action.repoId });
  if (!repo || repo.isPrivate) return null;
  const owner = repo.ownerId === user.id ? user : await userById(em, repo.ownerId);
  if (!owner || owner.visibility !== 'public' || owner.hideActivity) return null;
  const comment = action.commentId > 0 ? await em.findOne(Comment, { id: action.commentId }) : null;
  return { action, repo, owner, comment };
}
