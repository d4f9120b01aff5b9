// Issues (Forgejo's routers/api/v1/repo/issue.go, issue_label.go, issue_pin.go): create, read, list,
// search, edit, delete, labels, deadline and pins, over real HTTP; timeline events and derived totals
// are read back from the database.
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newOrg, newRepo, setup, type Env } from './repo-setup.ts';
import { valid, validList, validOkList } from '../helpers/schema.ts';
import { makeToken, type TestUser } from '../helpers/fixtures.ts';
import type { Res } from '../helpers/client.ts';
import {
  Comment,
  CommentType,
  Issue,
  IssueAssignee,
  IssueDependency,
  IssueLabel,
  IssueWatch,
  Reaction,
  Stopwatch,
  TrackedTime,
} from '../../model/issue.ts';
import { Label } from '../../model/label.ts';
import { PullRequest, Review, ReviewType } from '../../model/pull.ts';
import { Attachment } from '../../model/attachment.ts';
import { Repository } from '../../model/repo.ts';
import { User, type IUser } from '../../model/user.ts';
import { executeSql, sql } from '../../model/sql.ts';
import { TOTAL } from '../../model/raw.ts';
import { orderSql, searchIssuesSql, type IssueFilter } from '../../lib/issues/query.ts';
import type { Caller } from '../../lib/repos/search.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

const em = () => env.db.db.orm.em.fork();
const userRow = async (id: number) => (await em().findOneOrFail(User, { id })) as IUser;
type Repo = Awaited<ReturnType<typeof newRepo>>;

function ok(r: Res, status: number, schema?: 'Issue' | 'Label' | 'IssueDeadline' | 'NewIssuePinsAllowed'): Res {
  assert.is(r.status, status, r.text);
  if (schema) valid(schema, r.json);
  return r;
}

async function collaborator(owner: TestUser, repo: Repo, user: TestUser, permission: 'read' | 'write' | 'admin') {
  ok(await env.as(owner, 'PUT', `/repos/${repo.full_name}/collaborators/${user.name}`, { permission }), 204);
}

async function label(u: TestUser, repo: Repo, name: string, exclusive = false): Promise<number> {
  return ok(await env.as(u, 'POST', `/repos/${repo.full_name}/labels`, { name, color: '#aabbcc', exclusive }), 201).json.id;
}

async function milestone(u: TestUser, repo: Repo, title: string): Promise<number> {
  return ok(await env.as(u, 'POST', `/repos/${repo.full_name}/milestones`, { title }), 201).json.id;
}

async function issue(u: TestUser, repo: Repo, body: Record<string, unknown>) {
  return ok(await env.as(u, 'POST', `/repos/${repo.full_name}/issues`, body), 201, 'Issue').json;
}

async function events(issueId: number, type: number) {
  return em().find(Comment, { issueId, type }, { orderBy: { id: 'asc' } });
}

const openIssues = async (repo: Repo) => ok(await env.as(env.alice, 'GET', `/repos/${repo.full_name}`), 200).json.open_issues_count;
const labelCounts = async (id: number) => {
  const l = await em().findOneOrFail(Label, { id });
  return [l.numIssues, l.numClosedIssues];
};
const milestoneCounts = async (repo: Repo, id: number) => {
  const m = ok(await env.as(env.alice, 'GET', `/repos/${repo.full_name}/milestones/${id}`), 200).json;
  return [m.open_issues, m.closed_issues];
};
const names = (list: { name: string }[]) => list.map((l) => l.name);
const logins = (list: { login: string }[] | null) => (list ?? []).map((u) => u.login).sort();

test('create: a writer sets labels, milestone, assignees, deadline and ref; events, watch and totals follow', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  await collaborator(alice, repo, bob, 'write');
  const bug = await label(alice, repo, 'bug');
  const kindA = await label(alice, repo, 'kind/a', true);
  const kindB = await label(alice, repo, 'kind/b', true);
  const other = await label(alice, await newRepo(env, alice), 'foreign');
  const m1 = await milestone(alice, repo, 'v1');

  const created = await issue(alice, repo, {
    title: '  First issue  ',
    body: 'the body',
    ref: 'refs/heads/main',
    labels: [bug, kindA, kindB, other, 999999],
    milestone: m1,
    assignee: alice.name,
    assignees: [bob.name],
    due_date: '2030-05-06T07:08:09Z',
  });
  assert.is(created.number, 1);
  assert.is(created.title, 'First issue');
  assert.is(created.body, 'the body');
  assert.is(created.ref, 'refs/heads/main');
  assert.is(created.state, 'open');
  assert.is(created.user.login, alice.name);
  assert.is(created.pull_request, null);
  assert.is(created.closed_at, null);
  assert.is(created.due_date, '2030-05-06T07:08:09Z');
  assert.is(created.milestone.id, m1);
  assert.equal(created.repository, { id: repo.id, name: repo.name, owner: alice.name, full_name: repo.full_name });
  assert.is(created.url, `${env.srv.api}/repos/${repo.full_name}/issues/1`);
  assert.is(created.html_url, `${env.srv.url}/${repo.full_name}/issues/1`);
  // Of two labels of one exclusive scope the last wins; other repositories' and unknown ids are dropped.
  assert.equal(names(created.labels).sort(), ['bug', 'kind/b']);
  assert.equal(logins(created.assignees), [alice.name, bob.name].sort());

  const got = ok(await env.as(alice, 'GET', `/repos/${repo.full_name}/issues/1`), 200, 'Issue').json;
  assert.equal(got, created);
  assert.is(ok(await env.as(bob, 'GET', `/repos/${repo.full_name}/issues/1`), 200, 'Issue').json.id, created.id);

  assert.is(await openIssues(repo), 1);
  assert.equal(await milestoneCounts(repo, m1), [1, 0]);
  assert.equal(await labelCounts(bug), [1, 0]);
  assert.equal(await labelCounts(kindA), [0, 0]);
  assert.equal(
    (await events(created.id, CommentType.label)).map((c) => [c.labelId, c.content]).sort(),
    [
      [bug, '1'],
      [kindB, '1'],
    ].sort(),
  );
  assert.equal(
    (await events(created.id, CommentType.milestone)).map((c) => [c.oldMilestoneId, c.milestoneId]),
    [[0, m1]],
  );
  assert.equal(
    (await events(created.id, CommentType.assignees)).map((c) => c.removedAssignee),
    [false, false],
  );
  const watch = await em().findOne(IssueWatch, { issueId: created.id, userId: alice.id });
  assert.ok(watch?.isWatching, 'the poster watches the new issue');

  const closed = await issue(bob, repo, { title: 'born closed', closed: true });
  assert.is(closed.number, 2);
  assert.is(closed.state, 'closed');
  assert.type(closed.closed_at, 'string');
  assert.is((await events(closed.id, CommentType.close)).length, 1);
  assert.is(await openIssues(repo), 1);
});

test('create: for a caller who cannot write issues, labels, assignees, milestone and deadline are dropped', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  const bug = await label(alice, repo, 'bug');
  const m1 = await milestone(alice, repo, 'v1');
  const created = await issue(bob, repo, {
    title: 'from a reader',
    labels: [bug],
    milestone: m1,
    assignees: [alice.name],
    due_date: '2030-01-01T00:00:00Z',
  });
  assert.equal(created.labels, []);
  assert.is(created.milestone, null);
  assert.is(created.assignees, null);
  assert.is(created.assignee, null);
  assert.is(created.due_date, null);
  assert.is(created.user.login, bob.name);
  assert.is(await em().count(Comment, { issueId: created.id }), 0);
});

test('create: 422 for a blank title, an unknown or unassignable assignee, a bad due date; nothing is written', async () => {
  const { alice, carol } = env;
  const repo = await newRepo(env, alice);
  await collaborator(alice, repo, carol, 'read');
  const base = `/repos/${repo.full_name}/issues`;
  const bad: [Record<string, unknown>, string][] = [
    [{ title: '   ' }, '[Title]: Required'],
    [{ body: 'no title' }, ''],
    [{ title: 'x', assignees: ['nobody-here'] }, 'Assignee does not exist'],
    [{ title: 'x', assignee: carol.name }, "user doesn't have access to repo"],
    [{ title: 'x', due_date: 'tomorrow' }, '[Deadline]'],
  ];
  for (const [body, msg] of bad) {
    const r = ok(await env.as(alice, 'POST', base, body), 422);
    assert.ok(r.json.message.includes(msg), `${JSON.stringify(body)}: ${r.text}`);
  }
  const all = ok(await env.as(alice, 'GET', `${base}?state=all`), 200);
  assert.equal(all.json, []);
  assert.is(all.headers.get('x-total-count'), '0');
  assert.is(await em().count(Issue, { repoId: repo.id }), 0);
  assert.is((await issue(alice, repo, { title: 'first real' })).number, 1, 'failed creations allocate no number');
});

test('permissions: private repositories are 404 to outsiders and anonymous callers; a reader cannot create in a private repo without access', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice, { private: true });
  await issue(alice, repo, { title: 'secret' });
  for (const who of [bob, undefined]) {
    ok(await env.as(who, 'GET', `/repos/${repo.full_name}/issues`), 404);
    ok(await env.as(who, 'GET', `/repos/${repo.full_name}/issues/1`), 404);
  }
  ok(await env.as(bob, 'POST', `/repos/${repo.full_name}/issues`, { title: 'x' }), 404);
  ok(await env.as(undefined, 'POST', `/repos/${repo.full_name}/issues`, { title: 'x' }), 404);
  await collaborator(alice, repo, carol, 'read');
  ok(await env.as(carol, 'GET', `/repos/${repo.full_name}/issues/1`), 200, 'Issue');
  ok(await env.as(alice, 'GET', `/repos/${repo.full_name}/issues/99`), 404);
  ok(await env.as(alice, 'GET', `/repos/${repo.full_name}/issues/abc`), 404);
});

test('list: state, type, labels, milestones (name or id), q, created_by, assigned_by, mentioned_by, since/before, sort and paging', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice);
  await collaborator(alice, repo, bob, 'write');
  const bug = await label(alice, repo, 'bug');
  const m1 = await milestone(alice, repo, 'v1');
  const a = await issue(alice, repo, { title: 'alpha crash', labels: [bug], milestone: m1 });
  const b = await issue(bob, repo, { title: 'beta', body: 'ping @' + carol.name + ', please', assignees: [bob.name] });
  const c = await issue(alice, repo, { title: 'gamma', body: 'a CRASH again', closed: true });
  const d = await issue(alice, repo, { title: 'delta', body: `mail ${carol.name}@example.com is no mention` });
  const base = `/repos/${repo.full_name}/issues`;
  const numbers = async (q: string, who: TestUser = alice) => {
    const r = ok(await env.as(who, 'GET', `${base}${q}`), 200);
    validList('Issue', r);
    return r.json.map((i: { number: number }) => i.number);
  };
  assert.equal(await numbers(''), [d.number, b.number, a.number], 'open, newest first');
  assert.equal(await numbers('?state=closed'), [c.number]);
  assert.equal(await numbers('?state=all&sort=oldest'), [a.number, b.number, c.number, d.number]);
  assert.equal(await numbers('?type=pulls'), []);
  assert.equal(await numbers('?type=issues&state=all'), [d.number, c.number, b.number, a.number]);
  assert.equal(await numbers('?labels=bug'), [a.number]);
  assert.equal(await numbers('?labels=nosuchlabel'), [d.number, b.number, a.number], 'unknown labels are discarded');
  assert.equal(await numbers('?milestones=v1'), [a.number]);
  assert.equal(await numbers(`?milestones=${m1}`), [a.number]);
  assert.equal(await numbers('?q=crash&state=all'), [c.number, a.number], 'title and body, case-insensitive');
  assert.equal(await numbers(`?q=${encodeURIComponent("crash'; select 1 -- ?%_")}&state=all`), [], 'a keyword is text, whatever it holds');
  assert.equal(await numbers(`?created_by=${bob.name}`), [b.number]);
  assert.equal(await numbers(`?assigned_by=${bob.name}`), [b.number]);
  assert.equal(await numbers(`?mentioned_by=${carol.name}`), [b.number]);
  ok(await env.as(alice, 'GET', `${base}?created_by=nobody-here`), 404);
  const badTime = ok(await env.as(alice, 'GET', `${base}?since=yesterday`), 422);
  assert.match(badTime.json.message, 'parsing time "yesterday"');
  ok(await env.as(alice, 'GET', `${base}?before=2020-01-01`), 422);
  assert.equal(await numbers('?since=2999-01-01T00:00:00Z'), []);
  assert.equal(await numbers('?before=2999-01-01T00:00:00Z'), [d.number, b.number, a.number]);

  const page = ok(await env.as(alice, 'GET', `${base}?state=all&limit=2&page=2`), 200);
  validList('Issue', page);
  assert.equal(
    page.json.map((i: { number: number }) => i.number),
    [b.number, a.number],
  );
  assert.is(page.headers.get('x-total-count'), '4');
  const link = page.headers.get('link') ?? '';
  assert.match(link, 'rel="first"');
  assert.match(link, 'rel="prev"');
  assert.not.match(link, 'rel="next"');
});

test('edit: the poster may change title, body, ref and state; only writers change milestone, assignees and deadline; others get 403', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice);
  const m1 = await milestone(alice, repo, 'v1');
  const mine = await issue(bob, repo, { title: 'bob wrote this' });
  const path = `/repos/${repo.full_name}/issues/${mine.number}`;
  const edited = ok(
    await env.as(bob, 'PATCH', path, {
      title: 'renamed',
      body: 'new body',
      ref: 'refs/heads/x',
      milestone: m1,
      assignees: [alice.name],
      due_date: '2031-01-01T00:00:00Z',
    }),
    201,
    'Issue',
  ).json;
  assert.equal([edited.title, edited.body, edited.ref], ['renamed', 'new body', 'refs/heads/x']);
  assert.equal([edited.milestone, edited.assignees, edited.due_date], [null, null, null], 'writer-only fields are ignored for the poster');
  assert.equal(
    (await events(mine.id, CommentType.changeTitle)).map((c) => [c.oldTitle, c.newTitle]),
    [['bob wrote this', 'renamed']],
  );
  assert.equal(
    (await events(mine.id, CommentType.changeIssueRef)).map((c) => [c.oldRef, c.newRef]),
    [['', 'x']],
  );

  const closed = ok(await env.as(bob, 'PATCH', path, { state: 'closed' }), 201, 'Issue').json;
  assert.is(closed.state, 'closed');

  const denied = ok(await env.as(carol, 'PATCH', path, { title: 'hijacked' }), 403);
  assert.type(denied.json.message, 'string');
  ok(await env.as(undefined, 'PATCH', path, { title: 'anon' }), 401);
  const after = ok(await env.as(alice, 'GET', path), 200, 'Issue').json;
  assert.is(after.title, 'renamed');
  ok(await env.as(alice, 'PATCH', `/repos/${repo.full_name}/issues/77`, { title: 'x' }), 404);
});

test('edit: state, milestone, assignees and deadline changes record events and keep totals right', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  await collaborator(alice, repo, bob, 'write');
  const bug = await label(alice, repo, 'bug');
  const m1 = await milestone(alice, repo, 'v1');
  const m2 = await milestone(alice, repo, 'v2');
  const it = await issue(alice, repo, { title: 'work', labels: [bug], milestone: m1, assignees: [alice.name, bob.name] });
  const path = `/repos/${repo.full_name}/issues/${it.number}`;

  const closed = ok(await env.as(bob, 'PATCH', path, { state: 'closed' }), 201, 'Issue').json;
  assert.is(closed.state, 'closed');
  assert.type(closed.closed_at, 'string');
  assert.is(await openIssues(repo), 0);
  assert.equal(await milestoneCounts(repo, m1), [0, 1]);
  assert.equal(await labelCounts(bug), [1, 1]);
  assert.is((await events(it.id, CommentType.close)).length, 1);
  ok(await env.as(bob, 'PATCH', path, { state: 'closed' }), 201);
  assert.is((await events(it.id, CommentType.close)).length, 1, 'closing a closed issue records nothing');

  const reopened = ok(await env.as(bob, 'PATCH', path, { state: 'open' }), 201, 'Issue').json;
  assert.equal([reopened.state, reopened.closed_at], ['open', null]);
  assert.is((await events(it.id, CommentType.reopen)).length, 1);
  assert.is(await openIssues(repo), 1);

  const moved = ok(await env.as(bob, 'PATCH', path, { milestone: m2 }), 201, 'Issue').json;
  assert.is(moved.milestone.id, m2);
  assert.equal(moved.milestone.open_issues, 1);
  assert.equal(await milestoneCounts(repo, m1), [0, 0]);
  assert.equal(
    (await events(it.id, CommentType.milestone)).map((c) => [c.oldMilestoneId, c.milestoneId]),
    [
      [0, m1],
      [m1, m2],
    ],
  );
  ok(await env.as(bob, 'PATCH', path, { milestone: 999999 }), 422);
  assert.is(ok(await env.as(bob, 'PATCH', path, { milestone: 0 }), 201, 'Issue').json.milestone, null);

  const reassigned = ok(await env.as(bob, 'PATCH', path, { assignees: [bob.name] }), 201, 'Issue').json;
  assert.equal(logins(reassigned.assignees), [bob.name]);
  const removed = (await events(it.id, CommentType.assignees)).filter((c) => c.removedAssignee);
  assert.equal(
    removed.map((c) => c.assigneeId),
    [alice.id],
  );
  assert.is(ok(await env.as(bob, 'PATCH', path, { assignees: [] }), 201, 'Issue').json.assignees, null);
  ok(await env.as(bob, 'PATCH', path, { assignees: ['nobody-here'] }), 422);

  // Deadlines keep the day, at 23:59:59 in the offset given.
  const due = ok(await env.as(bob, 'PATCH', path, { due_date: '2031-03-04T10:00:00+02:00' }), 201, 'Issue').json;
  assert.is(due.due_date, '2031-03-04T21:59:59Z');
  ok(await env.as(bob, 'PATCH', path, { due_date: '2031-03-09T10:00:00Z' }), 201);
  ok(await env.as(bob, 'PATCH', path, { unset_due_date: true }), 201);
  const deadlines = await em().find(
    Comment,
    { issueId: it.id, type: { $in: [CommentType.addedDeadline, CommentType.modifiedDeadline, CommentType.removedDeadline] } },
    { orderBy: { id: 'asc' } },
  );
  assert.equal(
    deadlines.map((c) => [c.type, c.content]),
    [
      [CommentType.addedDeadline, '2031-03-04'],
      [CommentType.modifiedDeadline, '2031-03-09|2031-03-04'],
      [CommentType.removedDeadline, '2031-03-09'],
    ],
  );
  ok(await env.as(bob, 'PATCH', path, { unset_due_date: false }), 400);
  assert.is(ok(await env.as(bob, 'GET', path), 200, 'Issue').json.due_date, null);
});

test('edit: updated_at only for repository admins, between creation and now', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  await collaborator(alice, repo, bob, 'write');
  const it = await issue(alice, repo, { title: 'dated' });
  const path = `/repos/${repo.full_name}/issues/${it.number}`;
  ok(await env.as(bob, 'PATCH', path, { body: 'x', updated_at: new Date().toISOString() }), 403);
  ok(await env.as(alice, 'PATCH', path, { body: 'x', updated_at: '2001-01-01T00:00:00Z' }), 403);
  assert.is(ok(await env.as(alice, 'GET', path), 200).json.body, '', 'a refused edit changes nothing');
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const at = new Date(Date.parse(it.created_at) + 1000);
  const r = ok(await env.as(alice, 'PATCH', path, { body: 'y', updated_at: at.toISOString() }), 201, 'Issue');
  assert.is(r.json.updated_at, at.toISOString().replace('.000Z', 'Z'));
  assert.is(r.json.body, 'y');
  ok(await env.as(alice, 'PATCH', path, { body: 'z', updated_at: new Date(Date.now() + 3_600_000).toISOString() }), 403);
});

test('edit: closing needs the dependencies closed (412)', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const blocked = await issue(alice, repo, { title: 'blocked' });
  const blocker = await issue(alice, repo, { title: 'blocker' });
  const m = em();
  m.create(IssueDependency, { issueId: blocked.id, dependencyId: blocker.id, userId: alice.id, createdAt: new Date() });
  await m.flush();
  const path = `/repos/${repo.full_name}/issues/${blocked.number}`;
  const r = ok(await env.as(alice, 'PATCH', path, { state: 'closed' }), 412);
  assert.is(r.json.message, 'cannot close this issue because it still has open dependencies');
  assert.is(ok(await env.as(alice, 'GET', path), 200).json.state, 'open');
  ok(await env.as(alice, 'PATCH', `/repos/${repo.full_name}/issues/${blocker.number}`, { state: 'closed' }), 201);
  assert.is(ok(await env.as(alice, 'PATCH', path, { state: 'closed' }), 201, 'Issue').json.state, 'closed');
});

test('deadline route: writers only (403), IssueDeadline at 23:59:59 UTC of the day, zero time removes', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  const it = await issue(bob, repo, { title: 'due' });
  const path = `/repos/${repo.full_name}/issues/${it.number}/deadline`;
  ok(await env.as(bob, 'POST', path, { due_date: '2032-02-02T10:00:00Z' }), 403);
  assert.is(await em().count(Comment, { issueId: it.id }), 0);
  const set = ok(await env.as(alice, 'POST', path, { due_date: '2032-02-02T10:00:00+05:00' }), 201, 'IssueDeadline').json;
  assert.equal(set, { due_date: '2032-02-02T23:59:59Z' });
  assert.is(ok(await env.as(alice, 'GET', `/repos/${repo.full_name}/issues/${it.number}`), 200).json.due_date, '2032-02-02T23:59:59Z');
  ok(await env.as(alice, 'POST', path, {}), 422);
  const cleared = ok(await env.as(alice, 'POST', path, { due_date: '0001-01-01T00:00:00Z' }), 201, 'IssueDeadline').json;
  assert.equal(cleared, { due_date: '0001-01-01T00:00:00Z' });
  assert.is(ok(await env.as(alice, 'GET', `/repos/${repo.full_name}/issues/${it.number}`), 200).json.due_date, null);
  assert.equal(
    (await em().find(Comment, { issueId: it.id }, { orderBy: { id: 'asc' } })).map((c) => [c.type, c.content]),
    [
      [CommentType.addedDeadline, '2032-02-02'],
      [CommentType.removedDeadline, '2032-02-02'],
    ],
  );
  ok(await env.as(alice, 'POST', `/repos/${repo.full_name}/issues/99/deadline`, { due_date: '2032-02-02T10:00:00Z' }), 404);
});

test('labels of an issue: add by id or name, exclusive scopes, replace, remove one, clear; events and counts', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  await collaborator(alice, repo, bob, 'write');
  const bug = await label(alice, repo, 'bug');
  const high = await label(alice, repo, 'prio/high', true);
  const low = await label(alice, repo, 'prio/low', true);
  const docs = await label(alice, repo, 'docs');
  const foreign = await label(alice, await newRepo(env, alice), 'foreign');
  const it = await issue(alice, repo, { title: 'labelled' });
  const base = `/repos/${repo.full_name}/issues/${it.number}/labels`;

  const added = ok(await env.as(bob, 'POST', base, { labels: [bug, high, foreign, 424242] }), 200);
  validList('Label', added);
  assert.equal(names(added.json), ['bug', 'prio/high']);
  assert.is(added.json[0].url, `${env.srv.api}/repos/${repo.full_name}/labels/${bug}`);
  const scoped = ok(await env.as(bob, 'POST', base, { labels: ['prio/low'] }), 200).json;
  assert.equal(names(scoped), ['bug', 'prio/low'], 'an exclusive label replaces the other of its scope');
  assert.equal(await labelCounts(high), [0, 0]);
  assert.equal(await labelCounts(low), [1, 0]);
  validOkList('Label', await env.as(undefined, 'GET', base));
  assert.equal(names(ok(await env.as(undefined, 'GET', base), 200).json), ['bug', 'prio/low']);

  const replaced = ok(await env.as(bob, 'PUT', base, { labels: [docs, high, low] }), 200);
  validList('Label', replaced);
  assert.equal(names(replaced.json), ['docs', 'prio/low'], 'replace keeps the last label of a scope');
  assert.equal(await labelCounts(bug), [0, 0]);

  ok(await env.as(bob, 'DELETE', `${base}/docs`), 204);
  const gh = ok(await env.as(bob, 'DELETE', `${base}/${low}`, undefined), 204);
  assert.is(gh.text, '');
  ok(await env.as(bob, 'POST', base, { labels: [bug] }), 200);
  const ghStyle = await env.api('DELETE', `${base}/bug`, { token: bob.token, headers: { Accept: 'application/vnd.github+json' } });
  ok(ghStyle, 200);
  validList('Label', ghStyle);
  assert.equal(names(ghStyle.json), ['bug']);
  const unknown = ok(await env.as(bob, 'DELETE', `${base}/nosuchlabel`), 422);
  assert.match(unknown.json.message, 'label does not exist');
  ok(await env.as(bob, 'DELETE', `${base}/${foreign}`), 422);
  assert.equal(ok(await env.as(bob, 'GET', base), 200).json, []);

  ok(await env.as(bob, 'POST', base, { labels: [bug, docs] }), 200);
  ok(await env.as(bob, 'DELETE', base), 204);
  assert.equal(ok(await env.as(bob, 'GET', base), 200).json, []);
  assert.equal(await labelCounts(docs), [0, 0]);

  const history = await events(it.id, CommentType.label);
  const added1 = history.filter((c) => c.content === '1').length;
  const removed1 = history.filter((c) => c.content === '').length;
  assert.is(added1, removed1, 'every label that came and went left an add and a remove event');
  assert.ok(
    history.some((c) => c.labelId === high && c.content === ''),
    'the scope replacement is an event too',
  );

  ok(await env.as(bob, 'POST', base, { labels: [bug, 'docs'] }), 400);
  ok(await env.as(bob, 'POST', base, { labels: [{ id: bug }] }), 400);
  ok(await env.as(bob, 'POST', `/repos/${repo.full_name}/issues/99/labels`, { labels: [bug] }), 404);
});

test('labels of an issue: readers and posters without write access get 403 and change nothing', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice);
  await collaborator(alice, repo, carol, 'read');
  const bug = await label(alice, repo, 'bug');
  const it = await issue(bob, repo, { title: 'by bob' });
  const base = `/repos/${repo.full_name}/issues/${it.number}/labels`;
  ok(await env.as(alice, 'POST', base, { labels: [bug] }), 200);
  for (const who of [bob, carol]) {
    ok(await env.as(who, 'POST', base, { labels: [bug] }), 403);
    ok(await env.as(who, 'PUT', base, { labels: [] }), 403);
    ok(await env.as(who, 'DELETE', base), 403);
    ok(await env.as(who, 'DELETE', `${base}/bug`), 403);
  }
  ok(await env.as(undefined, 'POST', base, { labels: [bug] }), 401);
  assert.equal(names(ok(await env.as(alice, 'GET', base), 200).json), ['bug']);
});

test('labels of an issue: organization labels by name and id, listed under the organization', async () => {
  const { alice } = env;
  const org = await newOrg(env, alice);
  const repo = ok(await env.as(alice, 'POST', `/orgs/${org.name}/repos`, { name: 'withlabels' }), 201).json as Repo;
  const orgLabel = ok(await env.as(alice, 'POST', `/orgs/${org.name}/labels`, { name: 'org-wide', color: '#112233' }), 201).json.id;
  await label(alice, repo, 'local');
  const created = await issue(alice, repo, { title: 'org', labels: [orgLabel] });
  assert.equal(names(created.labels), ['org-wide']);
  assert.is(created.labels[0].url, `${env.srv.api}/orgs/${org.name}/labels/${orgLabel}`);
  const base = `/repos/${repo.full_name}/issues/${created.number}/labels`;
  const both = ok(await env.as(alice, 'POST', base, { labels: ['local', 'org-wide'] }), 200).json;
  assert.equal(names(both), ['local', 'org-wide']);
  const listed = ok(await env.as(alice, 'GET', `/repos/${repo.full_name}/issues?labels=org-wide`), 200);
  assert.equal(
    listed.json.map((i: { number: number }) => i.number),
    [created.number],
  );
  ok(await env.as(alice, 'DELETE', `${base}/org-wide`), 204);
  assert.equal(names(ok(await env.as(alice, 'GET', base), 200).json), ['local']);
});

test('delete: admins only; the issue and every row that hangs off it go, attachment files too; totals follow; numbers are not reused', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  await collaborator(alice, repo, bob, 'write');
  const bug = await label(alice, repo, 'bug');
  const m1 = await milestone(alice, repo, 'v1');
  const it = await issue(alice, repo, { title: 'doomed', labels: [bug], milestone: m1, assignees: [bob.name] });
  const keep = await issue(alice, repo, { title: 'keeper' });
  const uuid = '0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
  const file = path.join(env.srv.config.dataPath, 'attachments', uuid[0], uuid[1], uuid);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, 'bytes');
  const m = em();
  const comment = m.create(Comment, { issueId: it.id, posterId: alice.id, type: CommentType.comment, content: 'hi' } as never);
  await m.flush();
  m.create(Reaction, { issueId: it.id, userId: alice.id, type: '+1' } as never);
  m.create(Attachment, { uuid, issueId: it.id, commentId: 0, repoId: repo.id, name: 'a.txt', size: 5 } as never);
  m.create(Attachment, {
    uuid: `${uuid}-c`,
    issueId: it.id,
    commentId: (comment as { id: number }).id,
    repoId: repo.id,
    name: 'b.txt',
    size: 5,
  } as never);
  m.create(IssueDependency, { issueId: keep.id, dependencyId: it.id, userId: alice.id } as never);
  m.create(TrackedTime, { issueId: it.id, userId: alice.id, time: 60 } as never);
  m.create(Stopwatch, { issueId: it.id, userId: bob.id } as never);
  await m.flush();

  const path1 = `/repos/${repo.full_name}/issues/${it.number}`;
  ok(await env.as(bob, 'DELETE', path1), 403);
  ok(await env.as(alice, 'GET', path1), 200);
  ok(await env.as(alice, 'DELETE', path1), 204);
  ok(await env.as(alice, 'GET', path1), 404);
  ok(await env.as(alice, 'DELETE', path1), 404);
  const f = em();
  for (const [entity, where] of [
    [Issue, { id: it.id }],
    [Comment, { issueId: it.id }],
    [IssueLabel, { issueId: it.id }],
    [IssueAssignee, { issueId: it.id }],
    [IssueWatch, { issueId: it.id }],
    [Reaction, { issueId: it.id }],
    [Attachment, { issueId: it.id }],
    [IssueDependency, { dependencyId: it.id }],
    [TrackedTime, { issueId: it.id }],
    [Stopwatch, { issueId: it.id }],
  ] as const) {
    assert.is(
      await f.count(entity as never, where as never),
      0,
      (entity as { meta?: { className: string } }).meta?.className ?? String(entity),
    );
  }
  assert.not.ok(fs.existsSync(file), 'the attachment file is removed');
  assert.equal(await labelCounts(bug), [0, 0]);
  assert.equal(await milestoneCounts(repo, m1), [0, 0]);
  assert.is(await openIssues(repo), 1);
  assert.is((await issue(alice, repo, { title: 'after' })).number, 3, 'deleted numbers are not reused');
});

/** Turns the issue half of `number` into a pull request (the pull routes belong to another family). */
async function makePull(repo: Repo, issueId: number, number: number) {
  const m = em();
  const row = await m.findOneOrFail(Issue, { id: issueId });
  row.isPull = true;
  m.create(PullRequest, {
    issueId,
    index: number,
    baseRepoId: repo.id,
    headRepoId: repo.id,
    baseBranch: 'main',
    headBranch: 'main',
  } as never);
  m.create(Review, { issueId, type: ReviewType.request, reviewerId: env.bob.id } as never);
  await m.flush();
  await m
    .getConnection()
    .execute('update repository set num_open_issues = num_open_issues - 1, num_open_pulls = num_open_pulls + 1 where id = ?', [repo.id]);
}

test('delete: a pull request loses its pull and review rows too', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const it = await issue(alice, repo, { title: 'a pull' });
  await makePull(repo, it.id, it.number);
  ok(await env.as(alice, 'DELETE', `/repos/${repo.full_name}/issues/${it.number}`), 204);
  assert.is(await em().count(PullRequest, { issueId: it.id }), 0);
  assert.is(await em().count(Review, { issueId: it.id }), 0);
  const r = await em().findOneOrFail(Repository, { id: repo.id });
  assert.equal([r.numOpenIssues, r.numOpenPulls], [0, 0]);
});

test('pins: admins pin to the end (at most 3 per kind), move, unpin renumbers; pinned lists and new_pin_allowed', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  await collaborator(alice, repo, bob, 'write');
  const made = [];
  for (let i = 0; i < 5; i++) made.push(await issue(alice, repo, { title: `pin me ${i}` }));
  const [i1, i2, i3, i4, i5] = made;
  const pinPath = (n: number) => `/repos/${repo.full_name}/issues/${n}/pin`;
  const pinnedNumbers = async () => {
    const r = ok(await env.as(undefined, 'GET', `/repos/${repo.full_name}/issues/pinned`), 200);
    validList('Issue', r);
    return r.json.map((i: { number: number; pin_order: number }) => [i.number, i.pin_order]);
  };
  const allowed = async () => ok(await env.as(alice, 'GET', `/repos/${repo.full_name}/new_pin_allowed`), 200, 'NewIssuePinsAllowed').json;

  assert.equal(await allowed(), { issues: true, pull_requests: true });
  ok(await env.as(bob, 'POST', pinPath(i1.number)), 403);
  for (const it of [i1, i2, i3]) ok(await env.as(alice, 'POST', pinPath(it.number)), 204);
  ok(await env.as(alice, 'POST', pinPath(i1.number)), 204);
  assert.equal(await pinnedNumbers(), [
    [i1.number, 1],
    [i2.number, 2],
    [i3.number, 3],
  ]);
  assert.equal(await allowed(), { issues: false, pull_requests: true });
  ok(await env.as(alice, 'POST', pinPath(i4.number)), 400);
  assert.is((await events(i1.id, CommentType.pin)).length, 1);

  ok(await env.as(alice, 'PATCH', `${pinPath(i3.number)}/1`), 204);
  assert.equal(await pinnedNumbers(), [
    [i3.number, 1],
    [i1.number, 2],
    [i2.number, 3],
  ]);
  ok(await env.as(alice, 'PATCH', `${pinPath(i3.number)}/9`), 204);
  assert.equal(
    await pinnedNumbers(),
    [
      [i1.number, 1],
      [i2.number, 2],
      [i3.number, 3],
    ],
    'a position past the end is the last place',
  );
  ok(await env.as(alice, 'PATCH', `${pinPath(i3.number)}/0`), 422);
  ok(await env.as(alice, 'PATCH', `${pinPath(i5.number)}/1`), 204);
  ok(await env.as(bob, 'PATCH', `${pinPath(i3.number)}/1`), 403);

  ok(await env.as(alice, 'DELETE', pinPath(i1.number)), 204);
  assert.equal(await pinnedNumbers(), [
    [i2.number, 1],
    [i3.number, 2],
  ]);
  assert.is((await events(i1.id, CommentType.unpin)).length, 1);
  ok(await env.as(alice, 'DELETE', pinPath(i5.number)), 204);
  ok(await env.as(alice, 'DELETE', `/repos/${repo.full_name}/issues/${i2.number}`), 204);
  assert.equal(await pinnedNumbers(), [[i3.number, 1]], 'deleting a pinned issue renumbers the others');

  // Pulls are pinned in their own list.
  await makePull(repo, i4.id, i4.number);
  ok(await env.as(alice, 'POST', pinPath(i4.number)), 204);
  assert.equal(await pinnedNumbers(), [[i3.number, 1]]);
  const pulls = ok(await env.as(alice, 'GET', `/repos/${repo.full_name}/pulls/pinned`), 200);
  validList('PullRequest', pulls);
  assert.equal(
    pulls.json.map((p: { number: number }) => p.number),
    [i4.number],
  );
});

test('keyword: title, body and plain comments, substring and case-insensitive, kept to the listed repository', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const other = await newRepo(env, alice);
  const word = `Kwqz${Date.now()}`;
  const inTitle = await issue(alice, repo, { title: `x${word}y title` });
  const inBody = await issue(alice, repo, { title: 'body', body: `says ${word.toUpperCase()}.` });
  const inComment = await issue(alice, repo, { title: 'comment' });
  const none = await issue(alice, repo, { title: 'ab', body: 'nothing' });
  ok(await env.as(alice, 'POST', `/repos/${repo.full_name}/issues/${inComment.number}/comments`, { body: `a comment with ${word}` }), 201);
  const elsewhere = await issue(alice, other, { title: `${word} elsewhere` });
  ok(await env.as(alice, 'POST', `/repos/${other.full_name}/issues/${elsewhere.number}/comments`, { body: word }), 201);
  // A title change is a comment of another type: its text is not searched.
  ok(await env.as(alice, 'PATCH', `/repos/${repo.full_name}/issues/${none.number}`, { title: `was ${word}` }), 201);
  ok(await env.as(alice, 'PATCH', `/repos/${repo.full_name}/issues/${none.number}`, { title: 'ab' }), 201);
  const numbers = async (q: string) => {
    const r = ok(await env.as(alice, 'GET', `/repos/${repo.full_name}/issues?state=all&q=${encodeURIComponent(q)}`), 200);
    return r.json.map((i: { number: number }) => i.number);
  };
  const all = [inComment.number, inBody.number, inTitle.number];
  assert.equal(await numbers(word), all);
  assert.equal(await numbers(word.toLowerCase().slice(1, -1)), all, 'a part of a word, in any case');
  assert.equal(await numbers('b'), [none.number, inBody.number], 'shorter than a trigram still matches');
  assert.equal(await numbers(`${word}%`), [], '% is a character');
  const searched = ok(await env.as(alice, 'GET', `/repos/issues/search?q=${word}`), 200);
  assert.equal(
    searched.json.map((i: { id: number }) => i.id).sort((x: number, y: number) => x - y),
    [inTitle.id, inBody.id, inComment.id, elsewhere.id].sort((x, y) => x - y),
  );
});

test('search: issues of readable repositories only; token kinds; filters; owner/team errors', async () => {
  const { alice, bob, carol } = env;
  const pub = await newRepo(env, alice);
  const priv = await newRepo(env, alice, { private: true });
  const bobs = await newRepo(env, bob, { private: true });
  const word = `needle${Date.now()}`;
  const a = await issue(alice, pub, { title: `${word} public` });
  const b = await issue(alice, priv, { title: `${word} private`, assignees: [alice.name] });
  const c = await issue(bob, bobs, { title: `${word} bob private` });
  const closed = await issue(alice, pub, { title: `${word} closed`, closed: true });
  const ids = async (who: TestUser | string | undefined, q = '') => {
    const r = ok(await env.as(who, 'GET', `/repos/issues/search?q=${word}${q}`), 200);
    validList('Issue', r);
    return r.json.map((i: { id: number }) => i.id).sort((x: number, y: number) => x - y);
  };
  assert.equal(await ids(alice), [a.id, b.id]);
  assert.equal(await ids(bob), [a.id, c.id]);
  assert.equal(await ids(carol), [a.id]);
  assert.equal(await ids(undefined), [a.id]);
  assert.equal(await ids(env.admin), [a.id, b.id, c.id]);
  assert.equal(await ids(alice, '&state=closed'), [closed.id]);
  assert.equal(
    await ids(alice, '&state=all'),
    [a.id, b.id, closed.id].sort((x, y) => x - y),
  );
  assert.equal(await ids(alice, '&assigned=true'), [b.id]);
  assert.equal(await ids(alice, '&created=true'), [a.id, b.id]);
  assert.equal(await ids(alice, '&type=pulls'), []);
  assert.equal(await ids(alice, `&owner=${bob.name}`), []);
  assert.equal(await ids(bob, `&owner=${bob.name}`), [c.id]);
  ok(await env.as(alice, 'GET', '/repos/issues/search?owner=nobody-here'), 400);
  ok(await env.as(alice, 'GET', `/repos/issues/search?team=owners`), 400);
  ok(await env.as(alice, 'GET', '/repos/issues/search?since=soon'), 422);

  const org = await newOrg(env, alice);
  const orgRepo = ok(await env.as(alice, 'POST', `/orgs/${org.name}/repos`, { name: 'searched', private: true }), 201).json as Repo;
  const inOrg = await issue(alice, orgRepo, { title: `${word} in org` });
  assert.equal(await ids(alice, `&owner=${org.name}&team=owners`), [inOrg.id]);
  assert.equal(await ids(bob, `&owner=${org.name}`), []);
  const noTeam = ok(await env.as(alice, 'GET', `/repos/issues/search?owner=${org.name}&team=nosuchteam`), 400);
  assert.match(noTeam.json.message, 'team does not exist');

  const publicOnly = await makeToken(env.srv.api, alice, ['public-only', 'read:issue']);
  assert.equal(await ids(publicOnly), [a.id]);
  const justPriv = await makeToken(env.srv.api, alice, ['read:issue'], { repositories: [{ owner: alice.name, name: priv.name }] });
  assert.equal(await ids(justPriv), [b.id], 'a repo-specific token lists its repository only (spec, token kinds)');
  const otherRepo = await makeToken(env.srv.api, alice, ['read:issue'], { repositories: [{ owner: alice.name, name: pub.name }] });
  assert.equal(await ids(otherRepo), [a.id]);

  const paged = ok(await env.as(env.admin, 'GET', `/repos/issues/search?q=${word}&limit=1&page=2`), 200);
  assert.is(paged.json.length, 1);
  assert.is(paged.headers.get('x-total-count'), '4');
  assert.match(paged.headers.get('link') ?? '', 'rel="prev"');

  // Without other filters the total of open issues is summed from the repositories' counters; with a
  // filter that keeps everything (since 1970) it is counted: the two agree for every kind of caller.
  for (const who of [alice, bob, carol, undefined, env.admin, publicOnly, justPriv]) {
    for (const type of ['', '&type=issues', '&type=pulls']) {
      const total = async (q: string) =>
        ok(await env.as(who, 'GET', `/repos/issues/search?limit=1${type}${q}`), 200).headers.get('x-total-count');
      assert.is(await total(''), await total('&since=1970-01-01T00:00:00Z'));
    }
  }
});

test('spec, local-issue gate: with the issues unit disabled a real issue is 404', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const it = await issue(alice, repo, { title: 'soon hidden' });
  ok(await env.as(alice, 'GET', `/repos/${repo.full_name}/issues/${it.number}`), 200);
  ok(await env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { has_issues: false }), 200);
  ok(await env.as(alice, 'GET', `/repos/${repo.full_name}/issues/${it.number}`), 404);
  // Only pulls stay listed through the issue routes.
  assert.equal(ok(await env.as(alice, 'GET', `/repos/${repo.full_name}/issues?state=all`), 200).json, []);
  ok(await env.as(alice, 'GET', `/repos/${repo.full_name}/issues?type=issues`), 404);
});

test('create: a user blocked by the repository owner may not open issues (403)', async () => {
  const { alice, carol } = env;
  const repo = await newRepo(env, alice);
  ok(await env.as(alice, 'PUT', `/user/block/${carol.name}`), 204);
  try {
    ok(await env.as(carol, 'POST', `/repos/${repo.full_name}/issues`, { title: 'let me in' }), 403);
    assert.is(await em().count(Issue, { repoId: repo.id }), 0);
  } finally {
    ok(await env.as(alice, 'PUT', `/user/unblock/${carol.name}`), 204);
  }
  await issue(carol, repo, { title: 'after the block' });
});

// Last: a long stretch without requests would outlive the client's kept-alive connection.
test('search without a keyword: a page per (repository, kind) and the walk in order agree', async () => {
  const { alice, bob } = env;
  // Without a keyword a page is read per (repository, kind) for few pairs, by walking all issues in
  // order for many: both ways give the same page and total, for every kind of caller, order and state.
  const callers: Caller[] = [
    { doer: await userRow(alice.id), siteAdmin: false, token: null },
    { doer: await userRow(bob.id), siteAdmin: false, token: null },
    { doer: null, siteAdmin: false, token: null },
    { doer: await userRow(env.admin.id), siteAdmin: true, token: null },
  ];
  for (const caller of callers) {
    for (const f of [
      { isClosed: false },
      { isClosed: true },
      { isPull: false },
      { isClosed: false, posterId: alice.id },
    ] as IssueFilter[]) {
      for (const sort of ['latest', 'oldest', 'mostcomment', 'farduedate']) {
        for (const page of [
          { page: 1, limit: 3, offset: 0 },
          { page: 2, limit: 2, offset: 2 },
        ]) {
          const read = async (max: number) => {
            const rows = await executeSql(em(), searchIssuesSql(caller, sql`true`, f, orderSql(sort), page, max));
            return rows.map((r) => [r.id, r[TOTAL]]);
          };
          const perPair = await read(1_000_000);
          assert.equal(perPair, await read(0), `${JSON.stringify([caller.doer?.id, f, sort, page])}`);
        }
      }
    }
  }
});

test.run();
