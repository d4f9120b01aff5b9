// Opening an issue and adding a comment: the mechanics of the two hot writes, in one service function
// each, for every caller (the API's handlers, and whoever else writes them). A handler reads and checks
// its input, calls one of these, and converts what it returns.
//
// Both run inside a `writesAtEnd` request (lib/http/handler.ts): their common case is all queued writes
// (the new row, its counters, its notification and feed rows), sent at the end as one statement text.
// Invariant: before any write that is not queued (a row a hook's payload needs now, labels, assignees,
// a milestone, closing, forced times), the transaction is begun here.
import type { ILabel } from '../../model/label.ts';
import type { IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import { Comment, Issue, type IComment, type IIssue } from '../../model/issue.ts';
import { plainRows, type Plain } from '../../model/raw.ts';
import { learnCountersOf } from '../db/counters.ts';
import type { EntityManager } from '@mikro-orm/core';
import { Milestone } from '../../model/milestone.ts';
import type { CreateIssueOption } from '../../model/schemas/issue.ts';
import { unprocessable } from '../http/errors.ts';
import {
  addLabels,
  assignableUsers,
  dropDuplicateScopes,
  parseBodyTime,
  resolveLabelOption,
  setAssignees,
  setClosed,
  setMilestone,
} from './edit.ts';
import { emitCommentEvent, emitIssueEvent, insertWithEventEarly, newRowEarly, type SignedEmitState } from './events.ts';
import { commentAtCommit, commentInsert, countNewComment, createIssue, insertAlone, numberPending, recountComments } from './issues.ts';

export interface NewIssue {
  repo: IRepository;
  title: string;
  content: string;
  ref: string;
  deadline: Date | null;
  /** 0: none. */
  milestoneId: number;
  labels: ILabel[];
  assignees: IUser[];
  closed: boolean;
}

/** A deadline on creation is kept to the second (Forgejo's CreateIssue); Go's zero time means none. */
function deadlineOnCreate(raw: string | undefined): Date | null {
  if (raw === undefined) return null;
  const t = parseBodyTime(raw, 'Deadline');
  return t.zero ? null : t.date;
}

/**
 * The issue a caller asks to open in `repo` (the API's CreateIssueOption). Labels, assignees, milestone
 * and deadline need write access to the issues unit (`writer`): Forgejo silently drops them for other
 * callers, and drops unknown labels and milestones too. An empty title is refused (422).
 */
export async function issueToOpen(
  em: EntityManager,
  repo: IRepository,
  owner: IUser,
  writer: boolean,
  b: CreateIssueOption,
): Promise<NewIssue> {
  const title = b.title.trim();
  if (title === '') throw unprocessable('[Title]: Required');
  const deadline = writer ? deadlineOnCreate(b.due_date) : null;
  const assignees = writer ? await assignableUsers(em, repo, owner, b.assignee, b.assignees) : [];
  const labels = writer && b.labels?.length ? await resolveLabelOption(em, repo, owner.type === 1, b.labels) : [];
  const milestoneId =
    writer &&
    b.milestone &&
    b.milestone > 0 &&
    b.milestone <= 2 ** 31 - 1 &&
    (await em.count(Milestone, { id: b.milestone, repoId: repo.id })) > 0
      ? b.milestone
      : 0;
  return { repo, title, content: b.body ?? '', ref: b.ref ?? '', deadline, milestoneId, labels, assignees, closed: !!b.closed };
}

/**
 * Opens an issue as the caller, with its milestone, labels, assignees and state, its counters, events,
 * notifications and feed rows. `pending`: its number is taken with COMMIT (read it after the commit).
 */
export async function openIssue(c: SignedEmitState, n: NewIssue): Promise<{ issue: Plain<IIssue>; pending: boolean }> {
  const doer = c.auth.doer;
  // What follows the insert changes the row only with a milestone, labels, assignees or closing. Then
  // the number is taken with COMMIT unless a hook's payload needs it now (issues.ts numberAtCommit).
  const plain = !n.milestoneId && !n.labels.length && !n.assignees.length && !n.closed;
  const early = plain ? await newRowEarly(c, 'issue') : null;
  // Only a plain issue no hook wants now is all queued writes.
  if (early?.hooked !== false) await c.em.begin();
  const issue = await createIssue(
    c.em,
    {
      repo: n.repo,
      posterId: doer.id,
      title: n.title,
      content: n.content,
      ref: n.ref,
      deadline: n.deadline,
      watcherId: doer.id,
      plain,
      id: early?.id,
      numberAtCommit: early?.hooked === false,
      writes: plain ? c.writes : undefined,
    },
    early ? undefined : (insert) => insertWithEventEarly(c, insert),
  );
  await setMilestone(c.em, issue, doer.id, n.milestoneId);
  // A new issue has no labels or assignees to compare with: nothing to read when none are given.
  if (n.labels.length) await addLabels(c.em, issue, doer.id, dropDuplicateScopes(n.labels));
  if (n.assignees.length) await setAssignees(c.em, issue, doer.id, n.assignees);
  if (n.closed) await setClosed(c.em, issue, doer.id, true);
  // Nothing below reads or writes notification threads or feed rows: the event's are written with the
  // counters, in the statement before COMMIT (lib/db/counters.ts tailWrite).
  c.writes?.deferTails();
  await emitIssueEvent(c, issue, 'opened');
  // The entity holds everything just written (counters only change at COMMIT, and a new issue has none
  // to show): the answer is made from it without a read.
  await c.em.flush();
  return { issue, pending: numberPending(issue) };
}

/**
 * Adds a plain comment by the caller to `issue`, with its count, events, notifications and feed rows;
 * `at` (Forgejo's SetIssueUpdateDate) forces the comment's and the issue's times. `pending`: the row goes
 * with COMMIT (answer it after the commit).
 */
export async function createComment(
  c: SignedEmitState,
  issue: IIssue,
  body: string,
  at: Date | null,
): Promise<{ comment: Plain<IComment>; pending: boolean }> {
  // Nothing changes the new row after its insert unless the request forces its times: a plain object
  // then, not a managed entity. Its id is drawn beforehand with what its event reads early (events.ts
  // newRowEarly, most often by the token's statement), and its row goes with COMMIT, unless a hook's
  // payload needs the row now; with forced times the row and the early reads are one statement now.
  const early = at ? null : await newRowEarly(c, 'comment');
  const insert = commentInsert(issue, c.auth.doer.id, body, early?.id ?? null);
  const atCommit = early && !early.hooked && c.writes ? commentAtCommit(c.em, c.writes, insert) : null;
  // Only a row that goes with the queued writes leaves the transaction to them.
  if (!atCommit) await c.em.begin();
  let comment: Plain<IComment>;
  if (atCommit) comment = atCommit;
  else {
    const row = early ? await insertAlone(c.em)(insert) : await insertWithEventEarly(c, insert);
    comment = at ? c.em.map(Comment, row) : plainRows(c.em, Comment, [row])[0]!;
  }
  // Counting the comment also stamps the issue's update time, as Forgejo's updateCommentInfos does:
  // an increment queued until COMMIT, or a recount now when the request forces the times after it.
  if (at) {
    await recountComments(c.em, issue);
    await forceTimes(c, issue, comment, at, true);
  } else {
    await countNewComment(c.em, c.writes, issue);
  }
  // Nothing below reads or writes notification threads or feed rows (see openIssue).
  c.writes?.deferTails();
  await emitCommentEvent(c, issue, comment, 'created');
  return { comment, pending: atCommit !== null };
}

/**
 * Entity hooks stamp "now" on every update, so a forced time is written past them and the entities
 * learn it as if re-read (a changed field would be flushed, and stamped, again at commit).
 */
export async function forceTimes(
  c: Pick<SignedEmitState, 'em'>,
  issue: Plain<IIssue>,
  comment: Plain<IComment>,
  at: Date,
  created: boolean,
): Promise<void> {
  await c.em.flush();
  await c.em.nativeUpdate(Issue, { id: issue.id }, { updatedAt: at });
  const times = created ? { createdAt: at, updatedAt: at } : { updatedAt: at };
  await c.em.nativeUpdate(Comment, { id: comment.id }, times);
  // The issue may be a plain object: both learn what was just written, as a read would tell them.
  learnCountersOf(c.em, Issue, issue, { updatedAt: at });
  learnCountersOf(c.em, Comment, comment, times);
}
