// Q(subject, target) (spec, guard table and Limits 1): quota not exceeded for subject and target; only
// when the instance enables quota. Over quota is Forgejo's 413 naming the charged owner
// (forgejo-facts 1.2): the caller for `user`, the organization for `org`, the repository owner for `repo`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Q } from '../../guards/q.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { Repository } from '../../model/repo.ts';
import { QuotaGroup, QuotaGroupMapping, QuotaGroupRule, QuotaRule } from '../../model/quota.ts';
import type { IUser } from '../../model/user.ts';
import { fakeOrg, fakeUser, loadedRepo, loose, permAll, state, table } from './state.ts';
import { mkOrg, mkRepo, mkUser, openGuardDb, type GuardDb } from './db.ts';
import { uniq } from '../helpers/fixtures.ts';

const alice = fakeUser();
const on = { QUOTA__ENABLED: 'true' };
let db: GuardDb;
test.before(async () => {
  db = await openGuardDb();
});
test.after(async () => {
  await db.close();
});

/** A group holding one rule, with `members` in it. */
async function limitGroup(limit: number, subjects: string[], members: IUser[]): Promise<string> {
  const em = db.em();
  const group = uniq('g');
  const rule = uniq('r');
  em.create(QuotaRule, { name: rule, limit, subjects });
  em.create(QuotaGroup, { name: group });
  em.create(QuotaGroupRule, { groupName: group, ruleName: rule });
  for (const m of members) em.create(QuotaGroupMapping, { mappedId: m.id, groupName: group });
  await em.flush();
  return group;
}

/** A repository of `owner` whose git size is `size` bytes. */
async function sizedRepo(owner: IUser, size: number) {
  const repo = await mkRepo(db, owner, owner);
  await db.em().nativeUpdate(Repository, { id: repo.id }, { size });
  return repo;
}

table(Q('size:repos:all', 'user'), [
  { name: 'quota disabled (default)', given: () => ({ doer: alice }), want: null },
  { name: 'quota enabled, no group for the caller', given: () => ({ config: on, doer: alice, em: db.em() }), want: null },
  { name: 'quota enabled, anonymous: no owner to charge', given: () => ({ config: on }), want: null },
  {
    name: 'quota enabled, caller over a size:repos:all rule: 413',
    given: async () => {
      const u = await mkUser(db);
      await sizedRepo(u, 2048);
      await limitGroup(1024, ['size:repos:all'], [u]);
      return { config: { ...on, ...db.config }, doer: u, em: db.em() };
    },
    want: { status: 413, message: 'quota exceeded' },
  },
  {
    name: 'quota enabled, caller under the limit passes',
    given: async () => {
      const u = await mkUser(db);
      await sizedRepo(u, 512);
      await limitGroup(1024, ['size:repos:all'], [u]);
      return { config: { ...on, ...db.config }, doer: u, em: db.em() };
    },
    want: null,
  },
  {
    name: 'quota disabled: the same over-limit caller passes',
    given: async () => {
      const u = await mkUser(db);
      await sizedRepo(u, 2048);
      await limitGroup(1024, ['size:repos:all'], [u]);
      return { config: db.config, doer: u, em: db.em() };
    },
    want: null,
  },
]);

table(Q('size:git:all', 'repo'), [
  { name: 'quota disabled', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.owner)) }), want: null },
  {
    name: 'quota enabled, no group for the owner',
    given: () => ({ config: on, doer: alice, repo: loadedRepo(permAll(Mode.owner)), em: db.em() }),
    want: null,
  },
]);

table(Q('size:assets:attachments:releases', 'org'), [
  {
    name: 'quota enabled, no group for the organization',
    given: () => ({ config: on, doer: alice, org: fakeOrg(), em: db.em() }),
    want: null,
  },
]);

test('Q(repo): the repository owner is charged and named in the 413, not the caller', async () => {
  const [owner, caller] = [await mkUser(db), await mkUser(db)];
  const repo = await sizedRepo(owner, 4096);
  await limitGroup(100, ['size:repos:all', 'size:git:lfs'], [owner]);
  const s = state({ config: { ...on, ...db.config }, doer: caller, repo: loadedRepo(permAll(Mode.write), { owner, repo }), em: db.em() });
  const out = await Q('size:git:all', 'repo').run(s);
  assert.equal(out, { status: 413, message: 'quota exceeded', bare: true, fields: { user_id: owner.id, username: owner.name } });
  // The caller is in no group: a write charged to the caller passes.
  assert.is(await Q('size:repos:all', 'user').run(state({ config: { ...on, ...db.config }, doer: caller, em: db.em() })), null);
});

test('Q(org): the organization is charged', async () => {
  const creator = await mkUser(db);
  const org = await mkOrg(db, creator);
  await sizedRepo(org, 10);
  await limitGroup(0, ['size:repos:all'], [org]);
  const out = await Q('size:repos:all', 'org').run(state({ config: { ...on, ...db.config }, doer: creator, org, em: db.em() }));
  assert.equal(out, { status: 413, message: 'quota exceeded', bare: true, fields: { user_id: org.id, username: org.name } });
  // The creator is in no group: creating under their own name passes.
  assert.is(await Q('size:repos:all', 'user').run(state({ config: { ...on, ...db.config }, doer: creator, em: db.em() })), null);
});

test('Q: [quota] DEFAULT_GROUPS applies to owners in no group', async () => {
  const u = await mkUser(db);
  await sizedRepo(u, 50);
  const group = await limitGroup(10, ['size:repos:all'], []);
  const cfg = { ...on, ...db.config, QUOTA__DEFAULT_GROUPS: `missing-group, ${group}` };
  assert.is((await Q('size:repos:all', 'user').run(state({ config: cfg, doer: u, em: db.em() })))?.status, 413);
  assert.is(await Q('size:repos:all', 'user').run(state({ config: { ...on, ...db.config }, doer: u, em: db.em() })), null);
});

test('Q: names and the state each target needs', () => {
  assert.is(Q('size:wiki', 'repo').name, 'Q(size:wiki, repo)');
  assert.equal([...Q('size:wiki', 'repo').needs], ['repo']);
  assert.equal([...Q('size:repos:all', 'org').needs], ['org']);
  assert.equal([...Q('size:repos:all', 'user').needs], []);
});

test('Q: unknown subjects and targets are refused at construction', () => {
  assert.throws(() => loose(Q)('bad', 'repo'), /Q: unknown subject "bad"/);
  assert.throws(() => loose(Q)('size:all', 'repo'), /unknown subject/);
  assert.throws(() => loose(Q)('size:wiki', 'team'), /Q: unknown target "team"/);
});

test('Q: names inherited from Object.prototype are not targets [STYLE: constructors check their arguments]', () => {
  assert.throws(() => loose(Q)('size:wiki', 'hasOwnProperty'), /unknown target/);
});

test.run();
