// Issue and comment attachments (Forgejo routers/api/v1/repo/issue_attachment.go,
// issue_comment_attachment.go). The chain loads the issue or comment and the attachment (ISSUE,
// COMMENT, ATTACHMENT) and decides who may add, rename and remove (POSTER_OR_WRITER) and set the
// upload's date (UPDATE_DATE).
import type { Handler, SignedInCtx } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import type { EditAttachmentOptions } from '../model/schemas/index.ts';
import { Attachment, type IAttachment } from '../model/attachment.ts';
import { Comment, Issue, type IComment, type IIssue } from '../model/issue.ts';
import { toApiAttachment } from '../lib/issues/api/issue.ts';
import { unprocessable } from '../lib/http/errors.ts';
import { wholeSecondsOf } from '../lib/issues/issues.ts';
import { rfc3339Time } from '../lib/issues/edit.ts';
import { attachmentName, createUploaded, deleteAttachments, formValue, uploadedFile } from '../lib/attachments/attachments.ts';
import { need, type RequestState } from '../lib/http/request.ts';
import type { QueryOf } from '../model/schemas/query.ts';

const list = async (c: RequestState, where: { issueId: number; commentId: number }) =>
  json(
    200,
    (await c.em.find(Attachment, where, { orderBy: { id: 'asc' } })).map((a) => toApiAttachment(c.config, a)),
  );

/**
 * `updated_at` (RFC 3339) backdates the upload and the issue's update time, for migration tools; the
 * chain's UPDATE_DATE (Forgejo's SetIssueUpdateDate) allowed it. Kept in whole seconds, as Forgejo.
 */
function updatedAt(q: QueryOf<'AttachmentUpload'>): Date | null {
  const raw = q.updated_at ?? '';
  if (raw === '') return null;
  const t = rfc3339Time(raw);
  if (!t) throw unprocessable(`[UpdatedAt]: parsing time "${raw}" as RFC 3339 failed`);
  return wholeSecondsOf(t);
}

/**
 * The upload of an issue or comment attachment: the file in `attachment`, named by `name` or its file
 * name; types outside [attachment] ALLOWED_TYPES are 422 (Forgejo). The issue counts as updated.
 */
async function upload(c: SignedInCtx<unknown, QueryOf<'AttachmentUpload'>>, issue: IIssue, comment: IComment | null) {
  const file = uploadedFile(c.body);
  if (!file) throw unprocessable('[Attachment]: Required');
  const when = updatedAt(c.q);
  const name = formValue(c, 'name') || file.originalFilename;
  const link = {
    repoId: issue.repoId,
    issueId: issue.id,
    commentId: comment?.id ?? 0,
    uploaderId: c.auth.doer.id,
    ...(when ? { createdAt: when } : {}),
  };
  const a = await createUploaded(c, file, name, c.config.ATTACHMENT.ALLOWED_TYPES, link, unprocessable);
  // Forgejo saves the issue's (or comment's) content again, which stamps it as updated. The entities
  // stamp every update with the current time, so a chosen time is written past them.
  const stamp = when ?? new Date();
  if (comment) await c.em.nativeUpdate(Comment, { id: comment.id }, { updatedAt: stamp });
  if (!comment || when) await c.em.nativeUpdate(Issue, { id: issue.id }, { updatedAt: stamp });
  return json(201, toApiAttachment(c.config, a));
}

/** Forgejo answers 201 for an edit; only the name can change. */
async function rename(c: RequestState & { body: EditAttachmentOptions }, a: IAttachment) {
  if (c.body.name) a.name = attachmentName(c.body.name);
  await c.em.flush();
  return json(201, toApiAttachment(c.config, a));
}

// Issue attachments

export const listIssue: Handler = async (c) => list(c, { issueId: need(c.issue, 'issue').id, commentId: 0 });

export const getIssue: Handler = async (c) => json(200, toApiAttachment(c.config, need(c.attachment, 'attachment')));

export const createIssue = signedIn<unknown, QueryOf<'AttachmentUpload'>>(async (c) => upload(c, need(c.issue, 'issue'), null));

export const editIssue: Handler<EditAttachmentOptions> = async (c) => rename(c, need(c.attachment, 'attachment'));

export const removeIssue: Handler = async (c) => {
  await deleteAttachments(c, { id: need(c.attachment, 'attachment').id });
  return noContent();
};

// Comment attachments

export const listComment: Handler = async (c) => {
  const { comment, issue } = need(c.comment, 'comment');
  return list(c, { issueId: issue.id, commentId: comment.id });
};

export const getComment: Handler = async (c) => json(200, toApiAttachment(c.config, need(c.attachment, 'attachment')));

export const createComment = signedIn<unknown, QueryOf<'AttachmentUpload'>>(async (c) => {
  const { comment, issue } = need(c.comment, 'comment');
  return upload(c, issue, comment);
});

export const editComment: Handler<EditAttachmentOptions> = async (c) => rename(c, need(c.attachment, 'attachment'));

export const removeComment: Handler = async (c) => {
  await deleteAttachments(c, { id: need(c.attachment, 'attachment').id });
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `attachments.<key>`. */
export const handlers = {
  listIssue,
  createIssue,
  getIssue,
  editIssue,
  removeIssue,
  listComment,
  createComment,
  getComment,
  editComment,
  removeComment,
} satisfies Record<string, Handler<never, never>>;
