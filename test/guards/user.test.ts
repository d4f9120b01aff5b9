// USER, the `{username}` loader (forgejo-facts 1.2 "404 through UserAssignment", 5): the name is looked
// up case-insensitively, the signed-in user's own name is theirs; a renamed user answers 307 to the new
// name when the caller may see that user; otherwise 404 `user redirect does not exist [name: x]` with
// no `errors` key.
// USER_VISIBLE, the user-visibility gate (spec, unit gates): 404 when the context user is private and
// the caller is neither that user nor a site admin, or limited and the caller is anonymous. The spec
// fixes no message for it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { USER, USER_VISIBLE } from '../../guards/user.ts';
import { UserRedirect, type IUser } from '../../model/user.ts';
import type { RequestState } from '../../guards/types.ts';
import { fakeOrg, fakeUser, table, token, type Given } from './state.ts';
import { mkOrg, mkUser, openGuardDb, type GuardDb } from './db.ts';

const noUser = (name: string) => ({ status: 404, message: `user redirect does not exist [name: ${name}]`, errors: undefined });

let db: GuardDb;
let alice: IUser;
let bob: IUser;
let hidden: IUser;
let admin: IUser;
let org: IUser;

test.before(async () => {
  db = await openGuardDb();
  alice = await mkUser(db, { name: 'Alice' });
  bob = await mkUser(db);
  hidden = await mkUser(db, { visibility: 'private' });
  admin = await mkUser(db, { admin: true });
  org = await mkOrg(db, bob);
  const em = db.em();
  em.create(UserRedirect, { lowerName: 'alice-old', redirectUserId: alice.id });
  em.create(UserRedirect, { lowerName: 'hidden-old', redirectUserId: hidden.id });
  em.create(UserRedirect, { lowerName: 'gone', redirectUserId: 999999 });
  await em.flush();
});
test.after(async () => {
  await db.close();
});

const get =
  (name: string, doer: () => IUser | null, rest = '', query = '') =>
  (): Given => ({ em: db.em(), doer: doer(), params: { username: name }, path: `/users/${name}${rest}`, query });
const is = (who: () => IUser) => (s: RequestState) => {
  assert.ok(s.contextUser, 'no context user');
  assert.is(s.contextUser.id, who().id);
};

table(USER, [
  { name: 'existing user, anonymous', given: get('Alice', () => null), want: null, then: is(() => alice) },
  { name: 'name in other case', given: get('ALICE', () => bob), want: null, then: is(() => alice) },
  { name: 'own name in other case', given: get('alice', () => alice), want: null, then: is(() => alice) },
  { name: 'an organization name', given: () => get(org.name, () => null)(), want: null, then: is(() => org) },
  {
    name: "a private user is loaded; visibility is the gate's concern",
    given: () => get(hidden.name, () => bob)(),
    want: null,
    then: is(() => hidden),
  },
  { name: 'unknown user', given: get('nobody', () => null), want: noUser('nobody') },
  { name: 'unknown user, name lower-cased in the message', given: get('NoBody', () => alice), want: noUser('nobody') },
  {
    name: 'renamed user: 307, rest and query kept',
    given: get('alice-old', () => null, '/repos', 'page=2'),
    want: { status: 307, location: '/api/v1/users/Alice/repos?page=2' },
  },
  {
    name: 'renamed user, old name in other case',
    given: get('ALICE-OLD', () => bob),
    want: { status: 307, location: '/api/v1/users/Alice' },
  },
  { name: 'renamed user now private, anonymous', given: get('hidden-old', () => null), want: noUser('hidden-old') },
  { name: 'renamed user now private, another user', given: get('hidden-old', () => bob), want: noUser('hidden-old') },
  { name: 'renamed user now private, site admin', given: get('hidden-old', () => admin), want: 307 },
  {
    name: 'renamed user now private, site admin with a public-only token',
    given: () => ({ ...get('hidden-old', () => admin)(), token: token('public-only,all') }),
    want: noUser('hidden-old'),
  },
  { name: 'redirect to a deleted user', given: get('gone', () => admin), want: noUser('gone') },
]);

const priv = fakeUser({ visibility: 'private' });
const lim = fakeUser({ visibility: 'limited' });
const someone = fakeUser();
const siteAdmin = fakeUser({ isAdmin: true });

table(USER_VISIBLE, [
  { name: 'public user, anonymous', given: () => ({ contextUser: someone }), want: null },
  { name: 'limited user, anonymous', given: () => ({ contextUser: lim }), want: 404 },
  { name: 'limited user, signed in', given: () => ({ doer: someone, contextUser: lim }), want: null },
  { name: 'private user, anonymous', given: () => ({ contextUser: priv }), want: 404 },
  { name: 'private user, another user', given: () => ({ doer: someone, contextUser: priv }), want: 404 },
  { name: 'private user, themself', given: () => ({ doer: priv, contextUser: priv }), want: null },
  { name: 'private user, site admin', given: () => ({ doer: siteAdmin, contextUser: priv }), want: null },
  {
    name: 'private user, site admin with a public-only token',
    given: () => ({ doer: siteAdmin, token: token('public-only,all'), contextUser: priv }),
    want: 404,
  },
  { name: 'private organization, anonymous', given: () => ({ contextUser: fakeOrg({ name: 'hush', visibility: 'private' }) }), want: 404 },
]);

test('USER / USER_VISIBLE: the loader provides the user the gate needs', () => {
  assert.equal([...USER.provides], ['user']);
  assert.equal([...USER_VISIBLE.needs], ['user']);
});

test.run();
