// TIMES_QUERY_USER (Forgejo's cantSetUser on the tracked-time lists): `?user=` names anyone for site
// admins and issue writers, only the caller otherwise (403); an unknown name 404 first; no `user` passes.
// Public-only and repo-specific tokens lose the site-admin part.
import { test } from 'uvu';
import { TIMES_QUERY_USER } from '../../guards/times-query-user.ts';
import { Mode } from '../../lib/auth/perm.ts';
import type { IUser } from '../../model/user.ts';
import { loadedRepo, perm, permAll, table, token, type Given } from './state.ts';
import { mkUser, openGuardDb, type GuardDb } from './db.ts';

let db: GuardDb;
let me: IUser;
let other: IUser;
let admin: IUser;
test.before(async () => {
  db = await openGuardDb();
  [me, other, admin] = [await mkUser(db), await mkUser(db), await mkUser(db, { admin: true })];
});
test.after(async () => {
  await db.close();
});

const asking =
  (who: () => IUser, query: () => string, p = () => permAll(Mode.read), tok?: Given['token']) =>
  (): Given => ({
    em: db.em(),
    doer: who(),
    repo: loadedRepo(p()),
    query: query(),
    token: tok,
  });
const denied = { status: 403, message: 'query by user not allowed; not enough rights' };
table(TIMES_QUERY_USER, [
  {
    name: 'no user asked',
    given: asking(
      () => me,
      () => '',
    ),
    want: null,
  },
  {
    name: 'a blank user',
    given: asking(
      () => me,
      () => 'user=%20',
    ),
    want: null,
  },
  {
    name: 'oneself, in another case',
    given: asking(
      () => me,
      () => `user=${me.name.toUpperCase()}`,
    ),
    want: null,
  },
  {
    name: 'someone else, as a reader',
    given: asking(
      () => me,
      () => `user=${other.name}`,
    ),
    want: denied,
  },
  {
    name: 'someone else, as an issues writer',
    given: asking(
      () => me,
      () => `user=${other.name}`,
      () => perm(Mode.read, { issues: Mode.write }),
    ),
    want: null,
  },
  {
    name: 'someone else, as a pulls writer only',
    given: asking(
      () => me,
      () => `user=${other.name}`,
      () => perm(Mode.read, { issues: Mode.read, pulls: Mode.write }),
    ),
    want: denied,
  },
  {
    name: 'someone else, as a site admin',
    given: asking(
      () => admin,
      () => `user=${other.name}`,
    ),
    want: null,
  },
  {
    name: 'someone else, as a site admin through a public-only token',
    given: asking(
      () => admin,
      () => `user=${other.name}`,
      undefined,
      token('public-only,all'),
    ),
    want: denied,
  },
  {
    name: 'an unknown user, as a reader (404 before 403)',
    given: asking(
      () => me,
      () => 'user=nobody-at-all',
    ),
    want: { status: 404, message: 'User does not exist', errors: ['user does not exist [uid: 0, name: nobody-at-all]'] },
  },
]);

test.run();
