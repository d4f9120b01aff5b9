// Issue comments and the issue timeline (Forgejo's routers/api/v1/repo/issue_comment.go,
// services/issue/comments.go, models/issues/comment.go). Comments are shown as Forgejo's
// convert.ToAPIComment does, with the poster rendered for no viewer.
import { emitCommentEvent } from '../lib/issues/events.ts';
import { createComment, forceTimes } from '../lib/issues/create.ts';
import type { Handler, SignedInCtx } from '../lib/http/handler.ts';
import { AfterCommit, json, noContent, plainContext, signedIn, writesAtEnd } from '../lib/http/handler.ts';
import type { CreateIssueCommentOption, EditIssueCommentOption } from '../model/schemas/index.ts';
import { Comment, CommentType, Issue, Reaction, type IComment, type IIssue } from '../model/issue.ts';
import { Repository } from '../model/repo.ts';
import { User } from '../model/user.ts';
import { commentsToApi } from '../lib/issues/api/issue.ts';
import { ANONYMOUS, timelineToApi } from '../lib/issues/api/timeline.ts';
import { canReadIssue, recountComments, wholeSecondsOf } from '../lib/issues/issues.ts';
import { parseBodyTime } from '../lib/issues/edit.ts';
import { knownRepo, repoPermission } from '../lib/auth/perm.ts';
import { pageOf, pagingHeaders, type Page } from '../lib/http/paging.ts';
import { notFound } from '../lib/http/errors.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/http/request.ts';
import type { QueryOf } from '../model/schemas/query.ts';
import { executeSql, readRows, sql } from '../model/sql.ts';

/** Forgejo's CommentType.HasContentSupport: the types whose text can be edited. */
const EDITABLE: readonly number[] = [CommentType.comment, CommentType.code, CommentType.review, CommentType.dismissReview];
/** Cross-reference events (Forgejo's CommentTypeIsRef), hidden when the referring repository is not readable. */
const XREF_TYPES: readonly number[] = [CommentType.issueRef, CommentType.commentRef, CommentType.pullRef];

/** Forgejo's references.XRefAction values. */
const XREF = { none: 0, closes: 1, reopens: 2, neutered: 3 } as const;

const viewerOf = (c: RequestState) => ({ doer: c.auth.doer, siteAdmin: isSiteAdmin(c) });

// ---------------------------------------------------------------------------------------------
// Finding comments

interface CommentQuery {
  issueId?: number;
  repoId?: number;
  type?: number;
  notType?: number;
  isPull?: boolean;
  since?: Date;
  before?: Date;
  hideIds?: number[];
}

/**
 * Forgejo's FindComments: oldest first (created, then id). `since`/`before` compare the update time in
 * whole seconds, as Forgejo stores it.
 */
async function findComments(c: RequestState, q: CommentQuery, page: Page | null): Promise<{ comments: IComment[]; total: number }> {
  const seconds = (t: Date) => new Date(Math.floor(t.getTime() / 1000) * 1000);
  const conds = [
    q.issueId !== undefined ? sql`c.issue_id = ${q.issueId}` : null,
    q.repoId !== undefined ? sql`i.repo_id = ${q.repoId}` : null,
    q.type !== undefined ? sql`c.type = ${q.type}` : null,
    q.notType !== undefined ? sql`c.type <> ${q.notType}` : null,
    q.isPull !== undefined ? sql`i.is_pull = ${q.isPull}` : null,
    q.since ? sql`c.updated_at >= ${seconds(q.since)}` : null,
    q.before ? sql`c.updated_at < ${new Date(seconds(q.before).getTime() + 1000)}` : null,
    q.hideIds?.length ? sql`c.id not in (${sql.list(q.hideIds)})` : null,
  ].filter((x) => x !== null);
  const from = sql`from comment c join issue i on i.id = c.issue_id where ${conds.length ? sql.join(conds, ' and ') : sql`true`}`;
  const counted = await readRows<{ n: number }>(c.em, [Comment, Issue], sql`select count(*)::int as n ${from}`);
  const limit = page ? sql` limit ${page.limit} offset ${page.offset}` : sql.empty;
  const found = await executeSql<{ id: number }>(c.em, sql`select c.id ${from} order by c.created_at asc, c.id asc${limit}`);
  const ids = found.map((r) => Number(r.id));
  const rows = ids.length ? await c.em.find(Comment, { id: { $in: ids } }) : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { comments: ids.map((id) => byId.get(id)).filter((r): r is IComment => !!r), total: Number(counted[0]?.n ?? 0) };
}

/** Forgejo's GetQueryBeforeSince; Go's zero time means no filter. */
function sinceBefore(q: QueryOf<'CommentRange'>): { before?: Date; since?: Date } {
  const set = (d: Date | undefined) => (d && d.getUTCFullYear() > 1 ? d : undefined);
  return { before: set(q.before), since: set(q.since) };
}

/**
 * An explicit `updated_at` (Forgejo's SetIssueUpdateDate; the chain's UPDATE_DATE allowed it) becomes
 * the issue's and the comment's time, in whole seconds.
 */
function forcedTime(raw: string | undefined): Date | null {
  return raw === undefined ? null : wholeSecondsOf(parseBodyTime(raw, 'Updated').date);
}

const toApi = async (c: RequestState, comments: IComment[], issues?: Map<number, IIssue>) =>
  commentsToApi(c.em, c.config, ANONYMOUS, comments, issues);

// ---------------------------------------------------------------------------------------------
// Routes

/** Plain comments of the repository's issues and/or pulls, whichever units the caller can read. */
export const listOfRepo: Handler<never, QueryOf<'Comments'>> = async (c) => {
  const { before, since } = sinceBefore(c.q);
  const issues = canReadIssue(c, { isPull: false });
  const pulls = canReadIssue(c, { isPull: true });
  if (!issues && !pulls) throw notFound();
  const page = pageOf(c);
  const isPull = issues && pulls ? undefined : pulls;
  const { comments, total } = await findComments(
    c,
    { repoId: need(c.repo, 'repo').repo.id, type: CommentType.comment, isPull, since, before },
    page,
  );
  return json(200, await toApi(c, comments), pagingHeaders(c, page, total));
};

/** Forgejo lists an issue's comments unpaged, with the count in X-Total-Count. */
export const listOfIssue: Handler<never, QueryOf<'CommentRange'>> = async (c) => {
  const { before, since } = sinceBefore(c.q);
  const issue = need(c.issue, 'issue');
  const { comments, total } = await findComments(c, { issueId: issue.id, type: CommentType.comment, since, before }, null);
  return json(200, await toApi(c, comments, new Map([[issue.id, issue]])), {
    'X-Total-Count': String(total),
    'Access-Control-Expose-Headers': 'X-Total-Count',
  });
};

/** The chain decided the lock, the update date and blocks; the schema refuses an empty body. */
export const create = writesAtEnd(
  plainContext(
    signedIn<CreateIssueCommentOption>(async (c) => {
      const issue = need(c.issue, 'issue');
      // The chain read the repository, its owner and units, and this route changes none: its notifications,
      // feeds and hooks reuse them.
      const { repo, owner, perm } = need(c.repo, 'repo');
      knownRepo(c.ahead, repo, owner, perm.enabled);
      const { comment, pending } = await createComment(c, issue, c.body.body, forcedTime(c.body.updated_at));
      // Its repository and poster are the request's; a new comment has no attachments yet.
      const known = { repos: [repo], users: [c.auth.doer], none: ['attachments'] as const };
      const answer = async () => (await commentsToApi(c.em, c.config, ANONYMOUS, [comment], new Map([[issue.id, issue]]), known))[0];
      // A row that goes with COMMIT is answered once it has committed.
      return json(201, pending ? new AfterCommit(answer) : await answer());
    }),
  ),
);

/** Forgejo answers 204 for a comment id that is a timeline event rather than a comment. */
export const get: Handler = async (c) => {
  const { comment, issue } = need(c.comment, 'comment');
  if (comment.type !== CommentType.comment) return noContent();
  return json(200, (await toApi(c, [comment], new Map([[issue.id, issue]])))[0]);
};

/** The chain decided poster-or-writer and the update date; the schema refuses an empty body. */
async function editComment(c: SignedInCtx<EditIssueCommentOption>, comment: IComment, issue: IIssue) {
  // Forgejo: events without text are left alone, with 204.
  if (!EDITABLE.includes(comment.type)) return noContent();
  const at = forcedTime(c.body.updated_at);
  const from = comment.content;
  comment.content = c.body.body;
  comment.updatedAt = new Date();
  await c.em.flush();
  if (at) await forceTimes(c, issue, comment, at, false);
  await emitCommentEvent(c, issue, comment, 'edited', from);
  return json(200, (await toApi(c, [comment], new Map([[issue.id, issue]])))[0]);
}

export const edit = signedIn<EditIssueCommentOption>(async (c) => {
  const { comment, issue } = need(c.comment, 'comment');
  return editComment(c, comment, issue);
});

/** The deprecated `/issues/{index}/comments/{id}` forms ignore `{index}`, as Forgejo documents. */
export const editInIssue = signedIn<EditIssueCommentOption>(async (c) => {
  const { comment, issue } = need(c.comment, 'comment');
  return editComment(c, comment, issue);
});

/**
 * Forgejo's DeleteComment: the row, its reactions, and the cross references it made (neutered); the
 * issue's comment count follows. Only plain comments go this way: other types answer 204 and stay.
 * Attachments of the comment are left, as Forgejo leaves them.
 */
async function deleteComment(c: SignedInCtx, comment: IComment, issue: IIssue) {
  if (comment.type !== CommentType.comment) return noContent();
  await emitCommentEvent(c, issue, comment, 'deleted');
  await c.em.nativeDelete(Reaction, { commentId: comment.id });
  await c.em.nativeUpdate(
    Comment,
    { refIssueId: issue.id, refCommentId: comment.id, refAction: { $in: [XREF.none, XREF.closes, XREF.reopens] } },
    { refAction: XREF.neutered },
  );
  c.em.remove(comment);
  await c.em.flush();
  await recountComments(c.em, issue);
  return noContent();
}

export const remove = signedIn(async (c) => {
  const { comment, issue } = need(c.comment, 'comment');
  return deleteComment(c, comment, issue);
});

export const removeInIssue = signedIn(async (c) => {
  const { comment, issue } = need(c.comment, 'comment');
  return deleteComment(c, comment, issue);
});

// ---------------------------------------------------------------------------------------------
// Timeline

/** Whether the caller may read issues (or pulls) of another repository; one permission per repository. */
function otherRepoReader(c: RequestState) {
  const perms = new Map<number, Promise<{ issues: boolean; pulls: boolean }>>();
  const check = async (repoId: number) => {
    // The addressed repository and the caller may be plain objects on a GET, which no
    // lookup by id finds in the EntityManager: they are taken as they are.
    const loaded = c.repo?.repo.id === repoId ? c.repo : null;
    const repo = loaded?.repo ?? (await c.em.findOne(Repository, { id: repoId }));
    const owner =
      loaded?.owner ?? (!repo ? null : repo.ownerId === c.auth.doer?.id ? c.auth.doer : await c.em.findOne(User, { id: repo.ownerId }));
    if (!repo || !owner) return { issues: false, pulls: false };
    const perm = await repoPermission(c.em, { repo, owner, doer: c.auth.doer, siteAdmin: isSiteAdmin(c), token: c.auth.token });
    return { issues: perm.canRead('issues'), pulls: perm.canRead('pulls') };
  };
  return async (issue: IIssue) => {
    if (!perms.has(issue.repoId)) perms.set(issue.repoId, check(issue.repoId));
    const p = await perms.get(issue.repoId)!;
    return issue.isPull ? p.pulls : p.issues;
  };
}

/**
 * Timeline events that point at an issue the caller cannot read: Forgejo's isXRefCommentAccessible
 * for cross references from other repositories; here also dependencies, and references to a pull of
 * this repository when only issues are readable, so the timeline never shows what the caller (or a
 * public-only or repo-specific token) may not reach (spec, token kinds). A reference whose issue is
 * gone is hidden too (Forgejo would fail to convert it).
 */
async function hiddenEvents(c: RequestState, issue: IIssue): Promise<number[]> {
  const events = await c.em.find(Comment, {
    issueId: issue.id,
    $or: [
      { type: { $in: [...XREF_TYPES] }, refIssueId: { $gt: 0 } },
      { type: { $in: [CommentType.addDependency, CommentType.removeDependency] }, dependentIssueId: { $gt: 0 } },
    ],
  });
  if (events.length === 0) return [];
  const targetId = (e: IComment) => (XREF_TYPES.includes(e.type) ? e.refIssueId : e.dependentIssueId);
  const targets = new Map((await c.em.find(Issue, { id: { $in: [...new Set(events.map(targetId))] } })).map((i) => [i.id, i]));
  const readable = otherRepoReader(c);
  const hidden: number[] = [];
  for (const e of events) {
    const target = targets.get(targetId(e));
    const visible = target && (target.repoId === issue.repoId ? canReadIssue(c, target) : await readable(target));
    if (!visible) hidden.push(e.id);
  }
  return hidden;
}

/** Every event of the issue except code comments (they belong to reviews), oldest first, paged. */
export const listTimeline: Handler<never, QueryOf<'Comments'>> = async (c) => {
  const { before, since } = sinceBefore(c.q);
  const issue = need(c.issue, 'issue');
  const hideIds = await hiddenEvents(c, issue);
  const page = pageOf(c);
  const { comments, total } = await findComments(c, { issueId: issue.id, notType: CommentType.code, since, before, hideIds }, page);
  const items = await timelineToApi(c.em, c.config, viewerOf(c), issue, comments, c.repo?.repo ?? null);
  // Forgejo builds the list from a nil slice: no events is `null`.
  return json(200, items.length ? items : null, pagingHeaders(c, page, total));
};

/** This family's handlers; `routes.table.ts` names each `issueComments.<key>`. */
export const handlers = {
  listOfRepo,
  listOfIssue,
  create,
  get,
  edit,
  remove,
  editInIssue,
  removeInIssue,
  listTimeline,
} satisfies Record<string, Handler<never, never>>;
