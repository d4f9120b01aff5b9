// Issue and comment attachments (Forgejo routers/api/v1/repo/issue_attachment.go,
// issue_comment_attachment.go). Reading follows the issue or comment the chain loaded; adding, renaming
// and removing need the right to edit that issue or comment: its poster always, otherwise a writer of
// the issues (or pulls) unit. Admin rights count only where the request's token keeps them (spec, token
// kinds: no editing of others' attachments through public-only or repo-specific tokens).
// An attachment must belong to the addressed issue (not to one of its comments) or comment, else 404.
import type { Handler } from '../lib/handler.ts';
import { json, noContent } from '../lib/handler.ts';
import type { EditAttachmentOptions } from '../model/schemas/index.ts';
import { Attachment, type IAttachment } from '../model/attachment.ts';
import { Comment, Issue, type IComment, type IIssue } from '../model/issue.ts';
import { toApiAttachment } from '../model/api-issue.ts';
import { forbidden, unprocessable } from '../lib/errors.ts';
import { canEditIssue, canWriteIssues, loadIssue } from '../lib/issues.ts';
import { attachmentName, createUploaded, deleteAttachments, formValue, loadAttachment, uploadedFile } from '../lib/attachments.ts';
import { need, type RequestState } from '../guards/types.ts';

const list = async (c: RequestState, where: { issueId: number; commentId: number }) =>
  json(200, (await c.em.find(Attachment, where, { orderBy: { id: 'asc' } })).map((a) => toApiAttachment(c.config, a)));

function mayEditIssue(c: RequestState, issue: IIssue): void {
  if (!canEditIssue(c, issue)) throw forbidden('user should have permission to write issue');
}

/** Spec, other permission rules: the comment's poster may always, without write permission on the unit. */
function mayEditComment(c: RequestState, comment: IComment, issue: IIssue): void {
  const poster = !!c.auth.doer && c.auth.doer.id === comment.posterId;
  if (!poster && !canWriteIssues(c, issue.isPull)) throw forbidden('user should have permission to edit comment');
}

const ofIssue = (c: RequestState, issue: IIssue) =>
  loadAttachment(c, (a) => a.repoId === issue.repoId && a.issueId === issue.id && a.commentId === 0);

const ofComment = (c: RequestState, comment: IComment) =>
  loadAttachment(c, (a) => a.repoId === need(c.repo, 'repo').repo.id && a.commentId === comment.id);

/**
 * `updated_at` (RFC 3339) backdates the upload and the issue's update time, for migration tools; like
 * Forgejo's SetIssueUpdateDate it needs repository admin rights (403) and a time between the issue's
 * creation and now.
 */
function updatedAt(c: RequestState, issue: IIssue): Date | null {
  const raw = c.query.get('updated_at') ?? '';
  if (raw === '') return null;
  const t = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(raw) ? new Date(raw) : null;
  if (!t || Number.isNaN(t.getTime())) throw unprocessable(`[UpdatedAt]: parsing time "${raw}" as RFC 3339 failed`);
  if (!need(c.repo, 'repo').perm.isAdmin()) throw forbidden('user needs to have admin or owner right');
  if (t.getTime() < Math.floor(issue.createdAt.getTime() / 1000) * 1000 || t.getTime() > Date.now()) throw forbidden('unallowed update date');
  return t;
}

/**
 * The upload of an issue or comment attachment: the file in `attachment`, named by `name` or its file
 * name; types outside [attachment] ALLOWED_TYPES are 422 (Forgejo). The issue counts as updated.
 */
async function upload(c: RequestState, issue: IIssue, comment: IComment | null) {
  const file = uploadedFile(c.body);
  if (!file) throw unprocessable('[Attachment]: Required');
  const when = updatedAt(c, issue);
  const name = formValue(c, 'name') || file.originalFilename;
  const link = { repoId: issue.repoId, issueId: issue.id, commentId: comment?.id ?? 0, uploaderId: c.auth.doer!.id, ...(when ? { createdAt: when } : {}) };
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

export const listIssue: Handler = async (c) => list(c, { issueId: (await loadIssue(c)).id, commentId: 0 });

export const getIssue: Handler = async (c) => json(200, toApiAttachment(c.config, await ofIssue(c, await loadIssue(c))));

export const createIssue: Handler<unknown> = async (c) => {
  const issue = await loadIssue(c);
  mayEditIssue(c, issue);
  return upload(c, issue, null);
};

export const editIssue: Handler<EditAttachmentOptions> = async (c) => {
  const issue = await loadIssue(c);
  mayEditIssue(c, issue);
  return rename(c, await ofIssue(c, issue));
};

export const removeIssue: Handler = async (c) => {
  const issue = await loadIssue(c);
  mayEditIssue(c, issue);
  const a = await ofIssue(c, issue);
  await deleteAttachments(c, { id: a.id });
  return noContent();
};

// Comment attachments

export const listComment: Handler = async (c) => {
  const { comment, issue } = need(c.comment, 'comment');
  return list(c, { issueId: issue.id, commentId: comment.id });
};

export const getComment: Handler = async (c) => json(200, toApiAttachment(c.config, await ofComment(c, need(c.comment, 'comment').comment)));

export const createComment: Handler<unknown> = async (c) => {
  const { comment, issue } = need(c.comment, 'comment');
  mayEditComment(c, comment, issue);
  return upload(c, issue, comment);
};

export const editComment: Handler<EditAttachmentOptions> = async (c) => {
  const { comment, issue } = need(c.comment, 'comment');
  mayEditComment(c, comment, issue);
  return rename(c, await ofComment(c, comment));
};

export const removeComment: Handler = async (c) => {
  const { comment, issue } = need(c.comment, 'comment');
  mayEditComment(c, comment, issue);
  const a = await ofComment(c, comment);
  await deleteAttachments(c, { id: a.id });
  return noContent();
};
