// TEAM, the `{teamid}` loader (spec, path resolution: "{teamid} unknown: 404"): a positive integer id
// of an existing team; it also provides the team's organization. Who may see the team is TM's
// decision, not the loader's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TEAM } from '../../guards/team.ts';
import type { IUser } from '../../model/user.ts';
import type { ITeam } from '../../model/org.ts';
import type { RequestState } from '../../guards/types.ts';
import { table, type Given } from './state.ts';
import { mkOrg, mkTeam, mkUser, openGuardDb, type GuardDb } from './db.ts';

const missing = { status: 404, message: "The target couldn't be found.", errors: [] };

let db: GuardDb;
let owner: IUser;
let org: IUser;
let hiddenOrg: IUser;
let team: ITeam;
let hiddenTeam: ITeam;

test.before(async () => {
  db = await openGuardDb();
  owner = await mkUser(db);
  org = await mkOrg(db, owner);
  hiddenOrg = await mkOrg(db, owner, 'private');
  team = await mkTeam(db, org);
  hiddenTeam = await mkTeam(db, hiddenOrg);
});
test.after(async () => {
  await db.close();
});

const get = (id: () => string) => (): Given => ({ em: db.em(), params: { teamid: id() } });
const is = (t: () => ITeam, o: () => IUser) => (s: RequestState) => {
  assert.is(s.team?.id, t().id);
  assert.is(s.org?.id, o().id);
};

table(TEAM, [
  {
    name: 'existing team',
    given: get(() => String(team.id)),
    want: null,
    then: is(
      () => team,
      () => org,
    ),
  },
  {
    name: 'team of a private organization, anonymous: the loader still loads',
    given: get(() => String(hiddenTeam.id)),
    want: null,
    then: is(
      () => hiddenTeam,
      () => hiddenOrg,
    ),
  },
  { name: 'unknown id', given: get(() => String(hiddenTeam.id + 1000)), want: missing },
  { name: 'zero', given: get(() => '0'), want: missing },
  { name: 'negative', given: get(() => '-1'), want: missing },
  { name: 'not a number', given: get(() => 'owners'), want: missing },
  { name: 'fraction', given: get(() => `${team.id}.5`), want: missing },
  { name: 'beyond safe integers', given: get(() => '99999999999999999999'), want: missing },
  { name: 'empty', given: get(() => ''), want: missing },
]);

test('TEAM: provides the team and its organization', () => assert.equal([...TEAM.provides], ['team', 'org']));

test.run();
