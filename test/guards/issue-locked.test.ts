// ISSUE_LOCKED (Forgejo's lock; spec, token kinds: "no commenting on locked issues" by an admin through
// a public-only or repo-specific token): a locked issue takes comments and reaction changes only from
// writers of its unit, else 403 with the action's message. An unlocked issue passes everyone.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ISSUE_LOCKED } from '../../guards/issue-locked.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { fakeIssue, fakeUser, loadedRepo, loose, perm, permAll, table, token, type Given } from './state.ts';

const alice = fakeUser();
const admin = fakeUser({ isAdmin: true });
const on =
  (doer: Given['doer'], p = permAll(Mode.read), opts: { locked?: boolean; isPull?: boolean; token?: Given['token'] } = {}) =>
  (): Given => {
    const repo = loadedRepo(p);
    return {
      doer,
      repo,
      token: opts.token,
      issue: fakeIssue(repo.repo, alice, { isLocked: opts.locked ?? true, isPull: opts.isPull ?? false }),
    };
  };
const locked = { status: 403, message: 'You cannot comment on a locked issue.' };

table(ISSUE_LOCKED('comment'), [
  { name: 'unlocked, reader', given: on(alice, permAll(Mode.read), { locked: false }), want: null },
  { name: 'locked, reader (even the poster)', given: on(alice), want: locked },
  { name: 'locked, writer of issues', given: on(alice, perm(Mode.write, { issues: Mode.write })), want: null },
  {
    name: 'locked pull, writer of issues only',
    given: on(alice, perm(Mode.write, { issues: Mode.write, pulls: Mode.read }), { isPull: true }),
    want: locked,
  },
  {
    name: 'locked pull, writer of pulls',
    given: on(alice, perm(Mode.write, { issues: Mode.read, pulls: Mode.write }), { isPull: true }),
    want: null,
  },
  { name: 'locked, site admin', given: on(admin), want: null },
  {
    name: 'locked, site admin with a public-only token',
    given: on(admin, permAll(Mode.read), { token: token('public-only,all') }),
    want: locked,
  },
  {
    name: 'locked, site admin with a repo-specific token',
    given: on(admin, permAll(Mode.read), { token: token('write:issue', [1]) }),
    want: locked,
  },
]);

table(ISSUE_LOCKED('reaction'), [
  { name: 'locked, reader', given: on(alice), want: { status: 403, message: 'no permission to change reaction' } },
  { name: 'unlocked, reader', given: on(alice, permAll(Mode.read), { locked: false }), want: null },
]);

test('ISSUE_LOCKED: names, needs, and unknown actions', () => {
  assert.is(ISSUE_LOCKED('comment').name, 'ISSUE_LOCKED(comment)');
  assert.equal([...ISSUE_LOCKED('reaction').needs], ['issue']);
  assert.throws(() => loose(ISSUE_LOCKED)('edit'), /ISSUE_LOCKED: unknown action "edit"/);
});

test.run();
