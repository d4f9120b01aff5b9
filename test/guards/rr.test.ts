// RR(unit) (spec, guard table): unit enabled, else 404; caller can read it, or is repo admin or site
// admin, else 403 `user should have specific read permission or be a repo admin or a site admin`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RR } from '../../guards/rr.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { fakeUser, loadedRepo, loose, perm, permAll, table, token } from './state.ts';

const alice = fakeUser();
const admin = fakeUser({ isAdmin: true });
const forbidden = { status: 403, message: 'user should have specific read permission or be a repo admin or a site admin' };
const missing = { status: 404, message: "The target couldn't be found.", errors: [] };

table(RR('issues'), [
  { name: 'issues reader', given: () => ({ doer: alice, repo: loadedRepo(perm(Mode.read, { issues: Mode.read })) }), want: null },
  { name: 'issues writer', given: () => ({ doer: alice, repo: loadedRepo(perm(Mode.write, { issues: Mode.write })) }), want: null },
  { name: 'anonymous reader of a public repository', given: () => ({ repo: loadedRepo(permAll(Mode.read)) }), want: null },
  {
    name: 'team member with code only',
    given: () => ({ doer: alice, repo: loadedRepo(perm(Mode.read, { code: Mode.read })) }),
    want: forbidden,
  },
  { name: 'repo admin', given: () => ({ doer: alice, repo: loadedRepo(perm(Mode.admin)) }), want: null },
  { name: 'site admin without access', given: () => ({ doer: admin, repo: loadedRepo(perm(Mode.none, { code: Mode.read })) }), want: null },
  {
    name: 'site admin with a public-only token',
    given: () => ({ doer: admin, token: token('public-only,all'), repo: loadedRepo(perm(Mode.read, { code: Mode.read })) }),
    want: forbidden,
  },
  {
    name: 'site admin with a repo-specific token',
    given: () => ({ doer: admin, token: token('read:issue', [4]), repo: loadedRepo(perm(Mode.read, { code: Mode.read })) }),
    want: forbidden,
  },
  {
    name: 'issues disabled, owner',
    given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.owner, ['code', 'pulls'])) }),
    want: missing,
  },
  {
    name: 'issues disabled, code-only member: 404 before 403',
    given: () => ({ doer: alice, repo: loadedRepo(perm(Mode.read, { code: Mode.read }, ['code'])) }),
    want: missing,
  },
  { name: 'issues disabled, site admin', given: () => ({ doer: admin, repo: loadedRepo(permAll(Mode.owner, ['code'])) }), want: missing },
]);

table(RR('actions'), [
  { name: 'actions reader', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.read)) }), want: null },
  { name: 'actions disabled', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.read, ['code', 'issues'])) }), want: missing },
]);

test('RR: names and needs', () => {
  assert.is(RR('code').name, 'RR(code)');
  assert.equal([...RR('code').needs], ['repo']);
});

test('RR: unknown unit names are refused at construction', () => {
  assert.throws(() => loose(RR)('nope'), /RR: unknown unit "nope"/);
  assert.throws(() => loose(RR)(''), /RR: unknown unit ""/);
});

test('RR: names inherited from Object.prototype are not units either [STYLE: constructors check their arguments]', () => {
  assert.throws(() => loose(RR)('constructor'), /unknown unit/);
});

test.run();
