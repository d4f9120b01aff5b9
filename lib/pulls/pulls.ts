// Pull requests (Forgejo services/pull, models/issues/pull.go): creating one on top of its issue,
// keeping refs/pull/<n>/head and the mergeability in step with the branches, and the option fields
// (labels, milestone, assignees) a pull shares with issues. A pull is an issue with `isPull` plus
// one PullRequest row with the same number (forgejo-facts 9).
import type { EntityManager } from '@mikro-orm/core';
import { applyCounterQueue } from '../db/counters.ts';
import { isSiteAdmin, need, type RequestState } from '../http/request.ts';
import type { Services } from '../http/services.ts';
import type { Config } from '../../config.ts';
import { emitSynchronized } from '../issues/index.ts';
import { Issue, type IIssue } from '../../model/issue.ts';
import { executeSql, sql } from '../../model/sql.ts';
import { CommentType } from '../../model/issue.ts';
import { PullRequest, PullStatus, Review, type IPullRequest } from '../../model/pull.ts';
import { Repository, type IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import { Milestone } from '../../model/milestone.ts';
import { addComment, createIssue, recountIssueTotals } from '../issues/index.ts';
import { notFound } from '../http/errors.ts';
import { readRef } from '../../git/lookup.ts';
import { readInfo } from '../../git/cat-file.ts';
import { Lru } from '../../git/lru.ts';
import { mergeBase } from '../../git/merge.ts';
import { aheadBehind, fetchPullHead, mergeCommits, pullHeadRef, rangeCommits, setPullHeadRef, treeOf } from '../../git/pull.ts';

export const repoPathOf = (services: Services, repo: Pick<IRepository, 'ownerName' | 'name'>) =>
  services.repoPath(repo.ownerName, repo.name);

/** The repositories of a pull: its base, and its head (null once the head repository was deleted). */
export async function pullRepos(em: EntityManager, pull: IPullRequest): Promise<{ base: IRepository; head: IRepository | null }> {
  const base = await em.findOneOrFail(Repository, { id: pull.baseRepoId });
  const head = pull.headRepoId === pull.baseRepoId ? base : pull.headRepoId ? await em.findOne(Repository, { id: pull.headRepoId }) : null;
  return { base, head };
}

/** The pull request at `{index}` of a repository, with its issue; null when there is none. */
/**
 * Repository or site administrators acting on other people's reviews (dismissal, deletion, drafts).
 * Public-only and repo-specific tokens do not inherit administrator rights (spec, token kinds).
 */
export function isReviewAdmin(s: Pick<RequestState, 'repo' | 'auth'>): boolean {
  const token = s.auth.token;
  if (token && (token.publicOnly || token.repoIds)) return false;
  return need(s.repo, 'repo').perm.isAdmin() || isSiteAdmin(s);
}

export async function findPull(em: EntityManager, repoId: number, index: number): Promise<{ pull: IPullRequest; issue: IIssue } | null> {
  const pull = await em.findOne(PullRequest, { baseRepoId: repoId, index });
  if (!pull) return null;
  const issue = await em.findOne(Issue, { id: pull.issueId });
  return issue ? { pull, issue } : null;
}

/** Forgejo's GetUnmergedPullRequest: the open, unmerged pull with the same targets, if any. */
export async function findOpenDuplicate(
  em: EntityManager,
  t: { headRepoId: number; baseRepoId: number; headBranch: string; baseBranch: string },
  except = 0,
): Promise<IPullRequest | null> {
  const candidates = await em.find(PullRequest, { ...t, hasMerged: false, flow: 0, id: { $ne: except } });
  if (candidates.length === 0) return null;
  const open = await em.find(Issue, { id: { $in: candidates.map((p) => p.issueId) }, isClosed: false });
  return candidates.find((p) => open.some((i) => i.id === p.issueId)) ?? null;
}

/** Forgejo's ErrPullRequestAlreadyExists text (IssueID carries the pull's number there). */
export const alreadyExists = (p: IPullRequest) =>
  `pull request already exists for these targets [id: ${p.id}, issue_id: ${p.index}, head_repo_id: ${p.headRepoId}, base_repo_id: ${p.baseRepoId}, head_branch: ${p.headBranch}, base_branch: ${p.baseBranch}]`;

/**
 * The merge claim (lib/pulls/merge-recovery.ts): locks the pull's row for the rest of the transaction and reloads the pull and its issue, so that
 * `hasMerged` and `isClosed` are what the last committed merge or edit left.
 */
export async function claimPull(em: EntityManager, pull: IPullRequest, issue: IIssue): Promise<void> {
  await executeSql(em, sql`select id from pull_request where id = ${pull.id} for no key update`);
  await em.refresh(pull);
  await em.refresh(issue);
}

// -------------------------------------------------------------------------------------------------
// Mergeability

interface TestResult {
  status: number;
  mergeBase: string;
  conflictedFiles: string[];
  ahead: number;
  behind: number;
}

// A pure function of two commit ids, so a process-local cache cannot disagree with another process.
const tested = new Lru<string, TestResult>(5_000);

/**
 * Forgejo's testPatch, in memory: the merge base, then ancestor (head already in base), conflict
 * (with the files), empty (merging changes nothing) or mergeable.
 */
export async function testMerge(basePath: string, baseCommit: string, headCommit: string): Promise<TestResult> {
  return tested.getOr(`${basePath}\0${baseCommit}\0${headCommit}`, async () => {
    const mb = await mergeBase(basePath, baseCommit, headCommit);
    const { ahead, behind } = mb ? await aheadBehind(basePath, baseCommit, headCommit) : { ahead: 0, behind: 0 };
    const out = { mergeBase: mb ?? '', conflictedFiles: [] as string[], ahead, behind };
    if (!mb) return { ...out, status: PullStatus.error };
    if (mb === headCommit) return { ...out, status: PullStatus.ancestor };
    const merged = await mergeCommits(basePath, baseCommit, headCommit);
    if (merged.kind === 'conflict') return { ...out, status: PullStatus.conflict, conflictedFiles: merged.files };
    if (merged.kind === 'unrelated') return { ...out, status: PullStatus.error };
    const empty = merged.tree === (await treeOf(basePath, baseCommit));
    return { ...out, status: empty ? PullStatus.empty : PullStatus.mergeable };
  });
}

/**
 * Brings refs/pull/<n>/head of the base repository to the head branch (fetching it from a fork)
 * and returns the head commit; when the head branch is gone, the last recorded head stays.
 */
export async function syncPullHead(
  services: Services,
  pull: IPullRequest,
  base: IRepository,
  head: IRepository | null,
): Promise<string | null> {
  const basePath = repoPathOf(services, base);
  const recorded = (await readInfo(basePath, pullHeadRef(pull.index)))?.oid ?? null;
  if (!head) return recorded;
  const headPath = repoPathOf(services, head);
  const branch = await readRef(headPath, 'heads', pull.headBranch, true);
  if (!branch) return recorded;
  if (branch.oid === recorded) return recorded;
  if (head.id === base.id) {
    await setPullHeadRef(basePath, pull.index, branch.oid);
    return branch.oid;
  }
  return fetchPullHead(basePath, headPath, pull.headBranch, pull.index);
}

/** Re-tests a pull against the current base branch and records the outcome on the row (no flush). */
export async function retestPull(services: Services, pull: IPullRequest, base: IRepository, headCommit: string | null): Promise<void> {
  const basePath = repoPathOf(services, base);
  const baseCommit = (await readRef(basePath, 'heads', pull.baseBranch, true))?.oid ?? null;
  if (headCommit) pull.headCommitId = headCommit;
  if (!baseCommit || !headCommit) {
    pull.status = PullStatus.error;
    return;
  }
  const r = await testMerge(basePath, baseCommit, headCommit);
  pull.status = r.status;
  pull.mergeBase = r.mergeBase;
  pull.conflictedFiles = r.conflictedFiles;
  pull.commitsAhead = r.ahead;
  pull.commitsBehind = r.behind;
}

// -------------------------------------------------------------------------------------------------
// Creating

export interface NewPull {
  base: IRepository;
  head: IRepository;
  baseBranch: string;
  headBranch: string;
  poster: IUser;
  title: string;
  body?: string;
  labelIds?: number[];
  milestoneId?: number;
  assigneeIds?: number[];
  deadline?: Date | null;
}

/**
 * Forgejo's NewPullRequest: the issue (with the shared next number), the pull row, its head ref in
 * the base repository and its first mergeability test. The caller has checked both branches.
 */
export async function createPull(em: EntityManager, services: Services, n: NewPull): Promise<IPullRequest> {
  const issue = await createIssue(em, {
    repo: n.base,
    posterId: n.poster.id,
    title: n.title,
    content: n.body ?? '',
    isPull: true,
    milestoneId: n.milestoneId,
    deadline: n.deadline ?? null,
    labelIds: n.labelIds,
    assigneeIds: n.assigneeIds,
  });
  // The answer shows the base repository's open-pull counter with this pull in it: written now.
  await applyCounterQueue(em);
  const pull = em.create(PullRequest, {
    issueId: issue.id,
    index: issue.index,
    baseRepoId: n.base.id,
    headRepoId: n.head.id,
    baseBranch: n.baseBranch,
    headBranch: n.headBranch,
    status: PullStatus.checking,
    mergedAt: null,
  });
  await em.flush();
  const headCommit = await syncPullHead(services, pull, n.base, n.head);
  await retestPull(services, pull, n.base, headCommit);
  await em.flush();
  return pull;
}

// -------------------------------------------------------------------------------------------------
// After refs moved

/** Forgejo's pull_push comment content: the new commits, or the old and new head of a force push. */
async function pushCommentContent(basePath: string, oldHead: string, newHead: string): Promise<string> {
  const forced = !(await readInfo(basePath, oldHead)) || (await mergeBase(basePath, oldHead, newHead)) !== oldHead;
  if (forced) return JSON.stringify({ is_force_push: true, commit_ids: [oldHead, newHead] });
  return JSON.stringify({ is_force_push: false, commit_ids: await rangeCommits(basePath, oldHead, newHead) });
}

/** Closing a pull whose branch was deleted (Forgejo's CloseBranchPulls). */
async function closeForDeletedBranch(em: EntityManager, issue: IIssue, doerId: number): Promise<void> {
  issue.isClosed = true;
  issue.closedAt = new Date();
  await addComment(em, issue, doerId, CommentType.close);
}

/**
 * Called after refs of `repo` moved (pushes, API writes, merges): open pulls whose head branch lives
 * there move refs/pull/<n>/head and get a pull_push comment; pulls whose base is there are re-tested
 * (cheap: the test is cached per commit pair); a pull whose head or base branch is gone is closed.
 */
export async function refreshPullsAfterRefChange(
  em: EntityManager,
  services: Services,
  repo: IRepository,
  doerId: number,
  config?: Config,
): Promise<void> {
  const pulls = await em.find(PullRequest, { $or: [{ headRepoId: repo.id }, { baseRepoId: repo.id }], hasMerged: false, flow: 0 });
  if (pulls.length === 0) return;
  const issues = await em.find(Issue, { id: { $in: pulls.map((p) => p.issueId) }, isClosed: false });
  const repoIds = new Set([repo.id]);
  const repos = new Map<number, IRepository>([[repo.id, repo]]);
  for (const p of pulls) for (const id of [p.baseRepoId, p.headRepoId]) if (id && !repoIds.has(id)) repoIds.add(id);
  for (const r of await em.find(Repository, { id: { $in: [...repoIds].filter((id) => id !== repo.id) } })) repos.set(r.id, r);
  const closedRepos = new Set<number>();
  for (const issue of issues) {
    const pull = pulls.find((p) => p.issueId === issue.id)!;
    const base = repos.get(pull.baseRepoId);
    if (!base) continue;
    const head = repos.get(pull.headRepoId) ?? null;
    const basePath = repoPathOf(services, base);
    const headGone = !!head && head.id === repo.id && !(await readRef(repoPathOf(services, head), 'heads', pull.headBranch));
    const baseGone = base.id === repo.id && !(await readRef(basePath, 'heads', pull.baseBranch));
    if (headGone || baseGone) {
      await closeForDeletedBranch(em, issue, doerId);
      closedRepos.add(base.id);
      continue;
    }
    const before = pull.headCommitId;
    const headCommit = await syncPullHead(services, pull, base, head);
    if (headCommit && before && headCommit !== before) {
      await addComment(em, issue, doerId, CommentType.pullRequestPush, { content: await pushCommentContent(basePath, before, headCommit) });
      await markReviewsStale(em, issue.id, headCommit);
      issue.updatedAt = new Date();
      if (config) await emitSynchronized(em, { config, services }, base, doerId, issue, pull);
    }
    await retestPull(services, pull, base, headCommit);
  }
  await em.flush();
  if (closedRepos.size) await recountIssueTotals(em, { repoIds: [...closedRepos] });
}

/** Forgejo's MarkReviewsAsStale + MarkReviewsAsNotStale: reviews of an older head are stale. */
export async function markReviewsStale(em: EntityManager, issueId: number, headCommit: string): Promise<void> {
  const reviews = await em.find(Review, { issueId, type: { $in: [1, 2, 3] } });
  for (const r of reviews) r.stale = r.commitId !== headCommit;
}

// -------------------------------------------------------------------------------------------------
// Option fields (labels and assignees go through lib/issues/edit.ts, as for issues)

/** A milestone of the repository; 404 otherwise (Forgejo's GetMilestoneByRepoID). */
export async function milestoneIn(em: EntityManager, repo: IRepository, id: number): Promise<number> {
  const m = Number.isSafeInteger(id) && id > 0 ? await em.findOne(Milestone, { id, repoId: repo.id }) : null;
  if (!m) throw notFound();
  return m.id;
}
