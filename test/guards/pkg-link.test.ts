// PKG_LINK_REPO (Forgejo's LinkToRepository): `{repo_name}` is a repository of the package owner, with
// the caller's permission on it; unknown (or another owner's) 404. PKG_LINKER: write access to its
// packages unit, else 403; a disabled packages unit is a 403 too.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PKG_LINK_REPO, PKG_LINKER } from '../../guards/pkg-link.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { NOT_FOUND } from '../../lib/http/errors.ts';
import type { IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import { loadedRepo, perm, table, type Given } from './state.ts';
import { mkRepo, mkUser, openGuardDb, type GuardDb } from './db.ts';

let db: GuardDb;
let owner: IUser;
let other: IUser;
let repo: IRepository;
test.before(async () => {
  db = await openGuardDb();
  [owner, other] = [await mkUser(db), await mkUser(db)];
  repo = await mkRepo(db, owner, owner);
  await mkRepo(db, other, other, { name: 'elsewhere' });
});
test.after(async () => {
  await db.close();
});

const linking = (who: () => IUser, name: () => string) => (): Given => ({
  em: db.em(),
  doer: who(),
  contextUser: owner,
  params: { repo_name: name() },
});
const notFound = { status: 404, message: NOT_FOUND, errors: [] };
table(PKG_LINK_REPO, [
  {
    name: "the owner's repository, by name in another case",
    given: linking(
      () => owner,
      () => repo.name.toUpperCase(),
    ),
    want: null,
    then: (s) => {
      assert.is(s.repo?.repo.id, repo.id);
      assert.ok(s.repo?.perm.canWrite('packages'), "the owner writes the repository's packages");
    },
  },
  {
    name: 'a stranger gets the permission of a stranger',
    given: linking(
      () => other,
      () => repo.name,
    ),
    want: null,
    then: (s) => assert.not.ok(s.repo?.perm.canWrite('packages')),
  },
  {
    name: 'unknown',
    given: linking(
      () => owner,
      () => 'no-such-repo',
    ),
    want: notFound,
  },
  {
    name: "another owner's repository",
    given: linking(
      () => owner,
      () => 'elsewhere',
    ),
    want: notFound,
  },
]);

const denied = { status: 403, message: 'no permission to link this package and repository, or packages are disabled' };
const withPerm = (p: ReturnType<typeof perm>) => (): Given => ({ repo: loadedRepo(p) });
table(PKG_LINKER, [
  { name: 'a packages writer', given: withPerm(perm(Mode.read, { packages: Mode.write })), want: null },
  { name: 'a packages reader', given: withPerm(perm(Mode.read, { packages: Mode.read })), want: denied },
  { name: 'an admin, packages unit disabled', given: withPerm(perm(Mode.admin, {}, ['code', 'issues'])), want: denied },
]);

test.run();
