// ISSUE, the issue loader (spec, path resolution): the issue or pull numbered `{index}` of the addressed
// repository; unknown, out of range, or of a unit the caller cannot read (issues, or pulls for a pull)
// is 404. Rows are real database rows written through lib/issues.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ISSUE } from '../../guards/issue.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { createIssue } from '../../lib/issues/issues.ts';
import type { IIssue } from '../../model/issue.ts';
import type { IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import type { RequestState } from '../../guards/types.ts';
import { fakeUser, perm, permAll, table, token, type Given } from './state.ts';
import { mkRepo, mkUser, openGuardDb, type GuardDb } from './db.ts';

const missing = { status: 404, message: "The target couldn't be found.", errors: [] };

let db: GuardDb;
let owner: IUser;
let repo: IRepository;
let other: IRepository;
let anIssue: IIssue;
let aPull: IIssue;
let elsewhere: IIssue;

test.before(async () => {
  db = await openGuardDb();
  owner = await mkUser(db);
  repo = await mkRepo(db, owner, owner);
  other = await mkRepo(db, owner, owner);
  anIssue = await createIssue(db.em(), { repo, posterId: owner.id, title: 'issue' });
  aPull = await createIssue(db.em(), { repo, posterId: owner.id, title: 'pull', isPull: true });
  elsewhere = await createIssue(db.em(), { repo: other, posterId: owner.id, title: 'other' });
});
test.after(async () => {
  await db.close();
});

const on =
  (index: () => string, p = () => permAll(Mode.read), extra: Partial<Given> = {}) =>
  (): Given => ({
    em: db.em(),
    doer: owner,
    repo: { repo, owner, perm: p() },
    params: { index: index() },
    ...extra,
  });
const readsIssuesOnly = () => perm(Mode.none, { issues: Mode.read });
const readsPullsOnly = () => perm(Mode.none, { pulls: Mode.read });
const provides = (want: () => IIssue) => (s: RequestState) => {
  assert.ok(s.issue, 'no issue provided');
  assert.is(s.issue.id, want().id);
};
const siteAdmin = fakeUser({ isAdmin: true });

table(ISSUE, [
  { name: 'unknown index', given: on(() => '99999'), want: missing },
  { name: 'not a number', given: on(() => 'one'), want: missing },
  { name: 'zero', given: on(() => '0'), want: missing },
  { name: 'beyond 32 bits', given: on(() => '4294967297'), want: missing },
  { name: "the index of another repository's issue only", given: on(() => String(elsewhere.index + 1000)), want: missing },
  { name: 'a pull while the caller reads only issues', given: on(() => String(aPull.index), readsIssuesOnly), want: missing },
  { name: 'an issue while the caller reads only pulls', given: on(() => String(anIssue.index), readsPullsOnly), want: missing },
  {
    name: 'a readable issue is provided',
    given: on(() => String(anIssue.index), readsIssuesOnly),
    want: null,
    then: provides(() => anIssue),
  },
  {
    name: 'a readable pull is provided (issue routes reach pulls)',
    given: on(() => String(aPull.index), readsPullsOnly),
    want: null,
    then: provides(() => aPull),
  },
  {
    name: 'a site admin without access reads an enabled unit',
    given: on(
      () => String(anIssue.index),
      () => perm(Mode.none),
      { doer: siteAdmin },
    ),
    want: null,
  },
  {
    name: 'not through a public-only token',
    given: on(
      () => String(anIssue.index),
      () => perm(Mode.none),
      { doer: siteAdmin, token: token('public-only,all') },
    ),
    want: missing,
  },
]);

test('ISSUE: needs the repository, provides the issue', () => {
  assert.equal([...ISSUE.needs], ['repo']);
  assert.equal([...ISSUE.provides], ['issue']);
});

test.run();
