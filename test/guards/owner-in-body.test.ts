// FORK_TARGET, GENERATE_OWNER and MIGRATE_OWNER: the owner named in the body of a fork, a template
// generation or a migration, and whether the caller may create a repository there.
import { test } from 'uvu';
import { FORK_TARGET, GENERATE_OWNER, MIGRATE_OWNER } from '../../guards/owner-in-body.ts';
import { Mode } from '../../lib/auth/perm.ts';
import type { IUser } from '../../model/user.ts';
import { loadedRepo, permAll, table, token, type Given } from './state.ts';
import { mkUser, openGuardDb, orgRoles, type GuardDb, type OrgRoles } from './db.ts';

let db: GuardDb;
let r: OrgRoles;
let other: IUser;
test.before(async () => {
  db = await openGuardDb();
  r = await orgRoles(db);
  other = await mkUser(db);
});
test.after(async () => {
  await db.close();
});

const as =
  (who: () => IUser, body: () => Record<string, unknown>, extra: Partial<Given> = {}) =>
  (): Given => ({ em: db.em(), doer: who(), body: body(), repo: loadedRepo(permAll(Mode.read)), ...extra });

table(FORK_TARGET, [
  {
    name: 'no organization: the caller',
    given: as(
      () => other,
      () => ({}),
    ),
    want: null,
  },
  {
    name: 'an organization the caller owns',
    given: as(
      () => r.owner,
      () => ({ organization: r.org.name }),
    ),
    want: null,
  },
  {
    name: 'an organization the caller is only a member of',
    given: as(
      () => r.member,
      () => ({ organization: r.org.name }),
    ),
    want: 403,
  },
  {
    name: 'an unknown organization',
    given: as(
      () => r.owner,
      () => ({ organization: 'no-such-org' }),
    ),
    want: { status: 422, message: 'org does not exist [name: no-such-org]' },
  },
  {
    name: 'a user named as organization',
    given: as(
      () => r.owner,
      () => ({ organization: other.name }),
    ),
    want: 422,
  },
  {
    name: 'site admin',
    given: as(
      () => r.admin,
      () => ({ organization: r.org.name }),
    ),
    want: null,
  },
]);

table(GENERATE_OWNER, [
  {
    name: 'the caller',
    given: as(
      () => other,
      () => ({ owner: other.name.toUpperCase() }),
    ),
    want: null,
  },
  {
    name: 'another user',
    given: as(
      () => other,
      () => ({ owner: r.owner.name }),
    ),
    want: { status: 403, message: 'Only admin can generate repository for other user.' },
  },
  {
    name: 'another user, by a site admin',
    given: as(
      () => r.admin,
      () => ({ owner: other.name }),
    ),
    want: null,
  },
  {
    name: 'an organization the caller owns',
    given: as(
      () => r.owner,
      () => ({ owner: r.org.name }),
    ),
    want: null,
  },
  {
    name: 'an organization the caller cannot create in',
    given: as(
      () => r.member,
      () => ({ owner: r.org.name }),
    ),
    want: { status: 403, message: 'Given user is not allowed to create repository in organization.' },
  },
  {
    name: 'an unknown owner',
    given: as(
      () => other,
      () => ({ owner: 'nobody-x' }),
    ),
    want: 404,
  },
  {
    name: 'another user, site admin with a public-only token',
    given: as(
      () => r.admin,
      () => ({ owner: other.name }),
      { token: token('public-only,all') },
    ),
    want: 403,
  },
]);

table(MIGRATE_OWNER, [
  {
    name: 'no owner: the caller',
    given: as(
      () => other,
      () => ({}),
    ),
    want: null,
  },
  {
    name: 'another user',
    given: as(
      () => other,
      () => ({ repo_owner: r.owner.name }),
    ),
    want: { status: 403, message: 'Given user is not an organization.' },
  },
  {
    name: 'an organization the caller owns',
    given: as(
      () => r.owner,
      () => ({ repo_owner: r.org.name }),
    ),
    want: null,
  },
  {
    name: 'an organization the caller is a member of',
    given: as(
      () => r.member,
      () => ({ repo_owner: r.org.name }),
    ),
    want: { status: 403, message: 'Given user is not owner of organization.' },
  },
  {
    name: 'an unknown owner',
    given: as(
      () => other,
      () => ({ repo_owner: 'nobody-y' }),
    ),
    want: { status: 422, message: 'user does not exist [name: nobody-y]' },
  },
  {
    name: 'the deprecated uid of another user',
    given: as(
      () => other,
      () => ({ uid: r.owner.id }),
    ),
    want: 403,
  },
  {
    name: 'another user, by a site admin',
    given: as(
      () => r.admin,
      () => ({ repo_owner: other.name }),
    ),
    want: null,
  },
]);

test.run();
