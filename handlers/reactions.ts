// Reactions on issues and on their comments (Forgejo's routers/api/v1/repo/issue_reaction.go,
// models/issues/reaction.go, services/issue/reaction.go). The allowed reactions are `[ui] REACTIONS`;
// lists show only allowed ones, and an issue's own reactions are those with comment id 0. The chain
// loads the issue or comment and decides the lock, blocks and the allowed list (ISSUE_LOCKED,
// NOT_BLOCKED_BY_POSTER, ALLOWED_REACTION).
import type { Handler, HandlerCtx } from '../lib/http/handler.ts';
import { json } from '../lib/http/handler.ts';
import type { EditReactionOption } from '../model/schemas/index.ts';
import { Reaction, type IIssue, type IReaction } from '../model/issue.ts';
import { usersById } from '../lib/issues/api/issue.ts';
import { toApiReaction } from '../lib/issues/api/reaction.ts';
import { listSetting } from '../config.ts';
import { pageOf, pagingHeaders, type Page } from '../lib/http/paging.ts';
import { isSiteAdmin, need, type RequestState } from '../lib/http/request.ts';
import { executeSql, sql } from '../model/sql.ts';

/** A reaction target: an issue (`commentId` 0) or one of its comments. */
interface Target {
  issue: IIssue;
  commentId: number;
}

async function toApi(c: RequestState, rows: IReaction[]) {
  const users = await usersById(
    c.em,
    rows.map((r) => r.userId),
  );
  const viewer = { doer: c.auth.doer, siteAdmin: isSiteAdmin(c) };
  return rows.map((r) => toApiReaction(c.config, viewer, r, users.get(r.userId)));
}

async function findReactions(c: RequestState, t: Target, page: Page | null) {
  return c.em.findAndCount(
    Reaction,
    { issueId: t.issue.id, commentId: t.commentId, type: { $in: listSetting(c.config.UI.REACTIONS) } },
    {
      orderBy: { createdAt: 'asc', id: 'asc' },
      ...(page ? { limit: page.limit, offset: page.offset } : {}),
    },
  );
}

/** Forgejo's CreateReaction after its checks: 201 with the new reaction, 200 with the one already there. */
async function addReaction(c: RequestState, t: Target, content: string) {
  const doer = need(c.auth.doer ?? undefined, 'user');
  // One statement, so two concurrent requests for the same reaction cannot both insert or fail.
  const inserted = await executeSql<{ id: number }>(
    c.em,
    sql`insert into reaction (type, issue_id, comment_id, user_id, original_author, original_author_id, created_at)
     values (${content}, ${t.issue.id}, ${t.commentId}, ${doer.id}, '', 0, ${new Date()}) on conflict do nothing returning id`,
  );
  const row = await c.em.findOneOrFail(
    Reaction,
    inserted.length
      ? { id: Number(inserted[0]!.id) }
      : { issueId: t.issue.id, commentId: t.commentId, userId: doer.id, type: content, originalAuthor: '' },
  );
  return json(inserted.length ? 201 : 200, (await toApi(c, [row]))[0]);
}

/**
 * Removing takes the caller's own reactions of that content; with no content, Forgejo's delete has no
 * type condition and removes all of them. Either way the answer is 200 with no body.
 */
async function changeReaction(c: HandlerCtx<EditReactionOption>, t: Target, create: boolean) {
  const doer = need(c.auth.doer ?? undefined, 'user');
  const content = c.body.content ?? '';
  if (!create) {
    await c.em.nativeDelete(Reaction, {
      issueId: t.issue.id,
      commentId: t.commentId,
      userId: doer.id,
      originalAuthorId: 0,
      ...(content ? { type: content } : {}),
    });
    return { status: 200 };
  }
  return addReaction(c, t, content);
}

const nullIfEmpty = <T>(items: T[]) => (items.length ? items : null);

/** Paged; Forgejo builds the list from a nil slice, so no reactions is `null`. */
export const listOfIssue: Handler = async (c) => {
  const issue = need(c.issue, 'issue');
  const page = pageOf(c);
  const [rows, total] = await findReactions(c, { issue, commentId: 0 }, page);
  return json(200, nullIfEmpty(await toApi(c, rows)), pagingHeaders(c, page, total));
};

export const addToIssue: Handler<EditReactionOption> = async (c) =>
  changeReaction(c, { issue: need(c.issue, 'issue'), commentId: 0 }, true);
export const removeFromIssue: Handler<EditReactionOption> = async (c) =>
  changeReaction(c, { issue: need(c.issue, 'issue'), commentId: 0 }, false);

/** Unpaged, as in Forgejo. */
export const listOfComment: Handler = async (c) => {
  const { comment, issue } = need(c.comment, 'comment');
  const [rows] = await findReactions(c, { issue, commentId: comment.id }, null);
  return json(200, nullIfEmpty(await toApi(c, rows)));
};

function commentTarget(c: RequestState): Target {
  const { comment, issue } = need(c.comment, 'comment');
  return { issue, commentId: comment.id };
}

export const addToComment: Handler<EditReactionOption> = async (c) => changeReaction(c, commentTarget(c), true);
export const removeFromComment: Handler<EditReactionOption> = async (c) => changeReaction(c, commentTarget(c), false);

/** This family's handlers; `routes.table.ts` names each `reactions.<key>`. */
export const handlers = {
  listOfIssue,
  addToIssue,
  removeFromIssue,
  listOfComment,
  addToComment,
  removeFromComment,
} satisfies Record<string, Handler<never, never>>;
