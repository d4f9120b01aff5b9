// UPDATE_DATE (Forgejo's SetIssueUpdateDate): an explicit update time (body `updated_at`, or the query's
// for attachment uploads) needs repository admin rights (403), and must lie between the issue's
// creation (whole seconds) and now (403 "unallowed update date"). No time, or one that does not parse
// (the handler's 422), passes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { UPDATE_DATE } from '../../guards/update-date.ts';
import { Mode, type AccessMode } from '../../lib/auth/perm.ts';
import { fakeIssue, fakeUser, loadedRepo, loose, permAll, table, type Given } from './state.ts';

const alice = fakeUser();
const admin = fakeUser({ isAdmin: true });
// The fake issue was created at 2024-01-01T00:00:00.250Z.
const on =
  (p: AccessMode, over: { body?: unknown; query?: string; doer?: Given['doer'] } = {}) =>
  (): Given => {
    const repo = loadedRepo(permAll(p));
    return { doer: over.doer ?? alice, repo, issue: fakeIssue(repo.repo, alice), body: over.body, query: over.query };
  };
const notAdmin = { status: 403, message: 'user needs to have admin or owner right' };
const unallowed = { status: 403, message: 'unallowed update date' };
const future = () => new Date(Date.now() + 60_000).toISOString();

table(UPDATE_DATE('body'), [
  { name: 'no date, writer', given: on(Mode.write, { body: { body: 'x' } }), want: null },
  { name: 'a date, writer', given: on(Mode.write, { body: { updated_at: '2024-06-01T00:00:00Z' } }), want: notAdmin },
  {
    name: 'a date, site admin without repository admin rights',
    given: on(Mode.write, { body: { updated_at: '2024-06-01T00:00:00Z' }, doer: admin }),
    want: notAdmin,
  },
  { name: 'a date, repository admin', given: on(Mode.admin, { body: { updated_at: '2024-06-01T00:00:00Z' } }), want: null },
  {
    name: 'in the creation second, before its milliseconds',
    given: on(Mode.admin, { body: { updated_at: '2024-01-01T00:00:00Z' } }),
    want: null,
  },
  { name: 'the second before the creation', given: on(Mode.admin, { body: { updated_at: '2023-12-31T23:59:59.999Z' } }), want: unallowed },
  { name: 'in the future', given: on(Mode.admin, { body: { updated_at: future() } }), want: unallowed },
  { name: 'unparsable, writer: left to the handler (422)', given: on(Mode.write, { body: { updated_at: 'yesterday' } }), want: null },
]);

table(UPDATE_DATE('query'), [
  { name: 'no date', given: on(Mode.write), want: null },
  { name: 'an empty date', given: on(Mode.write, { query: 'updated_at=' }), want: null },
  { name: 'a date, writer', given: on(Mode.write, { query: 'updated_at=2024-06-01T00:00:00Z' }), want: notAdmin },
  { name: 'a date, repository admin', given: on(Mode.admin, { query: 'updated_at=2024-06-01T00:00:00Z' }), want: null },
  { name: 'before the creation', given: on(Mode.admin, { query: 'updated_at=2023-06-01T00:00:00Z' }), want: unallowed },
]);

test('UPDATE_DATE: names, needs, and unknown sources', () => {
  assert.is(UPDATE_DATE('body').name, 'UPDATE_DATE(body)');
  assert.equal([...UPDATE_DATE('body').needs], ['repo', 'issue', 'body']);
  assert.equal([...UPDATE_DATE('query').needs], ['repo', 'issue']);
  assert.throws(() => loose(UPDATE_DATE)('header'), /UPDATE_DATE: unknown source "header"/);
});

test.run();
