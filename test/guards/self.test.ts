// SELF (spec, guard table): caller is the context user or a site admin; else 403
// `doer should be the site admin or be same as the contextUser` (forgejo-facts 1.2).
import { test } from 'uvu';
import { SELF } from '../../guards/self.ts';
import { fakeUser, table, token } from './state.ts';

const alice = fakeUser();
const bob = fakeUser();
const admin = fakeUser({ isAdmin: true });
const denied = { status: 403, message: 'doer should be the site admin or be same as the contextUser' };

table(SELF, [
  { name: 'the context user', given: () => ({ doer: alice, contextUser: alice }), want: null },
  { name: 'the context user by token', given: () => ({ doer: alice, token: token('read:user'), contextUser: alice }), want: null },
  {
    name: 'the context user with a public-only token',
    given: () => ({ doer: alice, token: token('public-only,read:user'), contextUser: alice }),
    want: null,
  },
  { name: 'another user', given: () => ({ doer: bob, contextUser: alice }), want: denied },
  {
    name: 'another user with the same name in other case',
    given: () => ({ doer: fakeUser({ name: alice.name.toUpperCase() }), contextUser: alice }),
    want: denied,
  },
  { name: 'site admin', given: () => ({ doer: admin, contextUser: alice }), want: null },
  {
    name: 'site admin with a public-only token',
    given: () => ({ doer: admin, token: token('public-only,all'), contextUser: alice }),
    want: denied,
  },
  {
    name: 'site admin with a repo-specific token',
    given: () => ({ doer: admin, token: token('read:repository', [1]), contextUser: alice }),
    want: denied,
  },
  { name: 'anonymous', given: () => ({ contextUser: alice }), want: denied },
]);

test.run();
