// Issues of a repository (Forgejo's routers/api/v1/repo/issue.go, issue_label.go, issue_pin.go): list,
// search, create, edit, delete, labels, deadline and pins. Issues and pulls share one record; these
// routes reach a pull through its issue half. The chain loads the issue (ISSUE) and decides who may
// change it (POSTER_OR_WRITER, ISSUE_WRITER, UPDATE_DATE); handlers only act.
// Just over 400 lines: one family (the issue routes the table names `issues.<key>`), kept whole.
import type { Handler, HandlerCtx } from '../lib/http/handler.ts';
import { AfterCommit, json, noContent, plainContext, signedIn, writesAtEnd } from '../lib/http/handler.ts';
import type {
  CreateIssueOption,
  DeleteLabelsOption,
  EditDeadlineOption,
  EditIssueOption,
  IssueLabelsOption,
} from '../model/schemas/index.ts';
import { Issue, type IIssue } from '../model/issue.ts';
import { managedOf } from '../model/raw.ts';
import { Label, type ILabel } from '../model/label.ts';
import { Milestone } from '../model/milestone.ts';
import { PullRequest } from '../model/pull.ts';
import { Team } from '../model/org.ts';
import { User, type IUser } from '../model/user.ts';
import { issueToApi, issuesToApi } from '../lib/issues/api/issue.ts';
import { pullsToApi } from '../lib/pulls/api/pull.ts';
import { orgApiUrl, toApiLabel } from '../lib/issues/api/label.ts';
import { fmtTime, ZERO_TIME } from '../model/time.ts';
import { emitIssueChanges, emitIssueEvent, snapshotIssue } from '../lib/issues/events.ts';
import { issueToOpen, openIssue } from '../lib/issues/create.ts';
import { canReadIssue, canWriteIssues, labelIdsOf, positiveInt, wholeSecondsOf } from '../lib/issues/issues.ts';
import {
  addLabels,
  assignableUsers,
  clearLabels,
  deleteIssue,
  endOfDay,
  labelFits,
  labelsByName,
  movePin,
  newPinAllowed,
  parseBodyTime,
  pin,
  reloadIssue,
  removeLabel,
  replaceLabels,
  resolveLabelOption,
  setAssignees,
  setClosed,
  setDeadline,
  setMilestone,
  setRef,
  setTitle,
  unpin,
} from '../lib/issues/edit.ts';
import { filterSql, findIssues, openTotalSql, orderSql, searchIssues, type IssueFilter } from '../lib/issues/query.ts';
import { allOf, sql, type Sql } from '../model/sql.ts';
import { pageOf, pagingHeaders, type Page } from '../lib/http/paging.ts';
import { badRequest, HttpError, notFound, unprocessable, NOT_FOUND } from '../lib/http/errors.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/http/request.ts';
import { knownRepo } from '../lib/auth/perm.ts';
import { callerOf } from './repo-lists.ts';
import { INT32_MAX } from '../lib/http/query-values.ts';
import type { QueryOf } from '../model/schemas/query.ts';

const viewerOf = (s: RequestState) => ({ doer: s.auth.doer, siteAdmin: isSiteAdmin(s) });
/** On a read, the addressed repository, which the converters need not read again (a write may have moved its counters). */
const knownOf = (c: RequestState) => ({ repos: c.method === 'GET' && c.repo ? [c.repo.repo] : [] });
const apiOf = (c: RequestState, issue: IIssue) =>
  issueToApi(c.em, c.config, viewerOf(c), issue, { attachments: c.config.ATTACHMENT.ENABLED, known: knownOf(c) });
const listOf = (c: RequestState, issues: IIssue[]) =>
  issuesToApi(c.em, c.config, viewerOf(c), issues, { attachments: c.config.ATTACHMENT.ENABLED, known: knownOf(c) });
const ownerIsOrg = (c: RequestState) => need(c.repo, 'repo').owner.type === 1;

/** Forgejo's FormTrim("q"): a keyword holding NUL is ignored. */
type ListQuery = QueryOf<'IssueList'>;
type SearchQuery = QueryOf<'IssueSearch'>;

const keywordOf = (q: { q?: string }) => {
  const k = (q.q ?? '').trim();
  return k.includes('\0') ? '' : k;
};

/** `state`: closed, all, anything else open (Forgejo's default). */
function stateOf(q: { state?: string }): boolean | undefined {
  return q.state === 'closed' ? true : q.state === 'all' ? undefined : false;
}

const typeOf = (q: { type?: string }): boolean | undefined => (q.type === 'pulls' ? true : q.type === 'issues' ? false : undefined);

/** `created_by` & co. (Forgejo's getUserIDForFilter): an unknown user is 404. */
async function userFilter(
  c: HandlerCtx<unknown, ListQuery>,
  name: 'created_by' | 'assigned_by' | 'mentioned_by',
): Promise<IUser | undefined> {
  const raw = c.q[name];
  if (!raw) return undefined;
  const u = await c.em.findOne(User, { lowerName: raw.toLowerCase(), type: 0 });
  if (!u) throw notFound(NOT_FOUND, [`user does not exist [uid: 0, name: ${raw}]`]);
  return u;
}

/** Milestones by name, else by id, of this repository; unknown ones are dropped (Forgejo's ListIssues). */
async function milestoneFilter(c: HandlerCtx<unknown, ListQuery>, repoId: number): Promise<number[]> {
  const raw = c.q.milestones;
  if (raw === undefined) return [];
  const ids: number[] = [];
  for (const part of raw.split(',')) {
    const byName = await c.em.findOne(Milestone, { repoId, name: part }, { orderBy: { id: 'asc' } });
    const id = byName ? null : positiveInt(part);
    const m = byName ?? (id !== null ? await c.em.findOne(Milestone, { repoId, id }) : null);
    if (m) ids.push(m.id);
  }
  return ids;
}

/** GET {R}/issues (forgejo-facts 12.4). */
export const list: Handler<never, ListQuery> = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const q = c.q;
  const updatedBefore = q.before;
  const updatedSince = q.since;
  const labelNames = (q.labels ?? '').split(',');
  const labels = await labelsByName(
    c.em,
    repo,
    ownerIsOrg(c),
    labelNames.filter((n) => n !== ''),
  );
  const milestoneIds = await milestoneFilter(c, repo.id);
  const p = pageOf(c);

  // Without `type`, a caller who reads only one of the two units sees only that kind.
  let isPull = typeOf(q);
  const canIssues = canReadIssue(c, { isPull: false });
  const canPulls = canReadIssue(c, { isPull: true });
  if (isPull !== undefined && !(isPull ? canPulls : canIssues)) throw notFound();
  if (isPull === undefined && !canIssues) isPull = true;
  else if (isPull === undefined && !canPulls) isPull = false;

  const f: IssueFilter = {
    isPull,
    isClosed: stateOf(q),
    keyword: keywordOf(q),
    repoId: repo.id,
    allLabelIds: labels.map((l) => l.id),
    milestoneIds,
    updatedSince,
    updatedBefore,
    posterId: (await userFilter(c, 'created_by'))?.id,
    assigneeId: (await userFilter(c, 'assigned_by'))?.id,
    mentioned: (await userFilter(c, 'mentioned_by'))?.name,
  };
  const where = allOf([sql`i.repo_id = ${repo.id}`, ...filterSql(f)]);
  const { issues, total } = await findIssues(c.em, where, orderSql(q.sort ?? null), p, openTotalSql(repo.id, f), !!f.keyword);
  return json(200, await listOf(c, issues), pagingHeaders(c, p, total));
};

/** Forgejo's UI.IssuePagingNum: the search's page size when `limit` is not given. */
const SEARCH_PAGE_SIZE = 20;

const searchPage = (c: RequestState): Page => pageOf(c, SEARCH_PAGE_SIZE);

/** `owner` and `team` of the search: the repositories they select (400 when unknown, as Forgejo). */
async function searchRepos(c: HandlerCtx<unknown, SearchQuery>): Promise<Sql> {
  const ownerName = c.q.owner ?? '';
  const teamName = c.q.team ?? '';
  if (!ownerName) {
    if (teamName) throw badRequest('Owner organisation is required for filtering on team');
    return sql`true`;
  }
  const owner = await c.em.findOne(User, { lowerName: ownerName.toLowerCase() });
  if (!owner) throw badRequest(`user does not exist [uid: 0, name: ${ownerName}]`);
  if (!teamName) return sql`r.owner_id = ${owner.id}`;
  const team = await c.em.findOne(Team, { orgId: owner.id, lowerName: teamName.toLowerCase() });
  if (!team) throw badRequest(`team does not exist [org_id: ${owner.id}, team_id: 0, name: ${teamName}]`);
  return team.includesAllRepositories
    ? sql`r.owner_id = ${owner.id}`
    : sql`r.owner_id = ${owner.id} and r.id in (select tr.repo_id from team_repo tr where tr.team_id = ${team.id})`;
}

const namesOf = (raw: string | undefined) => ((raw ?? '').trim() ? (raw ?? '').trim().split(',') : []);

/** Any label with one of these names, in any repository or organization (Forgejo's GetLabelIDsByNames). */
async function labelIdsByName(c: RequestState, raw: string | undefined): Promise<number[]> {
  const names = namesOf(raw);
  return names.length ? (await c.em.find(Label, { name: { $in: names } }, { fields: ['id'] })).map((x) => x.id) : [];
}

/** Any milestone with one of these names (Forgejo's GetMilestoneIDsByNames). */
async function milestoneIdsByName(c: RequestState, raw: string | undefined): Promise<number[]> {
  const names = namesOf(raw);
  return names.length ? (await c.em.find(Milestone, { name: { $in: names } }, { fields: ['id'] })).map((x) => x.id) : [];
}

/**
 * GET /repos/issues/search: issues and pulls of every repository whose unit the caller can read
 * (lib/issues/query.ts searchIssuesSql, which keeps public-only and repo-specific tokens to their repositories).
 */
export const search: Handler<never, SearchQuery> = async (c) => {
  const q = c.q;
  const updatedBefore = q.before;
  const updatedSince = q.since;
  const repos = await searchRepos(c);
  const f: IssueFilter = {
    isPull: typeOf(q),
    isClosed: stateOf(q),
    keyword: keywordOf(q),
    updatedSince,
    updatedBefore,
    anyLabelIds: await labelIdsByName(c, q.labels),
    milestoneIds: await milestoneIdsByName(c, q.milestones),
  };
  const doer = c.auth.doer;
  if (doer) {
    if (q.created) f.posterId = doer.id;
    if (q.assigned) f.assigneeId = doer.id;
    if (q.mentioned) f.mentioned = doer.name;
    if (q.review_requested) f.reviewRequestedId = doer.id;
    if (q.reviewed) f.reviewedId = doer.id;
  }
  const priority = (q.priority_repo_id ?? 0) > 0 && (q.priority_repo_id ?? 0) <= INT32_MAX ? (q.priority_repo_id ?? 0) : 0;
  const p = searchPage(c);
  const { issues, total } = await searchIssues(c.em, callerOf(c), repos, f, orderSql(q.sort ?? null, priority), p);
  return json(200, await listOf(c, issues), pagingHeaders(c, p, total));
};

export const get: Handler = async (c) => json(200, await apiOf(c, need(c.issue, 'issue')));

/** POST {R}/issues: what the caller may set is decided by lib/issues/create.ts issueToOpen. */
export const create = writesAtEnd(
  plainContext(
    signedIn<CreateIssueOption>(async (c) => {
      const { repo, owner, perm } = need(c.repo, 'repo');
      const wanted = await issueToOpen(c.em, repo, owner, perm.canWrite('issues'), c.body);
      // The chain read the repository, its owner and units, and this route changes none: its notifications,
      // feeds and hooks reuse them.
      knownRepo(c.ahead, repo, owner, perm.enabled);
      const { issue, pending } = await openIssue(c, wanted);
      // The repository is only named, the poster is the caller, and what it was not given it has none of.
      const none = [
        ...(wanted.labels.length ? [] : ['labels' as const]),
        ...(wanted.assignees.length ? [] : ['assignees' as const]),
        'attachments' as const,
      ];
      const known = { repos: [repo], users: [c.auth.doer], none };
      const answer = () => issueToApi(c.em, c.config, viewerOf(c), issue, { attachments: c.config.ATTACHMENT.ENABLED, known });
      // A number taken with COMMIT is known once it has committed.
      return json(201, pending ? new AfterCommit(answer) : await answer());
    }),
  ),
);

/**
 * `updated_at` of an edit (Forgejo's SetIssueUpdateDate; the chain's UPDATE_DATE allowed it): the time
 * to store after the change, in whole seconds.
 */
function requestedUpdate(raw: string | undefined): Date | null {
  return raw === undefined ? null : wholeSecondsOf(parseBodyTime(raw, 'Updated').date);
}

async function applyUpdate(c: RequestState, issue: IIssue, when: Date | null): Promise<void> {
  if (!when) return;
  await c.em.flush();
  await c.em.nativeUpdate(Issue, { id: issue.id }, { updatedAt: when });
}

/** PATCH deadline fields: `unset_due_date` removes; otherwise `due_date` is required (400, as Forgejo). */
function editedDeadline(b: EditIssueOption): Date | null {
  if (b.unset_due_date) return null;
  if (b.due_date === undefined) throw badRequest('The due_date cannot be empty');
  const t = parseBodyTime(b.due_date, 'Deadline');
  return t.zero ? null : endOfDay(t);
}

async function assertStateChangeable(c: RequestState, issue: IIssue): Promise<void> {
  if (!issue.isPull) return;
  const pull = await c.em.findOne(PullRequest, { issueId: issue.id });
  if (pull?.hasMerged) throw new HttpError(412, 'cannot change state of this pull request, it was already merged');
}

/**
 * PATCH {R}/issues/{index} (Forgejo's EditIssue, which answers 201): the poster or a writer may change
 * title, body, ref and state; only writers deadline, assignees and milestone (ignored for others).
 */
export const edit = signedIn<EditIssueOption>(async (c) => {
  const issue = managedOf(c.em, Issue, need(c.issue, 'issue'));
  const { repo, owner } = need(c.repo, 'repo');
  const doer = c.auth.doer;
  const writer = canWriteIssues(c, issue.isPull);
  const b = c.body;
  const updated = requestedUpdate(b.updated_at);
  const before = await snapshotIssue(c.em, issue);

  if (b.title) await setTitle(c.em, issue, doer.id, b.title);
  if (b.body !== undefined) issue.content = b.body;
  if (b.ref !== undefined) await setRef(c.em, issue, doer.id, b.ref);
  if (writer && (b.due_date !== undefined || b.unset_due_date !== undefined)) await setDeadline(c.em, issue, doer.id, editedDeadline(b));
  if (writer && (b.assignees !== undefined || b.assignee !== undefined)) {
    await setAssignees(c.em, issue, doer.id, await assignableUsers(c.em, repo, owner, b.assignee, b.assignees ?? []));
  }
  if (writer && b.milestone !== undefined) await setMilestone(c.em, issue, doer.id, b.milestone);
  if (b.state !== undefined) {
    await assertStateChangeable(c, issue);
    await setClosed(c.em, issue, doer.id, b.state === 'closed');
  }
  await applyUpdate(c, issue, updated);
  await emitIssueChanges(c, issue, before);
  return json(201, await apiOf(c, await reloadIssue(c.em, issue.id)));
});

export const remove = signedIn(async (c) => {
  const issue = need(c.issue, 'issue');
  await emitIssueEvent(c, issue, 'deleted');
  await deleteIssue(c.em, c.config, issue, c.auth.doer.id);
  return noContent();
});

// ---------------------------------------------------------------------------------------------------
// Deadline

/** POST {R}/issues/{index}/deadline: writers only; the day is kept, at 23:59:59 server time (UTC). */
export const createDeadline = signedIn<EditDeadlineOption>(async (c) => {
  const issue = need(c.issue, 'issue');
  const t = parseBodyTime(c.body.due_date, 'Deadline');
  const deadline = t.zero ? null : endOfDay(t, 0);
  await setDeadline(c.em, issue, c.auth.doer.id, deadline);
  return json(201, { due_date: deadline ? fmtTime(deadline) : ZERO_TIME });
});

// ---------------------------------------------------------------------------------------------------
// Labels of an issue

/** Labels of an issue by name (Forgejo's GetLabelsByIssueID), each under its repository or organization. */
async function issueLabelsJson(c: RequestState, issueId: number) {
  const { repo, owner } = need(c.repo, 'repo');
  const ids = await labelIdsOf(c.em, issueId);
  const labels = ids.length ? await c.em.find(Label, { id: { $in: ids } }, { orderBy: { name: 'asc', id: 'asc' } }) : [];
  return labels.map((l) => labelJson(c, l, repo.name, owner.name));
}

function labelJson(c: RequestState, l: ILabel, repoName: string, ownerName: string) {
  const base = l.orgId
    ? orgApiUrl(c.config, ownerName)
    : `${c.config.appUrl}api/v1/repos/${encodeURIComponent(ownerName)}/${encodeURIComponent(repoName)}`;
  return toApiLabel(l, base);
}

export const listLabels: Handler = async (c) => json(200, await issueLabelsJson(c, need(c.issue, 'issue').id));

/** The chain checked the list's shape (LABEL_LIST) and the caller's right to change labels (ISSUE_WRITER). */
async function labelsAndIssue(c: HandlerCtx<IssueLabelsOption>) {
  const issue = need(c.issue, 'issue');
  const labels = await resolveLabelOption(c.em, need(c.repo, 'repo').repo, ownerIsOrg(c), c.body.labels ?? []);
  return { issue, labels, updated: requestedUpdate(c.body.updated_at) };
}

/** POST {R}/issues/{index}/labels: add; an exclusive label replaces the issue's others of its scope. */
export const addIssueLabels = signedIn<IssueLabelsOption>(async (c) => {
  const { issue, labels, updated } = await labelsAndIssue(c);
  const before = await snapshotIssue(c.em, issue);
  await addLabels(c.em, issue, c.auth.doer.id, labels);
  await emitIssueChanges(c, issue, before);
  await applyUpdate(c, issue, updated);
  return json(200, await issueLabelsJson(c, issue.id));
});

/** PUT {R}/issues/{index}/labels: replace. */
export const replaceIssueLabels = signedIn<IssueLabelsOption>(async (c) => {
  const { issue, labels, updated } = await labelsAndIssue(c);
  const before = await snapshotIssue(c.em, issue);
  await replaceLabels(c.em, issue, c.auth.doer.id, labels);
  await emitIssueChanges(c, issue, before);
  await applyUpdate(c, issue, updated);
  return json(200, await issueLabelsJson(c, issue.id));
});

/** DELETE {R}/issues/{index}/labels: clear. */
export const clearIssueLabels = signedIn<DeleteLabelsOption>(async (c) => {
  const issue = need(c.issue, 'issue');
  const updated = requestedUpdate(c.body.updated_at);
  const before = await snapshotIssue(c.em, issue);
  await clearLabels(c.em, issue, c.auth.doer.id);
  await emitIssueChanges(c, issue, before);
  await applyUpdate(c, issue, updated);
  return noContent();
});

/**
 * `{identifier}`: a label name of the repository, then of its organization, then a label id (Forgejo's
 * DeleteIssueLabel). A label the issue could not carry counts as unknown: 422.
 */
async function labelByIdentifier(c: RequestState, raw: string): Promise<ILabel> {
  const { repo } = need(c.repo, 'repo');
  const [byName] = await labelsByName(c.em, repo, ownerIsOrg(c), [raw]);
  const id = byName ? null : positiveInt(raw);
  const label = byName ?? (id !== null ? await c.em.findOne(Label, { id }) : null);
  if (!label || !labelFits(label, repo)) {
    throw unprocessable(id !== null ? `label does not exist [label_id: ${id}]` : `label does not exist [label_id: 0, repo_id: ${repo.id}]`);
  }
  return label;
}

/** DELETE {R}/issues/{index}/labels/{identifier}: 204, or the label as a one-element list for GitHub clients (forgejo-facts 12.5). */
export const removeIssueLabel = signedIn<DeleteLabelsOption>(async (c) => {
  const issue = need(c.issue, 'issue');
  const updated = requestedUpdate(c.body.updated_at);
  const label = await labelByIdentifier(c, c.params.identifier ?? '');
  const before = await snapshotIssue(c.em, issue);
  await removeLabel(c.em, issue, c.auth.doer.id, label.id);
  await emitIssueChanges(c, issue, before);
  await applyUpdate(c, issue, updated);
  if ((c.headers.accept ?? '').split(',').some((v) => v.trim() === 'application/vnd.github+json')) {
    const { repo, owner } = need(c.repo, 'repo');
    return json(200, [labelJson(c, label, repo.name, owner.name)]);
  }
  return noContent();
});

// ---------------------------------------------------------------------------------------------------
// Pins

async function pinned(c: RequestState, isPull: boolean): Promise<IIssue[]> {
  return c.em.find(
    Issue,
    { repoId: need(c.repo, 'repo').repo.id, isPull, pinOrder: { $gt: 0 } },
    { orderBy: { pinOrder: 'asc', id: 'asc' } },
  );
}

export const listPinned: Handler = async (c) => json(200, await listOf(c, await pinned(c, false)));

/** GET {R}/pulls/pinned: api.PullRequest of the pinned pulls, in pin order. */
export const listPinnedPulls: Handler = async (c) => {
  const issues = await pinned(c, true);
  const pulls = issues.length ? await c.em.find(PullRequest, { issueId: { $in: issues.map((i) => i.id) } }) : [];
  const byIssue = new Map(pulls.map((p) => [p.issueId, p]));
  return json(
    200,
    await pullsToApi(
      c,
      issues.map((i) => byIssue.get(i.id)).filter((p) => !!p),
      issues,
    ),
  );
};

export const createPin = signedIn(async (c) => {
  await pin(c.em, need(c.issue, 'issue'), c.auth.doer.id);
  return noContent();
});

export const removePin = signedIn(async (c) => {
  await unpin(c.em, need(c.issue, 'issue'), c.auth.doer.id);
  return noContent();
});

/** PATCH {R}/issues/{index}/pin/{position}: Forgejo answers 500 for a position below 1; here 422. */
export const editPin: Handler = async (c) => {
  const issue = need(c.issue, 'issue');
  const position = positiveInt(c.params.position);
  if (position === null) throw unprocessable("The Position can't be lower than 1");
  await movePin(c.em, issue, position);
  return noContent();
};

export const newPinAllowedGet: Handler = async (c) => {
  const repoId = need(c.repo, 'repo').repo.id;
  return json(200, { issues: await newPinAllowed(c.em, repoId, false), pull_requests: await newPinAllowed(c.em, repoId, true) });
};

/** This family's handlers; `routes.table.ts` names each `issues.<key>`. */
export const handlers = {
  list,
  search,
  get,
  create,
  edit,
  remove,
  createDeadline,
  listLabels,
  addIssueLabels,
  replaceIssueLabels,
  clearIssueLabels,
  removeIssueLabel,
  listPinned,
  listPinnedPulls,
  createPin,
  removePin,
  editPin,
  newPinAllowedGet,
} satisfies Record<string, Handler<never, never>>;
