// ActivityPub path loaders by id. USER_BY_ID: `{user-id}` names an individual user, else 404 (an
// organization id is not a person). REPO_BY_ID: `{repository-id}` names a repository the caller can
// reach; as for repository paths (spec, path resolution rule 6) no access is 404.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REPO_BY_ID, USER_BY_ID } from '../../guards/by-id.ts';
import type { IUser } from '../../model/user.ts';
import type { IRepository } from '../../model/repo.ts';
import { table, token, type Given } from './state.ts';
import { mkOrg, mkRepo, mkUser, openGuardDb, type GuardDb } from './db.ts';

const missing = { status: 404, message: "The target couldn't be found.", errors: [] };

let db: GuardDb;
let alice: IUser;
let bob: IUser;
let admin: IUser;
let org: IUser;
let pub: IRepository;
let priv: IRepository;

test.before(async () => {
  db = await openGuardDb();
  [alice, bob] = [await mkUser(db), await mkUser(db)];
  admin = await mkUser(db, { admin: true });
  org = await mkOrg(db, alice);
  pub = await mkRepo(db, alice, alice);
  priv = await mkRepo(db, alice, alice, { private: true });
});
test.after(async () => {
  await db.close();
});

const user = (id: () => string) => (): Given => ({ em: db.em(), params: { 'user-id': id() } });

table(USER_BY_ID, [
  { name: 'existing user', given: user(() => String(alice.id)), want: null, then: (s) => assert.is(s.contextUser?.id, alice.id) },
  { name: 'an organization id', given: user(() => String(org.id)), want: missing },
  { name: 'unknown id', given: user(() => String(org.id + 1000)), want: missing },
  { name: 'not a number', given: user(() => alice.name), want: missing },
  { name: 'signed number', given: user(() => `+${alice.id}`), want: missing },
  { name: 'zero', given: user(() => '0'), want: missing },
  { name: 'too long', given: user(() => '1234567890123456'), want: missing },
]);

const repo =
  (id: () => string, doer: () => IUser | null, extra: () => Given = () => ({})) =>
  (): Given => ({ em: db.em(), doer: doer(), params: { 'repository-id': id() }, ...extra() });

table(REPO_BY_ID, [
  {
    name: 'public repository, anonymous',
    given: repo(
      () => String(pub.id),
      () => null,
    ),
    want: null,
    then: (s) => {
      assert.is(s.repo?.repo.id, pub.id);
      assert.is(s.repo?.owner.id, alice.id);
    },
  },
  {
    name: 'private repository, anonymous',
    given: repo(
      () => String(priv.id),
      () => null,
    ),
    want: missing,
  },
  {
    name: 'private repository, outsider',
    given: repo(
      () => String(priv.id),
      () => bob,
    ),
    want: missing,
  },
  {
    name: 'private repository, owner',
    given: repo(
      () => String(priv.id),
      () => alice,
    ),
    want: null,
    then: (s) => assert.ok(s.repo?.perm.isOwner()),
  },
  {
    name: 'private repository, site admin',
    given: repo(
      () => String(priv.id),
      () => admin,
    ),
    want: null,
  },
  {
    name: 'private repository, owner with a public-only token',
    given: repo(
      () => String(priv.id),
      () => alice,
      () => ({ token: token('public-only,all') }),
    ),
    want: missing,
  },
  {
    name: 'unknown id',
    given: repo(
      () => String(priv.id + 1000),
      () => alice,
    ),
    want: missing,
  },
  {
    name: 'not a number',
    given: repo(
      () => 'x',
      () => alice,
    ),
    want: missing,
  },
]);

test('by-id loaders: what they provide', () => {
  assert.equal([...USER_BY_ID.provides], ['user']);
  assert.equal([...REPO_BY_ID.provides], ['repo']);
});

test.run();
