// ATTACHMENT(issue|comment): the attachment `{attachment_id}` of the loaded issue (and none of its
// comments) or of the loaded comment; unknown, or belonging elsewhere, 404. NOT_BLOCKED_BY_POSTER: a
// user blocked by the issue's poster, the repository's owner or the loaded comment's poster may not
// comment or react (403). ALLOWED_REACTION: content outside `[ui] REACTIONS` is 403. Real rows.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ATTACHMENT } from '../../guards/attachment.ts';
import { NOT_BLOCKED_BY_POSTER } from '../../guards/not-blocked.ts';
import { ALLOWED_REACTION } from '../../guards/reaction.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { addComment, createIssue } from '../../lib/issues/issues.ts';
import { blockUser } from '../../lib/users/blocks.ts';
import { Attachment, type IAttachment } from '../../model/attachment.ts';
import { CommentType, type IComment, type IIssue } from '../../model/issue.ts';
import type { IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import { loose, permAll, table, type Given } from './state.ts';
import { mkRepo, mkUser, openGuardDb, type GuardDb } from './db.ts';

let db: GuardDb;
let owner: IUser;
let poster: IUser;
let commenter: IUser;
let blockedByOwner: IUser;
let blockedByPoster: IUser;
let blockedByCommenter: IUser;
let repo: IRepository;
let issue: IIssue;
let comment: IComment;
let onIssue: IAttachment;
let onComment: IAttachment;
let onOther: IAttachment;

test.before(async () => {
  db = await openGuardDb();
  owner = await mkUser(db);
  poster = await mkUser(db);
  commenter = await mkUser(db);
  blockedByOwner = await mkUser(db);
  blockedByPoster = await mkUser(db);
  blockedByCommenter = await mkUser(db);
  repo = await mkRepo(db, owner, owner);
  issue = await createIssue(db.em(), { repo, posterId: poster.id, title: 'with files' });
  const other = await createIssue(db.em(), { repo, posterId: poster.id, title: 'other' });
  comment = await addComment(db.em(), issue, commenter.id, CommentType.comment, { content: 'see file' });
  const em = db.em();
  const file = (issueId: number, commentId: number) =>
    em.create(Attachment, { uuid: crypto.randomUUID(), repoId: repo.id, issueId, commentId, uploaderId: poster.id, name: 'f.txt' });
  onIssue = file(issue.id, 0);
  onComment = file(issue.id, comment.id);
  onOther = file(other.id, 0);
  await em.flush();
  await blockUser(db.em(), owner, blockedByOwner);
  await blockUser(db.em(), poster, blockedByPoster);
  await blockUser(db.em(), commenter, blockedByCommenter);
});
test.after(async () => {
  await db.close();
});

const on =
  (id: () => number, withComment = false, doer = () => poster) =>
  (): Given => ({
    em: db.em(),
    doer: doer(),
    repo: { repo, owner, perm: permAll(Mode.read) },
    issue,
    ...(withComment ? { comment: { comment, issue } } : {}),
    params: { attachment_id: String(id()) },
  });
const missing = { status: 404, message: "The target couldn't be found.", errors: [] };

table(ATTACHMENT('issue'), [
  { name: "the issue's own attachment", given: on(() => onIssue.id), want: null, then: (s) => assert.is(s.attachment?.id, onIssue.id) },
  { name: "an attachment of the issue's comment", given: on(() => onComment.id), want: missing },
  { name: "another issue's attachment", given: on(() => onOther.id), want: missing },
  { name: 'unknown', given: on(() => 999999), want: missing },
]);

table(ATTACHMENT('comment'), [
  {
    name: "the comment's attachment",
    given: on(() => onComment.id, true),
    want: null,
    then: (s) => assert.is(s.attachment?.id, onComment.id),
  },
  { name: "the issue's own attachment", given: on(() => onIssue.id, true), want: missing },
]);

const blocked = { status: 403, message: 'user is blocked by the poster or repository owner' };
table(NOT_BLOCKED_BY_POSTER, [
  {
    name: 'nobody blocked the caller',
    given: on(
      () => 0,
      true,
      () => commenter,
    ),
    want: null,
  },
  {
    name: "blocked by the repository's owner",
    given: on(
      () => 0,
      false,
      () => blockedByOwner,
    ),
    want: blocked,
  },
  {
    name: "blocked by the issue's poster",
    given: on(
      () => 0,
      false,
      () => blockedByPoster,
    ),
    want: blocked,
  },
  {
    name: "blocked by the comment's poster, on the issue",
    given: on(
      () => 0,
      false,
      () => blockedByCommenter,
    ),
    want: null,
  },
  {
    name: "blocked by the comment's poster, on the comment",
    given: on(
      () => 0,
      true,
      () => blockedByCommenter,
    ),
    want: blocked,
  },
]);

table(ALLOWED_REACTION, [
  { name: 'an allowed reaction', given: () => ({ body: { content: 'heart' } }), want: null },
  {
    name: 'another text',
    given: () => ({ body: { content: 'smile' } }),
    want: { status: 403, message: "'smile' is not an allowed reaction" },
  },
  { name: 'no content', given: () => ({ body: {} }), want: { status: 403, message: "'' is not an allowed reaction" } },
  { name: 'the instance allows it', given: () => ({ body: { content: 'smile' }, config: { UI__REACTIONS: 'smile' } }), want: null },
]);

test('ATTACHMENT: needs and unknown owners', () => {
  assert.equal([...ATTACHMENT('comment').needs], ['comment', 'issue']);
  assert.throws(() => loose(ATTACHMENT)('release'), /ATTACHMENT: unknown owner "release"/);
});

test.run();
