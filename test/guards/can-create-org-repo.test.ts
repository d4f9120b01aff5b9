// CAN_CREATE_ORG_REPO (forgejo-facts 8.1): organization owners, members of a team with
// `can_create_org_repo` and site admins may create repositories in the organization; anyone else
// gets 403 `Given user is not allowed to create repository in organization.`
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CAN_CREATE_ORG_REPO } from '../../guards/can-create-org-repo.ts';
import { Team } from '../../model/org.ts';
import { table, token, type Given } from './state.ts';
import { addToTeam, mkTeam, openGuardDb, orgRoles, type GuardDb, type OrgRoles } from './db.ts';
import type { IUser } from '../../model/user.ts';
import { Mode } from '../../lib/auth/perm.ts';

const denied = { status: 403, message: 'Given user is not allowed to create repository in organization.' };
let db: GuardDb;
let r: OrgRoles;
let creator: IUser;

test.before(async () => {
  db = await openGuardDb();
  r = await orgRoles(db);
  const team = await mkTeam(db, r.org, { mode: Mode.write });
  const em = db.em();
  const t = await em.findOneOrFail(Team, { id: team.id });
  t.canCreateOrgRepo = true;
  await em.flush();
  creator = r.member;
  await addToTeam(db, t, creator);
});
test.after(async () => {
  await db.close();
});

const as =
  (who: () => IUser | null, extra: Partial<Given> = {}) =>
  (): Given => ({ em: db.em(), doer: who(), org: r.org, ...extra });

table(CAN_CREATE_ORG_REPO, [
  { name: 'organization owner', given: as(() => r.owner), want: null },
  { name: 'member of a team with can_create_org_repo', given: as(() => creator), want: null },
  { name: 'member of a read team only', given: as(() => r.teamMember), want: denied },
  { name: 'member of an admin team without can_create_org_repo', given: as(() => r.teamAdmin), want: denied },
  { name: 'outsider', given: as(() => r.outsider), want: denied },
  { name: 'site admin', given: as(() => r.admin), want: null },
  { name: 'site admin with a public-only token', given: as(() => r.admin, { token: token('public-only,all') }), want: denied },
]);

test('CAN_CREATE_ORG_REPO needs the organization', () => {
  assert.equal([...CAN_CREATE_ORG_REPO.needs], ['org']);
});

test.run();
