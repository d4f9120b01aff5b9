// Q(subject, target) (spec, guard table and Limits 1): quota not exceeded for subject and target; only
// when the instance enables quota. No quota rule can be stored yet (the /admin/quota routes have no
// handler), so nothing is ever over quota — the rows pin that Q passes both ways and never touches
// a missing owner; the over-quota status (forgejo-facts 1.2: 413) waits for quota rules.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Q } from '../../guards/q.ts';
import { Mode } from '../../lib/perm.ts';
import { fakeOrg, fakeUser, loadedRepo, loose, permAll, table } from './state.ts';
import { openGuardDb, type GuardDb } from './db.ts';

const alice = fakeUser();
const on = { QUOTA__ENABLED: 'true' };
let db: GuardDb;
test.before(async () => { db = await openGuardDb(); });
test.after(async () => { await db.close(); });

table(Q('size:repos:all', 'user'), [
  { name: 'quota disabled (default)', given: () => ({ doer: alice }), want: null },
  { name: 'quota enabled, no rule for the caller', given: () => ({ config: on, doer: alice, em: db.em() }), want: null },
  { name: 'quota enabled, anonymous: no owner to charge', given: () => ({ config: on }), want: null },
]);

table(Q('size:git:all', 'repo'), [
  { name: 'quota disabled', given: () => ({ doer: alice, repo: loadedRepo(permAll(Mode.owner)) }), want: null },
  { name: 'quota enabled, no rule for the owner', given: () => ({ config: on, doer: alice, repo: loadedRepo(permAll(Mode.owner)), em: db.em() }), want: null },
]);

table(Q('size:assets:attachments:releases', 'org'), [
  { name: 'quota enabled, no rule for the organization', given: () => ({ config: on, doer: alice, org: fakeOrg(), em: db.em() }), want: null },
]);

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
