// Attachment assignment on the issue routes: the attachment `{attachment_id}` of the loaded issue (and
// none of its comments) or of the loaded comment; unknown, or belonging elsewhere, 404.
import { NOT_FOUND } from '../lib/http/errors.ts';
import { positiveInt } from '../lib/issues/issues.ts';
import { Attachment } from '../model/attachment.ts';
import { deny, need, step, type Need } from './types.ts';

export function ATTACHMENT(of: 'issue' | 'comment') {
  if (of !== 'issue' && of !== 'comment') throw new Error(`ATTACHMENT: unknown owner "${String(of)}"`);
  const needs: Need[] = of === 'comment' ? ['comment', 'issue'] : ['issue'];
  return step(`ATTACHMENT(${of})`, 'loader', needs, ['attachment'], async (s) => {
    const issue = need(s.issue, 'issue');
    const id = positiveInt(s.params.attachment_id);
    const a = id === null ? null : await s.em.findOne(Attachment, { id });
    const belongs =
      !!a &&
      (of === 'comment'
        ? a.repoId === issue.repoId && a.commentId === need(s.comment, 'comment').comment.id
        : a.repoId === issue.repoId && a.issueId === issue.id && a.commentId === 0);
    if (!a || !belongs) return deny(404, NOT_FOUND, { errors: [] });
    s.attachment = a;
    return null;
  });
}
