// api.TimelineComment (Forgejo's convert.ToTimelineComment): every comment row of one issue, with the
// records its type points at resolved in one batch of queries. Forgejo renders posters, assignees and
// referenced comments with no viewer (ToUser(..., nil)), so e-mail addresses show as they do to an
// anonymous caller; embedded issues (ref_issue, dependent_issue, tracked_time.issue) see the caller.
import { readTogether } from '../../../model/reads.ts';
import { secToTime } from '../../../model/duration.ts';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../../config.ts';
import { User } from '../../../model/user.ts';
import { Repository, type IRepository } from '../../../model/repo.ts';
import { Label, type ILabel } from '../../../model/label.ts';
import { Milestone } from '../../../model/milestone.ts';
import { Team, TeamUnit } from '../../../model/org.ts';
import { Comment, CommentType, COMMENT_TYPE_NAMES, Issue, TrackedTime, type IComment, type IIssue } from '../../../model/issue.ts';
import { commentsToApi, issuePath, issuesToApi, repoApiUrl, repoHtmlUrl, toApiTrackedTime, usersById } from './issue.ts';
import type { TimelineComment, Wire } from '../../../model/schemas/index.ts';

export type ApiTimelineComment = Wire<TimelineComment>;
import { toApiUser, type Viewer } from '../../users/index.ts';
import { toApiLabel, orgApiUrl } from './label.ts';
import { toApiMilestone } from './milestone.ts';
import { toApiTeam } from '../../users/index.ts';
import { fmtTime } from '../../../model/time.ts';

export const ANONYMOUS: Viewer = { doer: null, siteAdmin: false };

/** Forgejo's references.XRefAction names, by value. */
const REF_ACTIONS = ['none', 'closes', 'reopens', 'neutered'];

/** Time events whose content Forgejo stores as `|<seconds>` since v1.21 and shows in the old text form. */
const TIME_TYPES: readonly number[] = [CommentType.addTimeManual, CommentType.stopTracking, CommentType.deleteTimeManual];

function bodyOf(c: IComment): string {
  if (!TIME_TYPES.includes(c.type) || !c.content.startsWith('|')) return c.content;
  const seconds = /^\d+$/.test(c.content.slice(1)) ? Number(c.content.slice(1)) : 0;
  return secToTime(seconds);
}

const ids = (values: number[]) => [...new Set(values.filter((v) => v > 0))];

/** Everything the comments of one issue refer to, loaded once. */
async function loadRefs(em: EntityManager, issue: IIssue, comments: IComment[], loaded: IRepository | null) {
  const times = ids(comments.map((c) => c.timeId));
  const trackedTimes = times.length ? await em.find(TrackedTime, { id: { $in: times } }) : [];
  const issueIds = ids([
    ...comments.map((c) => c.refIssueId),
    ...comments.map((c) => c.dependentIssueId),
    ...trackedTimes.map((t) => t.issueId),
  ]);
  const milestoneIds = ids(comments.flatMap((c) => [c.milestoneId, c.oldMilestoneId]));
  const labelIds = ids(comments.map((c) => c.labelId));
  const teamIds = ids(comments.map((c) => c.assigneeTeamId));
  const refCommentIds = ids(comments.map((c) => c.refCommentId));
  const [repo, users, issues, milestones, labels, teams, teamUnits, refComments] = await readTogether(em, [
    () => (loaded?.id === issue.repoId ? loaded : em.findOne(Repository, { id: issue.repoId })),
    () => usersById(em, [...comments.map((c) => c.posterId), ...comments.map((c) => c.assigneeId), ...trackedTimes.map((t) => t.userId)]),
    () => (issueIds.length ? em.find(Issue, { id: { $in: issueIds } }) : []),
    () => (milestoneIds.length ? em.find(Milestone, { id: { $in: milestoneIds }, repoId: issue.repoId }) : []),
    () => (labelIds.length ? em.find(Label, { id: { $in: labelIds } }) : []),
    () => (teamIds.length ? em.find(Team, { id: { $in: teamIds } }) : []),
    () => (teamIds.length ? em.find(TeamUnit, { teamId: { $in: teamIds } }) : []),
    () => (refCommentIds.length ? em.find(Comment, { id: { $in: refCommentIds } }) : []),
  ]);
  const orgIds = ids(labels.map((l) => l.orgId));
  const orgs = orgIds.length ? await em.find(User, { id: { $in: orgIds } }) : [];
  return {
    repo,
    users,
    trackedTimes,
    issues,
    milestones,
    labels,
    refComments,
    teamUnits,
    // Forgejo resolves a team assignee only on organization repositories.
    teams: teams.filter((t) => repo && t.orgId === repo.ownerId),
    orgNames: new Map(orgs.map((o) => [o.id, o.name])),
  };
}

function labelApiBase(cfg: Config, l: ILabel, repo: IRepository | null, orgNames: Map<number, string>): string {
  if (l.orgId) return orgApiUrl(cfg, orgNames.get(l.orgId) ?? '');
  return repo && repo.id === l.repoId ? repoApiUrl(cfg, repo.ownerName, repo.name) : '';
}

/** Convert the comment rows of `issue` (any types) to api.TimelineComment, in the order given. */
export async function timelineToApi(
  em: EntityManager,
  cfg: Config,
  viewer: Viewer,
  issue: IIssue,
  comments: IComment[],
  loaded: IRepository | null = null,
): Promise<ApiTimelineComment[]> {
  if (comments.length === 0) return [];
  // `loaded`, the request's repository, may be a plain object on a GET, which no lookup by id finds.
  const refs = await loadRefs(em, issue, comments, loaded);
  const [apiIssues, apiRefComments] = await readTogether(em, [
    () => issuesToApi(em, cfg, viewer, refs.issues),
    () => commentsToApi(em, cfg, ANONYMOUS, refs.refComments),
  ]);
  const issueById = new Map(apiIssues.map((i) => [i.id, i]));
  const refCommentById = new Map(apiRefComments.map((c) => [c.id, c]));
  const milestoneById = new Map(refs.milestones.map((m) => [m.id, m]));
  const labelById = new Map(refs.labels.map((l) => [l.id, l]));
  const teamById = new Map(refs.teams.map((t) => [t.id, t]));
  const timeById = new Map(refs.trackedTimes.map((t) => [t.id, t]));
  const user = (id: number) => toApiUser(cfg, refs.users.get(id) ?? refs.users.get(-1)!, ANONYMOUS);
  const issueHtml = refs.repo ? `${repoHtmlUrl(cfg, refs.repo.ownerName, refs.repo.name)}${issuePath(issue)}` : '';

  return comments.map((c): ApiTimelineComment => {
    const milestone = milestoneById.get(c.milestoneId);
    const oldMilestone = milestoneById.get(c.oldMilestoneId);
    const time = timeById.get(c.timeId);
    const label = labelById.get(c.labelId);
    const team = teamById.get(c.assigneeTeamId);
    return {
      id: c.id,
      type: COMMENT_TYPE_NAMES[c.type] ?? '',
      html_url: `${issueHtml}#issuecomment-${c.id}`,
      pull_request_url: issue.isPull ? issueHtml : '',
      issue_url: issue.isPull ? '' : issueHtml,
      user: user(c.posterId),
      body: bodyOf(c),
      created_at: fmtTime(c.createdAt),
      updated_at: fmtTime(c.updatedAt),
      old_project_id: 0,
      project_id: 0,
      old_milestone: oldMilestone ? toApiMilestone(oldMilestone) : null,
      milestone: milestone ? toApiMilestone(milestone) : null,
      tracked_time: time ? toApiTrackedTime(time, refs.users.get(time.userId)?.name ?? '', issueById.get(time.issueId) ?? null) : null,
      old_title: c.oldTitle,
      new_title: c.newTitle,
      old_ref: c.oldRef,
      new_ref: c.newRef,
      ref_issue: c.refIssueId ? (issueById.get(c.refIssueId) ?? null) : null,
      ref_comment: c.refCommentId ? (refCommentById.get(c.refCommentId) ?? null) : null,
      ref_action: REF_ACTIONS[c.refAction] ?? '',
      ref_commit_sha: c.commitSha,
      review_id: c.reviewId,
      label: label ? toApiLabel(label, labelApiBase(cfg, label, refs.repo, refs.orgNames)) : null,
      assignee: c.assigneeId > 0 ? user(c.assigneeId) : null,
      assignee_team: team ? toApiTeam(cfg, team, refs.teamUnits) : null,
      removed_assignee: c.removedAssignee,
      // Only code comments have a resolver, and the timeline leaves code comments out.
      resolve_doer: null,
      dependent_issue: c.dependentIssueId ? (issueById.get(c.dependentIssueId) ?? null) : null,
    };
  });
}
