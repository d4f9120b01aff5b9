// ARR (spec, guard table): caller has any read access to the repository or is site admin; else 403
// `user should have any permission to read repository or permissions of site admin`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ARR } from '../../guards/arr.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { fakeUser, loadedRepo, perm, permAll, table, token } from './state.ts';

const alice = fakeUser();
const admin = fakeUser({ isAdmin: true });
const forbidden = { status: 403, message: 'user should have any permission to read repository or permissions of site admin' };

table(ARR, [
  { name: 'reader of every unit', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.read)) }), want: null },
  { name: 'reader of one unit only', given: () => ({ doer: alice, repo: loadedRepo(perm(Mode.none, { wiki: Mode.read })) }), want: null },
  { name: 'anonymous reader', given: () => ({ repo: loadedRepo(permAll(Mode.read)) }), want: null },
  { name: 'owner', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.owner)) }), want: null },
  { name: 'no access', given: () => ({ doer: alice, repo: loadedRepo(perm(Mode.none)) }), want: forbidden },
  { name: 'no access, anonymous', given: () => ({ repo: loadedRepo(perm(Mode.none)) }), want: forbidden },
  {
    name: 'a unit mode of none is no access',
    given: () => ({ doer: alice, repo: loadedRepo(perm(Mode.none, { code: Mode.none })) }),
    want: forbidden,
  },
  { name: 'site admin without access', given: () => ({ doer: admin, repo: loadedRepo(perm(Mode.none)) }), want: null },
  {
    name: 'site admin with a public-only token',
    given: () => ({ doer: admin, token: token('public-only,all'), repo: loadedRepo(perm(Mode.none)) }),
    want: forbidden,
  },
  {
    name: 'site admin with a repo-specific token',
    given: () => ({ doer: admin, token: token('read:repository', [1]), repo: loadedRepo(perm(Mode.none)) }),
    want: forbidden,
  },
]);

test('ARR: needs the repository', () => assert.equal([...ARR.needs], ['repo']));

test.run();
