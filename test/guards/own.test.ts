// OWN(units) (spec, guard table): caller is repository owner or site admin, else 403 `user should be
// the owner of the repo`. When units are given, at least one must be enabled on the repository, else
// 404 — checked first.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OWN } from '../../guards/own.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { fakeUser, loadedRepo, loose, perm, permAll, table, token } from './state.ts';

const alice = fakeUser();
const admin = fakeUser({ isAdmin: true });
const forbidden = { status: 403, message: 'user should be the owner of the repo' };
const missing = { status: 404, message: "The target couldn't be found.", errors: [] };
const noActions = ['code', 'issues', 'pulls', 'releases', 'wiki'] as const;

table(OWN(), [
  { name: 'owner', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.owner), { owner: alice }) }), want: null },
  { name: 'admin collaborator is not the owner', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.admin)) }), want: forbidden },
  { name: 'writer', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.write)) }), want: forbidden },
  { name: 'reader', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.read)) }), want: forbidden },
  { name: 'anonymous reader', given: () => ({ repo: loadedRepo(permAll(Mode.read)) }), want: forbidden },
  { name: 'site admin who only reads', given: () => ({ doer: admin, repo: loadedRepo(permAll(Mode.read)) }), want: null },
  {
    name: 'site admin with a public-only token',
    given: () => ({ doer: admin, token: token('public-only,all'), repo: loadedRepo(permAll(Mode.read)) }),
    want: forbidden,
  },
  {
    name: 'site admin with a repo-specific token',
    given: () => ({ doer: admin, token: token('write:repository', [1]), repo: loadedRepo(permAll(Mode.write)) }),
    want: forbidden,
  },
  {
    name: 'no units named: a repository without units still passes its owner',
    given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.owner, [])) }),
    want: null,
  },
]);

table(OWN('actions'), [
  { name: 'owner, actions enabled', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.owner)) }), want: null },
  { name: 'reader, actions enabled', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.read)) }), want: forbidden },
  { name: 'owner, actions disabled', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.owner, noActions)) }), want: missing },
  {
    name: 'reader, actions disabled: 404 before 403',
    given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.read, noActions)) }),
    want: missing,
  },
  { name: 'site admin, actions disabled', given: () => ({ doer: admin, repo: loadedRepo(permAll(Mode.owner, noActions)) }), want: missing },
  { name: 'site admin, actions enabled', given: () => ({ doer: admin, repo: loadedRepo(perm(Mode.none, {}, ['actions'])) }), want: null },
]);

table(OWN('wiki', 'actions'), [
  {
    name: 'only the second unit enabled',
    given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.owner, ['code', 'actions'])) }),
    want: null,
  },
  { name: 'neither unit enabled', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.owner, ['code'])) }), want: missing },
  {
    name: 'a unit enabled, caller a writer',
    given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.write, ['wiki'])) }),
    want: forbidden,
  },
]);

test('OWN: names as the matrix prints them, needs the repository', () => {
  assert.is(OWN().name, 'OWN');
  assert.is(OWN('wiki', 'actions').name, 'OWN(wiki, actions)');
  assert.equal([...OWN().needs], ['repo']);
});

test('OWN: unknown unit names are refused at construction', () => {
  assert.throws(() => loose(OWN)('x'), /OWN: unknown unit "x"/);
  assert.throws(() => loose(OWN)('code', 'Code'), /unknown unit "Code"/);
  assert.throws(() => loose(OWN)('repo.code'), /unknown unit/);
});

test('OWN: names inherited from Object.prototype are not units either [STYLE: constructors check their arguments]', () => {
  assert.throws(() => loose(OWN)('toString'), /unknown unit/);
  assert.throws(() => loose(OWN)('constructor'), /unknown unit/);
});

test.run();
