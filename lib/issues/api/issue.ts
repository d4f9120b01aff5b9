// api.Issue, api.Comment and api.Attachment wire shapes (forgejo-facts 6.7; Forgejo's convert.ToAPIIssue,
// ToAPIComment, ToAPIAttachment). Lists are converted in one batch: a fixed number of queries however
// many issues are listed.
import { readTogether } from '../../../model/reads.ts';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../../config.ts';
import { User, type IUser } from '../../../model/user.ts';
import { Repository, type IRepository } from '../../../model/repo.ts';
import { Label } from '../../../model/label.ts';
import { Milestone } from '../../../model/milestone.ts';
import { CommentType, Issue, IssueAssignee, IssueLabel, type IComment, type IIssue, type ITrackedTime } from '../../../model/issue.ts';
import { Attachment, type IAttachment } from '../../../model/attachment.ts';
import { PullRequest, Review, ReviewType, type IPullRequest } from '../../../model/pull.ts';
import { toApiUser, type Viewer } from '../../users/index.ts';
import { toApiLabel } from './label.ts';
import { toApiMilestone } from './milestone.ts';
import { fmtTime } from '../../../model/time.ts';
import { pseudoUser } from '../../auth/pseudo-users.ts';
import type {
  Attachment as AttachmentJson,
  Comment,
  Issue as IssueJson,
  StopWatch,
  TrackedTime as TrackedTimeJson,
  Wire,
} from '../../../model/schemas/index.ts';
import { secToTime } from '../../../model/duration.ts';
import { intArray, jsonList, plainRows, type Plain } from '../../../model/raw.ts';
import { readPrepared } from '../../../model/sql.ts';

export type ApiAttachment = Wire<AttachmentJson>;
export type ApiIssue = Wire<IssueJson>;
export type ApiComment = Wire<Comment>;
export type ApiTrackedTime = Wire<TrackedTimeJson>;

export const repoApiUrl = (cfg: Config, owner: string, name: string) => `${cfg.appUrl}api/v1/repos/${owner}/${name}`;
export const repoHtmlUrl = (cfg: Config, owner: string, name: string) => `${cfg.appUrl}${owner}/${name}`;

/** `/issues/<n>` or, for a pull request, `/pulls/<n>` below the repository's HTML or API URL. */
export const issuePath = (i: Pick<IIssue, 'isPull' | 'index'>) => `/${i.isPull ? 'pulls' : 'issues'}/${i.index}`;

/** Forgejo's default WORK_IN_PROGRESS_PREFIXES. */
export const isWorkInProgress = (title: string) => /^(wip:|\[wip\])/i.test(title.trimStart());

/** Users by id; ids without a row (deleted users) come back as Ghost, as Forgejo shows them. */
export async function usersById(em: EntityManager, ids: Iterable<number>, known: readonly IUser[] = []): Promise<Map<number, IUser>> {
  const want = [...new Set([...ids].filter((id) => id > 0))];
  const missing = want.filter((id) => !known.some((u) => u.id === id));
  return withGhosts(
    [...known.filter((u) => want.includes(u.id)), ...(missing.length ? await em.find(User, { id: { $in: missing } }) : [])],
    want,
  );
}

/** The users read by id, and Ghost for the wanted ids without a row (and for -1 and -2). */
function withGhosts(rows: IUser[], want: Iterable<number>): Map<number, IUser> {
  const map = new Map(rows.map((u) => [u.id, u]));
  for (const id of want) if (id > 0 && !map.has(id)) map.set(id, pseudoUser(-1));
  map.set(-1, pseudoUser(-1));
  map.set(-2, pseudoUser(-2));
  return map;
}

export function toApiAttachment(cfg: Config, a: IAttachment): ApiAttachment {
  return {
    id: a.id,
    name: a.name,
    size: a.size,
    download_count: a.downloadCount,
    created_at: fmtTime(a.createdAt),
    uuid: a.uuid,
    browser_download_url: a.externalUrl || `${cfg.appUrl}attachments/${a.uuid}`,
    type: a.externalUrl ? ('external' as const) : ('attachment' as const),
  };
}

/** api.TrackedTime with its issue (converted with the other issues of the list) and its user's name. */
export function toApiTrackedTime(t: ITrackedTime, userName: string, issue: ApiIssue | null): ApiTrackedTime {
  return {
    id: t.id,
    created: fmtTime(t.createdAt),
    time: Number(t.time),
    user_id: t.userId,
    user_name: userName,
    issue_id: t.issueId,
    issue,
  };
}

export type ApiStopWatch = Wire<StopWatch>;

/** api.StopWatch: a running stopwatch of the caller, with its issue and repository names, at `now`. */
export function toApiStopWatch(
  sw: { createdAt: Date; index: number; title: string; ownerName: string; repoName: string },
  now: Date,
): ApiStopWatch {
  const seconds = Math.floor(now.getTime() / 1000) - Math.floor(sw.createdAt.getTime() / 1000);
  return {
    created: fmtTime(sw.createdAt),
    seconds,
    duration: secToTime(seconds),
    issue_index: sw.index,
    issue_title: sw.title,
    repo_owner_name: sw.ownerName,
    repo_name: sw.repoName,
  };
}

interface RepoNames {
  repo: IRepository;
  ownerName: string;
}

/** Repositories by id; `known` ones (the request's own, already read) are not read again. */
async function reposById(em: EntityManager, ids: number[], known: IRepository[] = []): Promise<Map<number, RepoNames>> {
  const missing = [...new Set(ids)].filter((id) => !known.some((r) => r.id === id));
  const repos = [...known, ...(missing.length ? await em.find(Repository, { id: { $in: missing } }) : [])];
  return new Map(repos.map((r) => [r.id, { repo: r, ownerName: r.ownerName }]));
}

/** What a caller of a converter has already read, so that it is not read again. */
export interface Known {
  repos?: IRepository[];
  /** The pull request rows of the pull requests among the issues. */
  pulls?: IPullRequest[];
  /** Users read already (the caller), as the rows em.find would give. */
  users?: IUser[];
  /**
   * What the caller knows the issues or comments have none of, because it created them in this request
   * with none (a new comment has no attachments; a new issue without labels or assignees has neither).
   */
  none?: readonly ('labels' | 'assignees' | 'attachments')[];
}

/**
 * Convert issues (of any repositories) to api.Issue. `attachments` false leaves `assets` empty without
 * a query (Forgejo lists them only where attachments are enabled).
 */
export async function issuesToApi(
  em: EntityManager,
  cfg: Config,
  viewer: Viewer,
  issues: Plain<IIssue>[],
  opts: { attachments?: boolean; known?: Known } = {},
): Promise<ApiIssue[]> {
  if (issues.length === 0) return [];
  const ids = issues.map((i) => i.id);
  const pullIds = issues.filter((i) => i.isPull).map((i) => i.id);
  const knownPulls = opts.known?.pulls;
  const readPulls = pullIds.length > 0 && !(knownPulls && pullIds.every((id) => knownPulls.some((p) => p.issueId === id)));
  const milestoneIds = [...new Set(issues.map((i) => i.milestoneId).filter((id) => id > 0))];
  const posterIds = [...new Set(issues.map((i) => i.posterId).filter((id) => id > 0))];
  // What the caller already holds (a new issue's poster, the parts it created none of) is not read.
  const skip = opts.known?.none ?? [];
  const knownUsers = (opts.known?.users ?? []).filter((u) => posterIds.includes(u.id));
  const unknownPosters = posterIds.filter((id) => !knownUsers.some((u) => u.id === id));
  const want = {
    labels: !skip.includes('labels'),
    assignees: !skip.includes('assignees'),
    attachments: opts.attachments !== false && !skip.includes('attachments'),
    users: unknownPosters.length > 0 || !skip.includes('assignees'),
  };
  const ofIssues = intArray(ids);
  const none = `'[]'::json`;
  const nothing = { issueLabels: [], labels: [], assignees: [], attachments: [], pulls: [], milestones: [], users: [] };
  // Labels, assignees, attachments, pull requests, milestones and users of the page in one statement,
  // a named one on PostgreSQL (planned once per connection, not on every list or new issue);
  // its text varies only with which parts are read.
  const [rows, repos] = await readTogether(em, [
    () =>
      !want.labels && !want.assignees && !want.attachments && !want.users && !readPulls && !milestoneIds.length
        ? [nothing]
        : readPrepared<{
            issueLabels: unknown[];
            labels: unknown[];
            assignees: unknown[];
            attachments: unknown[];
            pulls: unknown[];
            milestones: unknown[];
            users: unknown[];
          }>(
            em,
            [IssueLabel, Label, IssueAssignee, Attachment, PullRequest, Milestone, User],
            `select ${want.labels ? jsonList(em, IssueLabel, 'il', 'il.issue_id = any(?::int[])') : none} as "issueLabels",
        ${want.labels ? jsonList(em, Label, 'l', 'l.id in (select il.label_id from issue_label il where il.issue_id = any(?::int[]))') : none} as labels,
        ${want.assignees ? jsonList(em, IssueAssignee, 'a', 'a.issue_id = any(?::int[])') : none} as assignees,
        ${want.attachments ? jsonList(em, Attachment, 't', 't.issue_id = any(?::int[]) and t.comment_id = 0') : none} as attachments,
        ${readPulls ? jsonList(em, PullRequest, 'pr', 'pr.issue_id = any(?::int[])') : none} as pulls,
        ${milestoneIds.length ? jsonList(em, Milestone, 'm', 'm.id = any(?::int[])') : none} as milestones,
        ${want.users ? jsonList(em, User, 'u', `u.id = any(?::int[])${want.assignees ? ' or u.id in (select a.assignee_id from issue_assignees a where a.issue_id = any(?::int[]))' : ''}`) : none} as users`,
            [
              ...(want.labels ? [ofIssues, ofIssues] : []),
              ...(want.assignees ? [ofIssues] : []),
              ...(want.attachments ? [ofIssues] : []),
              ...(readPulls ? [intArray(pullIds)] : []),
              ...(milestoneIds.length ? [intArray(milestoneIds)] : []),
              ...(want.users ? [intArray(unknownPosters), ...(want.assignees ? [ofIssues] : [])] : []),
            ],
          ),
    () =>
      reposById(
        em,
        issues.map((i) => i.repoId),
        opts.known?.repos,
      ),
  ]);
  const row = rows[0]!;
  const issueLabels = plainRows(em, IssueLabel, row.issueLabels);
  const labels = plainRows(em, Label, row.labels);
  const assignees = plainRows(em, IssueAssignee, row.assignees);
  const attachments = plainRows(em, Attachment, row.attachments);
  const pulls = readPulls ? plainRows(em, PullRequest, row.pulls) : pullIds.length ? knownPulls! : [];
  const milestones = plainRows(em, Milestone, row.milestones);
  const users = withGhosts([...knownUsers, ...plainRows(em, User, row.users)], [...posterIds, ...assignees.map((a) => a.assigneeId)]);
  const labelById = new Map(labels.map((l) => [l.id, l]));
  const milestoneById = new Map(milestones.map((m) => [m.id, m]));
  const pullByIssue = new Map(pulls.map((p) => [p.issueId, p]));
  return issues.map((i) => {
    const r = repos.get(i.repoId);
    const owner = r?.ownerName ?? '';
    const name = r?.repo.name ?? '';
    const html = `${repoHtmlUrl(cfg, owner, name)}${issuePath(i)}`;
    const labelsOf = issueLabels
      .filter((l) => l.issueId === i.id)
      .map((l) => labelById.get(l.labelId))
      .filter((l) => !!l);
    const assigneesOf = assignees.filter((a) => a.issueId === i.id).map((a) => toApiUser(cfg, users.get(a.assigneeId)!, viewer));
    const milestone = i.milestoneId ? milestoneById.get(i.milestoneId) : undefined;
    const pull = pullByIssue.get(i.id);
    return {
      id: i.id,
      url: `${repoApiUrl(cfg, owner, name)}${issuePath(i)}`,
      html_url: html,
      number: i.index,
      user: toApiUser(cfg, users.get(i.posterId) ?? pseudoUser(-1), viewer),
      original_author: i.originalAuthor,
      original_author_id: i.originalAuthorId,
      title: i.title,
      body: i.content,
      ref: i.ref,
      assets: attachments.filter((a) => a.issueId === i.id).map((a) => toApiAttachment(cfg, a)),
      labels: labelsOf.map((l) => toApiLabel(l, l.orgId ? `${cfg.appUrl}api/v1/orgs/${owner}` : repoApiUrl(cfg, owner, name))),
      milestone: milestone ? toApiMilestone(milestone) : null,
      assignee: assigneesOf[0] ?? null,
      assignees: assigneesOf.length ? assigneesOf : null,
      state: i.isClosed ? ('closed' as const) : ('open' as const),
      is_locked: i.isLocked,
      comments: i.numComments,
      created_at: fmtTime(i.createdAt),
      updated_at: fmtTime(i.updatedAt),
      closed_at: i.isClosed && i.closedAt ? fmtTime(i.closedAt) : null,
      due_date: i.deadline ? fmtTime(i.deadline) : null,
      pull_request: i.isPull
        ? {
            merged: !!pull?.hasMerged,
            merged_at: pull?.hasMerged && pull.mergedAt ? fmtTime(pull.mergedAt) : null,
            draft: isWorkInProgress(i.title),
            html_url: html,
          }
        : null,
      repository: { id: i.repoId, name, owner, full_name: `${owner}/${name}` },
      pin_order: i.pinOrder,
    };
  });
}

export async function issueToApi(
  em: EntityManager,
  cfg: Config,
  viewer: Viewer,
  issue: Plain<IIssue>,
  opts: { attachments?: boolean; known?: Known } = {},
): Promise<ApiIssue> {
  return (await issuesToApi(em, cfg, viewer, [issue], opts))[0]!;
}

/** api.Comment for plain comments (type 0) and review comments; `issues` must hold each comment's issue. */
export async function commentsToApi(
  em: EntityManager,
  cfg: Config,
  viewer: Viewer,
  comments: Plain<IComment>[],
  issues?: Map<number, Plain<IIssue>>,
  known: Known = {},
): Promise<ApiComment[]> {
  if (comments.length === 0) return [];
  const issueMap =
    issues ?? new Map((await em.find(Issue, { id: { $in: [...new Set(comments.map((c) => c.issueId))] } })).map((i) => [i.id, i]));
  const reviewIds = [...new Set(comments.filter((c) => c.type === CommentType.code && c.reviewId > 0).map((c) => c.reviewId))];
  const [repos, users, attachments, reviews] = await readTogether(em, [
    () =>
      reposById(
        em,
        [...issueMap.values()].map((i) => i.repoId),
        known.repos,
      ),
    () =>
      usersById(
        em,
        comments.map((c) => c.posterId),
        known.users,
      ),
    () =>
      known.none?.includes('attachments')
        ? []
        : em.find(Attachment, { commentId: { $in: comments.map((c) => c.id) } }, { orderBy: { id: 'asc' } }),
    () => (reviewIds.length ? em.find(Review, { id: { $in: reviewIds } }) : []),
  ]);
  const reviewType = new Map(reviews.map((r) => [r.id, r.type]));
  // Forgejo's Comment.hashLink: code comments outside a submitted review link into the files view.
  const filesView = (c: IComment) =>
    c.type === CommentType.code && (reviewType.get(c.reviewId) ?? ReviewType.pending) <= ReviewType.pending;
  return comments.map((c) => {
    const issue = issueMap.get(c.issueId);
    const r = issue ? repos.get(issue.repoId) : undefined;
    const issueHtml = issue && r ? `${repoHtmlUrl(cfg, r.ownerName, r.repo.name)}${issuePath(issue)}` : '';
    return {
      id: c.id,
      html_url: `${issueHtml}${filesView(c) ? '/files' : ''}#issuecomment-${c.id}`,
      pull_request_url: issue?.isPull ? issueHtml : '',
      issue_url: issue && !issue.isPull ? issueHtml : '',
      user: toApiUser(cfg, users.get(c.posterId) ?? pseudoUser(-1), viewer),
      original_author: c.originalAuthor,
      original_author_id: c.originalAuthorId,
      body: c.content,
      assets: attachments.filter((a) => a.commentId === c.id).map((a) => toApiAttachment(cfg, a)),
      created_at: fmtTime(c.createdAt),
      updated_at: fmtTime(c.updatedAt),
    };
  });
}
