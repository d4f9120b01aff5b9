// COMMENT, the comment loader (spec, path resolution, comment paths): unknown comment 404; the
// comment's issue must belong to the addressed repository, else 404; the caller must be able to read
// issues (or pulls, when the comment's issue is a pull request), else 404. Rows are real database rows
// written through lib/issues.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { COMMENT } from '../../guards/comment.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { addComment, createIssue } from '../../lib/issues/issues.ts';
import { CommentType, type IComment } from '../../model/issue.ts';
import type { IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import type { RequestState } from '../../guards/types.ts';
import { perm, permAll, table, type Given } from './state.ts';
import { mkRepo, mkUser, openGuardDb, type GuardDb } from './db.ts';

const missing = { status: 404, message: "The target couldn't be found.", errors: [] };

let db: GuardDb;
let owner: IUser;
let repo: IRepository;
let other: IRepository;
let onIssue: IComment;
let onPull: IComment;
let elsewhere: IComment;

async function commentOn(r: IRepository, isPull: boolean): Promise<IComment> {
  const em = db.em();
  const issue = await createIssue(em, { repo: r, posterId: owner.id, title: isPull ? 'pull' : 'issue', isPull });
  return addComment(em, issue, owner.id, CommentType.comment, { content: 'hello' });
}

test.before(async () => {
  db = await openGuardDb();
  owner = await mkUser(db);
  repo = await mkRepo(db, owner, owner);
  other = await mkRepo(db, owner, owner);
  onIssue = await commentOn(repo, false);
  onPull = await commentOn(repo, true);
  elsewhere = await commentOn(other, false);
});
test.after(async () => {
  await db.close();
});

/** A request on `repo` with the given permission, for comment `id`. */
const on =
  (id: () => string, p = () => permAll(Mode.read), param = 'id') =>
  (): Given => ({
    em: db.em(),
    doer: owner,
    repo: { repo, owner, perm: p() },
    params: { [param]: id() },
  });
const readsIssuesOnly = () => perm(Mode.none, { issues: Mode.read });
const readsPullsOnly = () => perm(Mode.none, { pulls: Mode.read });
const provides = (want: () => IComment, isPull: boolean) => (s: RequestState) => {
  assert.ok(s.comment, 'no comment provided');
  assert.is(s.comment.comment.id, want().id);
  assert.is(s.comment.comment.content, 'hello');
  assert.is(s.comment.issue.id, want().issueId);
  assert.is(s.comment.issue.isPull, isPull);
  assert.is(s.issue, s.comment.issue, "the comment's issue is the request's issue");
};

table(COMMENT, [
  { name: 'unknown comment id', given: on(() => '999999'), want: missing },
  { name: 'not a number', given: on(() => 'abc'), want: missing },
  { name: 'zero', given: on(() => '0'), want: missing },
  { name: "a comment of another repository's issue", given: on(() => String(elsewhere.id)), want: missing },
  { name: 'a comment of a pull while the caller cannot read pulls', given: on(() => String(onPull.id), readsIssuesOnly), want: missing },
  {
    name: 'a comment of an issue while the caller can read only pulls',
    given: on(() => String(onIssue.id), readsPullsOnly),
    want: missing,
  },
  {
    name: 'a readable issue comment passes and is provided',
    given: on(() => String(onIssue.id), readsIssuesOnly),
    want: null,
    then: provides(() => onIssue, false),
  },
  {
    name: 'a readable pull comment passes and is provided',
    given: on(() => String(onPull.id), readsPullsOnly),
    want: null,
    then: provides(() => onPull, true),
  },
  {
    name: 'review-comment paths name the comment {comment}',
    given: on(() => String(onIssue.id), undefined, 'comment'),
    want: null,
    then: provides(() => onIssue, false),
  },
]);

test('COMMENT: needs the repository, provides the comment and its issue', () => {
  assert.equal([...COMMENT.needs], ['repo']);
  assert.equal([...COMMENT.provides], ['comment', 'issue']);
});

test.run();
