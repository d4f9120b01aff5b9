// Changing an issue the way Forgejo's services/issue and models/issues do: every change of labels,
// assignees, milestone, deadline, title, ref or state leaves its timeline event, and the derived totals
// (repository open counts, label and milestone counts) are recounted in SQL afterwards.
// Just over 400 lines: each change and its timeline event share the recount, one concern.
import fs from 'node:fs/promises';
import type { EntityManager } from '@mikro-orm/core';
import {
  Comment,
  CommentType,
  Issue,
  IssueAssignee,
  IssueDependency,
  IssueLabel,
  IssueWatch,
  Reaction,
  Stopwatch,
  TrackedTime,
  type IIssue,
} from '../../model/issue.ts';
import { Label, type ILabel } from '../../model/label.ts';
import { Milestone } from '../../model/milestone.ts';
import { AutoMerge, PullRequest, Review } from '../../model/pull.ts';
import { Attachment } from '../../model/attachment.ts';
import { RepoUnit, type IRepository } from '../../model/repo.ts';
import { User, type IUser } from '../../model/user.ts';
import { Unit, userPermission } from '../auth/perm.ts';
import { addComment, labelIdsOf, recountIssueTotals, truncateTitle } from './issues.ts';
import { badRequest, HttpError, unprocessable } from '../http/errors.ts';
import { attachmentPath, isUuid } from '../attachments/index.ts';
import type { Config } from '../../config.ts';
import { executeSql, sql, writeSql, type Sql } from '../../model/sql.ts';

/** Forgejo's `[repository.issue] MAX_PINNED` default: pinned issues (and, separately, pulls) per repository. */
export const MAX_PINNED = 3;

const touch = (issue: IIssue) => {
  issue.updatedAt = new Date();
};

// ---------------------------------------------------------------------------------------------------
// Labels

/** Forgejo's Label.ExclusiveScope: `scope/name` of an exclusive label; '' when none. */
export function exclusiveScope(l: Pick<ILabel, 'exclusive' | 'name'>): string {
  if (!l.exclusive) return '';
  const i = l.name.lastIndexOf('/');
  return i <= 0 || i === l.name.length - 1 ? '' : l.name.slice(0, i);
}

/** A label an issue of `repo` may carry: the repository's own, or one of its organization. */
export const labelFits = (l: ILabel, repo: IRepository) => l.repoId === repo.id || (l.orgId > 0 && l.orgId === repo.ownerId);

/** Labels of the repository (and of its organization owner) with one of these names. */
export async function labelsByName(em: EntityManager, repo: IRepository, ownerIsOrg: boolean, names: string[]): Promise<ILabel[]> {
  if (names.length === 0) return [];
  const owners = ownerIsOrg ? [{ repoId: repo.id }, { orgId: repo.ownerId, repoId: 0 }] : [{ repoId: repo.id }];
  return em.find(Label, { name: { $in: names }, $or: owners }, { orderBy: { id: 'asc' } });
}

/**
 * IssueLabelsOption.labels (Forgejo's prepareForReplaceOrAdd): all ids or all names. Names are looked up
 * in the repository and its organization; ids that name no label, or a label of another repository,
 * are dropped silently, as Forgejo does.
 */
/** Forgejo's label list shape: each label an integer or a string, and not both kinds (400 text, or null). */
export function labelListProblem(raw: readonly unknown[]): string | null {
  let ids = false;
  let names = false;
  for (const v of raw) {
    if (typeof v === 'number' && Number.isFinite(v)) ids = true;
    else if (typeof v === 'string') names = true;
    else return 'a label must be an integer or a string';
  }
  return ids && names ? 'labels should be an array of strings or integers' : null;
}

export async function resolveLabelOption(em: EntityManager, repo: IRepository, ownerIsOrg: boolean, raw: unknown[]): Promise<ILabel[]> {
  const problem = labelListProblem(raw);
  if (problem) throw badRequest(problem);
  const ids = raw.filter((v): v is number => typeof v === 'number').map((v) => Math.trunc(v));
  const names = raw.filter((v): v is string => typeof v === 'string');
  const found = names.length
    ? await labelsByName(em, repo, ownerIsOrg, names)
    : ids.filter((id) => id > 0 && id <= 2 ** 31 - 1).length
      ? await em.find(Label, { id: { $in: ids.filter((id) => id > 0 && id <= 2 ** 31 - 1) } }, { orderBy: { id: 'asc' } })
      : [];
  return found.filter((l) => labelFits(l, repo));
}

/** Forgejo's RemoveDuplicateExclusiveLabels: of several labels of one exclusive scope the last one wins. */
export function dropDuplicateScopes(labels: ILabel[]): ILabel[] {
  return labels.filter((l, i) => {
    const scope = exclusiveScope(l);
    return !scope || !labels.slice(i + 1).some((o) => exclusiveScope(o) === scope);
  });
}

async function currentLabels(em: EntityManager, issueId: number): Promise<ILabel[]> {
  const ids = await labelIdsOf(em, issueId);
  return ids.length ? em.find(Label, { id: { $in: ids } }) : [];
}

/** Attach one label (timeline event with content '1'); no-op when already there. */
async function attach(em: EntityManager, issue: IIssue, doerId: number, label: ILabel): Promise<void> {
  em.create(IssueLabel, { issueId: issue.id, labelId: label.id });
  await addComment(em, issue, doerId, CommentType.label, { labelId: label.id, content: '1' });
}

/** Detach one label (timeline event with empty content) if the issue carries it. */
async function detach(em: EntityManager, issue: IIssue, doerId: number, labelId: number): Promise<boolean> {
  const n = await em.nativeDelete(IssueLabel, { issueId: issue.id, labelId });
  if (n > 0) await addComment(em, issue, doerId, CommentType.label, { labelId, content: '' });
  return n > 0;
}

/** Forgejo's NewIssueLabels: add labels; an exclusive one removes the issue's others of its scope. */
export async function addLabels(em: EntityManager, issue: IIssue, doerId: number, labels: ILabel[]): Promise<void> {
  const have = await currentLabels(em, issue.id);
  const touched = new Set<number>();
  for (const l of labels) {
    if (have.some((h) => h.id === l.id)) continue;
    const scope = exclusiveScope(l);
    for (const other of scope ? have.filter((h) => exclusiveScope(h) === scope) : []) {
      await detach(em, issue, doerId, other.id);
      have.splice(have.indexOf(other), 1);
      touched.add(other.id);
    }
    await attach(em, issue, doerId, l);
    have.push(l);
    touched.add(l.id);
  }
  if (touched.size) touch(issue);
  await recountIssueTotals(em, { labelIds: [...touched] });
}

/** Forgejo's ReplaceIssueLabels: the issue ends with exactly `labels` (one per exclusive scope). */
export async function replaceLabels(em: EntityManager, issue: IIssue, doerId: number, labels: ILabel[]): Promise<void> {
  const want = dropDuplicateScopes(labels);
  const have = await currentLabels(em, issue.id);
  const touched = new Set<number>();
  for (const h of have) if (!want.some((w) => w.id === h.id) && (await detach(em, issue, doerId, h.id))) touched.add(h.id);
  for (const w of want) {
    if (have.some((h) => h.id === w.id) || touched.has(w.id)) continue;
    await attach(em, issue, doerId, w);
    touched.add(w.id);
  }
  if (touched.size) touch(issue);
  await recountIssueTotals(em, { labelIds: [...touched] });
}

export async function removeLabel(em: EntityManager, issue: IIssue, doerId: number, labelId: number): Promise<void> {
  if (await detach(em, issue, doerId, labelId)) touch(issue);
  await recountIssueTotals(em, { labelIds: [labelId] });
}

export async function clearLabels(em: EntityManager, issue: IIssue, doerId: number): Promise<void> {
  const ids = await labelIdsOf(em, issue.id);
  for (const id of ids) await detach(em, issue, doerId, id);
  if (ids.length) touch(issue);
  await recountIssueTotals(em, { labelIds: ids });
}

// ---------------------------------------------------------------------------------------------------
// Assignees

/**
 * Forgejo's CanBeAssigned: a user (not an organization) with write access to code, issues or pulls.
 * The assignee's own permission counts, not the caller's token.
 */
export async function canBeAssigned(em: EntityManager, repo: IRepository, owner: IUser, user: IUser): Promise<boolean> {
  if (user.type !== 0) return false;
  const perm = await userPermission(em, repo, owner, user);
  return perm.canWrite('code') || perm.canWrite('issues') || perm.canWrite('pulls');
}

/**
 * The users named by `assignee` and `assignees` (Forgejo's MakeIDsFromAPIAssigneesToAdd), each
 * assignable; 422 for an unknown name or a user who cannot be assigned. Forgejo answers 500 for both
 * on PATCH; a 422 says what is wrong.
 */
export async function assignableUsers(
  em: EntityManager,
  repo: IRepository,
  owner: IUser,
  one: string | undefined,
  many: string[] | undefined,
): Promise<IUser[]> {
  const names = [...new Set([...(many ?? []), ...(one ? [one] : [])])];
  const users: IUser[] = [];
  for (const name of names) {
    const u = await em.findOne(User, { lowerName: name.toLowerCase() });
    if (!u) throw unprocessable(`Assignee does not exist: [name: user does not exist [uid: 0, name: ${name}]]`);
    if (!(await canBeAssigned(em, repo, owner, u)))
      throw unprocessable(`user doesn't have access to repo [user_id: ${u.id}, repo_name: ${repo.name}]`);
    if (!users.some((x) => x.id === u.id)) users.push(u);
  }
  return users;
}

/** Forgejo's UpdateAssignees: the issue ends with exactly `users`; each change is a timeline event. */
export async function setAssignees(em: EntityManager, issue: IIssue, doerId: number, users: IUser[]): Promise<void> {
  const have = (await em.find(IssueAssignee, { issueId: issue.id })).map((a) => a.assigneeId);
  let changed = false;
  for (const id of have) {
    if (users.some((u) => u.id === id)) continue;
    await em.nativeDelete(IssueAssignee, { issueId: issue.id, assigneeId: id });
    await addComment(em, issue, doerId, CommentType.assignees, { assigneeId: id, removedAssignee: true });
    changed = true;
  }
  for (const u of users) {
    if (have.includes(u.id)) continue;
    em.create(IssueAssignee, { issueId: issue.id, assigneeId: u.id });
    await addComment(em, issue, doerId, CommentType.assignees, { assigneeId: u.id, removedAssignee: false });
    changed = true;
  }
  if (changed) touch(issue);
}

// ---------------------------------------------------------------------------------------------------
// Milestone, title, ref, deadline

/** Forgejo's ChangeMilestoneAssign; 0 removes the milestone. A milestone of another repository is 422. */
export async function setMilestone(em: EntityManager, issue: IIssue, doerId: number, milestoneId: number): Promise<void> {
  const next = Math.max(0, milestoneId);
  if (next === issue.milestoneId) return;
  if (next > 0 && (next > 2 ** 31 - 1 || (await em.count(Milestone, { id: next, repoId: issue.repoId })) === 0)) {
    throw unprocessable(`milestone does not exist [id: ${next}, repo_id: ${issue.repoId}]`);
  }
  const old = issue.milestoneId;
  issue.milestoneId = next;
  touch(issue);
  await addComment(em, issue, doerId, CommentType.milestone, { oldMilestoneId: old, milestoneId: issue.milestoneId });
  await recountIssueTotals(em, { milestoneIds: [old, issue.milestoneId] });
}

export async function setTitle(em: EntityManager, issue: IIssue, doerId: number, title: string): Promise<void> {
  const next = truncateTitle(title);
  if (next === issue.title) return;
  const old = issue.title;
  issue.title = next;
  touch(issue);
  await addComment(em, issue, doerId, CommentType.changeTitle, { oldTitle: old, newTitle: next });
}

/** The ref event shows branch names without `refs/heads/` (Forgejo's ChangeIssueRef). */
export async function setRef(em: EntityManager, issue: IIssue, doerId: number, ref: string): Promise<void> {
  if (ref === issue.ref) return;
  const friendly = (r: string) => r.replace(/^refs\/heads\//, '');
  const old = issue.ref;
  issue.ref = ref;
  touch(issue);
  await addComment(em, issue, doerId, CommentType.changeIssueRef, { oldRef: friendly(old), newRef: friendly(ref) });
}

/** `YYYY-MM-DD` of an instant, in UTC (the server's zone; Forgejo formats in its local zone). */
const dateOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Forgejo's UpdateIssueDeadline: null removes the deadline. The event's content is the date
 * (`added_deadline`, `removed_deadline`) or `new|old` (`modified_deadline`).
 */
export async function setDeadline(em: EntityManager, issue: IIssue, doerId: number, when: Date | null): Promise<void> {
  const old = issue.deadline;
  // Forgejo keeps whole seconds.
  const deadline = when ? new Date(Math.floor(when.getTime() / 1000) * 1000) : null;
  if ((old?.getTime() ?? null) === (deadline?.getTime() ?? null)) return;
  issue.deadline = deadline;
  touch(issue);
  if (!deadline) await addComment(em, issue, doerId, CommentType.removedDeadline, { content: dateOf(old!) });
  else if (!old) await addComment(em, issue, doerId, CommentType.addedDeadline, { content: dateOf(deadline) });
  else await addComment(em, issue, doerId, CommentType.modifiedDeadline, { content: `${dateOf(deadline)}|${dateOf(old)}` });
}

/** RFC 3339 with its offset, as Go's time.Time reads it from JSON. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

export interface ParsedTime {
  date: Date;
  offsetMinutes: number;
  zero: boolean;
}

/** An RFC 3339 time as Go's JSON binding reads it, or null when it does not parse. */
export function rfc3339Time(raw: string): Date | null {
  const date = RFC3339.test(raw) ? new Date(raw) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

/** A date-time of a request body; `field` is the Go field name for the 422 (`[Deadline]: ...`). */
export function parseBodyTime(raw: string, field: string): ParsedTime {
  const m = RFC3339.exec(raw);
  const date = m ? new Date(raw) : null;
  if (!m || !date || Number.isNaN(date.getTime())) throw unprocessable(`[${field}]: invalid date-time: ${raw}`);
  const offsetMinutes = m[9] ? (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11])) : 0;
  // Go's zero time (what Go clients send for "none") and anything before year 2 count as unset.
  return { date, offsetMinutes, zero: date.getUTCFullYear() <= 1 };
}

/**
 * Forgejo keeps only the day of a deadline set by PATCH or the deadline route: 23:59:59 of that day in
 * the given offset (the deadline route uses the server zone, UTC here).
 */
export function endOfDay(t: ParsedTime, offsetMinutes = t.offsetMinutes): Date {
  const local = new Date(t.date.getTime() + t.offsetMinutes * 60_000);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate(), 23, 59, 59) - offsetMinutes * 60_000);
}

// ---------------------------------------------------------------------------------------------------
// State

/** Forgejo's IsDependenciesEnabled: the issues unit's `enable_issue_dependencies` (default on). */
async function dependenciesEnabled(em: EntityManager, repoId: number): Promise<boolean> {
  const unit = await em.findOne(RepoUnit, { repoId, type: Unit.issues });
  return !!unit && unit.config.enable_issue_dependencies !== false;
}

/**
 * Close or reopen (Forgejo's ChangeStatus): closing needs every dependency closed when dependencies
 * are enabled (412), sets closedAt and records a close/reopen event; totals follow.
 */
export async function setClosed(em: EntityManager, issue: IIssue, doerId: number, closed: boolean): Promise<void> {
  if (issue.isClosed === closed) return;
  if (closed && (await dependenciesEnabled(em, issue.repoId))) {
    const open = await executeSql(
      em,
      sql`select 1 from issue_dependency d join issue i on i.id = d.dependency_id where d.issue_id = ${issue.id} and not i.is_closed limit 1`,
    );
    if (open.length) throw new HttpError(412, 'cannot close this issue because it still has open dependencies');
  }
  issue.isClosed = closed;
  issue.closedAt = closed ? new Date() : null;
  touch(issue);
  await addComment(em, issue, doerId, closed ? CommentType.close : CommentType.reopen);
  await recountIssueTotals(em, { repoIds: [issue.repoId], labelIds: await labelIdsOf(em, issue.id), milestoneIds: [issue.milestoneId] });
}

// ---------------------------------------------------------------------------------------------------
// Pins, deletion

async function scalar(em: EntityManager, q: Sql): Promise<number> {
  const rows = await executeSql<{ n: number | string | null }>(em, q);
  return Number(rows[0]?.n ?? 0);
}
const pinnedCount = (em: EntityManager, repoId: number, isPull: boolean) =>
  scalar(em, sql`select count(*) as n from issue where repo_id = ${repoId} and is_pull = ${isPull} and pin_order > 0`);

/** Forgejo's IsNewPinAllowed. */
export async function newPinAllowed(em: EntityManager, repoId: number, isPull: boolean): Promise<boolean> {
  return (await pinnedCount(em, repoId, isPull)) < MAX_PINNED;
}

/** Pin at the end of its kind's list (Forgejo's Issue.Pin); 400 when MAX_PINNED are pinned already. */
export async function pin(em: EntityManager, issue: IIssue, doerId: number): Promise<void> {
  if (issue.pinOrder > 0) return;
  const max = await scalar(
    em,
    sql`select coalesce(max(pin_order), 0) as n from issue where repo_id = ${issue.repoId} and is_pull = ${issue.isPull}`,
  );
  if (max >= MAX_PINNED) throw badRequest('the max number of pinned issues has been readched');
  issue.pinOrder = max + 1;
  await addComment(em, issue, doerId, CommentType.pin);
}

/** Unpin and close the gap in the numbering (Forgejo's Issue.Unpin). */
export async function unpin(em: EntityManager, issue: IIssue, doerId: number): Promise<void> {
  if (issue.pinOrder === 0) return;
  await em.flush();
  await writeSql(
    em,
    sql`update issue set pin_order = pin_order - 1 where repo_id = ${issue.repoId} and is_pull = ${issue.isPull} and pin_order > ${issue.pinOrder}`,
  );
  await writeSql(em, sql`update issue set pin_order = 0 where id = ${issue.id}`);
  issue.pinOrder = 0;
  await addComment(em, issue, doerId, CommentType.unpin);
}

/**
 * Move a pinned issue to `position` (Forgejo's MovePin); an unpinned one stays as it is. Forgejo lets a
 * position past the end leave a gap; here it is clamped to the last place, keeping the numbering 1..n.
 */
export async function movePin(em: EntityManager, issue: IIssue, position: number): Promise<void> {
  if (issue.pinOrder === 0) return;
  await em.flush();
  const count = await pinnedCount(em, issue.repoId, issue.isPull);
  const to = Math.min(position, count);
  await writeSql(
    em,
    sql`update issue set pin_order = pin_order - 1 where repo_id = ${issue.repoId} and is_pull = ${issue.isPull} and pin_order > ${issue.pinOrder}`,
  );
  await writeSql(
    em,
    sql`update issue set pin_order = pin_order + 1 where repo_id = ${issue.repoId} and is_pull = ${issue.isPull} and pin_order >= ${to} and id <> ${issue.id}`,
  );
  await writeSql(em, sql`update issue set pin_order = ${to} where id = ${issue.id}`);
  issue.pinOrder = to;
}

/**
 * Delete an issue (or pull) and every row that hangs off it (Forgejo's deleteIssue), unpin it first so
 * the other pins stay numbered, recount the totals, then remove attachment files.
 */
export async function deleteIssue(em: EntityManager, cfg: Pick<Config, 'dataPath'>, issue: IIssue, doerId: number): Promise<void> {
  if (issue.pinOrder > 0) await unpin(em, issue, doerId);
  const id = issue.id;
  const labelIds = await labelIdsOf(em, id);
  const commentIds = (await em.find(Comment, { issueId: id }, { fields: ['id'] })).map((c) => c.id);
  const ofIssue = { $or: [{ issueId: id }, ...(commentIds.length ? [{ commentId: { $in: commentIds } }] : [])] };
  const attachments = await em.find(Attachment, ofIssue);
  const pulls = await em.find(PullRequest, { issueId: id }, { fields: ['id'] });
  await em.flush();
  if (pulls.length) await em.nativeDelete(AutoMerge, { pullId: { $in: pulls.map((p) => p.id) } });
  await em.nativeDelete(PullRequest, { issueId: id });
  await em.nativeDelete(Review, { issueId: id });
  await em.nativeDelete(Attachment, ofIssue);
  await em.nativeDelete(Reaction, { issueId: id });
  await em.nativeDelete(Comment, { $or: [{ issueId: id }, { refIssueId: id }, { dependentIssueId: id }] });
  await em.nativeDelete(IssueLabel, { issueId: id });
  await em.nativeDelete(IssueAssignee, { issueId: id });
  await em.nativeDelete(IssueDependency, { $or: [{ issueId: id }, { dependencyId: id }] });
  await em.nativeDelete(IssueWatch, { issueId: id });
  await em.nativeDelete(Stopwatch, { issueId: id });
  await em.nativeDelete(TrackedTime, { issueId: id });
  em.remove(issue);
  await em.flush();
  await recountIssueTotals(em, { repoIds: [issue.repoId], labelIds, milestoneIds: [issue.milestoneId] });
  // Files go last: a failure above rolls the rows back and leaves the files in place.
  for (const a of attachments) if (isUuid(a.uuid)) await fs.rm(attachmentPath(cfg, a.uuid), { force: true });
}

/** Re-read an issue after a change, as Forgejo re-fetches it, so derived values are fresh. */
export async function reloadIssue(em: EntityManager, id: number): Promise<IIssue> {
  await em.flush();
  em.clear();
  return em.findOneOrFail(Issue, { id });
}
