// SUBSCRIBER loads `{user}` of the issue-subscription routes (unknown 404); SUBSCRIBER_SELF: a caller
// may (un)subscribe only themself, site admins anyone except through public-only and repo-specific
// tokens, else 403 naming both users.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SUBSCRIBER, SUBSCRIBER_SELF } from '../../guards/subscriber.ts';
import type { IUser } from '../../model/user.ts';
import { fakeUser, table, token } from './state.ts';
import { mkUser, openGuardDb, type GuardDb } from './db.ts';

let db: GuardDb;
let bob: IUser;
test.before(async () => {
  db = await openGuardDb();
  bob = await mkUser(db);
});
test.after(async () => {
  await db.close();
});

const alice = fakeUser({ name: 'alice' });
const admin = fakeUser({ isAdmin: true });
const target = fakeUser({ name: 'target' });

table(SUBSCRIBER, [
  {
    name: 'unknown user',
    given: () => ({ em: db.em(), doer: alice, params: { user: 'nobody-at-all' } }),
    want: { status: 404, message: "The target couldn't be found.", errors: [] },
  },
  {
    name: 'a user by name, any case',
    given: () => ({ em: db.em(), doer: alice, params: { user: bob.name.toUpperCase() } }),
    want: null,
    then: (s) => assert.is(s.contextUser?.id, bob.id),
  },
]);

table(SUBSCRIBER_SELF, [
  { name: 'themself', given: () => ({ doer: alice, contextUser: alice }), want: null },
  {
    name: 'someone else',
    given: () => ({ doer: alice, contextUser: target }),
    want: { status: 403, message: 'alice is not permitted to change subscriptions for target' },
  },
  { name: 'a site admin for someone else', given: () => ({ doer: admin, contextUser: target }), want: null },
  {
    name: 'a site admin with a public-only token',
    given: () => ({ doer: admin, contextUser: target, token: token('public-only,all') }),
    want: 403,
  },
]);

test.run();
