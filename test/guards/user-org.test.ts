// USER_ORG (Forgejo's GetUserOrgsPermissions): `{org}` resolved for the user `{username}` asked about;
// unknown 404 GetUserByName naming it; a private organization that user is not in 404
// HasOrgOrUserVisible, whoever calls (visibility is judged for the user asked about).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { USER_ORG } from '../../guards/user-org.ts';
import { table, type Given } from './state.ts';
import { mkUser, openGuardDb, orgRoles, type GuardDb, type OrgRoles } from './db.ts';
import type { IUser } from '../../model/user.ts';

let db: GuardDb;
let priv: OrgRoles;
let pub: OrgRoles;
let admin: IUser;
test.before(async () => {
  db = await openGuardDb();
  priv = await orgRoles(db, 'private');
  pub = await orgRoles(db);
  admin = await mkUser(db, { admin: true });
});
test.after(async () => {
  await db.close();
});

const about =
  (user: () => IUser, org: () => string, caller: () => IUser | null = () => null) =>
  (): Given => ({
    em: db.em(),
    doer: caller(),
    contextUser: user(),
    params: { org: org() },
  });
const hidden = { status: 404, message: 'HasOrgOrUserVisible', errors: [] };
table(USER_ORG, [
  {
    name: 'a public organization, any user',
    given: about(
      () => pub.outsider,
      () => pub.org.name,
    ),
    want: null,
    then: (s) => assert.is(s.org?.id, pub.org.id),
  },
  {
    name: 'a private organization, one of its members',
    given: about(
      () => priv.teamMember,
      () => priv.org.name.toUpperCase(),
    ),
    want: null,
  },
  {
    name: 'a private organization, an outsider',
    given: about(
      () => priv.outsider,
      () => priv.org.name,
    ),
    want: hidden,
  },
  {
    name: 'a private organization, an outsider, asked by a site admin',
    given: about(
      () => priv.outsider,
      () => priv.org.name,
      () => admin,
    ),
    want: hidden,
  },
  {
    name: 'a private organization, a site admin asked about',
    given: about(
      () => admin,
      () => priv.org.name,
    ),
    want: null,
  },
  {
    name: 'unknown',
    given: about(
      () => pub.outsider,
      () => 'no-such-org',
    ),
    want: { status: 404, message: 'GetUserByName', errors: ['user does not exist [uid: 0, name: no-such-org]'] },
  },
]);

test.run();
