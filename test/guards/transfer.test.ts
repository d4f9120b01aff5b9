// TRANSFER_RECIPIENT (Forgejo's acceptOrRejectRepoTransfer): 404 when no transfer is pending; the
// recipient user, or whoever may create repositories in a recipient organization, may accept or
// reject it; anyone else 403.
import { test } from 'uvu';
import { TRANSFER_RECIPIENT } from '../../guards/transfer.ts';
import { RepoTransfer } from '../../model/transfer.ts';
import { Mode } from '../../lib/auth/perm.ts';
import type { IUser } from '../../model/user.ts';
import type { IRepository } from '../../model/repo.ts';
import { permAll, table, type Given } from './state.ts';
import { mkRepo, mkUser, openGuardDb, orgRoles, type GuardDb, type OrgRoles } from './db.ts';

let db: GuardDb;
let r: OrgRoles;
let alice: IUser;
let bob: IUser;
let toBob: IRepository;
let toOrg: IRepository;
let idle: IRepository;
const denied = { status: 403, message: 'user is not allowed to accept or reject this transfer' };

test.before(async () => {
  db = await openGuardDb();
  r = await orgRoles(db);
  alice = await mkUser(db);
  bob = await mkUser(db);
  toBob = await mkRepo(db, alice, alice);
  toOrg = await mkRepo(db, alice, alice);
  idle = await mkRepo(db, alice, alice);
  const em = db.em();
  em.create(RepoTransfer, { repoId: toBob.id, doerId: alice.id, recipientId: bob.id, teamIds: [] });
  em.create(RepoTransfer, { repoId: toOrg.id, doerId: alice.id, recipientId: r.org.id, teamIds: [] });
  await em.flush();
});
test.after(async () => {
  await db.close();
});

const at = (repo: () => IRepository, who: () => IUser) => (): Given => ({
  em: db.em(),
  doer: who(),
  repo: { repo: repo(), owner: alice, perm: permAll(Mode.read) },
});

table(TRANSFER_RECIPIENT, [
  {
    name: 'the recipient user',
    given: at(
      () => toBob,
      () => bob,
    ),
    want: null,
  },
  {
    name: 'the repository owner',
    given: at(
      () => toBob,
      () => alice,
    ),
    want: denied,
  },
  {
    name: 'a site admin is not the recipient',
    given: at(
      () => toBob,
      () => r.admin,
    ),
    want: denied,
  },
  {
    name: 'an owner of the recipient organization',
    given: at(
      () => toOrg,
      () => r.owner,
    ),
    want: null,
  },
  {
    name: 'a member of the recipient organization who cannot create repositories',
    given: at(
      () => toOrg,
      () => r.teamMember,
    ),
    want: denied,
  },
  {
    name: 'nothing pending',
    given: at(
      () => idle,
      () => bob,
    ),
    want: { status: 404, message: "The target couldn't be found.", errors: [] },
  },
]);

test.run();
