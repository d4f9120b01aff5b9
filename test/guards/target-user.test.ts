// TARGET_USER (Forgejo's GetUserByParamsName for `{target}`): found case-insensitively; a renamed user
// redirects (307, the old name replaced in the path) when the caller may see the new one; unknown, or
// renamed to a user the caller may not see, 404 GetUserByName "user does not exist [uid: 0, name: x]".
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TARGET_USER } from '../../guards/target-user.ts';
import { UserRedirect, type IUser } from '../../model/user.ts';
import { table, type Given } from './state.ts';
import { mkUser, openGuardDb, type GuardDb } from './db.ts';
import { uniq } from '../helpers/fixtures.ts';

let db: GuardDb;
let follower: IUser;
let pub: IUser;
let priv: IUser;
let admin: IUser;
const oldPub = uniq('oldpub');
const oldPriv = uniq('oldpriv');
const [followerName, pubName, privName] = [uniq('follower'), uniq('pub'), uniq('priv')];
test.before(async () => {
  db = await openGuardDb();
  follower = await mkUser(db, { name: followerName });
  pub = await mkUser(db, { name: pubName });
  priv = await mkUser(db, { visibility: 'private', name: privName });
  admin = await mkUser(db, { admin: true });
  const em = db.em();
  em.create(UserRedirect, { lowerName: oldPub, redirectUserId: pub.id });
  em.create(UserRedirect, { lowerName: oldPriv, redirectUserId: priv.id });
  await em.flush();
});
test.after(async () => {
  await db.close();
});

const asking =
  (target: () => string, doer: () => IUser | null = () => null) =>
  (): Given => ({
    em: db.em(),
    doer: doer(),
    params: { username: follower.name, target: target() },
    path: `/users/${follower.name}/following/${target()}`,
  });
const missing = (name: string) => ({ status: 404, message: 'GetUserByName', errors: [`user does not exist [uid: 0, name: ${name}]`] });

table(TARGET_USER, [
  {
    name: 'a user, in another case',
    given: asking(() => pub.name.toUpperCase()),
    want: null,
    then: (s) => assert.is(s.targetUser?.id, pub.id),
  },
  {
    name: 'a private user, found by name (the answer is the handler’s)',
    given: asking(() => priv.name),
    want: null,
    then: (s) => assert.is(s.targetUser?.id, priv.id),
  },
  { name: 'unknown', given: asking(() => 'nobody-here'), want: missing('nobody-here') },
  {
    name: 'renamed, visible',
    given: asking(() => oldPub),
    want: { status: 307, location: `/api/v1/users/${followerName}/following/${pubName}` },
  },
  { name: 'renamed to a private user, anonymously', given: asking(() => oldPriv), want: missing(oldPriv) },
  {
    name: 'renamed to a private user, to a stranger',
    given: asking(
      () => oldPriv,
      () => follower,
    ),
    want: missing(oldPriv),
  },
  {
    name: 'renamed to a private user, to that user',
    given: asking(
      () => oldPriv,
      () => priv,
    ),
    want: 307,
  },
  {
    name: 'renamed to a private user, to a site admin',
    given: asking(
      () => oldPriv,
      () => admin,
    ),
    want: { status: 307, location: `/api/v1/users/${followerName}/following/${privName}` },
  },
]);

test.run();
