// PKGREAD / PKGWRITE (spec, guard table): the caller's access to the package owner is at least read /
// write, or site admin; else 403 `user should have specific permission or be a site admin`
// (forgejo-facts 1.2). Access as Forgejo's package context determines it: the owner themself writes;
// others read a public owner, a limited owner when signed in; in an organization its members read,
// owners (and members of a team with write access, per GetOrgUserMaxAuthorizeLevel) write.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PKGREAD, PKGWRITE } from '../../guards/pkg.ts';
import { Mode } from '../../lib/auth/perm.ts';
import type { IUser, Visibility } from '../../model/user.ts';
import { fakeUser, table, token, type Given } from './state.ts';
import { mkOrg, mkTeam, mkUser, openGuardDb, type GuardDb } from './db.ts';

const denied = { status: 403, message: 'user should have specific permission or be a site admin' };
const alice = fakeUser();
const bob = fakeUser();
const admin = fakeUser({ isAdmin: true });
const limited = fakeUser({ visibility: 'limited' });
const hidden = fakeUser({ visibility: 'private' });

let db: GuardDb;
let owner: IUser; // owns every organization below
let reader: IUser; // member of a read team in each
let writer: IUser; // member of a write team in each
let outsider: IUser;
const orgs = new Map<Visibility, IUser>();

test.before(async () => {
  db = await openGuardDb();
  owner = await mkUser(db);
  reader = await mkUser(db);
  writer = await mkUser(db);
  outsider = await mkUser(db);
  for (const v of ['public', 'limited', 'private'] as const) {
    const org = await mkOrg(db, owner, v);
    orgs.set(v, org);
    await mkTeam(db, org, { mode: Mode.read, members: [reader] });
    await mkTeam(db, org, { mode: Mode.write, members: [writer] });
  }
});
test.after(async () => {
  await db.close();
});

/** Package owned by an organization of this visibility, asked by `doer` (read when the row runs). */
const inOrg = (v: Visibility, doer: () => IUser | null) => (): Given => ({ em: db.em(), doer: doer(), contextUser: orgs.get(v) });

table(PKGREAD, [
  { name: 'own packages', given: () => ({ doer: alice, contextUser: alice }), want: null },
  { name: 'own packages, private account', given: () => ({ doer: hidden, contextUser: hidden }), want: null },
  { name: 'public owner, anonymous', given: () => ({ contextUser: alice }), want: null },
  { name: 'public owner, another user', given: () => ({ doer: bob, contextUser: alice }), want: null },
  { name: 'limited owner, anonymous', given: () => ({ contextUser: limited }), want: denied },
  { name: 'limited owner, signed in', given: () => ({ doer: bob, contextUser: limited }), want: null },
  { name: 'private owner, another user', given: () => ({ doer: bob, contextUser: hidden }), want: denied },
  { name: 'private owner, anonymous', given: () => ({ contextUser: hidden }), want: denied },
  { name: 'private owner, site admin', given: () => ({ doer: admin, contextUser: hidden }), want: null },
  {
    name: 'private owner, site admin with a public-only token',
    given: () => ({ doer: admin, token: token('public-only,all'), contextUser: hidden }),
    want: denied,
  },
  { name: 'public organization, anonymous', given: inOrg('public', () => null), want: null },
  { name: 'limited organization, anonymous', given: inOrg('limited', () => null), want: denied },
  { name: 'limited organization, signed-in outsider', given: inOrg('limited', () => outsider), want: null },
  { name: 'private organization, outsider', given: inOrg('private', () => outsider), want: denied },
  { name: 'private organization, read-team member', given: inOrg('private', () => reader), want: null },
  { name: 'private organization, owner', given: inOrg('private', () => owner), want: null },
]);

table(PKGWRITE, [
  { name: 'own packages', given: () => ({ doer: alice, contextUser: alice }), want: null },
  { name: 'public owner, another user', given: () => ({ doer: bob, contextUser: alice }), want: denied },
  { name: 'public owner, anonymous', given: () => ({ contextUser: alice }), want: denied },
  { name: 'site admin', given: () => ({ doer: admin, contextUser: hidden }), want: null },
  {
    name: 'site admin with a repo-specific token',
    given: () => ({ doer: admin, token: token('write:repository', [1]), contextUser: alice }),
    want: denied,
  },
  { name: 'organization owner', given: inOrg('private', () => owner), want: null },
  { name: 'read-team member', given: inOrg('public', () => reader), want: denied },
  { name: 'outsider of a public organization', given: inOrg('public', () => outsider), want: denied },
  { name: 'write-team member', given: inOrg('public', () => writer), want: null },
]);

test('PKGREAD / PKGWRITE: need the package owner', () => {
  assert.equal([...PKGREAD.needs], ['user']);
  assert.equal([...PKGWRITE.needs], ['user']);
});

test.run();
