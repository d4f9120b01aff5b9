// Issue comments, the timeline, reactions and subscriptions (Forgejo's routers/api/v1/repo/
// issue_comment.go, issue_reaction.go, issue_subscription.go; convert.ToTimelineComment).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRepo, setup, valid, validList, type Env } from './repo-setup.ts';
import { makeToken, type TestUser } from '../helpers/fixtures.ts';
import { addComment, createIssue } from '../../lib/issues/issues.ts';
import { PENDING } from '../../handlers/pending.ts';
import { Repository } from '../../model/repo.ts';
import { Label } from '../../model/label.ts';
import { Milestone } from '../../model/milestone.ts';
import { Comment, CommentType, Issue, IssueWatch, Reaction, TrackedTime, type IComment } from '../../model/issue.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

type Repo = Awaited<ReturnType<typeof newRepo>>;
interface Made {
  index: number;
  id: number;
  repo: Repo;
}
const em = () => env.db.db.orm.em.fork();
const base = (i: Made) => `/repos/${i.repo.full_name}/issues/${i.index}`;
const commentPath = (repo: Repo, id: number) => `/repos/${repo.full_name}/issues/comments/${id}`;

/** A new issue by `poster`: through the API once issue creation exists; pulls always through the library. */
async function newIssue(repo: Repo, poster: TestUser, opts: { title?: string; isPull?: boolean } = {}): Promise<Made> {
  const title = opts.title ?? 'work';
  if (!opts.isPull && !(PENDING as readonly string[]).includes('issues.create')) {
    const r = await env.as(poster, 'POST', `/repos/${repo.full_name}/issues`, { title });
    assert.is(r.status, 201, r.text);
    return { index: r.json.number, id: r.json.id, repo };
  }
  const m = em();
  const issue = await createIssue(m, {
    repo: await m.findOneOrFail(Repository, { id: repo.id }),
    posterId: poster.id,
    title,
    isPull: opts.isPull,
  });
  return { index: issue.index, id: issue.id, repo };
}

async function comment(i: Made, u: TestUser, body: string) {
  const r = await env.as(u, 'POST', `${base(i)}/comments`, { body });
  assert.is(r.status, 201, r.text);
  valid('Comment', r.json);
  return r.json as { id: number; body: string; created_at: string; updated_at: string; [k: string]: any };
}

/** A timeline event written through the library, as the routes that cause events do. */
async function event(i: Made, posterId: number, type: number, fields: Partial<IComment> = {}): Promise<IComment> {
  const m = em();
  return addComment(m, await m.findOneOrFail(Issue, { id: i.id }), posterId, type, fields);
}

const issueRow = (id: number) => em().findOneOrFail(Issue, { id });
const commentRow = (id: number) => em().findOne(Comment, { id });
const setLocked = async (i: Made, locked: boolean) => {
  await em().nativeUpdate(Issue, { id: i.id }, { isLocked: locked });
};

async function collaborator(repo: Repo, owner: TestUser, u: TestUser, permission: 'read' | 'write' | 'admin') {
  const r = await env.as(owner, 'PUT', `/repos/${repo.full_name}/collaborators/${u.name}`, { permission });
  assert.ok(r.status === 204 || r.status === 201, r.text);
}

// ---------------------------------------------------------------------------------------------
// Comments

test('comments: create answers 201 api.Comment, counts on the issue, stamps its update time', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  const i = await newIssue(repo, alice);
  const before = await issueRow(i.id);
  await new Promise((r) => setTimeout(r, 1100));
  const c = await comment(i, bob, 'first!');
  assert.is(c.body, 'first!');
  assert.is(c.user.login, bob.name);
  assert.is(c.html_url, `${env.srv.url}/${repo.full_name}/issues/${i.index}#issuecomment-${c.id}`);
  assert.is(c.issue_url, `${env.srv.url}/${repo.full_name}/issues/${i.index}`);
  assert.is(c.pull_request_url, '');
  assert.equal([c.original_author, c.original_author_id, c.assets], ['', 0, []]);
  // Forgejo renders the poster for no viewer: the e-mail is the no-reply address even for the poster.
  assert.match(c.user.email, /@noreply\./);
  const after = await issueRow(i.id);
  assert.is(after.numComments, 1);
  assert.ok(after.updatedAt.getTime() > before.updatedAt.getTime(), 'issue update time moves');
  const row = await commentRow(c.id);
  assert.equal([row?.type, row?.posterId, row?.content], [CommentType.comment, bob.id, 'first!']);
});

test('comments: 422 for an empty or missing body, 404 for an unknown issue; nothing is written', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const i = await newIssue(repo, alice);
  for (const body of [{ body: '' }, {}]) {
    const r = await env.as(alice, 'POST', `${base(i)}/comments`, body);
    assert.is(r.status, 422, r.text);
  }
  assert.is((await env.as(alice, 'POST', `/repos/${repo.full_name}/issues/999/comments`, { body: 'x' })).status, 404);
  assert.is((await env.as(alice, 'POST', `/repos/${repo.full_name}/issues/abc/comments`, { body: 'x' })).status, 404);
  assert.is(await em().count(Comment, { issueId: i.id }), 0);
  assert.is((await issueRow(i.id)).numComments, 0);
});

test('comments: get, list of an issue (unpaged, X-Total-Count), list of the repository (paged), since/before', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  const i = await newIssue(repo, alice);
  const j = await newIssue(repo, alice, { title: 'other' });
  const a = await comment(i, alice, 'one');
  const b = await comment(j, bob, 'two');
  const c = await comment(i, bob, 'three');
  await event(i, alice.id, CommentType.close);

  const got = await env.as(bob, 'GET', commentPath(repo, a.id));
  assert.is(got.status, 200, got.text);
  valid('Comment', got.json);
  assert.equal(got.json, a);

  const ofIssue = await env.as(bob, 'GET', `${base(i)}/comments`);
  assert.is(ofIssue.status, 200);
  validList('Comment', ofIssue);
  assert.equal(
    ofIssue.json.map((x: any) => x.body),
    ['one', 'three'],
  );
  assert.is(ofIssue.headers.get('x-total-count'), '2');

  const all = await env.as(bob, 'GET', `/repos/${repo.full_name}/issues/comments?limit=2`);
  validList('Comment', all);
  assert.equal(
    all.json.map((x: any) => x.id),
    [a.id, b.id],
  );
  assert.is(all.headers.get('x-total-count'), '3');
  assert.match(all.headers.get('link') ?? '', 'rel="next"');
  const page2 = await env.as(bob, 'GET', `/repos/${repo.full_name}/issues/comments?limit=2&page=2`);
  assert.equal(
    page2.json.map((x: any) => x.id),
    [c.id],
  );

  // Comment times are whole seconds on the wire; `since` and `before` compare at that precision.
  const m = em();
  await m.nativeUpdate(Comment, { id: a.id }, { updatedAt: new Date('2030-01-01T00:00:00.400Z') });
  await m.nativeUpdate(Comment, { id: c.id }, { updatedAt: new Date('2030-01-02T00:00:00Z') });
  const since = await env.as(bob, 'GET', `${base(i)}/comments?since=2030-01-01T00:00:00Z`);
  assert.equal(
    since.json.map((x: any) => x.id),
    [a.id, c.id],
  );
  const before = await env.as(bob, 'GET', `${base(i)}/comments?before=2030-01-01T00:00:00Z`);
  assert.equal(
    before.json.map((x: any) => x.id),
    [a.id],
  );
  const window = await env.as(
    bob,
    'GET',
    `/repos/${repo.full_name}/issues/comments?since=2030-01-01T12:00:00Z&before=2030-01-03T00:00:00%2B00:00`,
  );
  assert.equal(
    window.json.map((x: any) => x.id),
    [c.id],
  );
  const bad = await env.as(bob, 'GET', `${base(i)}/comments?since=yesterday`);
  assert.is(bad.status, 422);
  assert.match(bad.json.message, 'parsing time "yesterday"');
  assert.is((await env.as(bob, 'GET', `/repos/${repo.full_name}/issues/comments?before=nope`)).status, 422);
});

test('comments: pulls need the pulls unit; the repository list shows only readable kinds', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice, { private: true });
  await collaborator(repo, alice, bob, 'read');
  const issue = await newIssue(repo, alice);
  const pull = await newIssue(repo, alice, { isPull: true, title: 'pr' });
  const onIssue = await comment(issue, alice, 'on issue');
  const onPull = await comment(pull, alice, 'on pull');
  assert.is(onPull.pull_request_url, `${env.srv.url}/${repo.full_name}/pulls/${pull.index}`);
  assert.is(onPull.issue_url, '');
  assert.is(onPull.html_url, `${env.srv.url}/${repo.full_name}/pulls/${pull.index}#issuecomment-${onPull.id}`);
  const both = await env.as(bob, 'GET', `/repos/${repo.full_name}/issues/comments`);
  assert.equal(
    both.json.map((x: any) => x.id),
    [onIssue.id, onPull.id],
  );

  const pr = await env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { has_pull_requests: false });
  assert.is(pr.status, 200, pr.text);
  const issuesOnly = await env.as(bob, 'GET', `/repos/${repo.full_name}/issues/comments`);
  assert.equal(
    issuesOnly.json.map((x: any) => x.id),
    [onIssue.id],
  );
  assert.is(issuesOnly.headers.get('x-total-count'), '1');
  assert.is((await env.as(bob, 'GET', commentPath(repo, onPull.id))).status, 404);
  assert.is((await env.as(alice, 'GET', commentPath(repo, onPull.id))).status, 404);
  assert.is((await env.as(bob, 'GET', commentPath(repo, onIssue.id))).status, 200);
});

test('comments: an outsider gets 404 on a private repository and the data stays', async () => {
  const { alice, carol } = env;
  const repo = await newRepo(env, alice, { private: true });
  const i = await newIssue(repo, alice);
  const c = await comment(i, alice, 'secret');
  for (const [method, path, body] of [
    ['GET', `/repos/${repo.full_name}/issues/comments`],
    ['GET', `${base(i)}/comments`],
    ['POST', `${base(i)}/comments`, { body: 'let me in' }],
    ['GET', commentPath(repo, c.id)],
    ['PATCH', commentPath(repo, c.id), { body: 'changed' }],
    ['DELETE', commentPath(repo, c.id)],
    ['PATCH', `${base(i)}/comments/${c.id}`, { body: 'changed' }],
    ['DELETE', `${base(i)}/comments/${c.id}`],
    ['GET', `${base(i)}/timeline`],
  ] as [string, string, unknown?][]) {
    const r = await env.as(carol, method, path, body);
    assert.is(r.status, 404, `${method} ${path}: ${r.text}`);
  }
  assert.is((await env.api('GET', `${base(i)}/comments`)).status, 404, 'anonymous');
  assert.is((await commentRow(c.id))?.content, 'secret');
  assert.is(await em().count(Comment, { issueId: i.id }), 1);
});

test("comments: a comment id of another repository's issue is 404 on this repository", async () => {
  const { alice } = env;
  const mine = await newRepo(env, alice);
  const other = await newRepo(env, alice);
  const foreign = await comment(await newIssue(other, alice), alice, 'elsewhere');
  assert.is((await env.as(alice, 'GET', commentPath(mine, foreign.id))).status, 404);
  assert.is((await env.as(alice, 'PATCH', commentPath(mine, foreign.id), { body: 'moved' })).status, 404);
  assert.is((await env.as(alice, 'DELETE', commentPath(mine, foreign.id))).status, 404);
  assert.is((await env.as(alice, 'GET', `${commentPath(mine, foreign.id)}/reactions`)).status, 404);
  assert.is((await env.as(alice, 'POST', `${commentPath(mine, foreign.id)}/reactions`, { content: 'heart' })).status, 404);
  assert.is((await env.as(alice, 'GET', commentPath(mine, 999999))).status, 404);
  assert.is((await env.as(alice, 'GET', commentPath(mine, 0))).status, 404);
  assert.is((await commentRow(foreign.id))?.content, 'elsewhere');
  assert.is(await em().count(Reaction, { commentId: foreign.id }), 0);
});

test('comments: the poster edits and deletes; a writer may too; others get 403 and nothing changes', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice);
  const i = await newIssue(repo, alice);
  const byAlice = await comment(i, alice, 'by alice');
  const byBob = await comment(i, bob, 'by bob');

  const denied = await env.as(bob, 'PATCH', commentPath(repo, byAlice.id), { body: 'hijacked' });
  assert.is(denied.status, 403, denied.text);
  assert.is((await env.as(bob, 'DELETE', commentPath(repo, byAlice.id))).status, 403);
  assert.is((await env.as(bob, 'PATCH', `${base(i)}/comments/${byAlice.id}`, { body: 'hijacked' })).status, 403);
  assert.is((await env.as(bob, 'DELETE', `${base(i)}/comments/${byAlice.id}`)).status, 403);
  assert.is((await commentRow(byAlice.id))?.content, 'by alice');
  assert.is((await issueRow(i.id)).numComments, 2);

  await new Promise((r) => setTimeout(r, 1100));
  const own = await env.as(bob, 'PATCH', commentPath(repo, byBob.id), { body: 'by bob, edited' });
  assert.is(own.status, 200, own.text);
  valid('Comment', own.json);
  assert.equal([own.json.id, own.json.body, own.json.created_at], [byBob.id, 'by bob, edited', byBob.created_at]);
  assert.ok(own.json.updated_at > byBob.updated_at, 'updated_at moves');
  assert.is((await env.as(bob, 'PATCH', commentPath(repo, byBob.id), { body: '' })).status, 422);
  assert.is((await commentRow(byBob.id))?.content, 'by bob, edited');

  await collaborator(repo, alice, carol, 'write');
  const writer = await env.as(carol, 'PATCH', commentPath(repo, byBob.id), { body: 'moderated' });
  assert.is(writer.status, 200, writer.text);
  assert.is(writer.json.user.login, bob.name, 'the poster stays');

  assert.is((await env.as(bob, 'DELETE', commentPath(repo, byBob.id))).status, 204);
  assert.is(await commentRow(byBob.id), null);
  assert.is((await issueRow(i.id)).numComments, 1);
  assert.is((await env.as(bob, 'GET', commentPath(repo, byBob.id))).status, 404);
  assert.is((await env.as(carol, 'DELETE', commentPath(repo, byAlice.id))).status, 204, 'a writer deletes');
  assert.is((await issueRow(i.id)).numComments, 0);
});

test('comments: the deprecated /issues/{index}/comments/{id} forms edit and delete; {index} is ignored', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const i = await newIssue(repo, alice);
  const j = await newIssue(repo, alice);
  const c = await comment(i, alice, 'old');
  const r = await env.as(alice, 'PATCH', `/repos/${repo.full_name}/issues/${j.index}/comments/${c.id}`, { body: 'new' });
  assert.is(r.status, 200, r.text);
  valid('Comment', r.json);
  assert.is(r.json.body, 'new');
  assert.is((await env.as(alice, 'PATCH', `${base(i)}/comments/999999`, { body: 'x' })).status, 404);
  assert.is((await env.as(alice, 'DELETE', `${base(i)}/comments/999999`)).status, 404);
  assert.is((await env.as(alice, 'DELETE', `/repos/${repo.full_name}/issues/77/comments/${c.id}`)).status, 204);
  assert.is(await commentRow(c.id), null);
  assert.is((await issueRow(i.id)).numComments, 0);
});

test('comments: timeline events answer 204 on get, edit and delete (Forgejo) and are left as they are', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const i = await newIssue(repo, alice);
  const closed = await event(i, alice.id, CommentType.close, { content: 'kept' });
  assert.is((await env.as(alice, 'GET', commentPath(repo, closed.id))).status, 204);
  assert.is((await env.as(alice, 'PATCH', commentPath(repo, closed.id), { body: 'rewritten' })).status, 204);
  assert.is((await env.as(alice, 'DELETE', commentPath(repo, closed.id))).status, 204);
  const row = await commentRow(closed.id);
  assert.equal([row?.type, row?.content], [CommentType.close, 'kept']);
  // A code comment has text: it is editable here, but deleted through the review routes only.
  const code = await event(i, alice.id, CommentType.code, { content: 'nit', treePath: 'a.txt', line: 3 });
  const ed = await env.as(alice, 'PATCH', commentPath(repo, code.id), { body: 'nit, fixed' });
  assert.is(ed.status, 200, ed.text);
  valid('Comment', ed.json);
  assert.is(ed.json.html_url, `${env.srv.url}/${repo.full_name}/issues/${i.index}/files#issuecomment-${code.id}`);
  assert.is((await env.as(alice, 'DELETE', commentPath(repo, code.id))).status, 204);
  assert.is((await commentRow(code.id))?.content, 'nit, fixed');
});

test('comments: a locked issue takes comments from writers only; inherited admin rights do not count through a public-only token', async () => {
  const { alice, bob, admin } = env;
  const repo = await newRepo(env, alice);
  const i = await newIssue(repo, alice);
  await setLocked(i, true);
  const r = await env.as(bob, 'POST', `${base(i)}/comments`, { body: 'me too' });
  assert.is(r.status, 403, r.text);
  assert.is(r.json.message, 'You cannot comment on a locked issue.');
  const publicOnly = await makeToken(env.srv.api, admin, ['public-only', 'write:issue']);
  assert.is((await env.as(publicOnly, 'POST', `${base(i)}/comments`, { body: 'admin via public-only' })).status, 403);
  assert.is(await em().count(Comment, { issueId: i.id }), 0);
  await comment(i, alice, 'owner speaks');
  await comment(i, admin, 'site admin speaks');
  await setLocked(i, false);
  await comment(i, bob, 'unlocked');
  assert.is((await issueRow(i.id)).numComments, 3);
});

test('comments: a user blocked by the issue poster or the repository owner cannot comment', async () => {
  const { alice, carol } = env;
  const repo = await newRepo(env, alice);
  const i = await newIssue(repo, alice);
  const b = await env.as(alice, 'PUT', `/user/block/${carol.name}`);
  assert.is(b.status, 204, b.text);
  const r = await env.as(carol, 'POST', `${base(i)}/comments`, { body: 'hi' });
  assert.is(r.status, 403, r.text);
  assert.is(r.json.message, 'user is blocked by the poster or repository owner');
  assert.is((await env.as(carol, 'POST', `${base(i)}/reactions`, { content: 'heart' })).status, 403);
  assert.is(await em().count(Comment, { issueId: i.id }), 0);
  assert.is(await em().count(Reaction, { issueId: i.id }), 0);
  await env.as(alice, 'PUT', `/user/unblock/${carol.name}`);
  await comment(i, carol, 'hi again');
});

test('comments: a block by the issue poster counts when the poster does not own the repository; an owner commenting on their own issue is not blocked', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice);
  const i = await newIssue(repo, bob);
  assert.is((await env.as(bob, 'PUT', `/user/block/${carol.name}`)).status, 204);
  const r = await env.as(carol, 'POST', `${base(i)}/comments`, { body: 'hi' });
  assert.is(r.status, 403, r.text);
  assert.is(r.json.message, 'user is blocked by the poster or repository owner');
  assert.is(await em().count(Comment, { issueId: i.id }), 0);
  await env.as(bob, 'PUT', `/user/unblock/${carol.name}`);
  await comment(i, carol, 'hi again');
  const own = await newIssue(repo, alice);
  await comment(own, alice, 'mine');
});

test('comments: updated_at needs repository admin rights and a time between the issue creation and now', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  const i = await newIssue(repo, alice);
  await em().nativeUpdate(Issue, { id: i.id }, { createdAt: new Date('2024-01-01T00:00:00Z') });
  const when = '2024-06-01T12:00:00Z';
  const c = await env.as(alice, 'POST', `${base(i)}/comments`, { body: 'back-dated', updated_at: when });
  assert.is(c.status, 201, c.text);
  valid('Comment', c.json);
  assert.equal([c.json.created_at, c.json.updated_at], [when, when]);
  const row = await commentRow(c.json.id);
  assert.is(row?.createdAt.toISOString(), '2024-06-01T12:00:00.000Z');
  assert.is((await issueRow(i.id)).updatedAt.toISOString(), '2024-06-01T12:00:00.000Z');

  const notAdmin = await env.as(bob, 'POST', `${base(i)}/comments`, { body: 'x', updated_at: when });
  assert.is(notAdmin.status, 403);
  assert.is(notAdmin.json.message, 'user needs to have admin or owner right');
  for (const t of ['2023-01-01T00:00:00Z', '2999-01-01T00:00:00Z']) {
    const r = await env.as(alice, 'POST', `${base(i)}/comments`, { body: 'x', updated_at: t });
    assert.is(r.status, 403, t);
    assert.is(r.json.message, 'unallowed update date');
  }
  assert.is((await env.as(alice, 'POST', `${base(i)}/comments`, { body: 'x', updated_at: 'soon' })).status, 422);
  assert.is(await em().count(Comment, { issueId: i.id }), 1);

  const ed = await env.as(alice, 'PATCH', commentPath(repo, c.json.id), { body: 'edited back-dated', updated_at: '2024-07-01T00:00:00Z' });
  assert.is(ed.status, 200, ed.text);
  assert.equal([ed.json.created_at, ed.json.updated_at], [when, '2024-07-01T00:00:00Z']);
  const edited = await commentRow(c.json.id);
  assert.equal([edited?.content, edited?.updatedAt.toISOString()], ['edited back-dated', '2024-07-01T00:00:00.000Z']);
  assert.is((await issueRow(i.id)).updatedAt.toISOString(), '2024-07-01T00:00:00.000Z');
  const byBob = await comment(i, bob, 'mine');
  const bobDated = await env.as(bob, 'PATCH', commentPath(repo, byBob.id), { body: 'mine, dated', updated_at: '2024-07-01T00:00:00Z' });
  assert.is(bobDated.status, 403);
  assert.is((await commentRow(byBob.id))?.content, 'mine', 'the rejected edit wrote nothing');
});

// ---------------------------------------------------------------------------------------------
// Timeline

test('timeline: every event as api.TimelineComment with its records resolved; code comments left out', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  const i = await newIssue(repo, alice);
  const other = await newIssue(repo, alice, { title: 'dependency' });
  const m = em();
  const label = m.create(Label, { repoId: repo.id, name: 'bug', color: '#ee0701' });
  const v1 = m.create(Milestone, { repoId: repo.id, name: 'v1' });
  const v2 = m.create(Milestone, { repoId: repo.id, name: 'v2' });
  await m.flush();
  const time = m.create(TrackedTime, { issueId: i.id, userId: bob.id, time: 3700 });
  await m.flush();

  const said = await comment(i, bob, 'hello');
  await event(i, alice.id, CommentType.label, { labelId: label.id, content: '1' });
  await event(i, alice.id, CommentType.milestone, { milestoneId: v2.id, oldMilestoneId: v1.id });
  await event(i, alice.id, CommentType.assignees, { assigneeId: bob.id });
  await event(i, alice.id, CommentType.changeTitle, { oldTitle: 'work', newTitle: 'real work' });
  await event(i, bob.id, CommentType.addTimeManual, { timeId: time.id, content: '|3700' });
  await event(i, alice.id, CommentType.addDependency, { dependentIssueId: other.id });
  await event(i, alice.id, CommentType.code, { content: 'review note' });
  await event(i, alice.id, CommentType.close);

  const r = await env.as(bob, 'GET', `${base(i)}/timeline`);
  assert.is(r.status, 200, r.text);
  validList('TimelineComment', r);
  assert.equal(
    r.json.map((e: any) => e.type),
    ['comment', 'label', 'milestone', 'assignees', 'change_title', 'add_time_manual', 'add_dependency', 'close'],
  );
  assert.is(r.headers.get('x-total-count'), '8');
  const [c0, lab, ms, asg, title, tt, dep, close] = r.json;
  assert.equal([c0.id, c0.body, c0.user.login, c0.ref_action, c0.label, c0.milestone], [said.id, 'hello', bob.name, 'none', null, null]);
  assert.is(c0.html_url, said.html_url);
  assert.equal(
    [lab.label.name, lab.label.color, lab.label.url],
    ['bug', 'ee0701', `${env.srv.api}/repos/${repo.full_name}/labels/${label.id}`],
  );
  assert.equal([ms.milestone.title, ms.old_milestone.title], ['v2', 'v1']);
  assert.equal([asg.assignee.login, asg.removed_assignee], [bob.name, false]);
  assert.equal([title.old_title, title.new_title], ['work', 'real work']);
  assert.is(tt.body, '1 hour 1 minute');
  assert.equal(
    [tt.tracked_time.id, tt.tracked_time.time, tt.tracked_time.user_name, tt.tracked_time.issue.number],
    [time.id, 3700, bob.name, i.index],
  );
  assert.equal([dep.dependent_issue.number, dep.dependent_issue.title], [other.index, 'dependency']);
  assert.equal(
    [close.body, close.assignee, close.tracked_time, close.resolve_doer, close.issue_url],
    ['', null, null, null, `${env.srv.url}/${repo.full_name}/issues/${i.index}`],
  );

  const page = await env.as(bob, 'GET', `${base(i)}/timeline?limit=3&page=2`);
  assert.equal(
    page.json.map((e: any) => e.type),
    ['assignees', 'change_title', 'add_time_manual'],
  );
  assert.is(page.headers.get('x-total-count'), '8');
  assert.match(page.headers.get('link') ?? '', 'rel="next"');
  const untouched = await env.as(bob, 'GET', `${base(other)}/timeline`);
  assert.is(untouched.status, 200);
  assert.is(untouched.text.trim(), 'null', 'events are written per issue');
  assert.is((await env.as(bob, 'GET', `${base(i)}/timeline?since=bad`)).status, 422);
  assert.is((await env.as(bob, 'GET', `/repos/${repo.full_name}/issues/999/timeline`)).status, 404);
});

test('timeline: no events is null (Forgejo); references into repositories the caller cannot read are left out', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice);
  const i = await newIssue(repo, alice);
  const none = await env.as(bob, 'GET', `${base(i)}/timeline`);
  assert.is(none.status, 200);
  assert.is(none.text.trim(), 'null');

  const hidden = await newRepo(env, carol, { private: true });
  const secret = await newIssue(hidden, carol, { title: 'secret' });
  const open = await newRepo(env, carol);
  const visible = await newIssue(open, carol, { title: 'visible' });
  await event(i, carol.id, CommentType.issueRef, { refRepoId: hidden.id, refIssueId: secret.id });
  await event(i, carol.id, CommentType.issueRef, { refRepoId: open.id, refIssueId: visible.id, refAction: 1 });
  await event(i, carol.id, CommentType.addDependency, { dependentIssueId: secret.id });

  const asBob = await env.as(bob, 'GET', `${base(i)}/timeline`);
  validList('TimelineComment', asBob);
  assert.equal(
    asBob.json.map((e: any) => [e.type, e.ref_issue?.title]),
    [['issue_ref', 'visible']],
  );
  assert.is(asBob.json[0].ref_action, 'closes');
  assert.is(asBob.headers.get('x-total-count'), '1');

  const asCarol = await env.as(carol, 'GET', `${base(i)}/timeline`);
  validList('TimelineComment', asCarol);
  assert.equal(
    asCarol.json.map((e: any) => e.type),
    ['issue_ref', 'issue_ref', 'add_dependency'],
  );
  assert.equal(
    asCarol.json.map((e: any) => e.ref_issue?.title ?? e.dependent_issue?.title),
    ['secret', 'visible', 'secret'],
  );

  // Spec, token kinds: a public-only token never sees private repositories, even its owner's.
  const publicOnly = await makeToken(env.srv.api, carol, ['public-only', 'read:issue']);
  const limited = await env.as(publicOnly, 'GET', `${base(i)}/timeline`);
  assert.equal(
    limited.json.map((e: any) => e.ref_issue?.title),
    ['visible'],
  );
  for (const e of [...asBob.json, ...asCarol.json]) assert.match(e.created_at, /^20\d\d-/);

  // A reference to a pull of this repository needs the pulls unit too.
  const pull = await newIssue(repo, alice, { isPull: true, title: 'the pull' });
  await event(i, alice.id, CommentType.pullRef, { refRepoId: repo.id, refIssueId: pull.id });
  assert.equal(
    (await env.as(bob, 'GET', `${base(i)}/timeline`)).json.map((e: any) => e.ref_issue?.title),
    ['visible', 'the pull'],
  );
  assert.is((await env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { has_pull_requests: false })).status, 200);
  assert.equal(
    (await env.as(bob, 'GET', `${base(i)}/timeline`)).json.map((e: any) => e.ref_issue?.title),
    ['visible'],
  );
});

// ---------------------------------------------------------------------------------------------
// Reactions

test('reactions: 201 new, 200 existing, list (paged, allowed types only), remove answers 200; comment reactions likewise', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  const i = await newIssue(repo, alice);
  const c = await comment(i, alice, 'react to me');

  const first = await env.as(bob, 'POST', `${base(i)}/reactions`, { content: 'heart' });
  assert.is(first.status, 201, first.text);
  valid('Reaction', first.json);
  assert.equal([first.json.content, first.json.user.login], ['heart', bob.name]);
  const again = await env.as(bob, 'POST', `${base(i)}/reactions`, { content: 'heart' });
  assert.is(again.status, 200, again.text);
  valid('Reaction', again.json);
  assert.equal(again.json, first.json);
  await env.as(alice, 'POST', `${base(i)}/reactions`, { content: '+1' });
  // A stored reaction that is no longer allowed stays out of the lists.
  await em().insert(Reaction, { type: 'retired', issueId: i.id, commentId: 0, userId: alice.id, createdAt: new Date() });

  const list = await env.as(alice, 'GET', `${base(i)}/reactions?limit=1`);
  assert.is(list.status, 200);
  validList('Reaction', list);
  assert.equal(
    list.json.map((x: any) => [x.content, x.user.login]),
    [['heart', bob.name]],
  );
  assert.is(list.headers.get('x-total-count'), '2');
  assert.match(list.headers.get('link') ?? '', 'rel="next"');

  const onComment = await env.as(bob, 'POST', `${commentPath(repo, c.id)}/reactions`, { content: 'rocket' });
  assert.is(onComment.status, 201, onComment.text);
  valid('Reaction', onComment.json);
  const cl = await env.as(alice, 'GET', `${commentPath(repo, c.id)}/reactions`);
  validList('Reaction', cl);
  assert.equal(
    cl.json.map((x: any) => x.content),
    ['rocket'],
  );
  assert.equal(
    (await env.as(alice, 'GET', `${base(i)}/reactions`)).json.map((x: any) => x.content),
    ['heart', '+1'],
    'issue reactions exclude comment reactions',
  );

  const del = await env.as(bob, 'DELETE', `${base(i)}/reactions`, { content: 'heart' });
  assert.is(del.status, 200, del.text);
  assert.is(del.text, '');
  assert.equal(
    (await env.as(alice, 'GET', `${base(i)}/reactions`)).json.map((x: any) => x.content),
    ['+1'],
  );
  assert.is((await env.as(bob, 'DELETE', `${commentPath(repo, c.id)}/reactions`, { content: 'rocket' })).status, 200);
  const gone = await env.as(alice, 'GET', `${commentPath(repo, c.id)}/reactions`);
  assert.is(gone.text.trim(), 'null', 'Forgejo answers null for no reactions');
  assert.is(await em().count(Reaction, { issueId: i.id, userId: alice.id }), 2, "alice's reactions stay");
});

test("reactions: a type outside [ui] REACTIONS is 403 with Forgejo's message; /settings/ui lists the allowed ones", async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const i = await newIssue(repo, alice);
  const r = await env.as(alice, 'POST', `${base(i)}/reactions`, { content: 'shrug' });
  assert.is(r.status, 403);
  assert.is(r.json.message, "'shrug' is not an allowed reaction");
  assert.is((await env.as(alice, 'POST', `${base(i)}/reactions`, {})).json.message, "'' is not an allowed reaction");
  assert.is(await em().count(Reaction, { issueId: i.id }), 0);
  const ui = await env.api('GET', '/settings/ui');
  assert.equal(ui.json.allowed_reactions, ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes']);
});

test('reactions: locked issues take changes from writers only; readers need sign-in; outsiders of a private repository get 404', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice);
  const i = await newIssue(repo, alice);
  const c = await comment(i, alice, 'locked soon');
  await env.as(bob, 'POST', `${base(i)}/reactions`, { content: 'eyes' });
  await setLocked(i, true);
  for (const [method, path] of [
    ['POST', `${base(i)}/reactions`],
    ['DELETE', `${base(i)}/reactions`],
    ['POST', `${commentPath(repo, c.id)}/reactions`],
  ]) {
    const r = await env.as(bob, method, path, { content: 'eyes' });
    assert.is(r.status, 403, `${method} ${path}`);
    assert.is(r.json.message, 'no permission to change reaction');
  }
  assert.is(await em().count(Reaction, { issueId: i.id, userId: bob.id }), 1, 'the refused delete left the reaction');
  assert.is((await env.as(alice, 'POST', `${base(i)}/reactions`, { content: 'eyes' })).status, 201);
  await setLocked(i, false);
  assert.is((await env.api('POST', `${base(i)}/reactions`, { body: { content: 'eyes' } })).status, 401);
  assert.is((await env.api('GET', `${base(i)}/reactions`)).status, 200, 'anonymous reads a public repository');

  const priv = await newRepo(env, alice, { private: true });
  const p = await newIssue(priv, alice);
  const pc = await comment(p, alice, 'hidden');
  for (const [method, path] of [
    ['GET', `${base(p)}/reactions`],
    ['POST', `${base(p)}/reactions`],
    ['DELETE', `${base(p)}/reactions`],
    ['GET', `${commentPath(priv, pc.id)}/reactions`],
    ['POST', `${commentPath(priv, pc.id)}/reactions`],
    ['DELETE', `${commentPath(priv, pc.id)}/reactions`],
  ]) {
    const r = await env.as(carol, method, path, method === 'GET' ? undefined : { content: 'heart' });
    assert.is(r.status, 404, `${method} ${path}`);
  }
  assert.is(await em().count(Reaction, { issueId: p.id }), 0);
});

test('reactions: deleting a comment deletes its reactions and neuters its cross references', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  const i = await newIssue(repo, alice);
  const target = await newIssue(repo, alice);
  const c = await comment(i, alice, 'see #2');
  await env.as(bob, 'POST', `${commentPath(repo, c.id)}/reactions`, { content: 'laugh' });
  const xref = await event(target, alice.id, CommentType.commentRef, { refRepoId: repo.id, refIssueId: i.id, refCommentId: c.id });
  assert.is((await env.as(alice, 'DELETE', commentPath(repo, c.id))).status, 204);
  assert.is(await em().count(Reaction, { commentId: c.id }), 0);
  assert.is((await commentRow(xref.id))?.refAction, 3);
  const tl = await env.as(alice, 'GET', `${base(target)}/timeline`);
  validList('TimelineComment', tl);
  assert.equal(
    tl.json.map((e: any) => [e.type, e.ref_action, e.ref_comment]),
    [['comment_ref', 'neutered', null]],
  );
});

// ---------------------------------------------------------------------------------------------
// Subscriptions

test('subscriptions: check follows Forgejo (explicit row, else repository watch or participation)', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice);
  const i = await newIssue(repo, alice);
  const check = async (u: TestUser) => {
    const r = await env.as(u, 'GET', `${base(i)}/subscriptions/check`);
    assert.is(r.status, 200, r.text);
    valid('WatchInfo', r.json);
    return r.json;
  };
  const mine = await check(alice);
  assert.equal(mine, {
    subscribed: true,
    ignored: false,
    reason: null,
    created_at: mine.created_at,
    url: `${env.srv.api}/repos/${repo.full_name}/issues/${i.index}/subscriptions`,
    repository_url: `${env.srv.api}/repos/${repo.full_name}`,
  });
  assert.is(mine.created_at, (await env.as(alice, 'GET', base(i))).json.created_at);
  assert.equal([(await check(bob)).subscribed, (await check(bob)).ignored], [false, true]);
  await comment(i, bob, 'participating');
  assert.is((await check(bob)).subscribed, true);
  assert.is((await env.as(carol, 'PUT', `/repos/${repo.full_name}/subscription`)).status, 200);
  assert.is((await check(carol)).subscribed, true, 'watching the repository');
  assert.is((await env.api('GET', `${base(i)}/subscriptions/check`)).status, 401);
});

test('subscriptions: PUT/DELETE for oneself (201 changed, 200 unchanged), admins for others, 403 and 404 otherwise', async () => {
  const { alice, bob, carol, admin } = env;
  const repo = await newRepo(env, alice);
  const i = await newIssue(repo, alice);
  const sub = (u: TestUser | string, method: string, who: string) => env.as(u, method, `${base(i)}/subscriptions/${who}`);
  const rows = async () =>
    (await em().find(IssueWatch, { issueId: i.id }, { orderBy: { id: 'asc' } })).map((w) => [w.userId, w.isWatching]);
  const before = await rows();

  const put = await sub(bob, 'PUT', bob.name);
  assert.is(put.status, 201, put.text);
  assert.is(put.text, '');
  assert.is((await sub(bob, 'PUT', bob.name.toUpperCase())).status, 200);
  const list = await env.as(carol, 'GET', `${base(i)}/subscriptions`);
  assert.is(list.status, 200);
  validList('User', list);
  assert.ok(list.json.some((u: any) => u.login === bob.name));
  assert.is(list.headers.get('x-total-count'), String(list.json.length));

  const denied = await sub(alice, 'PUT', carol.name);
  assert.is(denied.status, 403);
  assert.is(denied.json.message, `${alice.name} is not permitted to change subscriptions for ${carol.name}`);
  assert.is((await sub(bob, 'DELETE', carol.name)).status, 403);
  assert.is((await sub(bob, 'PUT', 'nobody-here')).status, 404);
  assert.equal(await rows(), [...before, [bob.id, true]]);

  assert.is((await sub(admin, 'PUT', carol.name)).status, 201);
  const adminPublicOnly = await makeToken(env.srv.api, admin, ['public-only', 'write:issue']);
  assert.is((await sub(adminPublicOnly, 'DELETE', carol.name)).status, 403, 'no inherited admin rights through a public-only token');
  assert.is((await sub(bob, 'DELETE', bob.name)).status, 201);
  assert.is((await sub(bob, 'DELETE', bob.name)).status, 200);
  const after = await env.as(bob, 'GET', `${base(i)}/subscriptions`);
  assert.equal(
    after.json.map((u: any) => u.login).filter((n: string) => n === bob.name || n === carol.name),
    [carol.name],
  );
  assert.is((await env.as(bob, 'GET', `${base(i)}/subscriptions/check`)).json.subscribed, false, 'an explicit unsubscription wins');
  assert.is((await env.api('PUT', `${base(i)}/subscriptions/${bob.name}`)).status, 401);
  assert.is((await env.as(bob, 'PUT', `/repos/${repo.full_name}/issues/999/subscriptions/${bob.name}`)).status, 404);
});

test('subscriptions: private repositories answer 404 to outsiders', async () => {
  const { alice, carol } = env;
  const repo = await newRepo(env, alice, { private: true });
  const i = await newIssue(repo, alice);
  for (const [method, path] of [
    ['GET', `${base(i)}/subscriptions`],
    ['GET', `${base(i)}/subscriptions/check`],
    ['PUT', `${base(i)}/subscriptions/${carol.name}`],
    ['DELETE', `${base(i)}/subscriptions/${carol.name}`],
  ]) {
    assert.is((await env.as(carol, method, path)).status, 404, `${method} ${path}`);
  }
  assert.is(await em().count(IssueWatch, { issueId: i.id, userId: carol.id }), 0);
});

test.run();
