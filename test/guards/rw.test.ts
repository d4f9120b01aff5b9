// RW(units) (spec, guard table): at least one listed unit enabled, else 404; then caller can write to
// one of them, or is repo admin or site admin, else 403 `user should have a permission to write to a repo`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RW } from '../../guards/rw.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { fakeUser, loadedRepo, loose, perm, permAll, table, token } from './state.ts';

const alice = fakeUser();
const admin = fakeUser({ isAdmin: true });
const forbidden = { status: 403, message: 'user should have a permission to write to a repo' };
const missing = { status: 404, message: "The target couldn't be found.", errors: [] };

table(RW('code'), [
  { name: 'code writer', given: () => ({ doer: alice, repo: loadedRepo(perm(Mode.write, { code: Mode.write })) }), want: null },
  { name: 'code reader', given: () => ({ doer: alice, repo: loadedRepo(perm(Mode.read, { code: Mode.read })) }), want: forbidden },
  {
    name: 'writer of issues only',
    given: () => ({ doer: alice, repo: loadedRepo(perm(Mode.read, { code: Mode.read, issues: Mode.write })) }),
    want: forbidden,
  },
  { name: 'anonymous reader', given: () => ({ repo: loadedRepo(permAll(Mode.read)) }), want: forbidden },
  { name: 'repo admin', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.admin)) }), want: null },
  { name: 'owner', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.owner), { owner: alice }) }), want: null },
  { name: 'site admin who only reads', given: () => ({ doer: admin, repo: loadedRepo(permAll(Mode.read)) }), want: null },
  {
    name: 'site admin with a public-only token',
    given: () => ({ doer: admin, token: token('public-only,all'), repo: loadedRepo(permAll(Mode.read)) }),
    want: forbidden,
  },
  {
    name: 'site admin with a repo-specific token',
    given: () => ({ doer: admin, token: token('write:repository', [2]), repo: loadedRepo(permAll(Mode.read)) }),
    want: forbidden,
  },
  { name: 'code disabled, owner: 404', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.owner, ['issues'])) }), want: missing },
  {
    name: 'code disabled, reader: 404 before 403',
    given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.read, ['issues'])) }),
    want: missing,
  },
  { name: 'code disabled, site admin: 404', given: () => ({ doer: admin, repo: loadedRepo(permAll(Mode.owner, [])) }), want: missing },
]);

table(RW('issues', 'pulls'), [
  {
    name: 'writes the first unit',
    given: () => ({ doer: alice, repo: loadedRepo(perm(Mode.write, { issues: Mode.write, pulls: Mode.read })) }),
    want: null,
  },
  {
    name: 'writes the second unit',
    given: () => ({ doer: alice, repo: loadedRepo(perm(Mode.write, { issues: Mode.read, pulls: Mode.write })) }),
    want: null,
  },
  {
    name: 'reads both',
    given: () => ({ doer: alice, repo: loadedRepo(perm(Mode.read, { issues: Mode.read, pulls: Mode.read })) }),
    want: forbidden,
  },
  {
    name: 'issues disabled, writes pulls',
    given: () => ({ doer: alice, repo: loadedRepo(perm(Mode.write, { pulls: Mode.write }, ['code', 'pulls'])) }),
    want: null,
  },
  {
    name: 'issues disabled, reads pulls',
    given: () => ({ doer: alice, repo: loadedRepo(perm(Mode.read, { pulls: Mode.read }, ['code', 'pulls'])) }),
    want: forbidden,
  },
  {
    name: 'both disabled, writes code',
    given: () => ({ doer: alice, repo: loadedRepo(perm(Mode.write, { code: Mode.write }, ['code'])) }),
    want: missing,
  },
  {
    name: 'both disabled, repo admin',
    given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.admin, ['code', 'wiki'])) }),
    want: missing,
  },
]);

test('RW: names and needs', () => {
  assert.is(RW('code').name, 'RW(code)');
  assert.is(RW('issues', 'pulls').name, 'RW(issues, pulls)');
  assert.equal([...RW('code').needs], ['repo']);
});

test('RW: refuses no unit and unknown units at construction', () => {
  assert.throws(() => RW(), /RW needs at least one unit/);
  assert.throws(() => loose(RW)('nope'), /RW: unknown unit "nope"/);
  assert.throws(() => loose(RW)('code', 'Issues'), /unknown unit "Issues"/);
});

test.run();
