// POSTER_OR_WRITER (Forgejo's EditIssue / EditIssueComment / attachment rules; spec, other permission
// rules: a comment's poster may always edit it and its attachments): the poster of the issue or
// comment, or a writer of the issue's unit (issues, or pulls for a pull); site admins count, except
// through public-only and repo-specific tokens. Else 403 with the route's message.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { POSTER_OR_WRITER } from '../../guards/poster-or-writer.ts';
import { Mode } from '../../lib/auth/perm.ts';
import type { IPullRequest } from '../../model/pull.ts';
import { fakeComment, fakeIssue, fakeUser, loadedRepo, loose, perm, permAll, table, token, type Given } from './state.ts';

const poster = fakeUser();
const other = fakeUser();
const admin = fakeUser({ isAdmin: true });
const readsAll = () => loadedRepo(permAll(Mode.read));
const writesIssues = () => loadedRepo(perm(Mode.write, { issues: Mode.write, pulls: Mode.read }));
const writesPulls = () => loadedRepo(perm(Mode.write, { issues: Mode.read, pulls: Mode.write }));

/** A request on an issue (or pull) posted by `poster`, and a comment on it posted by `commenter`. */
function on(
  doer: Given['doer'],
  repo = readsAll(),
  opts: { isPull?: boolean; commenter?: typeof poster; token?: Given['token'] } = {},
): () => Given {
  return () => {
    const issue = fakeIssue(repo.repo, poster, { isPull: opts.isPull ?? false });
    return { doer, repo, issue, comment: { comment: fakeComment(issue, opts.commenter ?? poster), issue }, token: opts.token };
  };
}

const issueDenied = { status: 403, message: 'user should be the poster of the issue or have write permission' };
table(POSTER_OR_WRITER('issue'), [
  { name: "the issue's poster without write access", given: on(poster), want: null },
  { name: 'another reader', given: on(other), want: issueDenied },
  { name: 'a writer of issues', given: on(other, writesIssues()), want: null },
  { name: 'a writer of pulls on an issue', given: on(other, writesPulls()), want: issueDenied },
  { name: 'a writer of pulls on a pull', given: on(other, writesPulls(), { isPull: true }), want: null },
  { name: 'a writer of issues on a pull', given: on(other, writesIssues(), { isPull: true }), want: issueDenied },
  { name: 'a site admin', given: on(admin), want: null },
  { name: 'a site admin with a public-only token', given: on(admin, readsAll(), { token: token('public-only,all') }), want: issueDenied },
  {
    name: 'a site admin with a repo-specific token',
    given: on(admin, readsAll(), { token: token('write:issue', [1]) }),
    want: issueDenied,
  },
]);

table(POSTER_OR_WRITER('issue-attachment'), [
  { name: "the issue's poster", given: on(poster), want: null },
  { name: 'another reader', given: on(other), want: { status: 403, message: 'user should have permission to write issue' } },
]);

const commentDenied = { status: 403, message: "user should be the comment's poster or have write permission on the repository's issues" };
table(POSTER_OR_WRITER('comment'), [
  { name: "the comment's poster without write access", given: on(other, readsAll(), { commenter: other }), want: null },
  { name: "the issue's poster is not the comment's", given: on(poster, readsAll(), { commenter: other }), want: commentDenied },
  { name: 'a writer of issues', given: on(other, writesIssues()), want: null },
  { name: 'a writer of issues, comment on a pull', given: on(other, writesIssues(), { isPull: true }), want: commentDenied },
  { name: 'a site admin', given: on(admin), want: null },
  { name: 'a site admin with a public-only token', given: on(admin, readsAll(), { token: token('public-only,all') }), want: commentDenied },
]);

table(POSTER_OR_WRITER('comment-attachment'), [
  { name: "the comment's poster", given: on(other, readsAll(), { commenter: other }), want: null },
  {
    name: 'another reader',
    given: on(poster, readsAll(), { commenter: other }),
    want: { status: 403, message: 'user should have permission to edit comment' },
  },
]);

/** A request on a pull (PULL loader) posted by `poster`. */
function onPull(doer: Given['doer'], repo = readsAll(), tok?: Given['token']): () => Given {
  return () => ({ doer, repo, token: tok, pull: { pull: {} as IPullRequest, issue: fakeIssue(repo.repo, poster, { isPull: true }) } });
}
const pullDenied = { status: 403, message: 'user should be the poster or have write access to pull requests' };
table(POSTER_OR_WRITER('pull'), [
  { name: "the pull's poster without write access", given: onPull(poster), want: null },
  { name: 'another reader', given: onPull(other), want: pullDenied },
  { name: 'a writer of pulls', given: onPull(other, writesPulls()), want: null },
  { name: 'a writer of issues only', given: onPull(other, writesIssues()), want: pullDenied },
  { name: 'a site admin', given: onPull(admin), want: null },
  { name: 'a site admin with a public-only token', given: onPull(admin, readsAll(), token('public-only,all')), want: pullDenied },
]);

test('POSTER_OR_WRITER: names and needs', () => {
  assert.is(POSTER_OR_WRITER('issue').name, 'POSTER_OR_WRITER(issue)');
  assert.equal([...POSTER_OR_WRITER('issue').needs], ['issue']);
  assert.equal([...POSTER_OR_WRITER('comment').needs], ['comment', 'issue']);
  assert.equal([...POSTER_OR_WRITER('pull').needs], ['pull']);
});

test('POSTER_OR_WRITER: refuses unknown targets at construction', () => {
  assert.throws(() => loose(POSTER_OR_WRITER)('pulls'), /POSTER_OR_WRITER: unknown target "pulls"/);
});

test.run();
