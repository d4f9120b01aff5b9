// KEY (Forgejo's GetPublicKey): the user SSH key `{id}`, any owner's; unknown or a deploy key's id 404.
// KEY_OWNER(doer|user) (Forgejo's DeletePublicKey(actor, id)): the key is the actor's or the actor is a
// site admin, else 403. The actor is the caller, or on the admin route the named user.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { KEY } from '../../guards/key.ts';
import { KEY_OWNER } from '../../guards/key-owner.ts';
import { KeyType, PublicKey, type IPublicKey } from '../../model/keys.ts';
import { NOT_FOUND } from '../../lib/http/errors.ts';
import { fakeUser, loose, table, token, type Given } from './state.ts';
import { openGuardDb, type GuardDb } from './db.ts';

let db: GuardDb;
let userKey: IPublicKey;
let deployKey: IPublicKey;
test.before(async () => {
  db = await openGuardDb();
  const em = db.em();
  userKey = em.create(PublicKey, {
    ownerId: 1,
    name: 'k',
    fingerprint: 'SHA256:user',
    content: 'ssh-ed25519 AAAA',
    mode: 2,
    type: KeyType.user,
  });
  deployKey = em.create(PublicKey, {
    ownerId: 1,
    name: 'd',
    fingerprint: 'SHA256:deploy',
    content: 'ssh-ed25519 BBBB',
    mode: 1,
    type: KeyType.deploy,
  });
  await em.flush();
});
test.after(async () => {
  await db.close();
});

const loading = (id: () => string) => (): Given => ({ em: db.em(), doer: fakeUser(), params: { id: id() } });
const notFound = { status: 404, message: NOT_FOUND, errors: [] };
table(KEY, [
  {
    name: 'a user key of someone else',
    given: loading(() => String(userKey.id)),
    want: null,
    then: (s) => assert.is(s.key?.id, userKey.id),
  },
  { name: 'a deploy key', given: loading(() => String(deployKey.id)), want: notFound },
  { name: 'unknown', given: loading(() => '999999'), want: notFound },
  { name: 'not a number', given: loading(() => 'abc'), want: notFound },
]);

const owner = fakeUser();
const stranger = fakeUser();
const admin = fakeUser({ isAdmin: true });
const key = () => ({ id: 1, ownerId: owner.id }) as IPublicKey;
const denied = { status: 403, message: 'You do not have access to this key' };

table(KEY_OWNER('doer'), [
  { name: 'its owner', given: () => ({ doer: owner, key: key() }), want: null },
  { name: 'another user', given: () => ({ doer: stranger, key: key() }), want: denied },
  { name: 'a site admin', given: () => ({ doer: admin, key: key() }), want: null },
  {
    name: 'a site admin through a public-only token',
    given: () => ({ doer: admin, key: key(), token: token('public-only,all') }),
    want: denied,
  },
]);

table(KEY_OWNER('user'), [
  { name: 'the named user owns it', given: () => ({ doer: admin, contextUser: owner, key: key() }), want: null },
  { name: 'the named user does not', given: () => ({ doer: admin, contextUser: stranger, key: key() }), want: denied },
  {
    name: 'the named user is a site admin',
    given: () => ({ doer: admin, contextUser: fakeUser({ isAdmin: true }), key: key() }),
    want: null,
  },
]);

test('KEY_OWNER: refuses unknown actors at construction', () => {
  assert.throws(() => loose(KEY_OWNER)('owner'), /KEY_OWNER: unknown actor "owner"/);
});

test.run();
