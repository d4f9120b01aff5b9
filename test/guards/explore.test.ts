// EXPLORE (spec, guard table): when sign-in is required to view ([service] REQUIRE_SIGNIN_VIEW) or
// explore requires sign-in ([service.explore] REQUIRE_SIGNIN_VIEW), an anonymous caller gets 401
// `you must be signed in to search for users` (forgejo-facts 1.2). Separately the users-search page
// may be disabled ([service.explore] DISABLE_USERS_PAGE): EXPLORE('users') answers 404, after the
// sign-in check.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EXPLORE } from '../../guards/explore.ts';
import { fakeUser, loose, table, token } from './state.ts';

const alice = fakeUser();
const admin = fakeUser({ isAdmin: true });
const signin = { status: 401, message: 'you must be signed in to search for users' };
const missing = { status: 404, message: "The target couldn't be found.", errors: [] };
const siteSignin = { SERVICE__REQUIRE_SIGNIN_VIEW: 'true' };
const exploreSignin = { SERVICE_EXPLORE__REQUIRE_SIGNIN_VIEW: 'true' };
const noUsersPage = { SERVICE_EXPLORE__DISABLE_USERS_PAGE: 'true' };

table(EXPLORE(), [
  { name: 'defaults, anonymous', given: () => ({}), want: null },
  { name: 'site sign-in required, anonymous', given: () => ({ config: siteSignin }), want: signin },
  { name: 'explore sign-in required, anonymous', given: () => ({ config: exploreSignin }), want: signin },
  { name: 'both required, anonymous', given: () => ({ config: { ...siteSignin, ...exploreSignin } }), want: signin },
  { name: 'site sign-in required, signed in', given: () => ({ config: siteSignin, doer: alice }), want: null },
  {
    name: 'explore sign-in required, signed in by token',
    given: () => ({ config: exploreSignin, doer: alice, token: token('read:user') }),
    want: null,
  },
  { name: 'users page disabled does not concern other explore routes', given: () => ({ config: noUsersPage }), want: null },
]);

table(EXPLORE('users'), [
  { name: 'defaults, anonymous', given: () => ({}), want: null },
  { name: 'users page disabled, signed in', given: () => ({ config: noUsersPage, doer: alice }), want: missing },
  { name: 'users page disabled, site admin', given: () => ({ config: noUsersPage, doer: admin }), want: missing },
  { name: 'users page disabled, anonymous', given: () => ({ config: noUsersPage }), want: missing },
  { name: 'explore sign-in required, anonymous', given: () => ({ config: exploreSignin }), want: signin },
  {
    name: 'sign-in required and page disabled, anonymous: 401 first',
    given: () => ({ config: { ...exploreSignin, ...noUsersPage } }),
    want: signin,
  },
  {
    name: 'sign-in required and page disabled, signed in: 404',
    given: () => ({ config: { ...siteSignin, ...noUsersPage }, doer: alice }),
    want: missing,
  },
]);

test('EXPLORE: names as the matrix prints them', () => {
  assert.is(EXPLORE().name, 'EXPLORE');
  assert.is(EXPLORE('users').name, 'EXPLORE(users)');
});

test('EXPLORE: unknown pages are refused at construction', () => {
  assert.throws(() => loose(EXPLORE)('x'), /EXPLORE: unknown page "x"/);
  assert.throws(() => loose(EXPLORE)('repos'), /unknown page/);
});

test.run();
