// Editing and deleting a comment (Forgejo's services/issue/comments.go UpdateComment and DeleteComment):
// the row's change with its event, its reactions and the cross references it made, and the issue's count.
// The handler reads and checks the input, calls one of these and converts the result.
import { Comment, CommentType, Reaction, type IComment, type IIssue } from '../../model/issue.ts';
import { forceTimes } from './create.ts';
import { emitCommentEvent, type SignedEmitState } from './events.ts';
import { recountComments } from './issues.ts';

/** Forgejo's CommentType.HasContentSupport: the types whose text can be edited. */
const EDITABLE: readonly number[] = [CommentType.comment, CommentType.code, CommentType.review, CommentType.dismissReview];

/** Forgejo's references.XRefAction values. */
const XREF = { none: 0, closes: 1, reopens: 2, neutered: 3 } as const;

/** Whether a comment's text can be edited; Forgejo leaves events without text alone. */
export const isEditable = (comment: IComment): boolean => EDITABLE.includes(comment.type);

/**
 * Replaces the text of an editable comment and emits its `edited` event (with the text it had); `at`
 * (Forgejo's SetIssueUpdateDate) forces the comment's and the issue's update time.
 */
export async function editComment(c: SignedEmitState, issue: IIssue, comment: IComment, body: string, at: Date | null): Promise<void> {
  const from = comment.content;
  comment.content = body;
  comment.updatedAt = new Date();
  await c.em.flush();
  if (at) await forceTimes(c, issue, comment, at, false);
  await emitCommentEvent(c, issue, comment, 'edited', from);
}

/**
 * Forgejo's DeleteComment: the row, its reactions, and the cross references it made (neutered); the
 * issue's comment count follows. Only plain comments go this way: other types stay as they are.
 * Attachments of the comment are left, as Forgejo leaves them.
 */
export async function deleteComment(c: SignedEmitState, issue: IIssue, comment: IComment): Promise<void> {
  if (comment.type !== CommentType.comment) return;
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
}
