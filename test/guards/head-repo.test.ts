// HEAD_REPO (Forgejo's CreatePullRequest and parseCompareInfo): the body's `head` is `branch` or
// `owner:branch`; `head` equal to `base` 422; more than one colon 404; unknown owner 404 GetUserByName;
// owner without a fork of this repository (or its parent) 404 GetBaseRepo; a head repository whose code
// the caller may not read 404 "Can't read headRepo UnitTypeCode". Site admins read every one.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HEAD_REPO, NO_CHANGES } from '../../guards/head-repo.ts';
import { Repository, type IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { permAll, table, token, type Given } from './state.ts';
import { mkRepo, mkUser, openGuardDb, type GuardDb } from './db.ts';

let db: GuardDb;
let owner: IUser;
let base: IRepository;
let forker: IUser;
let secret: IUser;
let stranger: IUser;
let admin: IUser;
let child: IRepository;
let childOwner: IUser;
test.before(async () => {
  db = await openGuardDb();
  [owner, forker, secret, stranger, childOwner] = [
    await mkUser(db),
    await mkUser(db),
    await mkUser(db),
    await mkUser(db),
    await mkUser(db),
  ];
  admin = await mkUser(db, { admin: true });
  base = await mkRepo(db, owner, owner);
  const fork = await mkRepo(db, forker, forker);
  const hidden = await mkRepo(db, secret, secret, { private: true });
  child = await mkRepo(db, childOwner, childOwner);
  const em = db.em();
  await em.nativeUpdate(Repository, { id: { $in: [fork.id, hidden.id, child.id] } }, { isFork: true, forkId: base.id });
  child = await db.em().findOneOrFail(Repository, { id: child.id });
});
test.after(async () => {
  await db.close();
});

const creating =
  (
    head: string,
    opts: { doer?: () => IUser; at?: () => { repo: IRepository; owner: IUser }; base?: string; extra?: Partial<Given> } = {},
  ) =>
  (): Given => {
    const at = opts.at?.() ?? { repo: base, owner };
    return {
      em: db.em(),
      doer: (opts.doer ?? (() => stranger))(),
      repo: { ...at, perm: permAll(Mode.read) },
      body: { head, base: opts.base ?? 'main', title: 't' },
      ...opts.extra,
    };
  };
const headIs = (repo: () => IRepository, branch: string) => (s: { head?: { repo: IRepository; branch: string } }) => {
  assert.is(s.head?.repo.id, repo().id);
  assert.is(s.head?.branch, branch);
};

table(HEAD_REPO, [
  { name: 'a branch of this repository', given: creating('feature'), want: null, then: headIs(() => base, 'feature') },
  { name: 'head equal to base', given: creating('main'), want: { status: 422, message: NO_CHANGES } },
  { name: 'owner:branch equal to base, before the lookup', given: creating('nobody-here:x', { base: 'nobody-here:x' }), want: 422 },
  { name: 'more than one colon', given: creating('a:b:c'), want: { status: 404, errors: [] } },
  {
    name: 'an unknown owner',
    given: creating('nobody-here:x'),
    want: { status: 404, message: 'GetUserByName', errors: ['user redirect does not exist [name: nobody-here]'] },
  },
  {
    name: "this repository's owner, in another case",
    given: () => creating(`${owner.name.toUpperCase()}:feature`)(),
    want: null,
    then: headIs(() => base, 'feature'),
  },
  {
    name: 'a public fork',
    given: () => creating(`${forker.name}:feature`)(),
    want: null,
    then: (s) => {
      assert.is(s.head?.owner.id, forker.id);
      assert.is(s.head?.repo.ownerId, forker.id);
    },
  },
  {
    name: 'an owner without a fork',
    given: () => creating(`${stranger.name}:feature`)(),
    want: { status: 404, message: 'GetBaseRepo', errors: [] },
  },
  {
    name: 'a private fork, to a stranger',
    given: () => creating(`${secret.name}:feature`)(),
    want: { status: 404, message: "Can't read headRepo UnitTypeCode", errors: [] },
  },
  {
    name: 'a private fork, anonymously',
    given: () => creating(`${secret.name}:feature`, { extra: { doer: null } })(),
    want: { status: 404, message: "Can't read headRepo UnitTypeCode" },
  },
  { name: 'a private fork, to its owner', given: () => creating(`${secret.name}:feature`, { doer: () => secret })(), want: null },
  { name: 'a private fork, to a site admin', given: () => creating(`${secret.name}:feature`, { doer: () => admin })(), want: null },
  {
    name: 'a private fork, to a site admin through a public-only token',
    given: () => creating(`${secret.name}:feature`, { doer: () => admin, extra: { token: token('public-only,all') } })(),
    want: 404,
  },
  {
    name: "the parent, from a fork's pull",
    given: () => creating(`${owner.name}:main`, { at: () => ({ repo: child, owner: childOwner }) })(),
    want: null,
    then: headIs(() => base, 'main'),
  },
]);

test.run();
