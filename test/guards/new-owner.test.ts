// The transfer body's steps. NEW_OWNER (Forgejo's Transfer): `new_owner` names a user or organization;
// unknown, or a private organization the caller is not in (site admins see it), 404. TRANSFER_TEAMS: a
// `team_ids` entry of another organization 403; unknown teams and teams for a user recipient pass (the
// handler's 422s), the first bad entry deciding. NOT_BLOCKED_BY_NEW_OWNER: blocked by the new owner 403.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { NEW_OWNER, NO_NEW_OWNER } from '../../guards/new-owner.ts';
import { TRANSFER_TEAMS } from '../../guards/transfer-teams.ts';
import { NOT_BLOCKED_BY_NEW_OWNER } from '../../guards/not-blocked.ts';
import { blockUser } from '../../lib/users/blocks.ts';
import type { IUser } from '../../model/user.ts';
import { state, table, token, type Given } from './state.ts';
import { mkOrg, mkUser, openGuardDb, orgRoles, type GuardDb, type OrgRoles } from './db.ts';

let db: GuardDb;
let priv: OrgRoles;
let pub: OrgRoles;
let person: IUser;
let blocked: IUser;
test.before(async () => {
  db = await openGuardDb();
  priv = await orgRoles(db, 'private');
  pub = await orgRoles(db);
  person = await mkUser(db);
  blocked = await mkUser(db);
  await blockUser(db.em(), person, blocked);
  await mkOrg(db, person);
});
test.after(async () => {
  await db.close();
});

const naming =
  (who: () => IUser, name: () => string, extra: Partial<Given> = {}) =>
  (): Given => ({ em: db.em(), doer: who(), body: { new_owner: name() }, ...extra });
const missing = { status: 404, message: NO_NEW_OWNER, errors: [] };
table(NEW_OWNER, [
  {
    name: 'a user, by name in another case',
    given: naming(
      () => pub.outsider,
      () => person.name.toUpperCase(),
    ),
    want: null,
    then: (s) => assert.is(s.newOwner?.id, person.id),
  },
  {
    name: 'unknown',
    given: naming(
      () => person,
      () => 'nobody-here',
    ),
    want: missing,
  },
  {
    name: 'a public organization',
    given: naming(
      () => person,
      () => pub.org.name,
    ),
    want: null,
  },
  {
    name: 'a private organization, to a member',
    given: naming(
      () => priv.teamMember,
      () => priv.org.name,
    ),
    want: null,
  },
  {
    name: 'a private organization, to an outsider',
    given: naming(
      () => priv.outsider,
      () => priv.org.name,
    ),
    want: missing,
  },
  {
    name: 'a private organization, to a site admin',
    given: naming(
      () => priv.admin,
      () => priv.org.name,
    ),
    want: null,
  },
  {
    name: 'a private organization, to a site admin through a public-only token',
    given: naming(
      () => priv.admin,
      () => priv.org.name,
      { token: token('public-only,all') },
    ),
    want: missing,
  },
]);

const teams = (to: () => IUser, ids: () => unknown[]) => (): Given => ({
  em: db.em(),
  doer: pub.owner,
  newOwner: to(),
  body: { new_owner: to().name, team_ids: ids() },
});
table(TRANSFER_TEAMS, [
  {
    name: "the new owner's team",
    given: teams(
      () => pub.org,
      () => [pub.team.id],
    ),
    want: null,
  },
  {
    name: "another organization's team",
    given: teams(
      () => pub.org,
      () => [pub.team.id, priv.team.id],
    ),
    want: 403,
  },
  {
    name: 'an unknown team before a foreign one (422 in the handler)',
    given: teams(
      () => pub.org,
      () => [999999, priv.team.id],
    ),
    want: null,
  },
  {
    name: 'teams for a user recipient (422 in the handler)',
    given: teams(
      () => person,
      () => [priv.team.id],
    ),
    want: null,
  },
  {
    name: 'no teams',
    given: teams(
      () => pub.org,
      () => [],
    ),
    want: null,
  },
]);

test('TRANSFER_TEAMS: the 403 names the team and the new owner', async () => {
  const out = await TRANSFER_TEAMS.run(
    state(
      teams(
        () => pub.org,
        () => [priv.team.id],
      )(),
    ),
  );
  assert.equal(out, { status: 403, message: `team ${priv.team.id} belongs not to org ${pub.org.id}` });
});

const by = (who: () => IUser) => (): Given => ({ em: db.em(), doer: who(), newOwner: person });
table(NOT_BLOCKED_BY_NEW_OWNER, [
  { name: 'a user the new owner blocked', given: by(() => blocked), want: { status: 403, message: 'user is blocked by the new owner' } },
  { name: 'someone else', given: by(() => pub.owner), want: null },
]);

test.run();
