// Merging a pull request (forgejo-facts 10.4; Forgejo services/pull/merge*.go, check.go): which styles
// the repository allows, who may merge, the branch protection checks, and the git work of each style.
// The git work never uses a work tree: merge-tree + commit-tree build the result, and the base branch
// moves with a compare-and-swap from the commit the merge was computed on, so a concurrent push makes
// the merge fail ("merge push out of date") instead of being overwritten.
// Just over 400 lines: the merge styles share the protection checks and the compare-and-swap, one concern.
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import type { Services } from '../http/services.ts';
import { CommentType, Issue, type IIssue } from '../../model/issue.ts';
import { AutoMerge, PullRequest, PullStatus, Review, ReviewType, type IPullRequest } from '../../model/pull.ts';
import type { IRepository, IRepoUnit } from '../../model/repo.ts';
import { User, type IUser } from '../../model/user.ts';
import type { IProtectedBranch } from '../../model/branch-protection.ts';
import { CommitStatus } from '../../model/commit-status.ts';
import { userPermission, Unit, type RepoPermission } from '../auth/perm.ts';
import { userIsSiteAdmin } from '../auth/auth-types.ts';
import { DEFAULT_PULLS_CONFIG, repoUnits } from '../repos/index.ts';
import { branchRule, canUserMergeRule, filePatterns, matchesAnyFile } from '../repos/index.ts';
import { compileGlobOrLiteral } from '../repos/index.ts';
import { conflict, HttpError, notFound } from '../http/errors.ts';
import { emitEvent, type EventCtx } from '../activity/index.ts';
import { emitPullMerged } from '../issues/index.ts';
import { refSnapshot } from '../transport/index.ts';
import { gitWrite, identityOf, refreshAfterWrite } from '../repos/index.ts';
import { claimPull, pullRepos, repoPathOf, syncPullHead } from './pulls.ts';
import { addComment, labelIdsOf, recountIssueTotals } from '../issues/index.ts';
import { isWorkInProgress } from '../issues/index.ts';
import { deleteRef } from '../../git/refs.ts';
import { readRef } from '../../git/lookup.ts';
import { isAncestor } from '../../git/merge.ts';
import { diffFiles } from '../../git/commits.ts';
import { RefConflictError } from '../../git/errors.ts';
import { systemIdentityEnv, type Identity } from '../../git/identity.ts';
import { runGit } from '../../git/exec.ts';
import { fetchFrom } from '../../git/remote.ts';
import { commitTree, mergeCommits, moveBranch, replayCommits, treeOf } from '../../git/pull.ts';
import { dropMergeIntent, writeMergeIntent } from './merge-intent.ts';
import { failpoint } from '../runtime/failpoint.ts';

export const MERGE_STYLES = ['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only', 'manually-merged'] as const;
export type MergeStyle = (typeof MERGE_STYLES)[number];

const STYLE_SETTING: Record<MergeStyle, keyof typeof DEFAULT_PULLS_CONFIG> = {
  merge: 'allow_merge_commits',
  rebase: 'allow_rebase',
  'rebase-merge': 'allow_rebase_explicit',
  squash: 'allow_squash_merge',
  'fast-forward-only': 'allow_fast_forward_only_merge',
  'manually-merged': 'allow_manual_merge',
};

/** The pulls unit's settings, with Forgejo's defaults for keys the row does not carry. */
export function pullsConfig(units: readonly IRepoUnit[]): typeof DEFAULT_PULLS_CONFIG {
  const row = units.find((u) => u.type === Unit.pulls);
  return { ...DEFAULT_PULLS_CONFIG, ...(row?.config ?? {}) } as typeof DEFAULT_PULLS_CONFIG;
}

export const styleAllowed = (units: readonly IRepoUnit[], style: MergeStyle) => pullsConfig(units)[STYLE_SETTING[style]] === true;

/** Forgejo's IsUserAllowedToMerge: code writers, or the merge allowlist of the base branch's rule. */
export async function canMerge(
  em: EntityManager,
  rule: IProtectedBranch | null,
  perm: RepoPermission,
  doer: IUser | null,
): Promise<boolean> {
  if (!doer) return false;
  if (!rule) return perm.canWrite('code');
  return canUserMergeRule(em, rule, perm, doer);
}

// -------------------------------------------------------------------------------------------------
// Branch protection (Forgejo's CheckPullBranchProtections)

const PRIORITY: Record<string, number> = { error: 0, failure: 1, warning: 2, pending: 3, success: 4, skipped: 5 };
const worse = (a: string, b: string) => ((PRIORITY[a] ?? 99) <= (PRIORITY[b] ?? 99) ? a : b);

/**
 * Forgejo's MergeRequiredContextsCommitStatus over the latest status per context of `sha`: each
 * required context (a glob) must have a status, and the worst of them counts; with none required
 * (or none matching), the worst of all statuses. '' when there is no status at all.
 */
export async function requiredStatusState(em: EntityManager, repoId: number, sha: string, required: string[]): Promise<string> {
  const all = await em.find(CommitStatus, { repoId, sha }, { orderBy: { id: 'desc' } });
  const latest = all.filter((s, i) => all.findIndex((o) => o.contextHash === s.contextHash) === i);
  let state = 'success';
  let matched = 0;
  for (const pattern of required) {
    const re = compileGlobOrLiteral(pattern, '');
    const hit = latest.find((s) => re.test(s.context));
    if (!hit) {
      state = worse('pending', state);
      break;
    }
    matched++;
    state = worse(hit.state, state);
  }
  if (matched === 0 && state === 'success') return latest.reduce((w, s) => (w === '' ? s.state : worse(s.state, w)), '');
  return state;
}

async function approvals(em: EntityManager, rule: IProtectedBranch, issueId: number): Promise<number> {
  const rows = await em.find(Review, { issueId, type: ReviewType.approve, official: true, dismissed: false });
  return rows.filter((r) => !(rule.dismissStaleApprovals || rule.ignoreStaleApprovals) || !r.stale).length;
}

/** The first reason the base branch's rule refuses the merge, or null (Forgejo's ErrDisallowedToMerge reasons). */
export async function protectionFailure(
  em: EntityManager,
  basePath: string,
  pull: IPullRequest,
  rule: IProtectedBranch | null,
  headCommit: string,
): Promise<string | null> {
  if (!rule) return null;
  if (rule.enableStatusCheck && (await requiredStatusState(em, pull.baseRepoId, headCommit, rule.statusCheckContexts)) !== 'success') {
    return 'Not all required status checks successful';
  }
  if (rule.requiredApprovals > 0 && (await approvals(em, rule, pull.issueId)) < rule.requiredApprovals)
    return 'Does not have enough approvals';
  if (
    rule.blockOnRejectedReviews &&
    (await em.count(Review, { issueId: pull.issueId, type: ReviewType.reject, official: true, dismissed: false })) > 0
  ) {
    return 'There are requested changes';
  }
  if (
    rule.blockOnOfficialReviewRequests &&
    (await em.count(Review, { issueId: pull.issueId, type: ReviewType.request, official: true })) > 0
  ) {
    return 'There are official review requests';
  }
  if (rule.blockOnOutdatedBranch && pull.commitsBehind > 0) return 'The head branch is behind the base branch';
  const patterns = filePatterns(rule.protectedFilePatterns);
  if (patterns.length && pull.mergeBase) {
    const files = await diffFiles(basePath, pull.mergeBase, headCommit);
    if (
      files.some(
        (f) => matchesAnyFile(patterns, f.filename) || (f.previousFilename !== undefined && matchesAnyFile(patterns, f.previousFilename)),
      )
    ) {
      return 'Changed protected files';
    }
  }
  return null;
}

export const disallowed = (reason: string) => `not allowed to merge [reason: ${reason}]`;

export { branchRule };

// -------------------------------------------------------------------------------------------------
// Messages

/** `<branch>`, `<owner>/<repo>:<branch>` from a fork, `<deleted>:<branch>` once the head repository is gone. */
function headName(pull: IPullRequest, base: IRepository, head: IRepository | null): string {
  if (!head) return `<deleted>:${pull.headBranch}`;
  return head.id === base.id ? pull.headBranch : `${head.ownerName}/${head.name}:${pull.headBranch}`;
}

/** Forgejo's GetDefaultMergeMessage title (the API sends no default body). Rebase has none. */
export function defaultMergeTitle(
  style: MergeStyle,
  pull: IPullRequest,
  issue: IIssue,
  base: IRepository,
  head: IRepository | null,
): string {
  if (style === 'rebase') return '';
  if (style === 'squash') return `${issue.title} (#${pull.index})`;
  return `Merge pull request '${issue.title}' (#${pull.index}) from ${headName(pull, base, head)} into ${pull.baseBranch}`;
}

// -------------------------------------------------------------------------------------------------
// The git work

/** A merge that could not be made: Forgejo answers 409 with its error struct as JSON. */
export class MergeConflict extends Error {
  readonly body: Record<string, unknown>;
  constructor(body: Record<string, unknown>) {
    super('merge conflict');
    this.body = body;
  }
}

export interface MergeInput {
  services: Services;
  cfg: Config;
  pull: IPullRequest;
  base: IRepository;
  head: IRepository | null;
  style: Exclude<MergeStyle, 'manually-merged'>;
  message: string;
  doer: IUser;
  poster: IUser;
  /** `head_commit_id` of the request: the merge is refused (409) if the head moved since. */
  expectedHead?: string;
}

/**
 * Builds the merged history for `style` and moves the base branch to it. Returns the new base
 * branch commit (Forgejo's merged commit id). Throws MergeConflict (409 body) when git cannot do it,
 * and 409 `head out of date` / `merge push out of date` when a branch moved.
 */
export async function mergePull(m: MergeInput): Promise<string> {
  const basePath = repoPathOf(m.services, m.base);
  const headCommit = await syncPullHead(m.services, m.pull, m.base, m.head);
  if (!headCommit) throw new MergeConflict({ Style: m.style, StdOut: '', StdErr: 'the head commit is missing', Err: {} });
  if (m.expectedHead && m.expectedHead !== headCommit) throw conflict('head out of date');
  const baseCommit = (await readRef(basePath, 'heads', m.pull.baseBranch, true))?.oid;
  if (!baseCommit)
    throw new MergeConflict({ Style: m.style, StdOut: '', StdErr: `base branch ${m.pull.baseBranch} does not exist`, Err: {} });
  const merger: Identity = identityOf(m.cfg, m.doer);
  const next = await buildResult(basePath, m, baseCommit, headCommit, merger);
  // Before git moves: what a crash between here and the commit of the record leaves behind (lib/pulls/merge-recovery.ts).
  await writeMergeIntent(m.cfg, { pullId: m.pull.id, commit: next, doerId: m.doer.id });
  try {
    await moveBranch(basePath, m.pull.baseBranch, next, baseCommit, merger);
    failpoint('merge-moved');
  } catch (e) {
    // update-ref moved nothing: the intent is void.
    await dropMergeIntent(m.cfg, m.pull.id);
    if (e instanceof RefConflictError) throw conflict('merge push out of date');
    throw e;
  }
  return next;
}

async function buildResult(basePath: string, m: MergeInput, base: string, head: string, merger: Identity): Promise<string> {
  const style = m.style;
  if (style === 'fast-forward-only') {
    if (!(await isAncestor(basePath, base, head)))
      throw new MergeConflict({ Style: style, StdOut: '', StdErr: 'fatal: Not possible to fast-forward, aborting.', Err: {} });
    return head;
  }
  if (style === 'rebase' || style === 'rebase-merge') {
    const tip = await rebased(basePath, style, base, head, merger);
    if (style === 'rebase') return tip;
    return commitTree(basePath, {
      tree: await treeOf(basePath, tip),
      parents: [base, tip],
      message: m.message,
      author: merger,
      committer: merger,
    });
  }
  const merged = await mergeCommits(basePath, base, head);
  if (merged.kind === 'unrelated')
    throw new MergeConflict({ Style: style, StdOut: '', StdErr: `fatal: ${merged.stderr.replace(/^fatal: /, '')}`, Err: {} });
  if (merged.kind === 'conflict')
    throw new MergeConflict({ Style: style, StdOut: merged.stdout, StdErr: `CONFLICT: ${merged.files.join(', ')}`, Err: {} });
  if (style === 'squash') {
    // Forgejo squashes with the poster as author and the merger as committer.
    const author = identityOf(m.cfg, m.poster);
    return commitTree(basePath, { tree: merged.tree, parents: [base], message: m.message, author, committer: merger });
  }
  return commitTree(basePath, { tree: merged.tree, parents: [base, head], message: m.message, author: merger, committer: merger });
}

/** The head's commits replayed onto the base (the head itself when it already builds on the base). */
async function rebased(basePath: string, style: MergeStyle, base: string, head: string, merger: Identity): Promise<string> {
  if (await isAncestor(basePath, base, head)) return head;
  const r = await replayCommits(basePath, base, head, merger);
  if (r.kind === 'conflict') {
    throw new MergeConflict({ Style: style, CommitSHA: r.commit, StdOut: r.stdout, StdErr: `CONFLICT: ${r.files.join(', ')}`, Err: {} });
  }
  return r.tip;
}

// -------------------------------------------------------------------------------------------------
// Updating the head branch (POST .../pulls/{n}/update)

export interface UpdateInput {
  services: Services;
  cfg: Config;
  pull: IPullRequest;
  base: IRepository;
  head: IRepository;
  doer: IUser;
  rebase: boolean;
}

/**
 * Forgejo's pull_service.Update: the base branch merged into the head branch (a merge commit
 * "Merge branch '<base>' into <head>"), or the head's commits rebased onto it. The result is built
 * in the base repository, copied into a fork through a short-lived ref, and the head branch moves
 * with a compare-and-swap. Returns false when the head already contains the base.
 */
export async function updatePullHead(u: UpdateInput): Promise<boolean> {
  const basePath = repoPathOf(u.services, u.base);
  const headPath = repoPathOf(u.services, u.head);
  const headCommit = (await readRef(headPath, 'heads', u.pull.headBranch, true))?.oid;
  const baseCommit = (await readRef(basePath, 'heads', u.pull.baseBranch, true))?.oid;
  if (!headCommit || !baseCommit) throw conflict('the head or base branch of this pull request does not exist');
  await syncPullHead(u.services, u.pull, u.base, u.head);
  if (await isAncestor(basePath, baseCommit, headCommit)) return false;
  const who = identityOf(u.cfg, u.doer);
  let next: string;
  if (u.rebase) {
    const r = await replayCommits(basePath, baseCommit, headCommit, who);
    if (r.kind === 'conflict') throw conflict('rebase failed because of conflict');
    next = r.tip;
  } else {
    const merged = await mergeCommits(basePath, headCommit, baseCommit);
    if (merged.kind !== 'clean') throw conflict('merge failed because of conflict');
    const message = `Merge branch '${u.pull.baseBranch}' into ${u.pull.headBranch}`;
    next = await commitTree(basePath, { tree: merged.tree, parents: [headCommit, baseCommit], message, author: who, committer: who });
  }
  if (u.head.id !== u.base.id) await copyCommit(basePath, headPath, u.pull.index, next);
  try {
    await moveBranch(headPath, u.pull.headBranch, next, headCommit, who);
  } catch (e) {
    if (e instanceof RefConflictError) throw conflict('head out of date');
    throw e;
  }
  return true;
}

/** Makes `commit` (and what it needs) present in the fork at `toPath`, fetched through a temporary ref. */
async function copyCommit(fromPath: string, toPath: string, index: number, commit: string): Promise<void> {
  const ref = `refs/pull/${index}/update`;
  await runGit(fromPath, ['update-ref', ref, commit], { env: systemIdentityEnv() });
  try {
    await fetchFrom(toPath, fromPath, [ref]);
  } finally {
    await runGit(fromPath, ['update-ref', '-d', ref], { env: systemIdentityEnv() });
  }
}

// -------------------------------------------------------------------------------------------------
// Checks before a merge, and what a merge changes in the database

export const notAllowed = (message: string) => new HttpError(405, message);

export type MergeCheck = 'general' | 'auto' | 'manual';

export interface CheckInput {
  pull: IPullRequest;
  issue: IIssue;
  base: IRepository;
  perm: RepoPermission;
  doer: IUser | null;
  kind: MergeCheck;
  headCommit: string;
  forceMerge: boolean;
  siteAdmin: boolean;
}

/**
 * Forgejo's CheckPullMergeable, in its order: merged (405 ''), closed (404), may the doer merge
 * (405), then (not for manually-merged) WIP, mergeable state and branch protection, all 405. A
 * forced merge by a repository or site admin passes the protection unless it applies to admins;
 * scheduling an auto-merge ignores it (it is checked when the merge runs).
 */
export async function checkMergeable(em: EntityManager, services: Services, i: CheckInput): Promise<void> {
  if (i.pull.hasMerged) throw notAllowed('');
  if (i.issue.isClosed) throw notFound();
  const rule = await branchRule(em, i.base.id, i.pull.baseBranch);
  if (!(await canMerge(em, rule, i.perm, i.doer))) throw notAllowed('User not allowed to merge PR');
  if (i.kind === 'manual') return;
  if (isWorkInProgress(i.issue.title)) throw notAllowed('Work in progress PRs cannot be merged');
  if (i.pull.status !== PullStatus.mergeable && i.pull.status !== PullStatus.empty) throw notAllowed('Please try again later');
  const failure = await protectionFailure(em, repoPathOf(services, i.base), i.pull, rule, i.headCommit);
  if (!failure || i.kind === 'auto') return;
  if (!(i.forceMerge && (i.perm.isAdmin() || i.siteAdmin) && !rule?.applyToAdmins)) throw notAllowed(disallowed(failure));
}

/** Marks the pull merged: its issue closes with a merge_pull event, a scheduled auto-merge goes, totals follow. */
export async function recordMerged(
  em: EntityManager,
  pull: IPullRequest,
  issue: IIssue,
  commit: string,
  at: Date,
  manual: boolean,
  doerId: number,
): Promise<void> {
  pull.hasMerged = true;
  pull.mergedCommitId = commit;
  pull.mergedAt = at;
  pull.mergerId = doerId;
  if (manual) pull.status = PullStatus.manuallyMerged;
  issue.isClosed = true;
  issue.closedAt = new Date();
  await addComment(em, issue, doerId, CommentType.mergePull, { commitSha: commit });
  await em.nativeDelete(AutoMerge, { pullId: pull.id });
  await em.flush();
  await recountIssueTotals(em, { repoIds: [issue.repoId], labelIds: await labelIdsOf(em, issue.id), milestoneIds: [issue.milestoneId] });
}

/** After the base branch moved for a merge: the record, then the base repository and its other pulls. */
export async function finishMerge(
  em: EntityManager,
  services: Services,
  f: { pull: IPullRequest; issue: IIssue; base: IRepository; commit: string; doerId: number },
): Promise<void> {
  await recordMerged(em, f.pull, f.issue, f.commit, new Date(), false, f.doerId);
  await refreshAfterWrite(em, f.base, repoPathOf(services, f.base), [f.pull.baseBranch], { services, doerId: f.doerId });
}

/**
 * Deletes the head branch after a merge (Forgejo's DeleteBranchAfterMerge). Returns the reason it was
 * kept (the default branch, a protected branch, no code write on the head repository), or null.
 */
export async function deleteHeadAfterMerge(
  em: EntityManager,
  services: Services,
  d: {
    pull: IPullRequest;
    issue: IIssue;
    head: IRepository;
    doerId: number;
    perm: RepoPermission;
    events: { ctx: EventCtx; sender: IUser };
  },
): Promise<string | null> {
  if (d.pull.headBranch === d.head.defaultBranch) return 'the head branch is the default branch';
  if (await branchRule(em, d.head.id, d.pull.headBranch)) return 'the head branch is protected';
  if (!d.perm.canWrite('code')) return 'insufficient permission to delete head branch';
  const headPath = repoPathOf(services, d.head);
  const tip = (await readRef(headPath, 'heads', d.pull.headBranch))?.oid;
  if (!tip) return null;
  await gitWrite(() => deleteRef(headPath, `refs/heads/${d.pull.headBranch}`, tip));
  await addComment(em, d.issue, d.doerId, CommentType.deleteBranch, { oldRef: d.pull.headBranch });
  await refreshAfterWrite(em, d.head, headPath, [], { services, doerId: d.doerId });
  await emitEvent(em, d.events.ctx, { name: 'delete', repo: d.head, sender: d.events.sender, refType: 'branch', ref: d.pull.headBranch });
  return null;
}

// -------------------------------------------------------------------------------------------------
// Scheduled merges (merge_when_checks_succeed)

/**
 * After a commit status was stored for `sha` in `repo`: every pull with that head commit and a
 * scheduled merge whose required checks now succeed is merged as its scheduler, with the style,
 * message and branch deletion chosen then (Forgejo's automerge.handlePullRequestAutoMerge). A pull
 * that cannot be merged (yet) keeps its schedule.
 */
export async function runScheduledMerges(
  em: EntityManager,
  services: Services,
  cfg: Config,
  repo: IRepository,
  sha: string,
): Promise<void> {
  const pulls = await em.find(PullRequest, {
    $or: [{ baseRepoId: repo.id }, { headRepoId: repo.id }],
    headCommitId: sha,
    hasMerged: false,
  });
  for (const pull of pulls) {
    const schedule = await em.findOne(AutoMerge, { pullId: pull.id });
    const issue = schedule && (await em.findOne(Issue, { id: pull.issueId }));
    if (!schedule || !issue) continue;
    await claimPull(em, pull, issue);
    if (pull.hasMerged || issue.isClosed) continue;
    const { base, head } = await pullRepos(em, pull);
    const rule = await branchRule(em, base.id, pull.baseBranch);
    if ((await requiredStatusState(em, base.id, sha, rule?.statusCheckContexts ?? [])) !== 'success') continue;
    const doer = await em.findOne(User, { id: schedule.doerId });
    const baseOwner = await em.findOne(User, { id: base.ownerId });
    if (!doer || !baseOwner) continue;
    const as = async (r: IRepository, owner: IUser) => userPermission(em, r, owner, doer);
    const perm = await as(base, baseOwner);
    const style = schedule.mergeStyle as MergeStyle;
    if (style === 'manually-merged' || !styleAllowed(await repoUnits(em, base.id), style)) continue;
    try {
      await checkMergeable(em, services, {
        pull,
        issue,
        base,
        perm,
        doer,
        kind: 'general',
        headCommit: sha,
        forceMerge: false,
        siteAdmin: userIsSiteAdmin(doer),
      });
      const poster = await em.findOneOrFail(User, { id: issue.posterId });
      const refsBefore = await refSnapshot(repoPathOf(services, base));
      const commit = await mergePull({
        services,
        cfg,
        pull,
        base,
        head,
        style,
        message: schedule.message,
        doer,
        poster,
        expectedHead: sha,
      });
      await finishMerge(em, services, { pull, issue, base, commit, doerId: doer.id });
      await emitPullMerged(
        em,
        { config: cfg, services },
        { base, sender: doer, pull, issue, basePath: repoPathOf(services, base), refsBefore },
      );
    } catch (e) {
      // Not mergeable now (a check, a conflict, a moved branch): the schedule stays for the next status.
      if (e instanceof HttpError || e instanceof MergeConflict) continue;
      throw e;
    }
    if (schedule.deleteBranchAfterMerge && head) {
      const headOwner = await em.findOneOrFail(User, { id: head.ownerId });
      await deleteHeadAfterMerge(em, services, {
        pull,
        issue,
        head,
        doerId: doer.id,
        perm: head.id === base.id ? perm : await as(head, headOwner),
        events: { ctx: { config: cfg, services }, sender: doer },
      });
    }
  }
}
