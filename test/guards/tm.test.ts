// TM (spec, guard table): caller is a team member, an organization owner or a site admin; an
// organization member outside the team gets 403 `Must be a team member`, non-members 404.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TM } from '../../guards/tm.ts';
import type { IUser } from '../../model/user.ts';
import { table, token, type Given } from './state.ts';
import { mkTeam, openGuardDb, orgRoles, type GuardDb, type OrgRoles } from './db.ts';
import type { ITeam } from '../../model/org.ts';

const forbidden = { status: 403, message: 'Must be a team member' };
const missing = { status: 404, message: "The target couldn't be found.", errors: [] };

let db: GuardDb;
let r: OrgRoles;
let elsewhere: OrgRoles; // a second organization: its members are outsiders here
let otherTeam: ITeam; // a team of `elsewhere` holding r.member
test.before(async () => {
  db = await openGuardDb();
  r = await orgRoles(db);
  elsewhere = await orgRoles(db);
  otherTeam = await mkTeam(db, elsewhere.org, { members: [r.member] });
});
test.after(async () => {
  await db.close();
});

const ofTeam =
  (doer: (r: OrgRoles) => IUser | null, extra: Given = {}) =>
  (): Given => ({ em: db.em(), doer: doer(r), org: r.org, team: r.team, ...extra });

table(TM, [
  { name: 'member of the team', given: ofTeam((r) => r.teamMember), want: null },
  { name: 'member of the team by token', given: ofTeam((r) => r.teamMember, { token: token('read:organization') }), want: null },
  { name: 'organization owner outside the team', given: ofTeam((r) => r.owner), want: null },
  { name: 'organization member outside the team', given: ofTeam((r) => r.member), want: forbidden },
  { name: 'admin-team member outside the team', given: ofTeam((r) => r.teamAdmin), want: forbidden },
  { name: 'owner of another organization', given: ofTeam((r) => r.outsider), want: missing },
  { name: 'member of a team elsewhere only', given: ofTeam(() => elsewhere.teamMember), want: missing },
  { name: 'anonymous', given: ofTeam(() => null), want: missing },
  { name: 'site admin', given: ofTeam((r) => r.admin), want: null },
  { name: 'site admin with a public-only token', given: ofTeam((r) => r.admin, { token: token('public-only,all') }), want: missing },
  {
    name: "member of the other organization's team asking about it",
    given: () => ({ em: db.em(), doer: r.member, org: elsewhere.org, team: otherTeam }),
    want: null,
  },
]);

test('TM: needs the team and its organization', () => assert.equal([...TM.needs], ['team', 'org']));

test.run();
