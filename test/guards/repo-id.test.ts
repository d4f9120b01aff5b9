// REPO_ID (`GET /repositories/{id}`): the repository with that id when the caller — token kind
// included — has any access to it; 404 otherwise, never 403.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REPO_ID } from '../../guards/repo-id.ts';
import type { IUser } from '../../model/user.ts';
import type { IRepository } from '../../model/repo.ts';
import { table, token, type Given } from './state.ts';
import { mkRepo, mkUser, openGuardDb, type GuardDb } from './db.ts';

let db: GuardDb;
let alice: IUser;
let bob: IUser;
let pub: IRepository;
let priv: IRepository;
const missing = { status: 404, message: "The target couldn't be found.", errors: [] };

test.before(async () => {
  db = await openGuardDb();
  alice = await mkUser(db);
  bob = await mkUser(db);
  pub = await mkRepo(db, alice, alice);
  priv = await mkRepo(db, alice, alice, { private: true });
});
test.after(async () => {
  await db.close();
});

const by =
  (id: () => string, who: () => IUser | null, extra: () => Partial<Given> = () => ({})) =>
  (): Given => ({ em: db.em(), doer: who(), params: { id: id() }, ...extra() });

table(REPO_ID, [
  {
    name: 'own private repository',
    given: by(
      () => String(priv.id),
      () => alice,
    ),
    want: null,
    then: (s) => assert.is(s.repo?.repo.id, priv.id),
  },
  {
    name: "someone else's private repository",
    given: by(
      () => String(priv.id),
      () => bob,
    ),
    want: missing,
  },
  {
    name: 'a public repository',
    given: by(
      () => String(pub.id),
      () => bob,
    ),
    want: null,
  },
  {
    name: 'own private repository, public-only token',
    given: by(
      () => String(priv.id),
      () => alice,
      () => ({ token: token('public-only,read:repository') }),
    ),
    want: missing,
  },
  {
    name: 'own private repository, token for other repositories',
    given: by(
      () => String(priv.id),
      () => alice,
      () => ({ token: token('read:repository', [pub.id]) }),
    ),
    want: missing,
  },
  {
    name: 'no such id',
    given: by(
      () => '99999999',
      () => alice,
    ),
    want: missing,
  },
  {
    name: 'not a number',
    given: by(
      () => 'abc',
      () => alice,
    ),
    want: missing,
  },
]);

test.run();
