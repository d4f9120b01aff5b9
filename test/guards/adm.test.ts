// ADM(units) (spec, guard table): caller is repository admin (owner or collaborator with admin) or site
// admin, else 403 `user should be an owner or a collaborator with admin write of a repository`. Unit
// rule as OWN: with units, at least one enabled, else 404, checked first.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ADM } from '../../guards/adm.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { fakeUser, loadedRepo, loose, perm, permAll, table, token } from './state.ts';

const alice = fakeUser();
const admin = fakeUser({ isAdmin: true });
const forbidden = { status: 403, message: 'user should be an owner or a collaborator with admin write of a repository' };
const missing = { status: 404, message: "The target couldn't be found.", errors: [] };

table(ADM(), [
  { name: 'owner', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.owner), { owner: alice }) }), want: null },
  { name: 'admin collaborator', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.admin)) }), want: null },
  { name: 'writer', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.write)) }), want: forbidden },
  {
    name: 'writer of every unit is still not admin',
    given: () => ({ doer: alice, repo: loadedRepo(perm(Mode.write, { code: Mode.write, issues: Mode.write })) }),
    want: forbidden,
  },
  { name: 'reader', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.read)) }), want: forbidden },
  { name: 'anonymous', given: () => ({ repo: loadedRepo(permAll(Mode.read)) }), want: forbidden },
  { name: 'site admin who only reads', given: () => ({ doer: admin, repo: loadedRepo(permAll(Mode.read)) }), want: null },
  {
    name: 'site admin with a public-only token',
    given: () => ({ doer: admin, token: token('public-only,all'), repo: loadedRepo(permAll(Mode.read)) }),
    want: forbidden,
  },
  {
    name: 'site admin with a repo-specific token',
    given: () => ({ doer: admin, token: token('write:repository', [7]), repo: loadedRepo(permAll(Mode.read)) }),
    want: forbidden,
  },
]);

table(ADM('wiki'), [
  { name: 'admin, wiki enabled', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.admin)) }), want: null },
  { name: 'admin, wiki disabled', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.admin, ['code'])) }), want: missing },
  {
    name: 'reader, wiki disabled: 404 before 403',
    given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.read, ['code'])) }),
    want: missing,
  },
  { name: 'site admin, wiki disabled', given: () => ({ doer: admin, repo: loadedRepo(permAll(Mode.owner, ['code'])) }), want: missing },
  { name: 'reader, wiki enabled', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.read)) }), want: forbidden },
]);

test('ADM: names and needs', () => {
  assert.is(ADM().name, 'ADM');
  assert.is(ADM('code', 'wiki').name, 'ADM(code, wiki)');
  assert.equal([...ADM('code').needs], ['repo']);
});

test('ADM: unknown unit names are refused at construction', () => {
  assert.throws(() => loose(ADM)('nope'), /ADM: unknown unit "nope"/);
  assert.throws(() => loose(ADM)('wiki', ''), /unknown unit ""/);
});

test.run();
