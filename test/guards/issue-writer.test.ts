// ISSUE_WRITER (Forgejo's CanWriteIssuesOrPulls on the deadline and issue-label routes): a writer of the
// issue's unit (issues, or pulls for a pull); site admins count except through public-only and
// repo-specific tokens. Else 403 with the route's message. LABEL_LIST: the label list's shape (400).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ISSUE_WRITER } from '../../guards/issue-writer.ts';
import { LABEL_LIST } from '../../guards/label-list.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { fakeIssue, fakeUser, loadedRepo, loose, perm, permAll, table, token, type Given } from './state.ts';

const alice = fakeUser();
const admin = fakeUser({ isAdmin: true });
const on =
  (doer: Given['doer'], p = permAll(Mode.read), opts: { isPull?: boolean; token?: Given['token'] } = {}) =>
  (): Given => {
    const repo = loadedRepo(p);
    return { doer, repo, token: opts.token, issue: fakeIssue(repo.repo, alice, { isPull: opts.isPull ?? false }) };
  };
const labels = { status: 403, message: 'write permission is required' };

table(ISSUE_WRITER('labels'), [
  { name: 'the poster who only reads', given: on(alice), want: labels },
  { name: 'a writer of issues', given: on(alice, perm(Mode.write, { issues: Mode.write })), want: null },
  {
    name: 'a writer of issues on a pull',
    given: on(alice, perm(Mode.write, { issues: Mode.write, pulls: Mode.read }), { isPull: true }),
    want: labels,
  },
  { name: 'a writer of pulls on a pull', given: on(alice, perm(Mode.write, { pulls: Mode.write }), { isPull: true }), want: null },
  { name: 'a site admin', given: on(admin), want: null },
  {
    name: 'a site admin with a repo-specific token',
    given: on(admin, permAll(Mode.read), { token: token('write:issue', [1]) }),
    want: labels,
  },
]);

table(ISSUE_WRITER('deadline'), [
  { name: 'a reader', given: on(alice), want: { status: 403, message: 'Not repo writer' } },
  { name: 'a writer', given: on(alice, permAll(Mode.write)), want: null },
]);

table(LABEL_LIST, [
  { name: 'no labels', given: () => ({ body: {} }), want: null },
  { name: 'ids', given: () => ({ body: { labels: [1, 2] } }), want: null },
  { name: 'names', given: () => ({ body: { labels: ['bug'] } }), want: null },
  {
    name: 'both kinds',
    given: () => ({ body: { labels: [1, 'bug'] } }),
    want: { status: 400, message: 'labels should be an array of strings or integers' },
  },
  {
    name: 'something else',
    given: () => ({ body: { labels: [true] } }),
    want: { status: 400, message: 'a label must be an integer or a string' },
  },
]);

test('ISSUE_WRITER: names, needs, unknown actions', () => {
  assert.is(ISSUE_WRITER('labels').name, 'ISSUE_WRITER(labels)');
  assert.equal([...ISSUE_WRITER('deadline').needs], ['issue']);
  assert.throws(() => loose(ISSUE_WRITER)('pins'), /ISSUE_WRITER: unknown action "pins"/);
});

test.run();
