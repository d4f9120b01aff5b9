// The time-tracking steps of an issue. TRACK_TIME (Forgejo's CanUseTimetracker): tracking off 400;
// on, and only contributors may track: writers of the issue's unit, its poster and its assignees, else
// 403. STOPWATCH (prepareIssueStopwatch): a writer who may track time, else 403. TIME_TRACKER_GATE:
// tracking off 404 "Timetracker is disabled". TRACKED_TIME: the time `{id}` of the issue (unknown,
// elsewhere or deleted 404). TIME_OWNER: the time's user or a site admin (not through public-only or
// repo-specific tokens), else 403. Issues, assignees and times are real rows.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TRACK_TIME } from '../../guards/track-time.ts';
import { STOPWATCH } from '../../guards/stopwatch.ts';
import { TRACKED_TIME } from '../../guards/tracked-time.ts';
import { TIME_OWNER } from '../../guards/time-owner.ts';
import { TIME_TRACKER_GATE, TIME_TRACKING_ON } from '../../guards/gates.ts';
import { TIMES_OF_USER, TIMES_USER } from '../../guards/times-user.ts';
import { Mode, Unit, type AccessMode } from '../../lib/auth/perm.ts';
import { createIssue } from '../../lib/issues/issues.ts';
import { IssueAssignee, TrackedTime, type IIssue, type ITrackedTime } from '../../model/issue.ts';
import type { IRepoUnit, IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import { fakeUser, perm, permAll, state, table, token, type Given } from './state.ts';
import { mkRepo, mkUser, openGuardDb, type GuardDb } from './db.ts';

let db: GuardDb;
let owner: IUser;
let poster: IUser;
let assignee: IUser;
let stranger: IUser;
let repo: IRepository;
let issue: IIssue;
let other: IIssue;
let time: ITrackedTime;
let deleted: ITrackedTime;

test.before(async () => {
  db = await openGuardDb();
  owner = await mkUser(db);
  poster = await mkUser(db);
  assignee = await mkUser(db);
  stranger = await mkUser(db);
  repo = await mkRepo(db, owner, owner);
  issue = await createIssue(db.em(), { repo, posterId: poster.id, title: 'tracked' });
  other = await createIssue(db.em(), { repo, posterId: poster.id, title: 'other' });
  const em = db.em();
  em.create(IssueAssignee, { issueId: issue.id, assigneeId: assignee.id });
  time = em.create(TrackedTime, { issueId: issue.id, userId: poster.id, time: 60 });
  deleted = em.create(TrackedTime, { issueId: issue.id, userId: poster.id, time: 60, deleted: true });
  await em.flush();
});
test.after(async () => {
  await db.close();
});

const tracker = (config: Record<string, unknown>): IRepoUnit[] => [{ id: 1, repoId: 0, type: Unit.issues, config } as IRepoUnit];
const on =
  (who: () => IUser, mode: AccessMode = Mode.read, config: Record<string, unknown> = {}, extra: Partial<Given> = {}) =>
  (): Given => ({
    em: db.em(),
    doer: who(),
    repo: { repo, owner, perm: mode === Mode.read ? permAll(Mode.read) : perm(mode, { issues: mode }), units: tracker(config) },
    issue,
    ...extra,
  });
const off = { enable_time_tracker: false };
const anyone = { allow_only_contributors_to_track_time: false };
const cannotTrack = { status: 403, message: 'user should be a writer of the issue, its poster or an assignee to track time' };
const cannotToggle = { status: 403, message: 'Not repo writer, user does not have rights to toggle stopwatch' };

table(TRACK_TIME, [
  { name: 'tracking off, writer: 400', given: on(() => owner, Mode.write, off), want: { status: 400, message: 'time tracking disabled' } },
  { name: 'a writer', given: on(() => stranger, Mode.write), want: null },
  { name: "the issue's poster who only reads", given: on(() => poster), want: null },
  { name: 'an assignee who only reads', given: on(() => assignee), want: null },
  { name: 'another reader', given: on(() => stranger), want: cannotTrack },
  { name: 'another reader when anyone may track', given: on(() => stranger, Mode.read, anyone), want: null },
]);

table(STOPWATCH, [
  { name: 'a writer', given: on(() => stranger, Mode.write), want: null },
  { name: "the issue's poster who only reads", given: on(() => poster), want: cannotToggle },
  { name: 'a reader when anyone may track', given: on(() => stranger, Mode.read, anyone), want: cannotToggle },
  { name: 'a writer with tracking off', given: on(() => stranger, Mode.write, off), want: cannotToggle },
]);

table(TIME_TRACKER_GATE, [
  { name: 'tracking on', given: on(() => stranger), want: null },
  {
    name: 'tracking off',
    given: on(() => stranger, Mode.read, off),
    want: { status: 404, message: 'Timetracker is disabled', errors: [] },
  },
]);

const timeOn =
  (id: () => string, target = () => issue) =>
  (): Given => ({ em: db.em(), doer: poster, issue: target(), params: { id: id() } });
table(TRACKED_TIME, [
  { name: 'a time of the issue', given: timeOn(() => String(time.id)), want: null, then: (s) => assert.is(s.trackedTime?.id, time.id) },
  { name: 'unknown', given: timeOn(() => '999999'), want: { status: 404, errors: ['tracked_time does not exist [id: 999999]'] } },
  {
    name: 'a time of another issue',
    given: timeOn(
      () => String(time.id),
      () => other,
    ),
    want: 404,
  },
  { name: 'already deleted', given: timeOn(() => String(deleted.id)), want: 404 },
]);

test('TRACKED_TIME: the 404s name the time as Forgejo does', async () => {
  const elsewhere = await TRACKED_TIME.run(
    state(
      timeOn(
        () => String(time.id),
        () => other,
      )(),
    ),
  );
  assert.equal(elsewhere && 'errors' in elsewhere ? elsewhere.errors : null, [`tracked_time does not exist [id: ${time.id}]`]);
  const gone = await TRACKED_TIME.run(state(timeOn(() => String(deleted.id))()));
  assert.equal(gone && 'errors' in gone ? gone.errors : null, [`tracked time [${deleted.id}] already deleted`]);
});

const admin = fakeUser({ isAdmin: true });
const notOwn = { status: 403, message: 'only the user who tracked the time or a site admin may delete it' };
table(TIME_OWNER, [
  { name: 'its user', given: () => ({ doer: poster, trackedTime: time }), want: null },
  {
    name: 'the repository owner',
    given: () => ({ doer: owner, repo: { repo, owner, perm: permAll(Mode.owner) }, trackedTime: time }),
    want: notOwn,
  },
  { name: 'a site admin', given: () => ({ doer: admin, trackedTime: time }), want: null },
  {
    name: 'a site admin with a public-only token',
    given: () => ({ doer: admin, token: token('public-only,all'), trackedTime: time }),
    want: notOwn,
  },
]);

table(TIME_TRACKING_ON, [
  { name: 'tracking on', given: on(() => stranger), want: null },
  { name: 'tracking off', given: on(() => stranger, Mode.read, off), want: { status: 400, message: 'time tracking disabled' } },
]);

table(TIMES_USER, [
  {
    name: 'unknown user',
    given: () => ({ em: db.em(), params: { timetrackingusername: 'Nobody-Here' } }),
    want: { status: 404, errors: ['user does not exist [uid: 0, name: Nobody-Here]'] },
  },
  {
    name: 'a user, any case',
    given: () => ({ em: db.em(), params: { timetrackingusername: poster.name.toUpperCase() } }),
    want: null,
    then: (s) => assert.is(s.contextUser?.id, poster.id),
  },
]);

const notAllowed = { status: 403, message: 'query by user not allowed; not enough rights' };
table(TIMES_OF_USER, [
  {
    name: 'the user themself',
    given: () => ({ doer: poster, contextUser: poster, repo: { repo, owner, perm: permAll(Mode.read) } }),
    want: null,
  },
  {
    name: 'a writer asking for someone else',
    given: () => ({ doer: stranger, contextUser: poster, repo: { repo, owner, perm: permAll(Mode.write) } }),
    want: notAllowed,
  },
  {
    name: 'a repository admin',
    given: () => ({ doer: owner, contextUser: poster, repo: { repo, owner, perm: permAll(Mode.admin) } }),
    want: null,
  },
  {
    name: 'a site admin',
    given: () => ({ doer: admin, contextUser: poster, repo: { repo, owner, perm: permAll(Mode.read) } }),
    want: null,
  },
  {
    name: 'a site admin with a repo-specific token',
    given: () => ({
      doer: admin,
      token: token('read:repository', [1]),
      contextUser: poster,
      repo: { repo, owner, perm: permAll(Mode.read) },
    }),
    want: notAllowed,
  },
]);

test.run();
