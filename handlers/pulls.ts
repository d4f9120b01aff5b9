// Pull requests (Forgejo routers/api/v1/repo/pull.go; forgejo-facts 6.8, 9, 10.4). The chain has
// checked the pulls unit (and that the repository is neither empty nor a mirror) and code read.
// Over 400 lines because it is the whole pull request lifecycle of Forgejo's pull.go (list, create,
// edit, update, merge, auto-merge, diff); the merge and review machinery live in lib/.
import type { FilterQuery } from '@mikro-orm/core';
import type { Handler, HandlerCtx, SignedInCtx } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import type { CreatePullRequestOption, EditPullRequestOption, MergePullRequestForm } from '../model/schemas/index.ts';
import { CommentType, Issue, IssueLabel, type IIssue } from '../model/issue.ts';
import { AutoMerge, PullRequest, type IPullRequest } from '../model/pull.ts';
import { Repository, type IRepository } from '../model/repo.ts';
import { User } from '../model/user.ts';
import { pullToApi, pullsToApi } from '../lib/pulls/api/pull.ts';
import { repoUrls } from '../lib/repos/api/git.ts';
import { badRequest, conflict, HttpError, notFound, unprocessable } from '../lib/http/errors.ts';
import { pageOf, pagingHeaders, type Page } from '../lib/http/paging.ts';
import { addComment, canWriteIssues, positiveInt } from '../lib/issues/issues.ts';
import { repoPermission } from '../lib/auth/perm.ts';
import { repoUnits } from '../lib/repos/repos.ts';
import { gitCtx, pullRefresh, refreshAfterWrite } from '../lib/repos/git.ts';
import {
  alreadyExists,
  claimPull,
  createPull,
  findOpenDuplicate,
  findPull,
  milestoneIn,
  pullRepos,
  repoPathOf,
  retestPull,
  syncPullHead,
} from '../lib/pulls/pulls.ts';
import {
  branchRule,
  checkMergeable,
  defaultMergeTitle,
  deleteHeadAfterMerge,
  finishMerge,
  MergeConflict,
  mergePull,
  notAllowed,
  recordMerged,
  requiredStatusState,
  styleAllowed,
  updatePullHead,
  type MergeCheck,
  type MergeStyle,
} from '../lib/pulls/merge.ts';
import {
  assignableUsers,
  endOfDay,
  parseBodyTime,
  replaceLabels,
  resolveLabelOption,
  setAssignees,
  setClosed,
  setDeadline,
  setMilestone,
  setTitle,
} from '../lib/issues/edit.ts';
import { readRef } from '../git/lookup.ts';
import { readInfo } from '../git/cat-file.ts';
import { diffFiles, getCommit, type ChangedFile } from '../git/commits.ts';
import { isAncestor, mergeBase } from '../git/merge.ts';
import { diffStream, patchStream, pullHeadRef, rangeCommits } from '../git/pull.ts';
import { apiCommits, noteOptions } from './commits.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/http/request.ts';
import { emitIssueChanges, emitIssueEvent, emitPullMerged, snapshotIssue } from '../lib/issues/events.ts';
import { emitRefChanges, refSnapshot } from '../lib/transport/push-events.ts';
import { INT32_MAX, rowId } from '../lib/http/query-values.ts';
import { reconcileMerge } from '../lib/pulls/merge-recovery.ts';
import { dropMergeIntent } from '../lib/pulls/merge-intent.ts';
import type { QueryOf } from '../model/schemas/query.ts';

/** The pull at `{index}` of the addressed repository and its issue; 404 otherwise. */
export async function loadPull(s: RequestState, param = 'index'): Promise<{ pull: IPullRequest; issue: IIssue }> {
  const index = positiveInt(s.params[param]);
  const found = index === null ? null : await findPull(s.em, need(s.repo, 'repo').repo.id, index);
  if (!found) throw notFound();
  return found;
}

/** Creation keeps the instant given (Forgejo's form.Deadline.Unix()); a zero time means none. */
function parseDeadline(v: string): Date | null {
  const t = parseBodyTime(v, 'Deadline');
  return t.zero ? null : t.date;
}

// -------------------------------------------------------------------------------------------------
// Listing and reading

const SORTS: Record<string, Record<string, 'asc' | 'desc'>> = {
  oldest: { createdAt: 'asc', id: 'asc' },
  recentupdate: { updatedAt: 'desc', id: 'desc' },
  leastupdate: { updatedAt: 'asc', id: 'asc' },
  mostcomment: { numComments: 'desc', id: 'desc' },
  leastcomment: { numComments: 'asc', id: 'asc' },
};
/** Newest first; `priority` has no stored priority here, so it orders like the default. */
const NEWEST: Record<string, 'asc' | 'desc'> = { createdAt: 'desc', id: 'desc' };

/** `state` open (default) / closed / all, `sort`, `milestone` id, `labels` ids (any of), `poster` login. */
export const list: Handler<never, QueryOf<'Pulls'>> = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const where: FilterQuery<IIssue> = { repoId: repo.id, isPull: true };
  const state = (c.q.state ?? '').trim();
  if (state === 'closed') where.isClosed = true;
  else if (state !== 'all') where.isClosed = false;
  const milestone = c.q.milestone ?? 0;
  if (milestone > 0) where.milestoneId = milestone <= INT32_MAX ? milestone : -1;
  const labels = c.q.labels;
  if (labels.length) {
    if (!labels.every((l) => /^-?\d{1,15}$/.test(l))) throw unprocessable(`invalid labels: ${labels.join(',')}`);
    const rows = await c.em.find(IssueLabel, { labelId: { $in: labels.map((l) => rowId(l) ?? -1) } }, { fields: ['issueId'] });
    where.id = { $in: [...new Set(rows.map((r) => r.issueId))] };
  }
  const poster = c.q.poster ?? '';
  if (poster !== '') {
    const u = await c.em.findOne(User, { lowerName: poster.toLowerCase() });
    if (!u) throw badRequest(`user does not exist [uid: 0, name: ${poster}]`);
    where.posterId = u.id;
  }
  const p = pageOf(c);
  const orderBy = SORTS[(c.q.sort ?? '').trim()] ?? NEWEST;
  const [issues, total] = await c.em.findAndCount(Issue, where, { orderBy, limit: p.limit, offset: p.offset });
  const pulls = issues.length ? await c.em.find(PullRequest, { issueId: { $in: issues.map((i) => i.id) } }) : [];
  const ordered = issues.flatMap((i) => pulls.filter((pr) => pr.issueId === i.id));
  return json(200, await pullsToApi(c, ordered, issues), pagingHeaders(c, p, total));
};

export const get: Handler = async (c) => json(200, await pullToApi(c, (await loadPull(c)).pull));

// -------------------------------------------------------------------------------------------------
// Creating

/** 201 api.PullRequest; labels, milestone, assignees and deadline are kept for pull writers only. */
export const create = signedIn<CreatePullRequestOption>(async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  const doer = c.auth.doer;
  const b = c.body;
  const head = need(c.head, 'head'); // HEAD_REPO: `head` differs from `base`, the caller reads its code
  if (!(await readRef(repoPathOf(c.services, repo), 'heads', b.base))) throw notFound('BaseNotExist');
  if (head.repo.isEmpty || !(await readRef(repoPathOf(c.services, head.repo), 'heads', head.branch))) throw notFound('IsRefExist');
  if (head.repo.id === repo.id && head.branch === b.base)
    throw unprocessable('Invalid PullRequest: There are no changes between the head and the base');
  const dup = await findOpenDuplicate(c.em, { headRepoId: head.repo.id, baseRepoId: repo.id, headBranch: head.branch, baseBranch: b.base });
  if (dup) throw conflict(alreadyExists(dup));

  const writer = canWriteIssues(c, true);
  const pull = await createPull(c.em, c.services, {
    base: repo,
    head: head.repo,
    baseBranch: b.base,
    headBranch: head.branch,
    poster: doer,
    title: b.title,
    body: b.body,
    labelIds: writer && b.labels?.length ? (await resolveLabelOption(c.em, repo, owner.type === 1, b.labels)).map((l) => l.id) : [],
    milestoneId: writer && b.milestone && b.milestone > 0 ? await milestoneIn(c.em, repo, b.milestone) : 0,
    assigneeIds: writer ? (await assignableUsers(c.em, repo, owner, b.assignee, b.assignees)).map((u) => u.id) : [],
    deadline: writer && b.due_date ? parseDeadline(b.due_date) : null,
  });
  await emitIssueEvent(c, await c.em.findOneOrFail(Issue, { id: pull.issueId }), 'opened', { pull });
  return json(201, await pullToApi(c, pull));
});

/** GET pulls/{base}/{head}: `head` is `branch`, `owner:branch` or `owner/repo:branch`; the open pull, else the newest. */
export const getByBranch: Handler<never, QueryOf<'PullByBranch'>> = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const spec = c.params.path ?? '';
  let headRepoId = repo.id;
  let headBranch = spec;
  const colon = spec.indexOf(':');
  if (colon >= 0) {
    headBranch = spec.slice(colon + 1);
    const [ownerName, name = repo.name] = spec.slice(0, colon).split('/');
    const headOwner = await c.em.findOne(User, { lowerName: ownerName.toLowerCase() });
    const headRepo = headOwner && (await c.em.findOne(Repository, { ownerId: headOwner.id, lowerName: name.toLowerCase() }));
    if (!headRepo) throw notFound();
    headRepoId = headRepo.id;
  }
  const pulls = await c.em.find(
    PullRequest,
    { baseRepoId: repo.id, headRepoId, baseBranch: c.params.base ?? '', headBranch },
    { orderBy: { id: 'desc' } },
  );
  const issues = pulls.length ? await c.em.find(Issue, { id: { $in: pulls.map((p) => p.issueId) } }) : [];
  const state = c.q.state;
  const closedOf = (p: IPullRequest) => issues.find((i) => i.id === p.issueId)?.isClosed ?? true;
  const fits = pulls.filter((p) => (state === 'closed' ? closedOf(p) : state === 'open' ? !closedOf(p) : true));
  const pick = fits.find((p) => !closedOf(p)) ?? fits[0];
  if (!pick) throw notFound();
  return json(200, await pullToApi(c, pick));
};

// -------------------------------------------------------------------------------------------------
// Diff, commits and files

/** What a pull compares: from the merge base with its base branch (the recorded one once merged) to its head. */
async function compared(c: RequestState, pull: IPullRequest): Promise<{ path: string; from: string; head: string }> {
  const { repo } = need(c.repo, 'repo');
  const path = repoPathOf(c.services, repo);
  const head = (await readInfo(path, pullHeadRef(pull.index)))?.oid ?? '';
  if (!head) throw notFound('GetRefCommitID', [`reference does not exist [ref: ${pullHeadRef(pull.index)}]`]);
  const baseCommit = pull.hasMerged ? null : (await readRef(path, 'heads', pull.baseBranch, true))?.oid;
  const from = (baseCommit ? await mergeBase(path, baseCommit, head) : null) ?? pull.mergeBase;
  return { path, from: from || head, head };
}

/** `.diff` (git diff from the merge base) or `.patch` (format-patch of the pull's commits), as text. */
export const diff: Handler<never, QueryOf<'PullDiff'>> = async (c) => {
  const { pull } = await loadPull(c);
  const { path, from, head } = await compared(c, pull);
  const binary = c.q.binary === true;
  const body = c.params.diffType === 'patch' ? patchStream(path, from, head) : diffStream(path, from, head, { binary });
  return { status: 200, body, type: 'text/plain; charset=utf-8' };
};

/** The legacy paging headers of the pull commit and file lists (forgejo-facts 4.2). */
function pageHeaders(c: RequestState, p: Page, total: number): Record<string, string> {
  const pages = Math.ceil(total / p.limit);
  return {
    ...pagingHeaders(c, p, total),
    'X-Page': String(p.page),
    'X-PerPage': String(p.limit),
    'X-PageCount': String(pages),
    'X-HasMore': String(p.page < pages),
    'Access-Control-Expose-Headers': 'Link, X-Total-Count, X-Page, X-PerPage, X-PageCount, X-HasMore',
  };
}

/** The commits the pull brings, newest first, as api.Commit (stat always; `files`, `verification` flags). */
export const listCommits: Handler<never, QueryOf<'PullCommits'>> = async (c) => {
  const { pull } = await loadPull(c);
  const { path, from, head } = await compared(c, pull);
  const shas = from === head ? [] : await rangeCommits(path, from, head);
  const p = pageOf(c);
  const body = await apiCommits(c, path, gitCtx(c).urls, shas.slice(p.offset, p.offset + p.limit), noteOptions(c.q));
  return json(200, body, pageHeaders(c, p, shas.length));
};

/** Forgejo's ToChangedFile statuses. */
function changedStatus(f: ChangedFile): string {
  if (f.status === 'removed') return 'deleted';
  if (f.status === 'added') return 'added';
  if (f.status === 'copied') return 'copied';
  if (f.status === 'renamed') return 'renamed';
  return f.additions === 0 && f.deletions === 0 ? 'unchanged' : 'changed';
}

const escapePath = (p: string) => p.split('/').map(encodeURIComponent).join('/');

/** The files the pull changes (from the merge base), with URLs into the head repository at the head commit. */
export const listFiles: Handler<never, QueryOf<'PullFiles'>> = async (c) => {
  const { pull } = await loadPull(c);
  const { path, from, head } = await compared(c, pull);
  const files = from === head ? [] : await diffFiles(path, from, head, { renames: true });
  // The addressed repository may be a plain object on a GET, which no lookup by id finds.
  const loaded = need(c.repo, 'repo').repo;
  const headRepo =
    (pull.headRepoId && pull.headRepoId !== loaded.id && (await c.em.findOne(Repository, { id: pull.headRepoId }))) || loaded;
  const urls = repoUrls(c.config, { name: headRepo.ownerName }, headRepo);
  const skipTo = c.q['skip-to'] ?? '';
  const from0 = skipTo
    ? Math.max(
        0,
        files.findIndex((f) => f.filename === skipTo),
      )
    : 0;
  const all = files.slice(from0);
  const p = pageOf(c);
  const body = all.slice(p.offset, p.offset + p.limit).map((f) => ({
    filename: f.filename,
    status: changedStatus(f),
    additions: f.additions,
    deletions: f.deletions,
    changes: f.additions + f.deletions,
    previous_filename: f.status === 'renamed' ? (f.previousFilename ?? '') : '',
    html_url: `${urls.html}/src/commit/${head}/${escapePath(f.filename)}`,
    contents_url: `${urls.api}/contents/${escapePath(f.filename)}?ref=${head}`,
    raw_url: `${urls.html}/raw/commit/${head}/${escapePath(f.filename)}`,
  }));
  return json(200, body, pageHeaders(c, p, all.length));
};

// -------------------------------------------------------------------------------------------------
// Editing

/**
 * PATCH: the poster or a pull writer; assignees, milestone and labels only for writers (silently
 * skipped otherwise, as Forgejo does). 201, as Forgejo answers (its own TODO says 200).
 */
export const edit = signedIn<EditPullRequestOption>(async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  const { pull, issue } = need(c.pull, 'pull');
  const doer = c.auth.doer;
  const writer = canWriteIssues(c, true);
  const b = c.body;
  const before = await snapshotIssue(c.em, issue);
  if (b.title) await setTitle(c.em, issue, doer.id, b.title);
  if (b.body !== undefined && b.body !== issue.content) {
    issue.content = b.body;
    issue.updatedAt = new Date();
  }
  if (b.unset_due_date) await setDeadline(c.em, issue, doer.id, null);
  else if (b.due_date !== undefined) {
    const t = parseBodyTime(b.due_date, 'Deadline');
    await setDeadline(c.em, issue, doer.id, t.zero ? null : endOfDay(t));
  }
  if (writer && (b.assignees !== undefined || (b.assignee ?? '') !== '')) {
    await setAssignees(c.em, issue, doer.id, await assignableUsers(c.em, repo, owner, b.assignee, b.assignees));
  }
  if (writer && b.milestone !== undefined && b.milestone !== 0 && b.milestone !== issue.milestoneId)
    await setMilestone(c.em, issue, doer.id, b.milestone);
  if (writer && b.labels !== undefined)
    await replaceLabels(c.em, issue, doer.id, await resolveLabelOption(c.em, repo, owner.type === 1, b.labels));
  if (b.state !== undefined) await changeState(c, pull, issue, b.state === 'closed');
  if (!pull.hasMerged && b.base && b.base !== pull.baseBranch) await changeTarget(c, pull, issue, b.base);
  if (b.allow_maintainer_edit !== undefined) pull.allowMaintainerEdit = b.allow_maintainer_edit;
  await c.em.flush();
  await emitIssueChanges(c, issue, before);
  return json(201, await pullToApi(c, pull));
});

const targets = (p: IPullRequest) => ({
  headRepoId: p.headRepoId,
  baseRepoId: p.baseRepoId,
  headBranch: p.headBranch,
  baseBranch: p.baseBranch,
});

/** Closing, or reopening when the head branch still exists and no other open pull has the same targets (409). */
async function changeState(c: SignedInCtx<EditPullRequestOption>, pull: IPullRequest, issue: IIssue, closed: boolean): Promise<void> {
  if (pull.hasMerged) throw new HttpError(412, 'cannot change state of this pull request, it was already merged');
  if (issue.isClosed === closed) return;
  if (!closed) {
    const { base, head } = await pullRepos(c.em, pull);
    if (!head || !(await readRef(repoPathOf(c.services, head), 'heads', pull.headBranch)))
      throw conflict(`head branch ${pull.headBranch} does not exist`);
    const dup = await findOpenDuplicate(c.em, targets(pull), pull.id);
    if (dup) throw conflict(alreadyExists(dup));
    await retestPull(c.services, pull, base, await syncPullHead(c.services, pull, base, head));
  }
  await setClosed(c.em, issue, c.auth.doer.id, closed);
}

/** Forgejo's ChangeTargetBranch: the new base must exist, differ from the head and have no open twin. */
async function changeTarget(c: SignedInCtx<EditPullRequestOption>, pull: IPullRequest, issue: IIssue, target: string): Promise<void> {
  const { base, head } = await pullRepos(c.em, pull);
  if (!(await readRef(repoPathOf(c.services, base), 'heads', target))) throw notFound(`new base '${target}' not exist`);
  if (issue.isClosed) throw unprocessable(`issue is closed [id: ${issue.id}, repo_id: ${issue.repoId}, index: ${issue.index}]`);
  if (pull.headRepoId === pull.baseRepoId && pull.headBranch === target)
    throw unprocessable(`branches are equal [head: ${pull.headBranch}, base: ${target}]`);
  const dup = await findOpenDuplicate(c.em, { ...targets(pull), baseBranch: target }, pull.id);
  if (dup) throw conflict(alreadyExists(dup));
  const old = pull.baseBranch;
  pull.baseBranch = target;
  await retestPull(c.services, pull, base, await syncPullHead(c.services, pull, base, head));
  await addComment(c.em, issue, c.auth.doer.id, CommentType.changeTargetBranch, { oldRef: old, newRef: target });
  issue.updatedAt = new Date();
}

// -------------------------------------------------------------------------------------------------
// Merging

export const isMerged: Handler = async (c) => {
  const { pull } = await loadPull(c);
  if (!pull.hasMerged) throw notFound();
  return noContent();
};

/**
 * The merge checks for the caller (lib/pulls/merge.ts checkMergeable): `force_merge` lets a repository
 * or site admin past the branch protection; scheduling an auto-merge skips it.
 */
async function checkFor(
  c: HandlerCtx<MergePullRequestForm>,
  pull: IPullRequest,
  issue: IIssue,
  kind: MergeCheck,
  headCommit: string,
): Promise<void> {
  const { repo, perm } = need(c.repo, 'repo');
  await checkMergeable(c.em, c.services, {
    pull,
    issue,
    base: repo,
    perm,
    doer: c.auth.doer,
    kind,
    headCommit,
    forceMerge: c.body.force_merge === true,
    siteAdmin: isSiteAdmin(c),
  });
}

/** manually-merged: the given commit (full length) must be in the base branch, else 409 with Forgejo's `{}` error. */
async function markManuallyMerged(c: SignedInCtx<MergePullRequestForm>, pull: IPullRequest, issue: IIssue) {
  const { repo, units } = need(c.repo, 'repo');
  if (!styleAllowed(units ?? (await repoUnits(c.em, repo.id)), 'manually-merged'))
    throw notAllowed('manually-merged is not an allowed merge style for this repository');
  const path = repoPathOf(c.services, repo);
  const id = c.body.MergeCommitID ?? '';
  const commit = /^[0-9a-f]+$/.test(id) && id.length === (repo.objectFormatName === 'sha256' ? 64 : 40) ? await getCommit(path, id) : null;
  const baseHead = (await readRef(path, 'heads', pull.baseBranch, true))?.oid;
  if (!commit || !baseHead || !(await isAncestor(path, commit.sha, baseHead))) return json(409, {});
  await recordMerged(c.em, pull, issue, commit.sha, new Date(commit.author.timestamp * 1000), true, c.auth.doer.id);
  await emitIssueEvent(c, issue, 'closed', { pull });
  return { status: 200 };
}

/** The caller's permission on the head repository (for deleting the head branch). */
async function headPermission(c: RequestState, head: IRepository) {
  const loaded = need(c.repo, 'repo');
  if (head.id === loaded.repo.id) return loaded.perm;
  const owner = await c.em.findOneOrFail(User, { id: head.ownerId });
  return repoPermission(c.em, { repo: head, owner, doer: c.auth.doer, siteAdmin: isSiteAdmin(c), token: c.auth.token });
}

/**
 * The reply when the merge went through but the head branch stayed (default, protected, or not writable
 * by the caller): Forgejo's 403 after the merge. Not a chain step: the merge is committed and stands, and
 * no step runs after the handler; a reply, not a throw, so the transaction commits.
 */
const mergedBranchKept = (c: RequestState, refused: string) => json(403, { message: refused, url: `${c.config.appUrl}api/swagger` });

/** POST merge (MergePullRequestForm, forgejo-facts 10.4): 200 merged, 201 auto-merge scheduled. */
export const merge = signedIn<MergePullRequestForm>(async (c) => {
  const { repo, units } = need(c.repo, 'repo');
  const { pull, issue } = await loadPull(c);
  const b = c.body;
  const style: MergeStyle = b.Do;
  const kind = style === 'manually-merged' ? 'manual' : b.merge_when_checks_succeed ? 'auto' : 'general';
  const { base, head } = await pullRepos(c.em, pull);
  // One merge at a time per pull, in every process; a merge git has but the database lost is
  // recorded first, and answered like any merged pull (lib/pulls/merge-recovery.ts).
  await claimPull(c.em, pull, issue);
  const headCommit = (await syncPullHead(c.services, pull, base, head)) ?? pull.headCommitId;
  if (
    !issue.isClosed &&
    (await reconcileMerge(c.em, c.services, c.config, {
      pull,
      issue,
      base,
      doerId: c.auth.doer.id,
      headCommit,
      byHead: style !== 'manually-merged',
    }))
  ) {
    c.afterCommit?.(() => dropMergeIntent(c.config, pull.id));
    return json(405, { message: '', url: `${c.config.appUrl}api/swagger` });
  }
  await checkFor(c, pull, issue, kind, headCommit);
  if (style === 'manually-merged') return markManuallyMerged(c, pull, issue);
  if (!styleAllowed(units ?? (await repoUnits(c.em, repo.id)), style))
    throw notAllowed(`${style} is not an allowed merge style for this repository`);

  let message = (b.MergeTitleField ?? '').trim() || defaultMergeTitle(style, pull, issue, base, head);
  const extra = (b.MergeMessageField ?? '').trim();
  if (extra) message += `\n\n${extra}`;

  if (b.merge_when_checks_succeed) {
    const rule = await branchRule(c.em, repo.id, pull.baseBranch);
    const state = await requiredStatusState(c.em, repo.id, headCommit, rule?.statusCheckContexts ?? []);
    // Forgejo merges at once when the checks already succeeded, and schedules otherwise.
    if (state !== 'success') return scheduleAutoMerge(c, pull, issue, style, message);
  }
  const refsBefore = await refSnapshot(repoPathOf(c.services, base));
  let merged: string;
  try {
    merged = await mergePull({
      services: c.services,
      cfg: c.config,
      pull,
      base,
      head,
      style,
      message,
      doer: c.auth.doer,
      poster: await c.em.findOneOrFail(User, { id: issue.posterId }),
      expectedHead: b.head_commit_id || undefined,
    });
  } catch (e) {
    if (e instanceof MergeConflict) return json(409, e.body);
    throw e;
  }
  await finishMerge(c.em, c.services, { pull, issue, base, commit: merged, doerId: c.auth.doer.id });
  c.afterCommit?.(() => dropMergeIntent(c.config, pull.id));
  await emitPullMerged(c.em, c, { base, sender: c.auth.doer, pull, issue, basePath: repoPathOf(c.services, base), refsBefore });
  if (b.delete_branch_after_merge && head) {
    const refused = await deleteHeadAfterMerge(c.em, c.services, {
      pull,
      issue,
      head,
      doerId: c.auth.doer.id,
      perm: await headPermission(c, head),
      events: { ctx: c, sender: c.auth.doer },
    });
    if (refused) return mergedBranchKept(c, refused);
  }
  return { status: 200 };
});

async function scheduleAutoMerge(c: SignedInCtx<unknown, unknown>, pull: IPullRequest, issue: IIssue, style: MergeStyle, message: string) {
  if (await c.em.findOne(AutoMerge, { pullId: pull.id }))
    throw conflict(`pull request is already scheduled to be merged automatically [pull_id: ${pull.id}]`);
  const b = c.body as MergePullRequestForm;
  c.em.create(AutoMerge, {
    pullId: pull.id,
    doerId: c.auth.doer.id,
    mergeStyle: style,
    message,
    deleteBranchAfterMerge: b.delete_branch_after_merge === true,
    createdAt: new Date(),
  });
  await addComment(c.em, issue, c.auth.doer.id, CommentType.prScheduledToAutoMerge);
  return { status: 201 };
}

/** DELETE merge: cancels the scheduled auto-merge (SCHEDULED_MERGE, MERGE_SCHEDULER). */
export const cancelScheduledMerge = signedIn(async (c) => {
  const { issue } = need(c.pull, 'pull');
  c.em.remove(need(c.autoMerge, 'auto-merge'));
  await addComment(c.em, issue, c.auth.doer.id, CommentType.prUnScheduledToAutoMerge);
  return noContent();
});

/** POST update?style=merge|rebase: the base branch brought into the head branch (PULL_UPDATER decided who may). */
export const updateBranch = signedIn<never, QueryOf<'PullUpdate'>>(async (c) => {
  const { pull, issue } = need(c.pull, 'pull');
  if (pull.hasMerged) throw unprocessable('the pull request is already merged');
  if (issue.isClosed) throw unprocessable('the pull request is closed');
  const { base, head } = await pullRepos(c.em, pull);
  if (!head) throw unprocessable('the head repository of this pull request was deleted');
  const rebase = c.q.style === 'rebase';
  const refsBefore = await refSnapshot(repoPathOf(c.services, head));
  const moved = await updatePullHead({ services: c.services, cfg: c.config, pull, base, head, doer: c.auth.doer, rebase });
  if (moved) await refreshAfterWrite(c.em, head, repoPathOf(c.services, head), [pull.headBranch], pullRefresh(c));
  if (moved) await emitRefChanges(c.em, c, head, c.auth.doer, repoPathOf(c.services, head), refsBefore);
  return { status: 200 };
});

/** This family's handlers; `routes.table.ts` names each `pulls.<key>`. */
export const handlers = {
  list,
  get,
  create,
  edit,
  diff,
  getByBranch,
  listCommits,
  listFiles,
  isMerged,
  merge,
  cancelScheduledMerge,
  updateBranch,
} satisfies Record<string, Handler<never, never>>;
