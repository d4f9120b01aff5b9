// Issues and pulls share one record (model/issue.ts). This module holds what every issue route needs:
// finding the issue of `{index}` the caller may read, the poster-or-writer rule, creating an issue with
// the next number, timeline events, and recounting the derived totals in SQL (safe with several processes).
import type { EntityData, EntityManager, EntityName } from '@mikro-orm/core';
import { Comment, CommentType, Issue, IssueAssignee, IssueLabel, type IComment, type IIssue } from '../../model/issue.ts';
import type { IRepository } from '../../model/repo.ts';
import { isSiteAdmin, need, type RequestState } from '../http/request.ts';
import { addCounters, applyCounters, learnCountersOf, lockCounterRows, WriteQueue } from '../db/counters.ts';
import { intArray, mapPrefixed, plainPrefixed, plainRows, prefixedColumns, textOf, type Plain } from '../../model/raw.ts';
import { executeSql, readRows, sql, writeSql } from '../../model/sql.ts';
import { Slot, type ReadAhead } from '../http/read-ahead.ts';
import type { ActionsPart, ThreadsPart } from '../activity/index.ts';
import type { CounterRow, FirstWrite, Write } from '../db/counters.ts';

/** Forgejo truncates titles to 255 bytes (forgejo-facts 9), on a character boundary. */
export function truncateTitle(title: string): string {
  const buf = Buffer.from(title, 'utf8');
  if (buf.length <= 255) return title;
  let s = buf.subarray(0, 255).toString('utf8');
  if (s.endsWith('\uFFFD')) s = s.slice(0, -1);
  return s;
}

/** Whether the caller may read the unit an issue belongs to (issues, or pulls for a pull request). */
export function canReadIssue(s: Pick<RequestState, 'repo' | 'auth'>, issue: Pick<IIssue, 'isPull'>): boolean {
  const { perm } = need(s.repo, 'repo');
  const unit = issue.isPull ? 'pulls' : 'issues';
  return perm.canRead(unit) || (perm.unitEnabled(unit) && isSiteAdmin(s));
}

/** Forgejo's CanWriteIssuesOrPulls. */
export function canWriteIssues(s: Pick<RequestState, 'repo' | 'auth'>, isPull: boolean): boolean {
  const { perm } = need(s.repo, 'repo');
  const unit = isPull ? 'pulls' : 'issues';
  return perm.canWrite(unit) || (perm.unitEnabled(unit) && isSiteAdmin(s));
}

/**
 * Poster or writer: the poster of an issue or comment, or a writer of the issue's unit, may change it
 * (Forgejo's EditIssue, EditIssueComment and their attachment routes). The one implementation of the
 * rule; the POSTER_OR_WRITER guard applies it.
 */
export function isPosterOrWriter(s: Pick<RequestState, 'repo' | 'auth'>, posterId: number, isPull: boolean): boolean {
  return (!!s.auth.doer && s.auth.doer.id === posterId) || canWriteIssues(s, isPull);
}

/** The poster of an issue, or a writer of its unit, may change it (Forgejo's EditIssue rule). */
export function canEditIssue(s: Pick<RequestState, 'repo' | 'auth'>, issue: IIssue): boolean {
  return isPosterOrWriter(s, issue.posterId, issue.isPull);
}

/**
 * Forgejo's SetIssueUpdateDate range: a chosen update time may not lie before the issue's creation
 * (stored in whole seconds) nor in the future. The one implementation; UPDATE_DATE applies it.
 */
export function allowedUpdateDate(issue: Pick<IIssue, 'createdAt'>, t: Date, now = Date.now()): boolean {
  return t.getTime() >= Math.floor(issue.createdAt.getTime() / 1000) * 1000 && t.getTime() <= now;
}

/** Forgejo stores a chosen update time as a unix timestamp: whole seconds. */
export const wholeSecondsOf = (t: Date): Date => new Date(Math.floor(t.getTime() / 1000) * 1000);

/** A positive 64-bit-safe integer path parameter, or null. */
export function positiveInt(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const n = Number(raw);
  return n > 0 && n <= 2 ** 31 - 1 ? n : null;
}

const ISSUE_BY_INDEX = 'select * from issue where repo_id = ? and "index" = ?';

/**
 * A select expression for a statement that reads something else as well (the caller's token,
 * lib/auth/tokens.ts): the issue with the number of its one placeholder in the repository `repoId` (an SQL
 * expression), as `prefixedColumns` selects it, for `keepIssueRead`.
 */
export const issueByIndexColumn = (em: EntityManager, repoId: string) =>
  `(select ${prefixedColumns(em, Issue, 'i')} from issue i where i.repo_id = ${repoId} and i."index" = ?::int) as "i"`;

/** The issue `issueByIndexColumn` selected (its row, null when none), for the request's first `findIssueByIndex` of it. */
const ISSUE_READ = new Slot<{ repoId: number; index: number; row: Record<string, unknown> }>('issue read with the token');

/**
 * Keeps the issue `issueByIndexColumn` selected in `row` (null when there is none) for the request's
 * first `findIssueByIndex` of that number (its ISSUE loader; lib/http/read-ahead.ts): one statement less
 * for every request below `{R}/issues/{index}` with a token.
 */
export function keepIssueRead(ahead: ReadAhead, repoId: number, index: number, row: Record<string, unknown>): void {
  ahead.keep(ISSUE_READ, { repoId, index, row });
}

/**
 * The issue numbered `index` of the repository, managed as `em.findOne` would give it, from one fixed
 * statement (model/sql.ts readRows); with `plain`, a plain object (mapping it into the
 * identity map was about a twentieth of the server's CPU of a new comment). Managed without `plain`;
 * with it, whether given or not, read-only (`Plain`).
 */
export async function findIssueByIndex(
  em: EntityManager,
  repoId: number,
  index: number,
  plain?: false,
  ahead?: ReadAhead,
): Promise<IIssue | null>;
export async function findIssueByIndex(
  em: EntityManager,
  repoId: number,
  index: number,
  plain?: boolean,
  ahead?: ReadAhead,
): Promise<Plain<IIssue> | null>;
export async function findIssueByIndex(
  em: EntityManager,
  repoId: number,
  index: number,
  plain = false,
  ahead?: ReadAhead,
): Promise<Plain<IIssue> | null> {
  const kept = ahead?.take(ISSUE_READ, (k) => k.repoId === repoId && k.index === index)?.row;
  if (kept) return (plain ? plainPrefixed : mapPrefixed)(em, Issue, kept, 'i');
  const [row] = await readRows<EntityData<IIssue>>(em, [Issue], ISSUE_BY_INDEX, [repoId, index]);
  if (!row) return null;
  return plain ? plainRows(em, Issue, [row])[0]! : em.map(Issue, row);
}

/**
 * The issue (or pull) numbered `rawIndex` in the loaded repository if the caller can read its unit;
 * else null. A plain object for a request that reads its context plain (lib/http/handler.ts plainContext).
 */
export async function findReadableIssue(s: RequestState, rawIndex: string | undefined): Promise<Plain<IIssue> | null> {
  const index = positiveInt(rawIndex);
  const issue = index === null ? null : await findIssueByIndex(s.em, need(s.repo, 'repo').repo.id, index, s.plainContext, s.ahead);
  return issue && canReadIssue(s, issue) ? issue : null;
}

/**
 * The comment `id` with its issue, when that issue belongs to the loaded repository and the caller may
 * read its unit (spec, comment paths); null otherwise, so every miss is the same 404.
 */
export async function findReadableComment(
  s: RequestState,
  rawId: string | undefined,
): Promise<{ comment: IComment; issue: IIssue } | null> {
  const id = positiveInt(rawId);
  const comment = id === null ? null : await s.em.findOne(Comment, { id });
  const issue = comment ? await s.em.findOne(Issue, { id: comment.issueId }) : null;
  if (!comment || !issue || issue.repoId !== need(s.repo, 'repo').repo.id || !canReadIssue(s, issue)) return null;
  return { comment, issue };
}

export interface NewIssue {
  repo: IRepository;
  posterId: number;
  title: string;
  content?: string;
  ref?: string;
  isPull?: boolean;
  isClosed?: boolean;
  milestoneId?: number;
  deadline?: Date | null;
  labelIds?: number[];
  assigneeIds?: number[];
  /** Migrations: the author on the source instance and the original times. */
  originalAuthor?: string;
  originalAuthorId?: number;
  createdAt?: Date;
  updatedAt?: Date;
  closedAt?: Date | null;
  /** Migrations keep the source's numbers; the sequence is raised past them. */
  index?: number;
  /** A user who watches the new issue (its poster, for an issue opened through the API). */
  watcherId?: number;
  /**
   * Nothing changes the new issue's row after its insert (no milestone, labels, assignees or closing
   * follow): it is given as a plain object, not a managed entity.
   */
  plain?: boolean;
  /** The id the new row takes, drawn from the table's sequence beforehand (`nextIdOf`); else the insert draws it. */
  id?: number;
  /**
   * With `plain` and `id`: the number and the row are taken by a statement that goes with COMMIT (see
   * `numberAtCommit`) on `writes`.
   */
  numberAtCommit?: boolean;
  /**
   * The request's write queue (lib/db/counters.ts): the new issue's counter increments wait on it until
   * the end. Only for an issue nothing recounts after (`plain`), so no later lock comes out of order;
   * without it they are written at once.
   */
  writes?: WriteQueue;
}

/** A new row whose id can be drawn before its insert (lib/issues/events.ts newRowEarly). */
export type NewRowKind = 'issue' | 'comment';
/** The next id of the table's sequence, as an SQL expression. */
export const nextIdOf = (kind: NewRowKind) => `nextval('${kind}_id_seq')::int`;

/**
 * The columns of a new issue row, in the order of `ISSUE_COLUMNS`. A new issue has no comments, pin or
 * lock (the columns' defaults).
 */
const ISSUE_COLUMNS = [
  'repo_id',
  'poster_id',
  'original_author',
  'original_author_id',
  'title',
  'content',
  'ref',
  'milestone_id',
  'is_pull',
  'is_closed',
  'deadline',
  'closed_at',
  'created_at',
  'updated_at',
];
function issueValues(n: NewIssue): unknown[] {
  const now = new Date();
  return [
    n.repo.id,
    n.posterId,
    n.originalAuthor ?? '',
    n.originalAuthorId ?? 0,
    truncateTitle(n.title),
    n.content ?? '',
    n.ref ?? '',
    n.milestoneId ?? 0,
    n.isPull ?? false,
    n.isClosed ?? false,
    n.deadline ?? null,
    n.isClosed ? (n.closedAt ?? now) : null,
    n.createdAt ?? now,
    n.updatedAt ?? n.createdAt ?? now,
  ];
}

/**
 * A statement that inserts one row, as a CTE list in which `x` is the row (`returning *`) and its
 * parameters: `with ${ctes} select * from x` inserts it, and a caller may select more in the same
 * statement (lib/issues/events.ts insertWithEventEarly).
 */
export interface RowInsert {
  ctes: string;
  params: unknown[];
}
/** Runs a `RowInsert` and gives its row. */
type InsertRow = (insert: RowInsert) => Promise<Record<string, unknown>>;

/** A `RowInsert` run as a statement of its own. */
export const insertAlone =
  (em: EntityManager): InsertRow =>
  async (insert) =>
    (await executeSql(em, insertText(insert), insert.params))[0]!;

/** `with ${ctes} select * from x`, one string per text of CTEs (model/raw.ts textOf). */
const insertText = (insert: RowInsert) => textOf([insert.ctes], () => `with ${insert.ctes} select * from x`);

/**
 * The number and the row of a new issue in one statement: the number's row lock on
 * `resource_index` is held until COMMIT and every other writer of the repository waits for it, so it is
 * taken by the insert itself, with the poster's watch (`watcherId`) in the same statement.
 */
const NUMBERED_CTES = `n as (
    insert into resource_index (kind, group_id, max_index) values ('issue', ?, 1)
    on conflict (kind, group_id) do update set max_index = resource_index.max_index + 1
    returning max_index
  ), x as (
    insert into issue (id, index, ${ISSUE_COLUMNS.join(', ')})
    values (coalesce(?::int, ${nextIdOf('issue')}), (select max_index from n), ${ISSUE_COLUMNS.map(() => '?').join(', ')})
    returning *
  ), w as (
    insert into issue_watch (user_id, issue_id, is_watching, created_at, updated_at)
    select ?::int, x.id, true, x.created_at, x.created_at from x where ?::int > 0
    on conflict (user_id, issue_id) do update set is_watching = true, updated_at = excluded.updated_at where not issue_watch.is_watching
  )`;

/**
 * Insert an issue with the repository's next number (shared with pulls), its labels and assignees;
 * `watcherId` (the poster, for a new issue of the API) watches it. A numbered row is inserted by
 * `insertRow` (POST {R}/issues reads its event's early reads in the same statement). Managed without
 * `plain`; with it, whether set or not, read-only (`Plain`).
 */
export async function createIssue(em: EntityManager, n: NewIssue & { plain?: false }, insertRow?: InsertRow): Promise<IIssue>;
export async function createIssue(em: EntityManager, n: NewIssue, insertRow?: InsertRow): Promise<Plain<IIssue>>;
export async function createIssue(em: EntityManager, n: NewIssue, insertRow = insertAlone(em)): Promise<Plain<IIssue>> {
  let issue: Plain<IIssue>;
  if (n.index === undefined) {
    await em.flush();
    const values = issueValues(n);
    const insert = { ctes: NUMBERED_CTES, params: [n.repo.id, n.id ?? null, ...values, n.watcherId ?? 0, n.watcherId ?? 0] };
    const later = n.plain && n.id && n.numberAtCommit && n.writes ? numberAtCommit(em, n.writes, n.id, values, insert) : null;
    issue = later ?? (n.plain ? plainRows(em, Issue, [await insertRow(insert)])[0]! : em.map(Issue, await insertRow(insert)));
  } else {
    await raiseIndex(em, n.repo.id, n.index);
    const now = new Date();
    issue = em.create(Issue, {
      repoId: n.repo.id,
      index: n.index,
      posterId: n.posterId,
      title: truncateTitle(n.title),
      content: n.content ?? '',
      ref: n.ref ?? '',
      isPull: n.isPull ?? false,
      isClosed: n.isClosed ?? false,
      milestoneId: n.milestoneId ?? 0,
      deadline: n.deadline ?? null,
      originalAuthor: n.originalAuthor ?? '',
      originalAuthorId: n.originalAuthorId ?? 0,
      createdAt: n.createdAt ?? now,
      updatedAt: n.updatedAt ?? n.createdAt ?? now,
      closedAt: n.isClosed ? (n.closedAt ?? now) : null,
    });
    await em.flush();
    if (n.watcherId) await watchIssue(em, issue.id, n.watcherId);
  }
  const labelIds = [...new Set(n.labelIds ?? [])];
  for (const labelId of labelIds) em.create(IssueLabel, { issueId: issue.id, labelId });
  for (const assigneeId of new Set(n.assigneeIds ?? [])) em.create(IssueAssignee, { issueId: issue.id, assigneeId });
  await em.flush();
  // The new row raises the totals by one (lib/db/counters.ts: increments, queued until the end on
  // `writes`, else written now, in one statement, rows in the lock order).
  const closed = issue.isClosed ? 1 : 0;
  const writes = n.writes ?? new WriteQueue();
  if (!closed) writes.addCounters('repository', n.repo.id, { [issue.isPull ? 'num_open_pulls' : 'num_open_issues']: 1 }, {});
  for (const id of labelIds.filter((l) => l > 0)) writes.addCounters('label', id, { num_issues: 1, num_closed_issues: closed }, {});
  if (issue.milestoneId > 0) writes.addCounters('milestone', issue.milestoneId, { num_issues: 1, num_closed_issues: closed }, {});
  if (!n.writes) await applyCounters(em, writes);
  return issue;
}

/** Issues whose number is taken with COMMIT (`numberAtCommit`): their `index` is 0 until then. */
const unnumbered = new WeakSet<Plain<IIssue>>();

/** Whether the issue's number is still to be taken, with COMMIT (lib/activity/feeds.ts then reads it in SQL). */
export const numberPending = (issue: Plain<IIssue>): boolean => unnumbered.has(issue);

/**
 * A plain row (model/raw.ts Plain) standing for the row a queued write will insert, until the write
 * answers: `queueFirst` then replaces its fields with the inserted row's, once. Mutable for that alone,
 * which is safe: it is never managed nor flushed, so the change writes nothing, and it makes the object
 * its readers hold (as `Plain<T>`) the row as inserted.
 */
type Provisional<T> = T;

/**
 * A new issue's number, row and watch as the first statement sent at the end (lib/db/counters.ts
 * WriteQueue firstWrite). The number's
 * row lock on `resource_index` makes every other writer of the repository wait until COMMIT; taken
 * with COMMIT, it is held for PostgreSQL's part of one round trip instead of the request's work between
 * two (on one repository, 64 connections made 20-30 % more new issues a second, each with
 * less CPU, once the lock no longer waited for an event-loop turn). Until then the issue is the row as it will be inserted (`id` drawn
 * beforehand, the columns' defaults, `index` 0), which is what its event's notification threads and
 * feed rows need; the feed row reads the number in SQL. The inserted row replaces it when the
 * statement answers.
 */
function numberAtCommit(em: EntityManager, writes: WriteQueue, id: number, values: unknown[], insert: RowInsert): Plain<IIssue> {
  const columns: Record<string, unknown> = { id, index: 0, is_locked: false, num_comments: 0, pin_order: 0 };
  ISSUE_COLUMNS.forEach((c, i) => {
    columns[c] = values[i];
  });
  const issue: Provisional<IIssue> = plainRows(em, Issue, [columns])[0]!;
  queueFirst(em, writes, Issue, insert, issue, () => unnumbered.delete(issue), newIssueCall(id, values, insert));
  unnumbered.add(issue);
  return issue;
}

/** The user watches the issue: one upsert (the pair is unique); a row that watches already is left as it is. */
export async function watchIssue(em: EntityManager, issueId: number, userId: number): Promise<void> {
  const now = new Date();
  await writeSql(
    em,
    sql`insert into issue_watch (user_id, issue_id, is_watching, created_at, updated_at) values (${userId}, ${issueId}, true, ${now}, ${now})
    on conflict (user_id, issue_id) do update set is_watching = true, updated_at = excluded.updated_at where not issue_watch.is_watching`,
  );
}

/** Make sure the next allocated number is above `index` (migrations keep the source's numbers). */
export async function raiseIndex(em: EntityManager, repoId: number, index: number): Promise<void> {
  await writeSql(
    em,
    sql`insert into resource_index (kind, group_id, max_index) values ('issue', ${repoId}, ${index})
     on conflict (kind, group_id) do update set max_index = greatest(resource_index.max_index, excluded.max_index)`,
  );
}

/** Add a timeline event or comment to an issue; plain comments also raise the issue's comment count. */
export async function addComment(
  em: EntityManager,
  issue: IIssue,
  posterId: number,
  type: number,
  fields: Partial<IComment> = {},
): Promise<IComment> {
  const comment = em.create(Comment, { ...fields, type, issueId: issue.id, posterId } as IComment);
  await em.flush();
  if (type === CommentType.comment) await recountComments(em, issue);
  return comment;
}

const INSERT_COMMENT = `x as (insert into comment (id, type, issue_id, poster_id, content, created_at, updated_at)
  values (coalesce(?::int, ${nextIdOf('comment')}), ?::smallint, ?::int, ?::int, ?::text, ?::timestamptz, ?::timestamptz) returning *)`;

/**
 * The statement that inserts a plain comment, as `em.create` and a flush would (the other columns take
 * their defaults), returning its row: a fixed text (model/sql.ts executeSql), which `em.map` makes the
 * managed entity. `id`: drawn beforehand (lib/issues/events.ts newRowEarly), else by the insert. Its
 * count is the caller's (`countNewComment` or `recountComments`).
 */
export function commentInsert(issue: IIssue, posterId: number, content: string, id: number | null = null): RowInsert {
  const now = new Date();
  return { ctes: INSERT_COMMENT, params: [id, CommentType.comment, issue.id, posterId, content, now, now] };
}

/**
 * A plain comment whose row goes at the end, as the first statement sent then (lib/db/counters.ts
 * WriteQueue firstWrite): its id was drawn
 * beforehand, so its event's notification threads and feed rows need nothing of the insert's answer,
 * and the statement that inserts it takes no round trip of its own. Until then the comment
 * is what the insert will write (`insert`, made by `commentInsert` with that id); the inserted row
 * replaces it when the statement answers.
 */
export function commentAtCommit(em: EntityManager, writes: WriteQueue, insert: RowInsert): Plain<IComment> {
  const [id, type, issueId, posterId, content, createdAt, updatedAt] = insert.params;
  const comment: Provisional<IComment> = plainRows(em, Comment, [
    { id, type, issue_id: issueId, poster_id: posterId, content, created_at: createdAt, updated_at: updatedAt },
  ])[0]!;
  queueFirst(em, writes, Comment, insert, comment, undefined, newCommentCall(insert));
  return comment;
}

const NEW_ISSUE_CALL = `select * from cairn_new_issue(?::int, ?::int, ?::int, ?::text, ?::text, ?::text, ?::timestamptz,
  ?::timestamptz, ?::timestamptz, ?::int,
  ?::int, ?::int[], ?::int, ?::boolean, ?::timestamptz,
  ?::int[], ?::smallint, ?::boolean, ?::text, ?::timestamptz)`;

/** The tail writes a database function call can stand for: at most one set of threads and one of feed rows; null for anything else. */
function tailParts(tails: readonly Write[]): { threads?: ThreadsPart; actions?: ActionsPart } | null {
  let threads: ThreadsPart | undefined;
  let actions: ActionsPart | undefined;
  for (const t of tails) {
    if (t.part?.kind === 'threads' && !threads) threads = t.part as ThreadsPart;
    else if (t.part?.kind === 'actions' && !actions) actions = t.part as ActionsPart;
    else return null;
  }
  return { threads, actions };
}

/**
 * A new plain issue's queued writes as one call of the database function cairn_new_issue (migration
 * HotWriteFunctions): its number, row and watch, its notification threads (the repository's watchers,
 * or listed users), its feed rows, then the repository's open-issue count. Null (the queue sends them as
 * they are) for an issue with more than the function writes, and for anything else queued with it.
 */
function newIssueCall(id: number, values: unknown[], insert: RowInsert): FirstWrite['combine'] {
  const [repoId, posterId, originalAuthor, originalAuthorId, title, content, ref, milestoneId, isPull, isClosed, deadline, closedAt] =
    values;
  const [createdAt, updatedAt] = values.slice(12);
  const watcherId = insert.params.at(-1) as number;
  const plain = originalAuthor === '' && originalAuthorId === 0 && milestoneId === 0 && isPull === false && isClosed === false;
  return (tails: readonly Write[], counters: readonly CounterRow[]): Write | null => {
    if (!plain || closedAt !== null) return null;
    const [count] = counters;
    if (counters.length !== 1 || count!.table !== 'repository' || count!.id !== repoId || count!.set.size !== 0) return null;
    if (count!.add.size !== 1 || count!.add.get('num_open_issues') !== 1) return null;
    const parts = tailParts(tails);
    if (!parts) return null;
    const { threads, actions } = parts;
    if (threads && (threads.users === 'followers' || threads.issueId !== id || threads.commentId !== 0 || threads.doerId !== posterId))
      return null;
    if (threads && threads.repoId !== repoId) return null;
    if (actions && (actions.numberOf !== id || actions.actUserId !== posterId || actions.repoId !== repoId)) return null;
    if (actions && (actions.commentId !== 0 || actions.refName !== '')) return null;
    const watchers = threads?.users === 'watchers';
    return {
      sql: NEW_ISSUE_CALL,
      prepared: true,
      hot: `repo:${repoId}`,
      params: [
        id,
        repoId,
        posterId,
        title,
        content,
        ref,
        deadline,
        createdAt,
        updatedAt,
        watcherId,
        threads ? (watchers ? 1 : 2) : 0,
        threads && !watchers ? intArray(threads.users as number[]) : null,
        threads?.source ?? 0,
        threads?.repoWatchers ?? false,
        threads?.at ?? null,
        actions ? intArray(actions.receivers) : null,
        actions?.op ?? 0,
        actions?.isPrivate ?? false,
        actions?.content ?? '',
        actions?.at ?? null,
      ],
    };
  };
}

const NEW_COMMENT_CALL = `select * from cairn_new_comment(?::int, ?::int, ?::int, ?::text, ?::timestamptz,
  ?::int, ?::int[], ?::int, ?::int, ?::int, ?::boolean, ?::timestamptz,
  ?::int[], ?::smallint, ?::varchar, ?::boolean, ?::text, ?::timestamptz, ?::timestamptz)`;

/**
 * A new comment's queued writes as one call of the database function cairn_new_comment (migration
 * HotWriteFunctions): its row, then its notification threads (every follower, or listed users), its
 * feed rows, then the issue's count and update time, which is what the queue would send as three
 * statements. Null (the queue sends them as they are) for anything else queued with it: threads of
 * another set or written twice (a mention), other feed rows, other counters.
 */
function newCommentCall(insert: RowInsert): FirstWrite['combine'] {
  const [id, , issueId, posterId, content, createdAt] = insert.params as [number, number, number, number, string, Date];
  return (tails: readonly Write[], counters: readonly CounterRow[]): Write | null => {
    const [count] = counters;
    const updatedAt = count?.set.get('updated_at');
    if (counters.length !== 1 || count!.table !== 'issue' || count!.id !== issueId || count!.add.size !== 1) return null;
    if (count!.add.get('num_comments') !== 1 || count!.set.size !== 1 || !(updatedAt instanceof Date)) return null;
    const parts = tailParts(tails);
    if (!parts) return null;
    const { threads, actions } = parts;
    if (threads && (threads.users === 'watchers' || threads.issueId !== issueId || threads.commentId !== id || threads.doerId !== posterId))
      return null;
    if (actions && (actions.numberOf !== undefined || actions.actUserId !== posterId || actions.commentId !== id)) return null;
    if (threads && actions && threads.repoId !== actions.repoId) return null;
    const all = threads?.users === 'followers';
    return {
      sql: NEW_COMMENT_CALL,
      prepared: true,
      hot: `issue:${issueId}`,
      params: [
        id,
        issueId,
        posterId,
        content,
        createdAt,
        threads ? (all ? 1 : 2) : 0,
        threads && !all ? intArray(threads.users as number[]) : null,
        threads?.repoId ?? actions?.repoId ?? 0,
        threads?.source ?? 0,
        threads?.issuePosterId ?? 0,
        threads?.repoWatchers ?? false,
        threads?.at ?? null,
        actions ? intArray(actions.receivers) : null,
        actions?.op ?? 0,
        actions?.refName ?? '',
        actions?.isPrivate ?? false,
        actions?.content ?? '',
        actions?.at ?? null,
        updatedAt,
      ],
    };
  };
}

/**
 * Queues `insert` as a first write (lib/db/counters.ts WriteQueue firstWrite): the row it answers
 * replaces the fields of `provisional` (a plain row of `entity`), then `answered` runs.
 */
function queueFirst<T extends object>(
  em: EntityManager,
  writes: WriteQueue,
  entity: EntityName<T>,
  insert: RowInsert,
  provisional: Provisional<T>,
  answered?: () => void,
  combine?: FirstWrite['combine'],
): void {
  const told = (rows: Record<string, unknown>[]) => {
    Object.assign(provisional, plainRows(em, entity, rows)[0]);
    answered?.();
  };
  writes.firstWrite({
    sql: insertText(insert),
    params: insert.params,
    answered: told,
    combine:
      combine &&
      ((tails, counters) => {
        const call = combine(tails, counters);
        return call && { ...call, answered: told };
      }),
  });
}

/**
 * A plain comment was just inserted (and flushed): the issue's count goes up by one and its update time
 * is stamped, as Forgejo's updateCommentInfos does, by an increment applied just before COMMIT
 * (lib/db/counters.ts). The entity learns both, as a read would have told it.
 */
export async function countNewComment(em: EntityManager, writes: WriteQueue | undefined, issue: IIssue): Promise<void> {
  const now = new Date();
  await addCounters(em, writes, 'issue', issue.id, { num_comments: 1 }, { updated_at: now });
  learnCountersOf(em, Issue, issue, { numComments: issue.numComments + 1, updatedAt: now });
}

/**
 * Recount an issue's plain comments (Forgejo's num_comments) under the issue's row lock (lib/db/counters.ts),
 * stamping its update time as Forgejo's updateCommentInfos does; the entity learns both.
 */
export async function recountComments(em: EntityManager, issue: IIssue): Promise<void> {
  await em.flush();
  await lockCounterRows(em, { issue: [issue.id] });
  const [row] = await executeSql<{ num_comments: number; updated_at: Date }>(
    em,
    sql`update issue set num_comments = (select count(*) from comment c where c.issue_id = issue.id and c.type = ${CommentType.comment}), updated_at = ${new Date()} where id = ${issue.id} returning num_comments, updated_at`,
  );
  learnCountersOf(em, Issue, issue, { numComments: Number(row!.num_comments), updatedAt: new Date(row!.updated_at) });
}

/**
 * Recount the derived totals after issues changed state, labels or milestones: open issues and pulls of
 * repositories, issue counts of labels and milestones. The rows are locked first (lib/db/counters.ts), so
 * each count, one statement per table, sees every writer that committed before: concurrent writers converge.
 */
export async function recountIssueTotals(
  em: EntityManager,
  what: { repoIds?: number[]; labelIds?: number[]; milestoneIds?: number[] },
): Promise<void> {
  await em.flush();
  const repoIds = [...new Set(what.repoIds ?? [])];
  const labelIds = [...new Set(what.labelIds ?? [])].filter((id) => id > 0);
  const milestoneIds = [...new Set(what.milestoneIds ?? [])].filter((id) => id > 0);
  await lockCounterRows(em, { repository: repoIds, label: labelIds, milestone: milestoneIds });
  if (repoIds.length) {
    await writeSql(
      em,
      sql`update repository r set
      num_open_issues = (select count(*) from issue i where i.repo_id = r.id and not i.is_pull and not i.is_closed),
      num_open_pulls = (select count(*) from issue i where i.repo_id = r.id and i.is_pull and not i.is_closed)
      where r.id in (${sql.list(repoIds)})`,
    );
  }
  if (labelIds.length) {
    await writeSql(
      em,
      sql`update label l set
      num_issues = (select count(*) from issue_label il where il.label_id = l.id),
      num_closed_issues = (select count(*) from issue_label il join issue i on i.id = il.issue_id where il.label_id = l.id and i.is_closed)
      where l.id in (${sql.list(labelIds)})`,
    );
  }
  if (milestoneIds.length) {
    await writeSql(
      em,
      sql`update milestone m set
      num_issues = (select count(*) from issue i where i.milestone_id = m.id),
      num_closed_issues = (select count(*) from issue i where i.milestone_id = m.id and i.is_closed)
      where m.id in (${sql.list(milestoneIds)})`,
    );
  }
  // Entities already in this EntityManager keep their old counters; callers re-read what they return.
}

/** Label ids attached to an issue. */
export async function labelIdsOf(em: EntityManager, issueId: number): Promise<number[]> {
  return (await em.find(IssueLabel, { issueId }, { fields: ['labelId'] })).map((l) => l.labelId);
}
