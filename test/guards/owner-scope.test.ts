// OWNER_SCOPE (spec, scope checks 5 and 6): repository deletion and template generation need the scope
// of creating a repository — `write:organization` when the owner concerned is an organization,
// otherwise `write:user`; else 403 `token does not have at least one of required scope(s): [...]`
// (forgejo-facts 1.2). Only scoped tokens are checked; an unparsable scope is 403 as well.
// OWNER_SCOPE('repo') looks at the addressed repository's owner, OWNER_SCOPE('body') at the body's
// `owner` (default: the caller), which needs the database to tell users from organizations.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OWNER_SCOPE } from '../../guards/owner-scope.ts';
import { Mode } from '../../lib/auth/perm.ts';
import type { IUser } from '../../model/user.ts';
import { brokenToken, fakeOrg, fakeUser, loadedRepo, loose, permAll, state, table, token } from './state.ts';
import { mkOrg, mkUser, openGuardDb, type GuardDb } from './db.ts';

const needs = (scope: string) => ({ status: 403, message: `token does not have at least one of required scope(s): [${scope}]` });
const alice = fakeUser();
const userRepo = () => loadedRepo(permAll(Mode.owner), { owner: alice });
const orgRepo = () => loadedRepo(permAll(Mode.owner), { owner: fakeOrg() });

table(OWNER_SCOPE('repo'), [
  { name: 'user-owned, write:user', given: () => ({ doer: alice, token: token('write:user'), repo: userRepo() }), want: null },
  { name: 'user-owned, all', given: () => ({ doer: alice, token: token('all'), repo: userRepo() }), want: null },
  {
    name: 'user-owned, write:organization',
    given: () => ({ doer: alice, token: token('write:organization,write:repository'), repo: userRepo() }),
    want: needs('write:user'),
  },
  {
    name: 'user-owned, read:user',
    given: () => ({ doer: alice, token: token('read:user,write:repository'), repo: userRepo() }),
    want: needs('write:user'),
  },
  {
    name: 'user-owned, write:repository only',
    given: () => ({ doer: alice, token: token('write:repository'), repo: userRepo() }),
    want: needs('write:user'),
  },
  {
    name: 'org-owned, write:organization',
    given: () => ({ doer: alice, token: token('write:organization'), repo: orgRepo() }),
    want: null,
  },
  {
    name: 'org-owned, write:user',
    given: () => ({ doer: alice, token: token('write:user,write:repository'), repo: orgRepo() }),
    want: needs('write:organization'),
  },
  {
    name: 'org-owned, read:organization',
    given: () => ({ doer: alice, token: token('read:organization'), repo: orgRepo() }),
    want: needs('write:organization'),
  },
  {
    name: 'public-only token with write:user: scope is there',
    given: () => ({ doer: alice, token: token('public-only,write:user'), repo: userRepo() }),
    want: null,
  },
  { name: 'unparsable stored scope', given: () => ({ doer: alice, token: brokenToken('write:everything'), repo: userRepo() }), want: 403 },
  { name: 'password: no scope check', given: () => ({ doer: alice, repo: orgRepo() }), want: null },
  { name: 'reverse proxy: no scope check', given: () => ({ doer: alice, method: 'reverse-proxy', repo: orgRepo() }), want: null },
]);

test('OWNER_SCOPE: an unparsable scope names itself', async () => {
  const out = await OWNER_SCOPE('repo').run(state({ doer: alice, token: brokenToken('write:everything'), repo: userRepo() }));
  assert.ok(out && 'message' in out && out.message.startsWith('checking scope failed: '), JSON.stringify(out));
});

let db: GuardDb;
let bob: IUser;
let carol: IUser;
let org: IUser;
test.before(async () => {
  db = await openGuardDb();
  bob = await mkUser(db);
  carol = await mkUser(db);
  org = await mkOrg(db, bob);
});
test.after(async () => {
  await db.close();
});

/** Rows are built before the fixtures exist, so the body is read when the row runs. */
const withBody = (body: () => Record<string, unknown>, scopes: string | null) => () => ({
  em: db.em(),
  doer: bob,
  token: scopes === null ? null : token(scopes),
  repo: loadedRepo(permAll(Mode.read)),
  body: body(),
});

table(OWNER_SCOPE('body'), [
  { name: 'no owner: the caller, write:user', given: withBody(() => ({ name: 'x' }), 'write:user'), want: null },
  {
    name: 'no owner: the caller, write:organization',
    given: withBody(() => ({ name: 'x' }), 'write:organization'),
    want: needs('write:user'),
  },
  { name: 'owner is an organization, write:organization', given: withBody(() => ({ owner: org.name }), 'write:organization'), want: null },
  {
    name: 'owner is an organization, write:user',
    given: withBody(() => ({ owner: org.name }), 'write:user'),
    want: needs('write:organization'),
  },
  {
    name: 'owner is an organization in other case, write:user',
    given: withBody(() => ({ owner: org.name.toUpperCase() }), 'write:user'),
    want: needs('write:organization'),
  },
  { name: 'owner is another user, write:user', given: withBody(() => ({ owner: carol.name }), 'write:user'), want: null },
  {
    name: 'owner is another user, write:organization',
    given: withBody(() => ({ owner: carol.name }), 'write:organization'),
    want: needs('write:user'),
  },
  { name: 'password: no scope check', given: withBody(() => ({ owner: org.name }), null), want: null },
]);

test('OWNER_SCOPE: names, needs and argument check', () => {
  assert.is(OWNER_SCOPE('repo').name, 'OWNER_SCOPE(repo)');
  assert.equal([...OWNER_SCOPE('repo').needs], ['repo']);
  assert.equal([...OWNER_SCOPE('body').needs], ['repo', 'body']);
  assert.throws(() => loose(OWNER_SCOPE)('x'), /OWNER_SCOPE: unknown owner source "x"/);
  assert.throws(() => loose(OWNER_SCOPE)('org'), /unknown owner source/);
});

test.run();
