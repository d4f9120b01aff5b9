// The review steps. REVIEW (Forgejo's GetReviewByID / prepareSingleReview): unknown 404 naming the id;
// a review of another pull 404 "ReviewNotInPR"; someone else's pending review 404 unless the caller is a
// review admin (repository or site admin, not through public-only or repo-specific tokens).
// REVIEWER(submit|comment), REVIEWER_OR_ADMIN, REVIEW_ADMIN and DISMISSABLE decide who may act on it
// (403). Reviews are real rows; the pull is the in-memory half the loader would provide.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REVIEW } from '../../guards/review.ts';
import { REVIEWER, REVIEWER_OR_ADMIN } from '../../guards/reviewer.ts';
import { REVIEW_ADMIN } from '../../guards/review-admin.ts';
import { DISMISSABLE } from '../../guards/dismissable.ts';
import { Mode, type AccessMode } from '../../lib/auth/perm.ts';
import { createIssue } from '../../lib/issues/issues.ts';
import { Review, ReviewType, type IPullRequest, type IReview } from '../../model/pull.ts';
import type { IIssue } from '../../model/issue.ts';
import type { IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import { fakeUser, loadedRepo, loose, permAll, table, token, type Given } from './state.ts';
import { mkRepo, mkUser, openGuardDb, type GuardDb } from './db.ts';

let db: GuardDb;
let owner: IUser;
let reviewer: IUser;
let reader: IUser;
let repo: IRepository;
let pullIssue: IIssue;
let otherIssue: IIssue;
let approval: IReview;
let draft: IReview;
let elsewhere: IReview;

test.before(async () => {
  db = await openGuardDb();
  owner = await mkUser(db);
  reviewer = await mkUser(db);
  reader = await mkUser(db);
  repo = await mkRepo(db, owner, owner);
  pullIssue = await createIssue(db.em(), { repo, posterId: owner.id, title: 'pull', isPull: true });
  otherIssue = await createIssue(db.em(), { repo, posterId: owner.id, title: 'other pull', isPull: true });
  const em = db.em();
  approval = em.create(Review, { type: ReviewType.approve, issueId: pullIssue.id, reviewerId: reviewer.id });
  draft = em.create(Review, { type: ReviewType.pending, issueId: pullIssue.id, reviewerId: reviewer.id });
  elsewhere = em.create(Review, { type: ReviewType.approve, issueId: otherIssue.id, reviewerId: reviewer.id });
  await em.flush();
});
test.after(async () => {
  await db.close();
});

const siteAdmin = fakeUser({ isAdmin: true });
const on =
  (who: () => IUser, id: () => IReview | string, mode: AccessMode = Mode.read, extra: Partial<Given> = {}) =>
  (): Given => {
    const r = id();
    return {
      em: db.em(),
      doer: who(),
      repo: { repo, owner, perm: permAll(mode) },
      params: { id: typeof r === 'string' ? r : String(r.id) },
      pull: { pull: {} as IPullRequest, issue: pullIssue },
      ...extra,
    };
  };

table(REVIEW, [
  {
    name: 'unknown',
    given: on(
      () => reader,
      () => '999999',
    ),
    want: { status: 404, message: 'GetReviewByID', errors: ['review does not exist [id: 999999]'] },
  },
  {
    name: 'of another pull',
    given: on(
      () => reader,
      () => elsewhere,
    ),
    want: { status: 404, message: 'ReviewNotInPR', errors: [] },
  },
  {
    name: 'an approval, any reader',
    given: on(
      () => reader,
      () => approval,
    ),
    want: null,
    then: (s) => assert.is(s.review?.id, approval.id),
  },
  {
    name: "someone else's draft",
    given: on(
      () => reader,
      () => draft,
    ),
    want: { status: 404, message: 'GetReviewByID', errors: [] },
  },
  {
    name: 'my own draft',
    given: on(
      () => reviewer,
      () => draft,
    ),
    want: null,
  },
  {
    name: "a repository admin sees others' drafts",
    given: on(
      () => owner,
      () => draft,
      Mode.admin,
    ),
    want: null,
  },
  {
    name: 'a site admin sees them',
    given: on(
      () => siteAdmin,
      () => draft,
    ),
    want: null,
  },
  {
    name: 'not through a repo-specific token',
    given: on(
      () => owner,
      () => draft,
      Mode.admin,
      { token: token('read:repository', [1]) },
    ),
    want: 404,
  },
]);

/** Pure decisions over an in-memory review. */
const rev = (over: Partial<IReview>) => ({ id: 1, type: ReviewType.pending, reviewerId: 1, issueId: 1, ...over }) as IReview;
const alice = fakeUser();
const bob = fakeUser();
const as =
  (doer: IUser, review: IReview, mode: AccessMode = Mode.read, extra: Partial<Given> = {}) =>
  (): Given => ({
    doer,
    repo: loadedRepo(permAll(mode)),
    review,
    ...extra,
  });

table(REVIEWER('submit'), [
  { name: 'its reviewer', given: as(alice, rev({ reviewerId: alice.id })), want: null },
  {
    name: "someone else's pending review",
    given: as(bob, rev({ reviewerId: alice.id })),
    want: { status: 403, message: 'only the reviewer can submit a pending review' },
  },
  {
    name: "someone else's submitted review: the handler's 422 decides",
    given: as(bob, rev({ reviewerId: alice.id, type: ReviewType.approve })),
    want: null,
  },
]);

table(REVIEWER('comment'), [
  { name: 'its reviewer', given: as(alice, rev({ reviewerId: alice.id })), want: null },
  {
    name: 'someone else, even on a submitted review',
    given: as(bob, rev({ reviewerId: alice.id, type: ReviewType.approve })),
    want: { status: 403, message: 'only the reviewer can add comments to a review' },
  },
]);

const notOwnReview = { status: 403, message: 'only admin and user itself can delete a review' };
table(REVIEWER_OR_ADMIN, [
  { name: 'its reviewer', given: as(alice, rev({ reviewerId: alice.id })), want: null },
  { name: 'a writer', given: as(bob, rev({ reviewerId: alice.id }), Mode.write), want: notOwnReview },
  { name: 'a repository admin', given: as(bob, rev({ reviewerId: alice.id }), Mode.admin), want: null },
  {
    name: 'a repository admin with a public-only token',
    given: as(bob, rev({ reviewerId: alice.id }), Mode.admin, { token: token('public-only,all') }),
    want: notOwnReview,
  },
]);

table(REVIEW_ADMIN, [
  { name: 'a writer', given: as(bob, rev({}), Mode.write), want: { status: 403, message: 'Must be repo admin' } },
  { name: 'a repository admin', given: as(bob, rev({}), Mode.admin), want: null },
  { name: 'a site admin', given: as(siteAdmin, rev({})), want: null },
  {
    name: 'a site admin with a repo-specific token',
    given: as(siteAdmin, rev({}), Mode.read, { token: token('write:repository', [1]) }),
    want: 403,
  },
]);

const pullState =
  (review: IReview, closed = false, merged = false) =>
  (): Given => ({ review, pull: { issue: { isClosed: closed } as IIssue, pull: { hasMerged: merged } as IPullRequest } });
table(DISMISSABLE, [
  { name: 'an approval of an open pull', given: pullState(rev({ type: ReviewType.approve })), want: null },
  { name: 'a change request', given: pullState(rev({ type: ReviewType.reject })), want: null },
  {
    name: 'a comment review',
    given: pullState(rev({ type: ReviewType.comment })),
    want: { status: 403, message: "not need to dismiss this review because it's type is not Approve or change request" },
  },
  {
    name: 'a closed pull',
    given: pullState(rev({ type: ReviewType.approve }), true),
    want: { status: 403, message: "can't dismiss a review associated to a closed or merged PR" },
  },
  { name: 'a merged pull', given: pullState(rev({ type: ReviewType.approve }), false, true), want: 403 },
]);

test('REVIEWER: unknown actions stop the start', () => {
  assert.throws(() => loose(REVIEWER)('delete'), /REVIEWER: unknown action "delete"/);
});

test.run();
