// ONA (spec, guard table): caller is an organization owner or site admin; for organization paths a
// non-owner gets 403 `Must be an organization owner`, for team paths (a team is loaded) 404.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ONA } from '../../guards/ona.ts';
import type { IUser } from '../../model/user.ts';
import { table, token, type Given } from './state.ts';
import { openGuardDb, orgRoles, type GuardDb, type OrgRoles } from './db.ts';

const forbidden = { status: 403, message: 'Must be an organization owner' };
const missing = { status: 404, message: "The target couldn't be found.", errors: [] };

let db: GuardDb;
let r: OrgRoles;
test.before(async () => {
  db = await openGuardDb();
  r = await orgRoles(db);
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

table(ONA, [
  { name: 'organization path: owner', given: onOrg((r) => r.owner), want: null },
  { name: 'organization path: owner by token', given: onOrg((r) => r.owner, { token: token('write:organization') }), want: null },
  { name: 'organization path: member of an admin team', given: onOrg((r) => r.teamAdmin), want: forbidden },
  { name: 'organization path: member', given: onOrg((r) => r.member), want: forbidden },
  { name: 'organization path: owner of another organization', given: onOrg((r) => r.outsider), want: forbidden },
  { name: 'organization path: anonymous', given: onOrg(() => null), want: forbidden },
  { name: 'organization path: site admin', given: onOrg((r) => r.admin), want: null },
  {
    name: 'organization path: site admin with a public-only token',
    given: onOrg((r) => r.admin, { token: token('public-only,all') }),
    want: forbidden,
  },
  { name: 'team path: owner', given: onTeam((r) => r.owner), want: null },
  { name: 'team path: member of the team', given: onTeam((r) => r.teamMember), want: missing },
  { name: 'team path: member of the organization', given: onTeam((r) => r.member), want: missing },
  { name: 'team path: outsider', given: onTeam((r) => r.outsider), want: missing },
  { name: 'team path: anonymous', given: onTeam(() => null), want: missing },
  { name: 'team path: site admin', given: onTeam((r) => r.admin), want: null },
  {
    name: 'team path: site admin with a repo-specific token',
    given: onTeam((r) => r.admin, { token: token('read:repository', [1]) }),
    want: missing,
  },
]);

test('ONA: needs the organization', () => assert.equal([...ONA.needs], ['org']));

test.run();
