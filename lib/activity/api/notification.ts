// api.NotificationThread wire shape (Forgejo's services/convert/notification.go ToNotificationThread).
// A list is converted in one batch: a fixed number of queries however many threads are listed.
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../../config.ts';
import { Repository, RepoUnit, type IRepository, type IRepoUnit } from '../../../model/repo.ts';
import { User } from '../../../model/user.ts';
import { Issue, CommentType, type IIssue } from '../../../model/issue.ts';
import { PullRequest } from '../../../model/pull.ts';
import { NotificationSource, NotificationStatus, type INotification } from '../../../model/notification.ts';
import { issuePath, repoApiUrl, repoHtmlUrl } from '../../issues/index.ts';
import { toApiRepo, type ApiRepo } from '../../repos/index.ts';
import type { NotificationSubject, NotificationThread, Wire } from '../../../model/schemas/index.ts';
import type { Viewer } from '../../users/index.ts';
import { fmtTime } from '../../../model/time.ts';
import { Mode, RepoPermission, type AccessMode } from '../../auth/perm.ts';
import { executeSql, sql } from '../../../model/sql.ts';

export const threadApiUrl = (cfg: Config, id: number) => `${cfg.appUrl}api/v1/notifications/threads/${id}`;

/** The repository of a thread, without `permissions` (see loadRepos). */
type ThreadRepo = Omit<ApiRepo, 'permissions'>;
export type ApiNotificationThread = Wire<NotificationThread, 'repository'> & { repository: ThreadRepo };
type ApiSubject = Wire<NotificationSubject>;

interface Loaded {
  repos: Map<number, ThreadRepo>;
  repoRows: Map<number, IRepository>;
  issues: Map<number, IIssue>;
  merged: Set<number>;
  lastComment: Map<number, number>;
}

/**
 * Forgejo shows the repository with read access ("since user only get notifications when he has
 * access") and then drops `permissions`, which would not be right for the reader.
 */
async function loadRepos(em: EntityManager, cfg: Config, viewer: Viewer, ids: number[]) {
  const rows = ids.length ? await em.find(Repository, { id: { $in: ids } }) : [];
  const owners = rows.length ? await em.find(User, { id: { $in: [...new Set(rows.map((r) => r.ownerId))] } }) : [];
  const units = rows.length ? await em.find(RepoUnit, { repoId: { $in: rows.map((r) => r.id) } }) : [];
  const json = new Map<number, ThreadRepo>();
  for (const repo of rows) {
    const owner = owners.find((o) => o.id === repo.ownerId);
    if (!owner) continue;
    const mine: IRepoUnit[] = units.filter((u) => u.repoId === repo.id);
    const enabled = new Set(mine.map((u) => u.type));
    const perm = new RepoPermission(Mode.read, new Map([...enabled].map((u) => [u, Mode.read as AccessMode])), enabled);
    const { permissions: _dropped, ...out } = toApiRepo(cfg, { repo, owner, units: mine, perm, parent: null }, viewer);
    json.set(repo.id, out);
  }
  return { json, rows: new Map(rows.map((r) => [r.id, r])) };
}

/** Latest plain comment of each issue (Forgejo's Issue.GetLastComment: type comment, newest first). */
async function lastComments(em: EntityManager, issueIds: number[]): Promise<Map<number, number>> {
  if (!issueIds.length) return new Map();
  const rows = await executeSql<{ issue_id: number; id: number }>(
    em,
    sql`select distinct on (issue_id) issue_id, id from comment where type = ${CommentType.comment} and issue_id in (${sql.list(issueIds)})
     order by issue_id, created_at desc, id desc`,
  );
  return new Map(rows.map((r) => [Number(r.issue_id), Number(r.id)]));
}

async function load(em: EntityManager, cfg: Config, viewer: Viewer, list: INotification[]): Promise<Loaded> {
  const repos = await loadRepos(em, cfg, viewer, [...new Set(list.map((n) => n.repoId))]);
  const issueIds = [...new Set(list.map((n) => n.issueId).filter((id) => id > 0))];
  const issues = issueIds.length ? await em.find(Issue, { id: { $in: issueIds } }) : [];
  const pullIds = issues.filter((i) => i.isPull).map((i) => i.id);
  const pulls = pullIds.length ? await em.find(PullRequest, { issueId: { $in: pullIds }, hasMerged: true }, { fields: ['issueId'] }) : [];
  return {
    repos: repos.json,
    repoRows: repos.rows,
    issues: new Map(issues.map((i) => [i.id, i])),
    merged: new Set(pulls.map((p) => p.issueId)),
    lastComment: await lastComments(em, issueIds),
  };
}

function issueSubject(cfg: Config, l: Loaded, repo: IRepository, issue: IIssue | undefined, type: 'Issue' | 'Pull'): ApiSubject {
  const subject: ApiSubject = { title: '', url: '', latest_comment_url: '', html_url: '', latest_comment_html_url: '', type, state: '' };
  if (!issue) return subject;
  const api = repoApiUrl(cfg, repo.ownerName, repo.name);
  const html = `${repoHtmlUrl(cfg, repo.ownerName, repo.name)}${issuePath(issue)}`;
  // Forgejo's Issue.APIURL says `issues/<n>` for pulls too.
  Object.assign(subject, {
    title: issue.title,
    url: `${api}/issues/${issue.index}`,
    html_url: html,
    state: issue.isClosed ? 'closed' : 'open',
  });
  if (l.merged.has(issue.id)) subject.state = 'merged';
  const comment = l.lastComment.get(issue.id);
  if (comment)
    Object.assign(subject, {
      latest_comment_url: `${api}/issues/comments/${comment}`,
      latest_comment_html_url: `${html}#issuecomment-${comment}`,
    });
  return subject;
}

function subjectOf(cfg: Config, l: Loaded, n: INotification, repo: IRepository): ApiSubject {
  const html = repoHtmlUrl(cfg, repo.ownerName, repo.name);
  const bare = { latest_comment_url: '', latest_comment_html_url: '', state: '' };
  switch (n.source) {
    case NotificationSource.issue:
      return issueSubject(cfg, l, repo, l.issues.get(n.issueId), 'Issue');
    case NotificationSource.pull:
      return issueSubject(cfg, l, repo, l.issues.get(n.issueId), 'Pull');
    case NotificationSource.commit: {
      const url = `${html}/commit/${encodeURIComponent(n.commitId)}`;
      return { ...bare, title: n.commitId, url, html_url: url, type: 'Commit' };
    }
    // Forgejo keeps a relative `url` here for backwards compatibility.
    default:
      return {
        ...bare,
        title: `${repo.ownerName}/${repo.name}`,
        url: `/${repo.ownerName}/${repo.name}`,
        html_url: html,
        type: 'Repository',
      };
  }
}

/** Threads whose repository is gone are left out, as Forgejo's NotificationList.LoadRepos drops them. */
export async function threadsToApi(
  em: EntityManager,
  cfg: Config,
  viewer: Viewer,
  list: INotification[],
): Promise<ApiNotificationThread[]> {
  const l = await load(em, cfg, viewer, list);
  const out: ApiNotificationThread[] = [];
  for (const n of list) {
    const repo = l.repoRows.get(n.repoId);
    const repoJson = l.repos.get(n.repoId);
    if (!repo || !repoJson) continue;
    out.push({
      id: n.id,
      repository: repoJson,
      subject: subjectOf(cfg, l, n, repo),
      unread: n.status === NotificationStatus.unread,
      pinned: n.status === NotificationStatus.pinned,
      updated_at: fmtTime(n.updatedAt),
      url: threadApiUrl(cfg, n.id),
    });
  }
  return out;
}
