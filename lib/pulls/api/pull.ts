// api.PullRequest wire shape (forgejo-facts 6.8; Forgejo's convert.ToAPIPullRequest). The issue half
// comes from issuesToApi; the branches, shas and diff stats are read from the base repository, where
// refs/pull/<n>/head keeps the head commit even when the head branch or repository is gone.
import { readTogether } from '../../../model/reads.ts';
import type { Config } from '../../../config.ts';
import { CommentType, Issue, type IIssue } from '../../../model/issue.ts';
import { PullStatus, Review, ReviewType, type IPullRequest } from '../../../model/pull.ts';
import { Repository, type IRepository } from '../../../model/repo.ts';
import { Team, TeamUnit, type ITeam } from '../../../model/org.ts';
import { User, type IUser } from '../../../model/user.ts';
import { isWorkInProgress, issuesToApi, repoApiUrl, usersById } from '../../issues/index.ts';
import { toApiUser, type Viewer } from '../../users/index.ts';
import { toApiTeam } from '../../users/index.ts';
import { fmtTime } from '../../../model/time.ts';
import { isSiteAdmin, type RequestState } from '../../http/request.ts';
import { reposJson } from '../../repos/index.ts';
import { readRef } from '../../../git/lookup.ts';
import { readInfo } from '../../../git/cat-file.ts';
import { diffShortStat, pullHeadRef } from '../../../git/pull.ts';
import { repoPathOf } from '../pulls.ts';
import type { PRBranchInfo, PullRequest, Wire } from '../../../model/schemas/index.ts';
import { executeSql, sql } from '../../../model/sql.ts';

export type ApiPull = Wire<PullRequest, 'base' | 'head'> & { base: ApiBranchInfo; head: ApiBranchInfo };
export type ApiBranchInfo = Wire<PRBranchInfo>;

/** Forgejo's PullRequest.Mergeable: not while checking, on conflict or error, nor for a draft. */
export function isMergeable(pull: Pick<IPullRequest, 'status'>, title: string): boolean {
  const s = pull.status;
  return s !== PullStatus.checking && s !== PullStatus.conflict && s !== PullStatus.error && !isWorkInProgress(title);
}

interface Branches {
  baseSha: string;
  headSha: string;
  headRef: string;
  stat: { files: number; additions: number; deletions: number };
}

async function branchesOf(
  cfgPath: (r: IRepository) => string,
  pull: IPullRequest,
  base: IRepository,
  head: IRepository | null,
): Promise<Branches> {
  const basePath = cfgPath(base);
  const baseSha = (await readRef(basePath, 'heads', pull.baseBranch, true))?.oid ?? '';
  const live = head ? await readRef(cfgPath(head), 'heads', pull.headBranch, true) : null;
  const recorded = (await readInfo(basePath, pullHeadRef(pull.index)))?.oid ?? '';
  const headSha = live?.oid ?? recorded;
  // The stat is read in the base repository, which holds the head commit through refs/pull/<n>/head.
  const statHead = live && live.oid === recorded ? live.oid : recorded;
  const stat =
    head && pull.mergeBase && statHead ? await diffShortStat(basePath, pull.mergeBase, statHead) : { files: 0, additions: 0, deletions: 0 };
  return { baseSha, headSha, headRef: live ? pull.headBranch : pullHeadRef(pull.index), stat };
}

/**
 * api.PullRequest for each pull, in order, as the caller of `s` sees them; `issuesRead`: the pull
 * requests' issues when the caller has read them already.
 */
export async function pullsToApi(s: RequestState, pulls: IPullRequest[], issuesRead?: IIssue[]): Promise<ApiPull[]> {
  if (pulls.length === 0) return [];
  const em = s.em;
  const cfg: Config = s.config;
  const viewer: Viewer = { doer: s.auth.doer, siteAdmin: isSiteAdmin(s) };
  const anonymous: Viewer = { doer: null, siteAdmin: false };
  const issueIds = pulls.map((p) => p.issueId);
  // A read reuses the addressed repository; after a write its counters may have moved in the database.
  const knownRepos = s.method === 'GET' && s.repo ? [s.repo.repo] : [];
  const repoIds = [...new Set(pulls.flatMap((p) => [p.baseRepoId, p.headRepoId]).filter((id) => id > 0))];
  const missingRepos = repoIds.filter((id) => !knownRepos.some((r) => r.id === id));
  const [issues, requests, codeComments, readRepos] = await readTogether(em, [
    () =>
      issuesRead && issueIds.every((id) => issuesRead.some((i) => i.id === id))
        ? issuesRead.filter((i) => issueIds.includes(i.id))
        : em.find(Issue, { id: { $in: issueIds } }),
    () => em.find(Review, { issueId: { $in: issueIds }, type: ReviewType.request }, { orderBy: { id: 'asc' } }),
    () =>
      executeSql<{ issue_id: number; n: string }>(
        em,
        sql`select issue_id, count(*) as n from comment where type = ${CommentType.code} and issue_id in (${sql.list(issueIds)}) group by issue_id`,
      ),
    () => (missingRepos.length ? em.find(Repository, { id: { $in: missingRepos } }) : []),
  ]);
  const repos = [...knownRepos.filter((r) => repoIds.includes(r.id)), ...readRepos];
  const issueById = new Map(issues.map((i) => [i.id, i]));
  const apiIssues = new Map(
    (await issuesToApi(em, cfg, viewer, issues, { attachments: false, known: s.method === 'GET' ? { repos, pulls } : {} })).map((a) => [
      a.id,
      a,
    ]),
  );
  const repoById = new Map(repos.map((r) => [r.id, r]));
  // Base and head repositories in one batch (a repository without its owner shows as null).
  const repoApi = new Map((await reposJson(s, repos)).map((j) => [j.id, j]));
  const repoOf = async (r: IRepository | undefined) => (r ? (repoApi.get(r.id) ?? null) : null);
  const users = await usersById(em, [...requests.map((r) => r.reviewerId), ...pulls.map((p) => p.mergerId)]);
  const teamIds = [...new Set(requests.map((r) => r.reviewerTeamId).filter((id) => id > 0))];
  const teams: ITeam[] = teamIds.length ? await em.find(Team, { id: { $in: teamIds } }) : [];
  const teamUnits = teams.length ? await em.find(TeamUnit, { teamId: { $in: teams.map((t) => t.id) } }) : [];
  const teamOrgs = teams.length
    ? new Map((await em.find(User, { id: { $in: teams.map((t) => t.orgId) } })).map((u): [number, IUser] => [u.id, u]))
    : new Map<number, IUser>();
  const codeCount = new Map<number, number>(
    codeComments.map((r: { issue_id: number; n: string }): [number, number] => [Number(r.issue_id), Number(r.n)]),
  );
  const pathOf = (r: IRepository) => repoPathOf(s.services, r);

  const out: ApiPull[] = [];
  for (const pull of pulls) {
    const issue = issueById.get(pull.issueId);
    const api = issue ? apiIssues.get(issue.id) : undefined;
    const base = repoById.get(pull.baseRepoId);
    if (!issue || !api || !base) continue;
    const head = pull.headRepoId ? (repoById.get(pull.headRepoId) ?? null) : null;
    const br = await branchesOf(pathOf, pull, base, head);
    const html = api.html_url;
    const reqs = requests.filter((r) => r.issueId === issue.id);
    out.push({
      id: pull.id,
      url: `${repoApiUrl(cfg, base.ownerName, base.name)}/pulls/${pull.index}`,
      number: pull.index,
      user: api.user,
      title: api.title,
      body: api.body,
      labels: api.labels,
      milestone: api.milestone,
      assignee: api.assignee,
      assignees: api.assignees,
      requested_reviewers: reqs.filter((r) => r.reviewerId > 0).map((r) => toApiUser(cfg, users.get(r.reviewerId)!, anonymous)),
      requested_reviewers_teams: reqs
        .filter((r) => r.reviewerTeamId > 0)
        .flatMap((r) => {
          const t = teams.find((x) => x.id === r.reviewerTeamId);
          return t ? [toApiTeam(cfg, t, teamUnits, teamOrgs.get(t.orgId))] : [];
        }),
      state: api.state,
      draft: isWorkInProgress(issue.title),
      is_locked: api.is_locked,
      comments: api.comments,
      review_comments: codeCount.get(issue.id) ?? 0,
      additions: br.stat.additions,
      deletions: br.stat.deletions,
      changed_files: br.stat.files,
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      mergeable: isMergeable(pull, issue.title),
      merged: pull.hasMerged,
      merged_at: pull.hasMerged && pull.mergedAt ? fmtTime(pull.mergedAt) : null,
      merge_commit_sha: pull.hasMerged ? pull.mergedCommitId : null,
      merged_by: pull.hasMerged && pull.mergerId ? toApiUser(cfg, users.get(pull.mergerId)!, anonymous) : null,
      allow_maintainer_edit: pull.allowMaintainerEdit,
      base: { label: pull.baseBranch, ref: pull.baseBranch, sha: br.baseSha, repo_id: base.id, repo: await repoOf(base) },
      head: head
        ? { label: pull.headBranch, ref: br.headRef, sha: br.headSha, repo_id: head.id, repo: await repoOf(head) }
        : { label: pull.headBranch, ref: br.headRef, sha: br.headSha, repo_id: -1, repo: null },
      merge_base: pull.mergeBase,
      due_date: api.due_date,
      created_at: api.created_at,
      updated_at: api.updated_at,
      closed_at: api.closed_at,
      pin_order: api.pin_order,
      flow: pull.flow,
    });
  }
  return out;
}

export async function pullToApi(s: RequestState, pull: IPullRequest): Promise<ApiPull> {
  const [one] = await pullsToApi(s, [pull]);
  if (!one) throw new Error(`pull request ${pull.id} has no issue or base repository`);
  return one;
}
