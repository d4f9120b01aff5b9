// BASIC (spec, guard table): caller authenticated by password, or by a reverse-proxy identity the
// instance accepts for the API; else 401 `auth method not allowed` (forgejo-facts 1.2).
import { test } from 'uvu';
import { BASIC } from '../../guards/basic.ts';
import { fakeUser, table, token } from './state.ts';

const alice = fakeUser();
const admin = fakeUser({ isAdmin: true });
const denied = { status: 401, message: 'auth method not allowed' };

table(BASIC, [
  { name: 'basic password', given: () => ({ doer: alice, method: 'basic' }), want: null },
  { name: 'reverse-proxy identity', given: () => ({ doer: alice, method: 'reverse-proxy' }), want: null },
  { name: 'API token', given: () => ({ doer: alice, token: token() }), want: denied },
  { name: 'API token of a site admin', given: () => ({ doer: admin, token: token() }), want: denied },
  { name: 'actions task token', given: () => ({ doer: alice, method: 'actions' }), want: denied },
  { name: 'anonymous', given: () => ({}), want: denied },
]);

test.run();
