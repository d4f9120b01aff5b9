// Notification threads (Forgejo's routers/api/v1/notify/*.go, models/activities/notification*.go):
// written by lib/activity/notify.ts when issues and pulls move, read and marked through the API.
import http from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRepo, setup, valid, validList, type Env } from './repo-setup.ts';
import { makeToken, makeUser, type TestUser } from '../helpers/fixtures.ts';
import { call } from '../helpers/client.ts';
import { Notification, NotificationStatus } from '../../model/notification.ts';
import { Comment, CommentType, Issue, IssueWatch } from '../../model/issue.ts';
import { Repository } from '../../model/repo.ts';
import { Watch, WatchMode } from '../../model/star.ts';
import { createIssue } from '../../lib/issues/issues.ts';
import { notifyIssueEvent } from '../../lib/activity/notify.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

type Repo = Awaited<ReturnType<typeof newRepo>>;
interface Thread {
  id: number;
  unread: boolean;
  pinned: boolean;
  updated_at: string;
  url: string;
  repository: { id: number; full_name: string; [k: string]: unknown };
  subject: {
    title: string;
    url: string;
    html_url: string;
    latest_comment_url: string;
    latest_comment_html_url: string;
    type: string;
    state: string;
  };
}

const em = () => env.db.db.orm.em.fork();

/**
 * PUT and PATCH answer 205 with a JSON body, as Forgejo does; fetch drops bodies of 205 (a "null body
 * status"), so these calls go through node:http to see what is on the wire.
 */
async function mark(u: TestUser | string, method: 'PUT' | 'PATCH', path: string): Promise<{ status: number; text: string; json: any }> {
  const token = typeof u === 'string' ? u : u.token;
  const out = await new Promise<{ status: number; text: string; json: any }>((resolve, reject) => {
    const req = http.request(`${env.srv.api}${path}`, { method, headers: { Authorization: `token ${token}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => {
        const isJson = (res.headers['content-type'] ?? '').includes('json') && text !== '';
        resolve({ status: res.statusCode ?? 0, text, json: isJson ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    req.end();
  });
  if (out.status >= 400) valid(out.status === 403 ? 'APIForbiddenError' : out.status === 404 ? 'APINotFound' : 'APIError', out.json);
  return out;
}
const validThreads = (r: { json: any; text: string }) => {
  assert.ok(Array.isArray(r.json), r.text);
  for (const t of r.json) valid('NotificationThread', t);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rows = (userId: number) => em().find(Notification, { userId }, { orderBy: { id: 'asc' } });

async function openIssue(repo: Repo, u: TestUser, title = 'broken') {
  const r = await env.as(u, 'POST', `/repos/${repo.full_name}/issues`, { title });
  assert.is(r.status, 201, r.text);
  return r.json as { id: number; number: number };
}

async function comment(repo: Repo, u: TestUser, index: number, body = 'me too') {
  const r = await env.as(u, 'POST', `/repos/${repo.full_name}/issues/${index}/comments`, { body });
  assert.is(r.status, 201, r.text);
  return r.json as { id: number };
}

async function threads(u: TestUser | string, query = ''): Promise<Thread[]> {
  const r = await env.as(u, 'GET', `/notifications${query}`);
  assert.is(r.status, 200, r.text);
  validList('NotificationThread', r);
  return r.json as Thread[];
}

async function newCount(u: TestUser | string): Promise<number> {
  const r = await env.as(u, 'GET', '/notifications/new');
  assert.is(r.status, 200, r.text);
  valid('NotificationCount', r.json);
  return r.json.new;
}

/** A repository of `owner` (who watches it from creation) with a fresh user set-up. */
const repoOf = (owner: TestUser, extra: Record<string, unknown> = {}) => newRepo(env, owner, extra);

async function collaborator(repo: Repo, owner: TestUser, u: TestUser, permission = 'write') {
  const r = await env.as(owner, 'PUT', `/repos/${repo.full_name}/collaborators/${u.name}`, { permission });
  assert.ok(r.status === 204 || r.status === 201, r.text);
}

/** Clears every thread of the users, so each test counts from zero. */
async function clear(...users: TestUser[]) {
  await em().nativeDelete(Notification, { userId: { $in: users.map((u) => u.id) } });
}

// ---------------------------------------------------------------------------------------------
// Creating threads

test('a repository watcher gets one unread Issue thread when another user opens an issue; the doer gets none', async () => {
  const { alice, bob } = env;
  await clear(alice, bob);
  const repo = await repoOf(alice);
  const issue = await openIssue(repo, bob, 'crash on start');
  const list = await threads(alice);
  assert.is(list.length, 1);
  const t = list[0];
  assert.equal([t.unread, t.pinned], [true, false]);
  assert.is(t.url, `${env.srv.url}/api/v1/notifications/threads/${t.id}`);
  assert.is(t.repository.full_name, repo.full_name);
  assert.not.ok('permissions' in t.repository, 'Forgejo drops the repository permissions');
  valid('Repository', t.repository);
  assert.equal(t.subject, {
    title: 'crash on start',
    type: 'Issue',
    state: 'open',
    url: `${env.srv.url}/api/v1/repos/${repo.full_name}/issues/${issue.number}`,
    html_url: `${env.srv.url}/${repo.full_name}/issues/${issue.number}`,
    latest_comment_url: '',
    latest_comment_html_url: '',
  });
  assert.is(await newCount(alice), 1);
  assert.equal(await threads(bob), [], 'the poster caused it');
  const r = await env.as(alice, 'GET', '/notifications');
  assert.is(r.headers.get('x-total-count'), '1');
  assert.is(r.headers.get('link'), null, 'Forgejo sends X-Total-Count alone');
});

test('a new issue: every watcher but the doer and those who blocked the doer, threads in the order of their ids', async () => {
  const { alice, bob, carol } = env;
  const dave = await makeUser(env.db, env.srv.api);
  await clear(alice, bob, carol);
  const repo = await repoOf(alice);
  for (const u of [carol, dave, bob]) assert.is((await env.as(u, 'PUT', `/repos/${repo.full_name}/subscription`)).status, 200);
  assert.is((await env.as(dave, 'PUT', `/user/block/${bob.name}`)).status, 204);
  const issue = await openIssue(repo, bob, 'watchers only');
  const all = await em().find(Notification, { issueId: issue.id }, { orderBy: { id: 'asc' } });
  assert.equal(
    all.map((n) => n.userId),
    [alice.id, carol.id].sort((a, b) => a - b),
    'alice and carol, by id: not bob (the doer) nor dave (who blocked bob)',
  );
  assert.ok(all.every((n) => n.status === NotificationStatus.unread));
  // Carol's comment goes through the whole list of followers: the poster and dave now have a thread
  // too (dave blocked bob, not carol), alice's is the same one, and carol keeps hers.
  await comment(repo, carol, issue.number, 'seen');
  const after = await em().find(Notification, { issueId: issue.id }, { orderBy: { id: 'asc' } });
  const byId = (xs: number[]) => [...xs].sort((a, b) => a - b);
  assert.equal(byId(after.map((n) => n.userId)), byId([alice.id, bob.id, carol.id, dave.id]));
  assert.is(after.find((n) => n.userId === alice.id)!.id, all.find((n) => n.userId === alice.id)!.id);
});

test('a comment updates the same thread (one per user and issue) and points at the latest comment; participants follow', async () => {
  const { alice, bob } = env;
  await clear(alice, bob);
  const repo = await repoOf(alice);
  const issue = await openIssue(repo, bob);
  const [first] = await threads(alice);
  await sleep(1100);
  const c = await comment(repo, bob, issue.number);
  const list = await threads(alice);
  assert.is(list.length, 1, 'still one thread');
  assert.is(list[0].id, first.id);
  assert.ok(list[0].updated_at > first.updated_at, `${list[0].updated_at} > ${first.updated_at}`);
  assert.is(list[0].subject.latest_comment_url, `${env.srv.url}/api/v1/repos/${repo.full_name}/issues/comments/${c.id}`);
  assert.is(list[0].subject.latest_comment_html_url, `${env.srv.url}/${repo.full_name}/issues/${issue.number}#issuecomment-${c.id}`);
  assert.is((await rows(alice.id)).length, 1);
  // Alice answers: bob (the poster) hears of it, alice does not get a second thread.
  await comment(repo, alice, issue.number, 'looking');
  const bobs = await threads(bob);
  assert.is(bobs.length, 1);
  assert.is(bobs[0].subject.title, 'broken');
  assert.is((await rows(alice.id)).length, 1);
});

test('participants (Forgejo GetParticipantIDsByIssue): every poster of a comment, code comment or review, and no other event', async () => {
  const { alice, bob, carol } = env;
  await clear(alice, bob, carol);
  const repo = await repoOf(alice);
  const issue = await openIssue(repo, alice);
  const row = await em().findOneOrFail(Issue, { repoId: repo.id, index: issue.number });
  // Rows as an import leaves them: no watches, posters interleaved, one poster only of a label event.
  const at = new Date();
  const posted = (posterId: number, type: number) => ({ issueId: row.id, posterId, type, createdAt: at, updatedAt: at });
  await em().insert(Comment, posted(carol.id, CommentType.review));
  await em().insert(Comment, posted(bob.id, CommentType.label));
  await em().insert(Comment, posted(carol.id, CommentType.comment));
  await em().insert(Comment, posted(bob.id, CommentType.label));
  await notifyIssueEvent(em(), { issue: row, doerId: alice.id });
  assert.is((await rows(carol.id)).length, 1, 'carol reviewed and commented');
  assert.is((await rows(bob.id)).length, 0, 'bob only labelled');
  await em().insert(Comment, posted(bob.id, CommentType.code));
  await notifyIssueEvent(em(), { issue: row, doerId: alice.id });
  assert.is((await rows(bob.id)).length, 1, 'a code comment takes part');
});

test('users who cannot read the issue get nothing; an explicit unsubscription is respected', async () => {
  const { alice, bob, carol } = env;
  await clear(alice, bob, carol);
  const repo = await repoOf(alice, { private: true });
  await collaborator(repo, alice, bob);
  // A stale watch of a private repository carol cannot read (e.g. access removed since).
  await em().insert(Watch, { userId: carol.id, repoId: repo.id, mode: WatchMode.normal, createdAt: new Date(), updatedAt: new Date() });
  const issue = await openIssue(repo, bob);
  assert.is((await rows(carol.id)).length, 0, 'no read access, no thread');
  assert.is((await rows(alice.id)).length, 1);
  // Alice unsubscribes from the issue: the next comment leaves her thread alone.
  await clear(alice);
  const r = await env.as(alice, 'DELETE', `/repos/${repo.full_name}/issues/${issue.number}/subscriptions/${alice.name}`);
  assert.is(r.status, 201, r.text);
  await comment(repo, bob, issue.number);
  assert.is((await rows(alice.id)).length, 0);
  assert.ok(await em().findOne(IssueWatch, { userId: alice.id, isWatching: false }));
});

test('assigning notifies the new assignee only', async () => {
  const { alice, bob, carol } = env;
  await clear(alice, bob, carol);
  const repo = await repoOf(alice);
  await collaborator(repo, alice, carol);
  const issue = await openIssue(repo, alice);
  assert.is((await rows(carol.id)).length, 0, 'carol does not watch the repository');
  const r = await env.as(alice, 'PATCH', `/repos/${repo.full_name}/issues/${issue.number}`, { assignees: [carol.name] });
  assert.is(r.status, 201, r.text);
  const list = await threads(carol);
  assert.is(list.length, 1);
  assert.is(list[0].subject.url, `${env.srv.url}/api/v1/repos/${repo.full_name}/issues/${issue.number}`);
  assert.is((await rows(alice.id)).length, 0, 'the doer is not notified');
});

test('deleting the issue or the repository removes its threads', async () => {
  const { alice, bob } = env;
  await clear(alice, bob);
  const repo = await repoOf(alice);
  const gone = await openIssue(repo, bob, 'to delete');
  await openIssue(repo, bob, 'to keep');
  assert.is(await newCount(alice), 2);
  assert.is((await env.as(alice, 'DELETE', `/repos/${repo.full_name}/issues/${gone.number}`)).status, 204);
  assert.equal(
    (await threads(alice)).map((t) => t.subject.title),
    ['to keep'],
  );
  assert.is((await env.as(alice, 'DELETE', `/repos/${repo.full_name}`)).status, 204);
  assert.is(await newCount(alice), 0);
  assert.is((await rows(alice.id)).length, 0);
});

// ---------------------------------------------------------------------------------------------
// Marking

test('PUT /notifications marks unread threads read (205 with the changed threads); a new comment makes them unread again', async () => {
  const { alice, bob } = env;
  await clear(alice, bob);
  const repo = await repoOf(alice);
  const issue = await openIssue(repo, bob);
  const [t] = await threads(alice);
  const r = await mark(alice, 'PUT', '/notifications');
  assert.is(r.status, 205, r.text);
  validThreads(r);
  assert.equal(
    r.json.map((x: Thread) => [x.id, x.unread, x.pinned]),
    [[t.id, false, false]],
  );
  assert.is(await newCount(alice), 0);
  assert.equal(await threads(alice), [], 'the default list shows unread and pinned');
  assert.is((await threads(alice, '?all=true')).length, 1);
  assert.is((await threads(alice, '?status-types=read')).length, 1);
  // Nothing left to mark.
  const again = await mark(alice, 'PUT', '/notifications');
  assert.is(again.status, 205);
  assert.equal(again.json, []);
  const c = await comment(repo, bob, issue.number);
  const [back] = await threads(alice);
  assert.equal([back.id, back.unread], [t.id, true]);
  const row = await em().findOneOrFail(Notification, { id: t.id });
  assert.is(row.commentId, c.id, 'a read thread points at the comment that woke it');
});

test('PUT /notifications: to-status, status-types, last_read_at; a bad time is 400', async () => {
  const { alice, bob } = env;
  await clear(alice, bob);
  const repo = await repoOf(alice);
  await openIssue(repo, bob);
  const old = new Date(Date.now() - 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const none = await mark(alice, 'PUT', `/notifications?last_read_at=${old}`);
  assert.is(none.status, 205);
  assert.equal(none.json, [], 'threads updated after last_read_at stay');
  const pin = await mark(alice, 'PUT', '/notifications?to-status=pinned');
  assert.is(pin.status, 205);
  assert.equal(
    pin.json.map((x: Thread) => [x.unread, x.pinned]),
    [[false, true]],
  );
  // Pinned threads are not unread, so the default PUT leaves them.
  assert.equal((await mark(alice, 'PUT', '/notifications')).json, []);
  const unpin = await mark(alice, 'PUT', '/notifications?status-types=pinned&to-status=unread');
  assert.equal(
    unpin.json.map((x: Thread) => [x.unread, x.pinned]),
    [[true, false]],
  );
  const bad = await mark(alice, 'PUT', '/notifications?last_read_at=yesterday');
  assert.is(bad.status, 400, bad.text);
  assert.is((await rows(alice.id))[0].status, NotificationStatus.unread, 'nothing changed');
});

test('PATCH /notifications/threads/{id}: read by default, pinned and unread on request; 205 with the thread', async () => {
  const { alice, bob } = env;
  await clear(alice, bob);
  const repo = await repoOf(alice);
  await openIssue(repo, bob);
  const [t] = await threads(alice);
  const patch = (q = '') => mark(alice, 'PATCH', `/notifications/threads/${t.id}${q}`);
  let r = await patch('?to-status=pinned');
  assert.is(r.status, 205, r.text);
  valid('NotificationThread', r.json);
  assert.equal([r.json.id, r.json.unread, r.json.pinned], [t.id, false, true]);
  assert.is((await threads(alice)).length, 1, 'pinned threads are listed by default');
  assert.is(await newCount(alice), 0, 'but not counted as new');
  r = await patch('?to-status=constructor');
  assert.equal([r.status, r.json.unread, r.json.pinned], [205, false, false], 'an unknown status means read');
  r = await patch('?to-status=unread');
  assert.equal([r.json.unread, r.json.pinned], [true, false]);
  r = await patch();
  assert.is(r.status, 205);
  assert.equal([r.json.unread, r.json.pinned], [false, false]);
  const got = await env.as(alice, 'GET', `/notifications/threads/${t.id}`);
  assert.is(got.status, 200, got.text);
  valid('NotificationThread', got.json);
  assert.equal([got.json.id, got.json.unread], [t.id, false]);
});

test("another user's thread is 404 for GET and PATCH, and stays as it was; unknown and bad ids are 404", async () => {
  const { alice, bob, admin } = env;
  await clear(alice, bob);
  const repo = await repoOf(alice);
  await openIssue(repo, bob);
  const [t] = await threads(alice);
  for (const u of [bob, admin]) {
    assert.is((await env.as(u, 'GET', `/notifications/threads/${t.id}`)).status, 404);
    assert.is((await mark(u, 'PATCH', `/notifications/threads/${t.id}?to-status=read`)).status, 404);
  }
  assert.is((await em().findOneOrFail(Notification, { id: t.id })).status, NotificationStatus.unread);
  assert.is((await env.as(alice, 'GET', '/notifications/threads/999999')).status, 404);
  assert.is((await env.as(alice, 'GET', '/notifications/threads/abc')).status, 404);
  assert.is((await env.as(undefined, 'GET', `/notifications/threads/${t.id}`)).status, 401);
});

// ---------------------------------------------------------------------------------------------
// Filters and paging

test('filters: subject-type, since/before, status-types, all; paging with X-Total-Count', async () => {
  const { alice, bob } = env;
  await clear(alice, bob);
  const repo = await repoOf(alice);
  const issue = await openIssue(repo, bob, 'an issue');
  // A pull request thread, written through the library as the pull routes do.
  const m = em();
  const pull = await createIssue(m, {
    repo: await m.findOneOrFail(Repository, { id: repo.id }),
    posterId: bob.id,
    title: 'a pull',
    isPull: true,
  });
  await notifyIssueEvent(m, { issue: pull, doerId: bob.id });
  const all = await threads(alice);
  assert.equal(
    all.map((t) => t.subject.title),
    ['a pull', 'an issue'],
    'newest first',
  );
  assert.equal(
    all.map((t) => t.subject.type),
    ['Pull', 'Issue'],
  );
  assert.is(all[0].subject.html_url, `${env.srv.url}/${repo.full_name}/pulls/${pull.index}`);
  assert.is(all[0].subject.url, `${env.srv.url}/api/v1/repos/${repo.full_name}/issues/${pull.index}`, "Forgejo's Issue.APIURL");
  assert.equal(
    (await threads(alice, '?subject-type=pull')).map((t) => t.subject.title),
    ['a pull'],
  );
  assert.equal(
    (await threads(alice, '?subject-type=issue')).map((t) => t.subject.title),
    ['an issue'],
  );
  assert.is((await threads(alice, '?subject-type=issue&subject-type=pull')).length, 2);
  assert.equal(await threads(alice, '?subject-type=repository'), []);
  assert.is((await threads(alice, '?subject-type=bogus')).length, 2, 'Forgejo drops unknown names, leaving no filter');
  assert.is((await threads(alice, '?subject-type=constructor&status-types=toString')).length, 2);
  const future = new Date(Date.now() + 3600_000).toISOString();
  const past = new Date(Date.now() - 3600_000).toISOString();
  assert.equal(await threads(alice, `?since=${encodeURIComponent(future)}`), []);
  assert.is((await threads(alice, `?since=${encodeURIComponent(past)}`)).length, 2);
  assert.equal(await threads(alice, `?before=${encodeURIComponent(past)}`), []);
  assert.is((await threads(alice, `?before=${encodeURIComponent(future)}`)).length, 2);
  const bad = await env.as(alice, 'GET', '/notifications?since=soon');
  assert.is(bad.status, 422, bad.text);
  const page = await env.as(alice, 'GET', '/notifications?limit=1&page=2');
  assert.is(page.status, 200);
  assert.equal(
    page.json.map((t: Thread) => t.subject.title),
    ['an issue'],
  );
  assert.is(page.headers.get('x-total-count'), '2');
  await mark(alice, 'PATCH', `/notifications/threads/${all[1].id}`);
  assert.equal(
    (await threads(alice, '?status-types=unread')).map((t) => t.subject.title),
    ['a pull'],
  );
  assert.equal(
    (await threads(alice, '?status-types=read')).map((t) => t.subject.title),
    ['an issue'],
  );
  assert.is((await threads(alice, '?all=true&status-types=unread')).length, 2, 'all wins over status-types');
  assert.ok(issue.number > 0);
});

test('a merged pull shows state merged, a closed issue closed', async () => {
  const { alice, bob } = env;
  await clear(alice, bob);
  const repo = await repoOf(alice);
  const issue = await openIssue(repo, bob, 'to close');
  const r = await env.as(bob, 'PATCH', `/repos/${repo.full_name}/issues/${issue.number}`, { state: 'closed' });
  assert.is(r.status, 201, r.text);
  const [closed] = await threads(alice);
  assert.is(closed.subject.state, 'closed');
  const m = em();
  const pull = await createIssue(m, {
    repo: await m.findOneOrFail(Repository, { id: repo.id }),
    posterId: bob.id,
    title: 'merge me',
    isPull: true,
  });
  await m.getConnection().execute(
    `insert into pull_request (issue_id, index, base_repo_id, head_repo_id, base_branch, head_branch, has_merged, status, conflicted_files, commits_ahead, commits_behind, flow, allow_maintainer_edit, head_commit_id, merge_base, merged_commit_id, merger_id)
     values (?, ?, ?, ?, 'main', 'x', true, 2, '[]', 0, 0, 0, false, '', '', '', 0)`,
    [pull.id, pull.index, repo.id, repo.id],
  );
  await m.nativeUpdate(Issue, { id: pull.id }, { isClosed: true });
  await notifyIssueEvent(m, { issue: pull, doerId: bob.id });
  const [merged] = await threads(alice, '?subject-type=pull');
  assert.equal([merged.subject.type, merged.subject.state], ['Pull', 'merged']);
});

test('pull request flow: opened, review requested, review submitted, merged', async () => {
  const { alice, bob, carol } = env;
  await clear(alice, bob, carol);
  const repo = await repoOf(alice, { auto_init: true });
  await collaborator(repo, alice, carol);
  assert.is((await env.as(bob, 'PUT', `/repos/${repo.full_name}/subscription`)).status, 200);
  const content = Buffer.from('hello').toString('base64');
  const file = await env.as(alice, 'POST', `/repos/${repo.full_name}/contents`, {
    branch: repo.default_branch,
    new_branch: 'feature',
    message: 'add',
    files: [{ operation: 'create', path: 'a.txt', content }],
  });
  assert.is(file.status, 201, file.text);
  const opened = await env.as(alice, 'POST', `/repos/${repo.full_name}/pulls`, {
    head: 'feature',
    base: repo.default_branch,
    title: 'add a',
  });
  assert.is(opened.status, 201, opened.text);
  const n = opened.json.number;
  const [watcher] = await threads(bob);
  assert.equal([watcher.subject.type, watcher.subject.state, watcher.subject.title], ['Pull', 'open', 'add a']);
  assert.is(watcher.subject.html_url, `${env.srv.url}/${repo.full_name}/pulls/${n}`);
  assert.is((await rows(carol.id)).length, 0, 'carol does not watch the repository');
  const req = await env.as(alice, 'POST', `/repos/${repo.full_name}/pulls/${n}/requested_reviewers`, { reviewers: [carol.name] });
  assert.is(req.status, 201, req.text);
  assert.equal(
    (await threads(carol)).map((t) => t.subject.title),
    ['add a'],
    'the requested reviewer hears of it',
  );
  assert.is((await rows(alice.id)).length, 0);
  const review = await env.as(carol, 'POST', `/repos/${repo.full_name}/pulls/${n}/reviews`, { event: 'APPROVED', body: 'fine' });
  assert.is(review.status, 200, review.text);
  assert.equal(
    (await threads(alice)).map((t) => t.subject.title),
    ['add a'],
    'the poster hears of the review',
  );
  await mark(carol, 'PUT', '/notifications');
  const merged = await env.as(alice, 'POST', `/repos/${repo.full_name}/pulls/${n}/merge`, { Do: 'merge' });
  assert.is(merged.status, 200, merged.text);
  for (const u of [bob, carol]) {
    const [t] = await threads(u);
    assert.equal([t.subject.type, t.subject.state, t.unread], ['Pull', 'merged', true], u.name);
  }
});

// ---------------------------------------------------------------------------------------------
// Repository routes

test('{R}/notifications lists and marks only that repository; scopes and public-only tokens apply', async () => {
  const { alice, bob } = env;
  await clear(alice, bob);
  const one = await repoOf(alice);
  const two = await repoOf(alice);
  await openIssue(one, bob, 'in one');
  await openIssue(two, bob, 'in two');
  const r = await env.as(alice, 'GET', `/repos/${one.full_name}/notifications`);
  assert.is(r.status, 200, r.text);
  validList('NotificationThread', r);
  assert.equal(
    r.json.map((t: Thread) => t.subject.title),
    ['in one'],
  );
  assert.is(r.headers.get('x-total-count'), '1');
  const put = await mark(alice, 'PUT', `/repos/${one.full_name}/notifications`);
  assert.is(put.status, 205, put.text);
  validThreads(put);
  assert.equal(
    put.json.map((t: Thread) => [t.subject.title, t.unread]),
    [['in one', false]],
  );
  assert.equal(
    (await threads(alice)).map((t) => t.subject.title),
    ['in two'],
    'the other repository is untouched',
  );
  assert.is((await env.as(undefined, 'GET', `/repos/${one.full_name}/notifications`)).status, 401);
  // A read-only notification token may list but not mark.
  const reader = await makeToken(env.srv.api, alice, ['read:notification']);
  assert.is((await env.as(reader, 'GET', '/notifications')).status, 200);
  const denied = await mark(reader, 'PUT', '/notifications');
  assert.is(denied.status, 403, denied.text);
  assert.is((await mark(reader, 'PATCH', `/notifications/threads/${(await rows(alice.id))[0].id}`)).status, 403);
  assert.is((await threads(alice)).length, 1, 'nothing marked by the denied calls');
  const noScope = await makeToken(env.srv.api, alice, ['read:repository']);
  assert.is((await env.as(noScope, 'GET', '/notifications')).status, 403);
});

test('a public-only token sees no thread of a private repository anywhere', async () => {
  const { alice, bob } = env;
  await clear(alice, bob);
  const open = await repoOf(alice);
  const hidden = await repoOf(alice, { private: true });
  await collaborator(hidden, alice, bob);
  await openIssue(open, bob, 'public one');
  await openIssue(hidden, bob, 'secret one');
  assert.is((await threads(alice)).length, 2);
  const pub = await makeToken(env.srv.api, alice, ['public-only', 'write:notification', 'read:repository']);
  assert.equal(
    (await threads(pub)).map((t) => t.subject.title),
    ['public one'],
  );
  assert.is(await newCount(pub), 1);
  const secret = (await rows(alice.id)).find((n) => n.repoId === hidden.id)!;
  assert.is((await env.as(pub, 'GET', `/notifications/threads/${secret.id}`)).status, 404);
  assert.is((await mark(pub, 'PATCH', `/notifications/threads/${secret.id}`)).status, 404);
  assert.is((await env.as(pub, 'GET', `/repos/${hidden.full_name}/notifications`)).status, 404);
  const put = await mark(pub, 'PUT', '/notifications');
  assert.is(put.status, 205);
  assert.equal(
    put.json.map((t: Thread) => t.subject.title),
    ['public one'],
  );
  assert.is(
    (await em().findOneOrFail(Notification, { id: secret.id })).status,
    NotificationStatus.unread,
    'the private thread is untouched',
  );
  const raw = await call(env.srv.api, 'GET', `/repos/${open.full_name}/notifications`, { token: pub });
  assert.is(raw.status, 200);
});

test.run();
