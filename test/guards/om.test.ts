// OM (spec, guard table): caller is an organization member or site admin; a non-member gets 403
// `Must be an organization member` on organization paths, 404 on team paths (a team is loaded).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OM } from '../../guards/om.ts';
import type { IUser } from '../../model/user.ts';
import { table, token, type Given } from './state.ts';
import { openGuardDb, orgRoles, type GuardDb, type OrgRoles } from './db.ts';

const forbidden = { status: 403, message: 'Must be an organization member' };
const missing = { status: 404, message: "The target couldn't be found.", errors: [] };

let db: GuardDb;
let r: OrgRoles;
test.before(async () => {
  db = await openGuardDb();
  r = await orgRoles(db, 'private');
});
test.after(async () => {
  await db.close();
});

const onOrg =
  (doer: (r: OrgRoles) => IUser | null, extra: Given = {}) =>
  (): Given => ({ em: db.em(), doer: doer(r), org: r.org, ...extra });
const onTeam =
  (doer: (r: OrgRoles) => IUser | null, extra: Given = {}) =>
  (): Given => ({ em: db.em(), doer: doer(r), org: r.org, team: r.team, ...extra });

table(OM, [
  { name: 'organization path: owner', given: onOrg((r) => r.owner), want: null },
  { name: 'organization path: member of another team', given: onOrg((r) => r.member), want: null },
  { name: 'organization path: member by token', given: onOrg((r) => r.teamMember, { token: token('read:organization') }), want: null },
  { name: 'organization path: outsider', given: onOrg((r) => r.outsider), want: forbidden },
  { name: 'organization path: anonymous', given: onOrg(() => null), want: forbidden },
  { name: 'organization path: site admin', given: onOrg((r) => r.admin), want: null },
  {
    name: 'organization path: site admin with a public-only token',
    given: onOrg((r) => r.admin, { token: token('public-only,all') }),
    want: forbidden,
  },
  { name: 'team path: member of the team', given: onTeam((r) => r.teamMember), want: null },
  { name: 'team path: member of another team', given: onTeam((r) => r.member), want: null },
  { name: 'team path: outsider', given: onTeam((r) => r.outsider), want: missing },
  { name: 'team path: anonymous', given: onTeam(() => null), want: missing },
  { name: 'team path: site admin', given: onTeam((r) => r.admin), want: null },
]);

test('OM: needs the organization', () => assert.equal([...OM.needs], ['org']));

test.run();
