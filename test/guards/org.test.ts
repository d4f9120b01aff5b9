// ORG, the `{org}` loader (spec, path resolution: "{org} unknown: redirect when a rename redirect
// exists, otherwise 404"; forgejo-facts 5: 307, only when the caller may see the organization). An
// organization the caller may not see is unknown to them; a user's name is not an organization.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ORG } from '../../guards/org.ts';
import { UserRedirect, type IUser } from '../../model/user.ts';
import type { RequestState } from '../../guards/types.ts';
import { table, token, type Given } from './state.ts';
import { mkOrg, mkTeam, mkUser, openGuardDb, type GuardDb } from './db.ts';

const missing = { status: 404, message: "The target couldn't be found.", errors: [] };

let db: GuardDb;
let owner: IUser;
let member: IUser;
let outsider: IUser;
let admin: IUser;
let pub: IUser;
let lim: IUser;
let priv: IUser;

test.before(async () => {
  db = await openGuardDb();
  [owner, member, outsider] = [await mkUser(db), await mkUser(db), await mkUser(db)];
  admin = await mkUser(db, { admin: true });
  pub = await mkOrg(db, owner, 'public', 'Guild');
  lim = await mkOrg(db, owner, 'limited');
  priv = await mkOrg(db, owner, 'private');
  await mkTeam(db, priv, { members: [member] });
  const em = db.em();
  em.create(UserRedirect, { lowerName: 'old-pub', redirectUserId: pub.id });
  em.create(UserRedirect, { lowerName: 'old-priv', redirectUserId: priv.id });
  em.create(UserRedirect, { lowerName: 'old-person', redirectUserId: outsider.id });
  await em.flush();
});
test.after(async () => {
  await db.close();
});

/** `/orgs/{org}<rest>`; the name is read when the row runs, after the fixtures exist. */
const get =
  (name: () => string, doer: () => IUser | null, extra: () => Given = () => ({}), rest = '') =>
  (): Given => ({ em: db.em(), doer: doer(), params: { org: name() }, path: `/orgs/${name()}${rest}`, ...extra() });
const is = (org: () => IUser) => (s: RequestState) => {
  assert.ok(s.org, 'no organization loaded');
  assert.is(s.org.id, org().id);
};

table(ORG, [
  {
    name: 'public organization, anonymous',
    given: get(
      () => pub.name,
      () => null,
    ),
    want: null,
    then: is(() => pub),
  },
  {
    name: 'name in other case',
    given: get(
      () => pub.name.toUpperCase(),
      () => outsider,
    ),
    want: null,
    then: is(() => pub),
  },
  {
    name: 'limited organization, anonymous',
    given: get(
      () => lim.name,
      () => null,
    ),
    want: missing,
  },
  {
    name: 'limited organization, signed in',
    given: get(
      () => lim.name,
      () => outsider,
    ),
    want: null,
    then: is(() => lim),
  },
  {
    name: 'private organization, anonymous',
    given: get(
      () => priv.name,
      () => null,
    ),
    want: missing,
  },
  {
    name: 'private organization, outsider',
    given: get(
      () => priv.name,
      () => outsider,
    ),
    want: missing,
  },
  {
    name: 'private organization, member',
    given: get(
      () => priv.name,
      () => member,
    ),
    want: null,
    then: is(() => priv),
  },
  {
    name: 'private organization, owner',
    given: get(
      () => priv.name,
      () => owner,
    ),
    want: null,
    then: is(() => priv),
  },
  {
    name: 'private organization, site admin',
    given: get(
      () => priv.name,
      () => admin,
    ),
    want: null,
    then: is(() => priv),
  },
  {
    name: 'private organization, site admin with a public-only token',
    given: get(
      () => priv.name,
      () => admin,
      () => ({ token: token('public-only,all') }),
    ),
    want: missing,
  },
  {
    name: "a user's name",
    given: get(
      () => outsider.name,
      () => outsider,
    ),
    want: missing,
  },
  {
    name: 'unknown name',
    given: get(
      () => 'no-such-org',
      () => owner,
    ),
    want: missing,
  },
  {
    name: 'renamed organization: 307, rest and query kept',
    given: get(
      () => 'old-pub',
      () => null,
      () => ({ query: 'page=2' }),
      '/teams',
    ),
    want: { status: 307, location: '/api/v1/orgs/Guild/teams?page=2' },
  },
  {
    name: 'renamed organization now private, outsider',
    given: get(
      () => 'old-priv',
      () => outsider,
    ),
    want: missing,
  },
  {
    name: 'renamed organization now private, member',
    given: get(
      () => 'old-priv',
      () => member,
    ),
    want: 307,
  },
  {
    name: 'redirect to a user is no organization',
    given: get(
      () => 'old-person',
      () => outsider,
    ),
    want: missing,
  },
]);

test('ORG: a loader that provides the organization', () => {
  assert.is(ORG.kind, 'loader');
  assert.equal([...ORG.provides], ['org']);
});

test.run();
