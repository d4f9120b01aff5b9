// SA (spec, guard table): caller is a site admin; else 403 `user should be the site admin`. Site-admin
// rights are not inherited by public-only and repo-specific tokens (spec, token kinds), which is
// `isSiteAdmin` in guards/types.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SA } from '../../guards/sa.ts';
import { isSiteAdmin } from '../../guards/types.ts';
import { brokenToken, fakeUser, state, table, token, type Given } from './state.ts';

const admin = fakeUser({ isAdmin: true });
const alice = fakeUser();
const denied = { status: 403, message: 'user should be the site admin' };

table(SA, [
  { name: 'site admin by password', given: () => ({ doer: admin }), want: null },
  { name: 'site admin with an all-access token', given: () => ({ doer: admin, token: token('all') }), want: null },
  { name: 'site admin with a read:admin token', given: () => ({ doer: admin, token: token('read:admin') }), want: null },
  { name: 'site admin with a public-only token', given: () => ({ doer: admin, token: token('public-only,all') }), want: denied },
  { name: 'site admin with a repo-specific token', given: () => ({ doer: admin, token: token('write:repository', [1]) }), want: denied },
  {
    name: 'site admin with a repo-specific token for no repository',
    given: () => ({ doer: admin, token: token('read:repository', []) }),
    want: denied,
  },
  { name: 'ordinary user', given: () => ({ doer: alice }), want: denied },
  { name: 'ordinary user with an all-access token', given: () => ({ doer: alice, token: token('all') }), want: denied },
  { name: 'anonymous', given: () => ({}), want: denied },
]);

test('isSiteAdmin: the admin flag, minus the token kinds that drop it', () => {
  const rows: [string, Given, boolean][] = [
    ['anonymous', {}, false],
    ['ordinary user', { doer: alice }, false],
    ['admin by password', { doer: admin }, true],
    ['admin with a scoped token', { doer: admin, token: token('read:user') }, true],
    ['admin with an unparsable token', { doer: admin, token: brokenToken('read:nothing') }, true],
    ['admin with a public-only token', { doer: admin, token: token('public-only,read:user') }, false],
    ['admin with a repo-specific token', { doer: admin, token: token('read:repository', [3]) }, false],
  ];
  for (const [name, given, want] of rows) assert.is(isSiteAdmin(state(given)), want, name);
});

test.run();
