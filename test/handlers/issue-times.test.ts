// Tracked time and stopwatches (Forgejo's routers/api/v1/repo/issue_tracked_time.go, issue_stopwatch.go).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRepo, setup, valid, validList, type Env } from './repo-setup.ts';
import { makeToken, makeUser, type TestUser } from '../helpers/fixtures.ts';
import { createIssue } from '../../lib/issues/issues.ts';
import { PENDING } from '../../handlers/pending.ts';
import { secToTime } from '../../model/duration.ts';
import { Repository } from '../../model/repo.ts';
import { Comment, CommentType, Stopwatch, TrackedTime } from '../../model/issue.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

type Repo = Awaited<ReturnType<typeof newRepo>>;
const em = () => env.db.db.orm.em.fork();

/**
 * A new issue of `repo` by `poster`: through the API once issue creation exists, else the library.
 * Assignees go through the library: the API assigns only writers, and the assignee rule matters for
 * the others (a writer who lost write access keeps the assignment).
 */
async function newIssue(repo: Repo, poster: TestUser, assignees: TestUser[] = []): Promise<{ index: number; id: number }> {
  if (!(PENDING as readonly string[]).includes('issues.create') && assignees.length === 0) {
    const r = await env.as(poster, 'POST', `/repos/${repo.full_name}/issues`, { title: 'work' });
    assert.is(r.status, 201, r.text);
    return { index: r.json.number, id: r.json.id };
  }
  const m = em();
  const record = await m.findOneOrFail(Repository, { id: repo.id });
  const issue = await createIssue(m, { repo: record, posterId: poster.id, title: 'work', assigneeIds: assignees.map((u) => u.id) });
  return { index: issue.index, id: issue.id };
}

async function collaborator(repo: Repo, owner: TestUser, u: TestUser, permission: 'read' | 'write' | 'admin') {
  const r = await env.as(owner, 'PUT', `/repos/${repo.full_name}/collaborators/${u.name}`, { permission });
  assert.is(r.status, 204, r.text);
}

async function tracker(repo: Repo, owner: TestUser, t: { enable_time_tracker: boolean; allow_only_contributors_to_track_time: boolean }) {
  const r = await env.as(owner, 'PATCH', `/repos/${repo.full_name}`, { internal_tracker: { ...t, enable_issue_dependencies: true } });
  assert.is(r.status, 200, r.text);
}

const timesOf = (issueId: number) => em().find(TrackedTime, { issueId }, { orderBy: { id: 'asc' } });
const eventsOf = (issueId: number, type: number) => em().find(Comment, { issueId, type }, { orderBy: { id: 'asc' } });

test('add time: 200 TrackedTime with its issue, an add_time_manual event, and the time in the issue list', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const issue = await newIssue(repo, alice);
  const path = `/repos/${repo.full_name}/issues/${issue.index}/times`;
  const r = await env.as(alice, 'POST', path, { time: 3600, created: '2024-01-02T03:04:05Z' });
  assert.is(r.status, 200, r.text);
  valid('TrackedTime', r.json);
  assert.equal(
    { ...r.json, id: 0, issue: null },
    { id: 0, created: '2024-01-02T03:04:05Z', time: 3600, user_id: alice.id, user_name: alice.name, issue_id: issue.id, issue: null },
  );
  valid('Issue', r.json.issue);
  assert.is(r.json.issue.number, issue.index);
  const [ev] = await eventsOf(issue.id, CommentType.addTimeManual);
  assert.equal([ev.content, ev.timeId, ev.posterId], ['|3600', r.json.id, alice.id]);

  const now = await env.as(alice, 'POST', path, { time: -60 });
  assert.is(now.status, 200, 'negative amounts pass, as in Forgejo');
  assert.ok(Math.abs(Date.parse(now.json.created) - Date.now()) < 60_000, now.json.created);
  const list = await env.as(alice, 'GET', path);
  assert.is(list.status, 200);
  validList('TrackedTime', list);
  assert.equal(
    list.json.map((t: any) => t.time),
    [3600, -60],
  );
  assert.is(list.headers.get('x-total-count'), '2');
});

test('add time: bad bodies answer 422 and write nothing', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const issue = await newIssue(repo, alice);
  const path = `/repos/${repo.full_name}/issues/${issue.index}/times`;
  const cases: [unknown, string][] = [
    [{ time: 0 }, '[Time]: Required'],
    [{}, '[Time]: Required'],
    [{ time: 'x' }, ''],
    [{ time: 1.5 }, ''],
    [{ time: 10, created: 'yesterday' }, '[Created]: Invalid'],
    [{ time: 10, user_name: 5 }, ''],
  ];
  for (const [body, message] of cases) {
    const r = await env.as(alice, 'POST', path, body);
    assert.is(r.status, 422, JSON.stringify(body) + r.text);
    if (message) assert.is(r.json.message, message);
  }
  const admin = await env.as(env.admin, 'POST', path, { time: 10, user_name: 'nobody-like-this' });
  assert.is(admin.status, 422, admin.text);
  assert.equal(await timesOf(issue.id), []);
  assert.equal(await eventsOf(issue.id, CommentType.addTimeManual), []);
});

test('who may track time: writers, the poster and assignees when only contributors may; anyone reading when not', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice);
  const byAlice = await newIssue(repo, alice);
  const byBob = await newIssue(repo, bob);
  const assigned = await newIssue(repo, alice, [carol]);
  const times = (i: { index: number }) => `/repos/${repo.full_name}/issues/${i.index}/times`;

  const denied = await env.as(bob, 'POST', times(byAlice), { time: 5 });
  assert.is(denied.status, 403, denied.text);
  assert.equal(await timesOf(byAlice.id), []);
  assert.is((await env.as(bob, 'POST', times(byBob), { time: 5 })).status, 200, 'the poster');
  assert.is((await env.as(carol, 'POST', times(assigned), { time: 5 })).status, 200, 'an assignee');
  assert.is((await env.as(carol, 'POST', times(byAlice), { time: 5 })).status, 403);
  await collaborator(repo, alice, carol, 'write');
  assert.is((await env.as(carol, 'POST', times(byAlice), { time: 5 })).status, 200, 'a writer');
  assert.is((await env.as(undefined, 'POST', times(byAlice), { time: 5 })).status, 401);

  await tracker(repo, alice, { enable_time_tracker: true, allow_only_contributors_to_track_time: false });
  assert.is((await env.as(bob, 'POST', times(byAlice), { time: 7 })).status, 200, 'anyone who can read');
});

test('time tracking off: 400 on writes and repository lists, 404 on the issue list, 403 on stopwatches; nothing written', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const issue = await newIssue(repo, alice);
  const path = `/repos/${repo.full_name}/issues/${issue.index}`;
  assert.is((await env.as(alice, 'POST', `${path}/times`, { time: 5 })).status, 200);
  await tracker(repo, alice, { enable_time_tracker: false, allow_only_contributors_to_track_time: true });
  const add = await env.as(alice, 'POST', `${path}/times`, { time: 5 });
  assert.equal([add.status, add.json.message], [400, 'time tracking disabled']);
  assert.is((await env.as(alice, 'DELETE', `${path}/times`)).status, 400);
  assert.is((await env.as(alice, 'DELETE', `${path}/times/1`)).status, 400);
  assert.is((await env.as(alice, 'GET', `${path}/times`)).status, 404);
  assert.is((await env.as(alice, 'GET', `/repos/${repo.full_name}/times`)).status, 400);
  assert.is((await env.as(alice, 'GET', `/repos/${repo.full_name}/times/${alice.name}`)).status, 400);
  assert.is((await env.as(alice, 'POST', `${path}/stopwatch/start`)).status, 403);
  assert.is((await timesOf(issue.id)).length, 1);
  assert.equal(
    (await timesOf(issue.id)).map((t) => t.deleted),
    [false],
  );
  assert.equal(await em().find(Stopwatch, { issueId: issue.id }), []);
});

test("listing: readers see only their own times and may not ask for others'; writers see all and filter", async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice);
  await tracker(repo, alice, { enable_time_tracker: true, allow_only_contributors_to_track_time: false });
  const issue = await newIssue(repo, alice);
  const path = `/repos/${repo.full_name}/issues/${issue.index}/times`;
  await env.as(alice, 'POST', path, { time: 10, created: '2024-01-01T00:00:00Z' });
  await env.as(bob, 'POST', path, { time: 20, created: '2024-02-01T00:00:00Z' });
  await env.as(carol, 'POST', path, { time: 30, created: '2024-03-01T00:00:00Z' });

  const own = await env.as(bob, 'GET', path);
  validList('TrackedTime', own);
  assert.equal(
    own.json.map((t: any) => t.user_name),
    [bob.name],
  );
  assert.is((await env.as(bob, 'GET', `${path}?user=${bob.name}`)).json.length, 1);
  const other = await env.as(bob, 'GET', `${path}?user=${alice.name}`);
  assert.equal([other.status, other.json.message], [403, 'query by user not allowed; not enough rights']);
  assert.is((await env.as(bob, 'GET', `/repos/${repo.full_name}/times?user=${alice.name}`)).status, 403);

  const all = await env.as(alice, 'GET', path);
  assert.equal(
    all.json.map((t: any) => t.time),
    [10, 20, 30],
  );
  assert.equal(
    (await env.as(alice, 'GET', `${path}?user=${carol.name}`)).json.map((t: any) => t.time),
    [30],
  );
  assert.is((await env.as(alice, 'GET', `${path}?user=no-such-user`)).status, 404);
  const window = await env.as(alice, 'GET', `${path}?since=2024-01-15T00:00:00Z&before=2024-03-01T00:00:00Z`);
  assert.equal(
    window.json.map((t: any) => t.time),
    [20, 30],
  );
  const bad = await env.as(alice, 'GET', `${path}?since=last-week`);
  assert.is(bad.status, 422);
  assert.match(bad.json.message, 'parsing time "last-week"');
  const page = await env.as(alice, 'GET', `${path}?limit=2&page=2`);
  assert.equal([page.json.map((t: any) => t.time), page.headers.get('x-total-count')], [[30], '3']);
  assert.match(page.headers.get('link') ?? '', 'rel="first"');

  const repoTimes = await env.as(alice, 'GET', `/repos/${repo.full_name}/times?user=${bob.name}`);
  validList('TrackedTime', repoTimes);
  assert.equal(
    repoTimes.json.map((t: any) => t.time),
    [20],
  );
  assert.equal(
    (await env.as(carol, 'GET', `/repos/${repo.full_name}/times`)).json.map((t: any) => t.time),
    [30],
  );
});

test('times of one user (deprecated): repository admins, site admins and the user; others 403; unknown 404', async () => {
  const { alice, bob, carol, admin } = env;
  const repo = await newRepo(env, alice);
  await tracker(repo, alice, { enable_time_tracker: true, allow_only_contributors_to_track_time: false });
  const issue = await newIssue(repo, alice);
  await env.as(bob, 'POST', `/repos/${repo.full_name}/issues/${issue.index}/times`, { time: 42 });
  const path = `/repos/${repo.full_name}/times/${bob.name}`;
  for (const u of [alice, bob, admin]) {
    const r = await env.as(u, 'GET', path);
    validList('TrackedTime', r);
    assert.equal(
      r.json.map((t: any) => t.time),
      [42],
      u.name,
    );
    assert.is(r.headers.get('x-total-count'), null);
  }
  await collaborator(repo, alice, carol, 'write');
  assert.is((await env.as(carol, 'GET', path)).status, 403, 'writers are not enough here');
  assert.is((await env.as(alice, 'GET', `/repos/${repo.full_name}/times/no-such-user`)).status, 404);
});

test("reset: marks only the caller's times deleted, records delete_time_manual with the sum; 404 when none", async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  await tracker(repo, alice, { enable_time_tracker: true, allow_only_contributors_to_track_time: false });
  const issue = await newIssue(repo, alice);
  const path = `/repos/${repo.full_name}/issues/${issue.index}/times`;
  await env.as(alice, 'POST', path, { time: 100 });
  await env.as(alice, 'POST', path, { time: 23 });
  await env.as(bob, 'POST', path, { time: 7 });
  assert.is((await env.as(alice, 'DELETE', path)).status, 204);
  assert.equal(
    (await timesOf(issue.id)).map((t) => [t.time, t.deleted]),
    [
      [100, true],
      [23, true],
      [7, false],
    ],
  );
  const [ev] = await eventsOf(issue.id, CommentType.deleteTimeManual);
  assert.equal([ev.content, ev.posterId], ['|123', alice.id]);
  assert.is((await env.as(alice, 'DELETE', path)).status, 404);
  assert.is((await eventsOf(issue.id, CommentType.deleteTimeManual)).length, 1);
  assert.equal(
    (await env.as(alice, 'GET', path)).json.map((t: any) => t.time),
    [7],
  );
});

test('delete one time: the owner or a site admin; repository admins and others 403; unknown, deleted or foreign ids 404', async () => {
  const { alice, bob, admin } = env;
  const repo = await newRepo(env, alice);
  await tracker(repo, alice, { enable_time_tracker: true, allow_only_contributors_to_track_time: false });
  const issue = await newIssue(repo, alice);
  const other = await newIssue(repo, alice);
  const path = `/repos/${repo.full_name}/issues/${issue.index}/times`;
  const mine = (await env.as(alice, 'POST', path, { time: 11 })).json;
  const bobs = (await env.as(bob, 'POST', path, { time: 22 })).json;
  const elsewhere = (await env.as(alice, 'POST', `/repos/${repo.full_name}/issues/${other.index}/times`, { time: 33 })).json;

  assert.is((await env.as(bob, 'DELETE', `${path}/${mine.id}`)).status, 403);
  assert.is((await env.as(alice, 'DELETE', `${path}/${bobs.id}`)).status, 403, 'the repository owner is not a site admin');
  assert.is((await env.as(alice, 'DELETE', `${path}/${elsewhere.id}`)).status, 404, 'a time of another issue');
  assert.is((await env.as(alice, 'DELETE', `${path}/999999`)).status, 404);
  assert.is((await env.as(alice, 'DELETE', `${path}/abc`)).status, 404);
  assert.equal(
    (await timesOf(issue.id)).map((t) => t.deleted),
    [false, false],
  );
  assert.equal(await eventsOf(issue.id, CommentType.deleteTimeManual), []);

  assert.is((await env.as(alice, 'DELETE', `${path}/${mine.id}`)).status, 204);
  assert.is((await env.as(alice, 'DELETE', `${path}/${mine.id}`)).status, 404);
  assert.is((await env.as(admin, 'DELETE', `${path}/${bobs.id}`)).status, 204);
  assert.equal(
    (await timesOf(issue.id)).map((t) => t.deleted),
    [true, true],
  );
  assert.equal(
    (await eventsOf(issue.id, CommentType.deleteTimeManual)).map((c) => [c.content, c.posterId]),
    [
      ['|11', alice.id],
      ['|22', bob.id],
    ],
  );
  assert.is((await timesOf(other.id))[0].deleted, false);
});

test('user_name: site admins and repository admins book time for someone else; writers cannot (ignored, as in Forgejo)', async () => {
  const { alice, bob, carol, admin } = env;
  const repo = await newRepo(env, alice);
  const issue = await newIssue(repo, alice);
  const path = `/repos/${repo.full_name}/issues/${issue.index}/times`;
  const byAdmin = await env.as(admin, 'POST', path, { time: 1, user_name: bob.name });
  assert.equal([byAdmin.status, byAdmin.json.user_name], [200, bob.name]);
  const byOwner = await env.as(alice, 'POST', path, { time: 2, user_name: bob.name });
  assert.equal([byOwner.status, byOwner.json.user_name], [200, bob.name]);
  await collaborator(repo, alice, carol, 'write');
  const byWriter = await env.as(carol, 'POST', path, { time: 3, user_name: bob.name });
  assert.equal([byWriter.status, byWriter.json.user_name], [200, carol.name]);
  assert.equal(
    (await eventsOf(issue.id, CommentType.addTimeManual)).map((c) => c.posterId),
    [bob.id, bob.id, carol.id],
  );
});

test("spec, token kinds: public-only tokens lose the site admin's view of others' time and hide private repositories", async () => {
  const { bob, admin } = env;
  const alice = await makeUser(env.db, env.srv.api);
  const pub = await newRepo(env, alice);
  const priv = await newRepo(env, alice, { private: true });
  await tracker(pub, alice, { enable_time_tracker: true, allow_only_contributors_to_track_time: false });
  const i1 = await newIssue(pub, alice);
  const i2 = await newIssue(priv, alice);
  await env.as(bob, 'POST', `/repos/${pub.full_name}/issues/${i1.index}/times`, { time: 5 });
  await env.as(alice, 'POST', `/repos/${pub.full_name}/issues/${i1.index}/times`, { time: 6 });
  await env.as(alice, 'POST', `/repos/${priv.full_name}/issues/${i2.index}/times`, { time: 7 });

  const path = `/repos/${pub.full_name}/issues/${i1.index}/times?user=${bob.name}`;
  assert.is((await env.as(admin, 'GET', path)).status, 200);
  const limited = await makeToken(env.srv.api, admin, ['public-only', 'read:issue', 'read:repository']);
  assert.is((await env.as(limited, 'GET', path)).status, 403);
  assert.equal((await env.as(limited, 'GET', `/repos/${pub.full_name}/issues/${i1.index}/times`)).json, []);

  const all = await env.as(alice, 'GET', '/user/times');
  validList('TrackedTime', all);
  assert.equal(
    all.json.map((t: any) => t.time),
    [6, 7],
  );
  assert.is(all.headers.get('x-total-count'), '2');
  const publicOnly = await makeToken(env.srv.api, alice, ['public-only', 'read:user']);
  const some = await env.as(publicOnly, 'GET', '/user/times');
  assert.equal(
    some.json.map((t: any) => t.time),
    [6],
  );
  assert.is((await env.as(undefined, 'GET', '/user/times')).status, 401);
  assert.is((await env.as(alice, 'GET', '/user/times?before=nonsense')).status, 422);
});

test('stopwatch: start 201 (409 twice), listed, stop books the time with stop_tracking; stop and cancel 409 without one', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const issue = await newIssue(repo, alice);
  const path = `/repos/${repo.full_name}/issues/${issue.index}/stopwatch`;
  const start = await env.as(alice, 'POST', `${path}/start`);
  assert.equal([start.status, start.text], [201, '']);
  assert.is((await eventsOf(issue.id, CommentType.startTracking)).length, 1);
  const again = await env.as(alice, 'POST', `${path}/start`);
  assert.equal([again.status, again.json.message], [409, 'cannot start a stopwatch again if it already exists']);
  assert.is((await eventsOf(issue.id, CommentType.startTracking)).length, 1);

  const list = await env.as(alice, 'GET', '/user/stopwatches');
  validList('StopWatch', list);
  assert.is(list.headers.get('x-total-count'), '1');
  const [sw] = list.json;
  assert.equal([sw.issue_index, sw.issue_title, sw.repo_owner_name, sw.repo_name], [issue.index, 'work', alice.name, repo.name]);
  assert.ok(sw.seconds >= 0 && sw.seconds < 60, String(sw.seconds));
  assert.type(sw.duration, 'string');

  // Back-date the stopwatch so the booked time is known.
  await em().nativeUpdate(Stopwatch, { issueId: issue.id }, { createdAt: new Date(Date.now() - 3725_000) });
  assert.is((await env.as(alice, 'GET', '/user/stopwatches')).json[0].duration, '1 hour 2 minutes');
  const stop = await env.as(alice, 'POST', `${path}/stop`);
  assert.equal([stop.status, stop.text], [201, '']);
  const [t] = await timesOf(issue.id);
  assert.ok(t.time >= 3725 && t.time < 3790, String(t.time));
  const [ev] = await eventsOf(issue.id, CommentType.stopTracking);
  assert.equal([ev.timeId, ev.content], [t.id, secToTime(t.time)]);
  assert.equal((await env.as(alice, 'GET', '/user/stopwatches')).json, []);
  assert.is((await env.as(alice, 'POST', `${path}/stop`)).status, 409);
  assert.is((await env.as(alice, 'DELETE', `${path}/delete`)).status, 409);
  assert.is((await timesOf(issue.id)).length, 1);
});

test('stopwatch: cancel books nothing (cancel_tracking); starting on another issue stops the running one', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const a = await newIssue(repo, alice);
  const b = await newIssue(repo, alice);
  const sw = (i: { index: number }, action: string) => `/repos/${repo.full_name}/issues/${i.index}/stopwatch/${action}`;
  assert.is((await env.as(alice, 'POST', sw(a, 'start'))).status, 201);
  assert.is((await env.as(alice, 'DELETE', sw(a, 'delete'))).status, 204);
  assert.equal(await timesOf(a.id), []);
  assert.is((await eventsOf(a.id, CommentType.cancelTracking)).length, 1);

  assert.is((await env.as(alice, 'POST', sw(a, 'start'))).status, 201);
  assert.is((await env.as(alice, 'POST', sw(b, 'start'))).status, 201);
  assert.is((await timesOf(a.id)).length, 1, 'the running stopwatch on a was stopped and booked');
  assert.is((await eventsOf(a.id, CommentType.stopTracking)).length, 1);
  const running = await env.as(alice, 'GET', '/user/stopwatches');
  assert.equal(
    running.json.map((s: any) => s.issue_index),
    [b.index],
  );
});

test('stopwatch: only writers who may track time (readers and posters 403, anonymous 401); nothing written', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  await tracker(repo, alice, { enable_time_tracker: true, allow_only_contributors_to_track_time: false });
  const byBob = await newIssue(repo, bob);
  const path = `/repos/${repo.full_name}/issues/${byBob.index}/stopwatch`;
  assert.is((await env.as(bob, 'POST', `${path}/start`)).status, 403);
  assert.is((await env.as(undefined, 'POST', `${path}/start`)).status, 401);
  assert.is((await env.as(alice, 'POST', `/repos/${repo.full_name}/issues/999/stopwatch/start`)).status, 404);
  assert.equal(await em().find(Stopwatch, { issueId: byBob.id }), []);
  assert.equal(await eventsOf(byBob.id, CommentType.startTracking), []);
  assert.is((await env.as(alice, 'POST', `${path}/start`)).status, 201);
  assert.is((await env.as(bob, 'POST', `${path}/stop`)).status, 403);
  assert.is((await env.as(bob, 'DELETE', `${path}/delete`)).status, 403);
  assert.is((await em().find(Stopwatch, { issueId: byBob.id })).length, 1);
});

test("Forgejo's SecToTime: the two largest units", () => {
  const cases: [number, string][] = [
    [66, '1 minute 6 seconds'],
    [3600, '1 hour'],
    [3601, '1 hour'],
    [14 * 3600 + 33 * 60 + 30, '14 hours 33 minutes'],
    [6 * 86400 + 12 * 3600 + 1818, '6 days 12 hours'],
    [18 * 86400 + 8218, '2 weeks 4 days'],
    [28 * 86400, '4 weeks'],
    [45 * 86400 + 49125, '1 month 2 weeks'],
    [340 * 86400, '11 months'],
    [528 * 86400 + 36665, '1 year 5 months'],
    [0, ''],
  ];
  for (const [n, s] of cases) assert.is(secToTime(n), s, String(n));
});

test.run();
