// NO_REPO_TOKEN (spec, token kinds): repo-specific tokens cannot convert a mirror, generate from a
// template, transfer, create, delete a repository or edit its settings: 403. Every other caller,
// including public-only tokens and site admins by password, passes this step.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { NO_REPO_TOKEN } from '../../guards/token-limits.ts';
import { fakeUser, table, token } from './state.ts';

const alice = fakeUser();
const admin = fakeUser({ isAdmin: true });
const refused = { status: 403, message: 'token is restricted to specific repositories and cannot be used for this action' };

table(NO_REPO_TOKEN, [
  { name: 'repo-specific token', given: () => ({ doer: alice, token: token('write:repository', [1, 2]) }), want: refused },
  { name: 'repo-specific token for no repository', given: () => ({ doer: alice, token: token('write:repository', []) }), want: refused },
  { name: 'repo-specific token of a site admin', given: () => ({ doer: admin, token: token('write:repository', [1]) }), want: refused },
  { name: 'all-access token', given: () => ({ doer: alice, token: token('all') }), want: null },
  { name: 'public-only token', given: () => ({ doer: alice, token: token('public-only,write:repository') }), want: null },
  { name: 'password', given: () => ({ doer: alice }), want: null },
  { name: 'anonymous', given: () => ({}), want: null },
]);

test('NO_REPO_TOKEN: a limit that needs nothing', () => {
  assert.is(NO_REPO_TOKEN.kind, 'limit');
  assert.equal([...NO_REPO_TOKEN.needs], []);
});

test.run();
