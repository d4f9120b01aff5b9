// REPO, the repository loader (spec, path resolution rules 1-6; forgejo-facts 5 and 1.2):
// - owner and repository are looked up case-insensitively; the signed-in user's own name is theirs;
// - unknown owner: 307 to the new name when a rename redirect exists and the caller may see the new
//   owner, else 404 `GetUserByName` with `user redirect does not exist [name: x]`;
// - unknown repository: 301 when a repository redirect exists and the caller can reach the target,
//   else 404;
// - permission from the caller and the token kind; no access at all is 404, never 403.
// Rule 4 (actions task tokens) is not covered: the auth layer has no task tokens yet.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REPO } from '../../guards/repo.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { UserRedirect, type IUser } from '../../model/user.ts';
import { Collaboration, RepoRedirect, type IRepository } from '../../model/repo.ts';
import type { RequestState } from '../../guards/types.ts';
import { table, token, type Given } from './state.ts';
import { mkOrg, mkRepo, mkTeam, mkUser, openGuardDb, type GuardDb } from './db.ts';

const missing = { status: 404, message: "The target couldn't be found.", errors: [] };
const noOwner = (name: string) => ({ status: 404, message: 'GetUserByName', errors: [`user redirect does not exist [name: ${name}]`] });

let db: GuardDb;
let alice: IUser; // owns pub and priv
let bob: IUser; // an outsider
let carol: IUser; // reads priv as a collaborator
let admin: IUser;
let hidden: IUser; // a private user with a public repository
let limited: IUser; // a limited user with a public repository
let orgOwner: IUser;
let orgReader: IUser; // in a team that has orgPriv
let orgMember: IUser; // in a team without repositories
let pub: IRepository;
let priv: IRepository;
let hiddenRepo: IRepository;
let limitedRepo: IRepository;
let org: IUser;
let orgPriv: IRepository;

test.before(async () => {
  db = await openGuardDb();
  [alice, bob, carol] = [await mkUser(db, { name: 'alice' }), await mkUser(db), await mkUser(db)];
  admin = await mkUser(db, { admin: true });
  hidden = await mkUser(db, { visibility: 'private' });
  limited = await mkUser(db, { visibility: 'limited' });
  [orgOwner, orgReader, orgMember] = [await mkUser(db), await mkUser(db), await mkUser(db)];
  pub = await mkRepo(db, alice, alice, { name: 'pub' });
  priv = await mkRepo(db, alice, alice, { name: 'priv', private: true });
  hiddenRepo = await mkRepo(db, hidden, hidden, { name: 'open' });
  limitedRepo = await mkRepo(db, limited, limited, { name: 'open' });
  org = await mkOrg(db, orgOwner);
  orgPriv = await mkRepo(db, org, orgOwner, { name: 'inner', private: true });
  await mkTeam(db, org, { mode: Mode.write, members: [orgReader], repos: [orgPriv] });
  await mkTeam(db, org, { members: [orgMember] });
  const em = db.em();
  em.create(Collaboration, { repoId: priv.id, userId: carol.id, mode: Mode.read });
  em.create(UserRedirect, { lowerName: 'alice-old', redirectUserId: alice.id });
  em.create(UserRedirect, { lowerName: 'hidden-old', redirectUserId: hidden.id });
  em.create(RepoRedirect, { ownerId: alice.id, lowerName: 'pub-old', redirectRepoId: pub.id });
  em.create(RepoRedirect, { ownerId: alice.id, lowerName: 'priv-old', redirectRepoId: priv.id });
  await em.flush();
});
test.after(async () => {
  await db.close();
});

/** A request for `/repos/{owner}/{repo}<rest>` by `doer`. */
const get =
  (owner: () => string, repo: string, doer: () => IUser | null, extra: () => Given = () => ({}), rest = '') =>
  (): Given => {
    const o = owner();
    return { em: db.em(), doer: doer(), params: { username: o, reponame: repo }, path: `/repos/${o}/${repo}${rest}`, ...extra() };
  };
const loaded =
  (repo: () => IRepository, check: (s: RequestState) => boolean = () => true) =>
  (s: RequestState) => {
    assert.ok(s.repo, 'no repository loaded');
    assert.is(s.repo.repo.id, repo().id);
    assert.is(s.repo.owner.id, repo().ownerId);
    assert.ok(check(s), `permission ${JSON.stringify({ mode: s.repo.perm.mode, units: [...s.repo.perm.units] })}`);
  };
const reads = (s: RequestState) => !!s.repo && s.repo.perm.canRead('code') && !s.repo.perm.canWrite('code');
const owns = (s: RequestState) => !!s.repo && s.repo.perm.isOwner();

table(REPO, [
  {
    name: 'public repository, anonymous: read',
    given: get(
      () => 'alice',
      'pub',
      () => null,
    ),
    want: null,
    then: loaded(() => pub, reads),
  },
  {
    name: 'names in other case',
    given: get(
      () => 'ALICE',
      'Pub',
      () => null,
    ),
    want: null,
    then: loaded(() => pub, reads),
  },
  {
    name: 'own repository: owner',
    given: get(
      () => 'alice',
      'pub',
      () => alice,
    ),
    want: null,
    then: loaded(() => pub, owns),
  },
  {
    name: 'own name in other case: owner',
    given: get(
      () => 'Alice',
      'priv',
      () => alice,
    ),
    want: null,
    then: loaded(() => priv, owns),
  },
  {
    name: 'public repository, outsider: read',
    given: get(
      () => 'alice',
      'pub',
      () => bob,
    ),
    want: null,
    then: loaded(() => pub, reads),
  },
  {
    name: 'private repository, anonymous: 404',
    given: get(
      () => 'alice',
      'priv',
      () => null,
    ),
    want: missing,
  },
  {
    name: 'private repository, outsider: 404 never 403',
    given: get(
      () => 'alice',
      'priv',
      () => bob,
    ),
    want: missing,
  },
  {
    name: 'private repository, read collaborator',
    given: get(
      () => 'alice',
      'priv',
      () => carol,
    ),
    want: null,
    then: loaded(() => priv, reads),
  },
  {
    name: 'private repository, site admin: owner rights',
    given: get(
      () => 'alice',
      'priv',
      () => admin,
    ),
    want: null,
    then: loaded(() => priv, owns),
  },
  {
    name: 'private repository, site admin with a public-only token',
    given: get(
      () => 'alice',
      'priv',
      () => admin,
      () => ({ token: token('public-only,all') }),
    ),
    want: missing,
  },
  {
    name: 'private repository, site admin with a repo-specific token for another',
    given: get(
      () => 'alice',
      'priv',
      () => admin,
      () => ({ token: token('read:repository', [pub.id]) }),
    ),
    want: missing,
  },
  {
    name: 'own private repository, public-only token: 404',
    given: get(
      () => 'alice',
      'priv',
      () => alice,
      () => ({ token: token('public-only,all') }),
    ),
    want: missing,
  },
  {
    name: 'own public repository, public-only token',
    given: get(
      () => 'alice',
      'pub',
      () => alice,
      () => ({ token: token('public-only,read:repository') }),
    ),
    want: null,
    then: loaded(() => pub),
  },
  {
    name: 'repo-specific token listing the repository',
    given: get(
      () => 'alice',
      'priv',
      () => alice,
      () => ({ token: token('read:repository', [priv.id]) }),
    ),
    want: null,
    then: loaded(() => priv, owns),
  },
  {
    name: 'repo-specific token not listing a private repository',
    given: get(
      () => 'alice',
      'priv',
      () => alice,
      () => ({ token: token('read:repository', [pub.id]) }),
    ),
    want: missing,
  },
  {
    name: 'repo-specific token not listing a public repository: read only',
    given: get(
      () => 'alice',
      'pub',
      () => alice,
      () => ({ token: token('write:repository', [priv.id]) }),
    ),
    want: null,
    then: loaded(() => pub, reads),
  },
  {
    name: 'public repository of a private user, anonymous',
    given: get(
      () => hidden.name,
      'open',
      () => null,
    ),
    want: missing,
  },
  {
    name: 'public repository of a private user, outsider',
    given: get(
      () => hidden.name,
      'open',
      () => bob,
    ),
    want: missing,
  },
  {
    name: 'public repository of a private user, the user',
    given: get(
      () => hidden.name,
      'open',
      () => hidden,
    ),
    want: null,
    then: loaded(() => hiddenRepo, owns),
  },
  {
    name: 'public repository of a limited user, anonymous',
    given: get(
      () => limited.name,
      'open',
      () => null,
    ),
    want: missing,
  },
  {
    name: 'public repository of a limited user, signed in',
    given: get(
      () => limited.name,
      'open',
      () => bob,
    ),
    want: null,
    then: loaded(() => limitedRepo, reads),
  },
  {
    name: 'private organization repository, team with the repository',
    given: get(
      () => org.name,
      'inner',
      () => orgReader,
    ),
    want: null,
    then: loaded(
      () => orgPriv,
      (s) => !!s.repo?.perm.canWrite('code') && !s.repo.perm.isAdmin(),
    ),
  },
  {
    name: 'private organization repository, organization owner',
    given: get(
      () => org.name,
      'inner',
      () => orgOwner,
    ),
    want: null,
    then: loaded(() => orgPriv, owns),
  },
  {
    name: 'private organization repository, member of another team',
    given: get(
      () => org.name,
      'inner',
      () => orgMember,
    ),
    want: missing,
  },
  {
    name: 'private organization repository, outsider',
    given: get(
      () => org.name,
      'inner',
      () => bob,
    ),
    want: missing,
  },
  {
    name: 'unknown owner',
    given: get(
      () => 'nobody',
      'pub',
      () => null,
    ),
    want: noOwner('nobody'),
  },
  {
    name: 'unknown owner, name lower-cased in the error',
    given: get(
      () => 'NoBody',
      'pub',
      () => bob,
    ),
    want: noOwner('nobody'),
  },
  {
    name: 'unknown repository',
    given: get(
      () => 'alice',
      'nothing',
      () => alice,
    ),
    want: missing,
  },
  {
    name: 'renamed owner: 307 to the new name, rest and query kept',
    given: get(
      () => 'alice-old',
      'pub',
      () => null,
      () => ({ query: 'state=open' }),
      '/issues',
    ),
    want: { status: 307, location: '/api/v1/repos/alice/pub/issues?state=open' },
  },
  {
    name: 'renamed owner, old name in other case',
    given: get(
      () => 'Alice-Old',
      'pub',
      () => bob,
      () => ({}),
      '/branches',
    ),
    want: { status: 307, location: '/api/v1/repos/alice/pub/branches' },
  },
  {
    name: 'renamed owner now private, anonymous: 404',
    given: get(
      () => 'hidden-old',
      'open',
      () => null,
    ),
    want: noOwner('hidden-old'),
  },
  {
    name: 'renamed owner now private, the user: 307',
    given: get(
      () => 'hidden-old',
      'open',
      () => hidden,
    ),
    want: 307,
  },
  {
    name: 'renamed repository: 301, rest kept',
    given: get(
      () => 'alice',
      'pub-old',
      () => null,
      () => ({}),
      '/branches',
    ),
    want: { status: 301, location: '/api/v1/repos/alice/pub/branches' },
  },
  {
    name: 'renamed repository, old name in other case',
    given: get(
      () => 'alice',
      'PUB-OLD',
      () => null,
    ),
    want: { status: 301, location: '/api/v1/repos/alice/pub' },
  },
  {
    name: 'renamed private repository, outsider: 404',
    given: get(
      () => 'alice',
      'priv-old',
      () => bob,
    ),
    want: missing,
  },
  {
    name: 'renamed private repository, collaborator: 301',
    given: get(
      () => 'alice',
      'priv-old',
      () => carol,
    ),
    want: { status: 301, location: '/api/v1/repos/alice/priv' },
  },
]);

test('REPO: a loader that provides the repository', () => {
  assert.is(REPO.kind, 'loader');
  assert.equal([...REPO.provides], ['repo']);
});

test.run();
