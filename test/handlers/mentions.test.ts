// @mentions (Forgejo's FindAndUpdateIssueMentions and uinotification): a mention in a new issue, pull
// request, comment, review or review line comment gives the mentioned user the issue's notification
// thread, if they may read it; the writer, users without access, users who blocked the writer and
// mentions in code or in edits notify no one, and a user mentioned twice has one thread.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Comment, CommentType, Issue } from '../../model/issue.ts';
import { Notification } from '../../model/notification.ts';
import { makeUser, type TestUser } from '../helpers/fixtures.ts';
import { newOrg, newRepo, setup, uniq, type Env } from './repo-setup.ts';

let env: Env;
let dave: TestUser;
let erin: TestUser;
test.before(async () => {
  env = await setup();
  dave = await makeUser(env.db, env.srv.api);
  erin = await makeUser(env.db, env.srv.api);
});
test.after(async () => {
  await env.close();
});

const em = () => env.db.db.orm.em.fork();

interface Thread {
  subject: { title: string; type: string; latest_comment_url: string };
  repository: { full_name: string };
}

/** The user's unread threads about `repo`. */
async function threads(u: TestUser, repo: string): Promise<Thread[]> {
  const r = await env.as(u, 'GET', '/notifications?all=true');
  assert.is(r.status, 200, r.text);
  return (r.json as Thread[]).filter((t) => t.repository.full_name === repo);
}

test('a new issue that mentions users: each mentioned reader gets one thread; the writer, code and unmentioned users get none', async () => {
  const repo = await newRepo(env, env.alice);
  const body = `Hello @${dave.name} and again @${dave.name}, and @${env.bob.name}.\n\n\`@${erin.name}\` is in code\n\n\`\`\`\n@${env.carol.name}\n\`\`\``;
  const issue = await env.as(env.bob, 'POST', `/repos/${repo.full_name}/issues`, { title: 'Mentions', body });
  assert.is(issue.status, 201, issue.text);
  const got = await threads(dave, repo.full_name);
  assert.is(got.length, 1);
  assert.is(got[0].subject.title, 'Mentions');
  assert.is(got[0].subject.type, 'Issue');
  assert.is(got[0].subject.latest_comment_url, '');
  assert.is((await threads(env.bob, repo.full_name)).length, 0, 'the writer mentioned themselves');
  assert.is((await threads(erin, repo.full_name)).length, 0, 'a mention in a code span');
  assert.is((await threads(env.carol, repo.full_name)).length, 0, 'a mention in a code block');
});

test('a private repository: a mentioned user without access gets nothing, a collaborator gets the thread', async () => {
  const repo = await newRepo(env, env.alice, { private: true });
  assert.is(
    (await env.as(env.alice, 'PUT', `/repos/${repo.full_name}/collaborators/${env.carol.name}`, { permission: 'read' })).status,
    204,
  );
  const issue = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/issues`, {
    title: 'secret',
    body: `cc @${dave.name} @${env.carol.name}`,
  });
  assert.is(issue.status, 201, issue.text);
  assert.is((await threads(env.carol, repo.full_name)).length, 1);
  const r = await env.as(dave, 'GET', '/notifications?all=true');
  assert.is(r.status, 200);
  assert.not.match(r.text, repo.full_name);
});

test('a comment mention points the thread at the comment; an edit that adds a mention notifies no one', async () => {
  const repo = await newRepo(env, env.alice);
  const issue = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/issues`, { title: 'talk', body: 'no one yet' });
  assert.is(issue.status, 201);
  const c = await env.as(env.bob, 'POST', `/repos/${repo.full_name}/issues/${issue.json.number}/comments`, {
    body: `what do you think, @${erin.name}?`,
  });
  assert.is(c.status, 201, c.text);
  const got = await threads(erin, repo.full_name);
  assert.is(got.length, 1);
  assert.match(got[0].subject.latest_comment_url, new RegExp(`/issues/comments/${c.json.id}$`));

  const edited = await env.as(env.bob, 'PATCH', `/repos/${repo.full_name}/issues/comments/${c.json.id}`, { body: `and @${dave.name} too` });
  assert.is(edited.status, 200, edited.text);
  const issueEdit = await env.as(env.alice, 'PATCH', `/repos/${repo.full_name}/issues/${issue.json.number}`, { body: `now @${dave.name}` });
  assert.is(issueEdit.status, 201, issueEdit.text);
  assert.is((await threads(dave, repo.full_name)).length, 0);
});

// The follower's thread and the mention's are upserts of one row in one request; the first waits for
// COMMIT with the feed rows (lib/db/counters.ts tailWrite), so the second must run it first.
test('a follower who is also mentioned, in a new issue and then a comment: one unread thread each', async () => {
  const repo = await newRepo(env, env.alice);
  assert.is((await env.as(dave, 'PUT', `/repos/${repo.full_name}/subscription`)).status, 200);
  const issue = await env.as(env.bob, 'POST', `/repos/${repo.full_name}/issues`, {
    title: 'both',
    body: `cc @${dave.name} @${env.alice.name}`,
  });
  assert.is(issue.status, 201, issue.text);
  assert.is((await threads(dave, repo.full_name)).length, 1);
  const c = await env.as(env.bob, 'POST', `/repos/${repo.full_name}/issues/${issue.json.number}/comments`, { body: `again @${dave.name}` });
  assert.is(c.status, 201, c.text);
  const got = await threads(dave, repo.full_name);
  assert.is(got.length, 1);
  const rows = await em().find(Notification, { issueId: issue.json.id }, { orderBy: { userId: 'asc' } });
  assert.equal(
    rows.map((n) => n.userId).sort((a, b) => a - b),
    [env.alice.id, dave.id].sort((a, b) => a - b),
  );
  assert.ok(
    rows.every((n) => n.status === 1),
    'unread',
  );
});

test('a pull request body, a review and a review line comment notify whom they mention', async () => {
  const repo = await newRepo(env, env.alice, { auto_init: true });
  const full = repo.full_name;
  assert.is((await env.as(env.alice, 'POST', `/repos/${full}/branches`, { new_branch_name: 'feature' })).status, 201);
  const file = await env.as(env.alice, 'POST', `/repos/${full}/contents/notes.md`, {
    content: Buffer.from('one\ntwo\n').toString('base64'),
    branch: 'feature',
  });
  assert.is(file.status, 201, file.text);
  const pr = await env.as(env.alice, 'POST', `/repos/${full}/pulls`, {
    head: 'feature',
    base: 'main',
    title: 'a change',
    body: `please look, @${env.carol.name}`,
  });
  assert.is(pr.status, 201, pr.text);
  const carol = await threads(env.carol, full);
  assert.is(carol.length, 1);
  assert.is(carol[0].subject.type, 'Pull');

  const rv = await env.as(env.bob, 'POST', `/repos/${full}/pulls/${pr.json.number}/reviews`, {
    event: 'COMMENT',
    body: `looping in @${dave.name}`,
    comments: [{ path: 'notes.md', new_position: 1, body: `@${erin.name} is this line right?` }],
  });
  assert.is(rv.status, 200, rv.text);
  assert.is((await threads(dave, full)).length, 1);
  assert.is((await threads(erin, full)).length, 1);
  // The thread points at the line comment that mentions erin (the API shows the issue's latest comment instead).
  const issue = await em().findOneOrFail(Issue, { repoId: repo.id, index: pr.json.number });
  const line = await em().findOneOrFail(Comment, { issueId: issue.id, type: CommentType.code });
  assert.is((await em().findOneOrFail(Notification, { userId: erin.id, issueId: issue.id })).commentId, line.id);
});

test('@org/team notifies the members of a team of the repository that sees issues; a user who blocked the writer hears nothing', async () => {
  const org = await newOrg(env, env.alice);
  const repo = await env.as(env.alice, 'POST', `/orgs/${org.name}/repos`, { name: uniq('r') });
  assert.is(repo.status, 201, repo.text);
  const full = repo.json.full_name as string;
  const team = await env.as(env.alice, 'POST', `/orgs/${org.name}/teams`, {
    name: 'triage',
    permission: 'read',
    units: ['repo.code', 'repo.issues'],
  });
  assert.is(team.status, 201, team.text);
  const codeOnly = await env.as(env.alice, 'POST', `/orgs/${org.name}/teams`, { name: 'coders', permission: 'read', units: ['repo.code'] });
  assert.is(codeOnly.status, 201, codeOnly.text);
  for (const [t, u] of [
    [team.json.id, erin],
    [codeOnly.json.id, dave],
  ] as const) {
    assert.is((await env.as(env.alice, 'PUT', `/teams/${t}/members/${u.name}`)).status, 204);
    assert.is((await env.as(env.alice, 'PUT', `/teams/${t}/repos/${org.name}/${repo.json.name}`)).status, 204);
  }
  assert.is((await env.as(env.carol, 'PUT', `/user/block/${env.bob.name}`)).status, 204);
  const issue = await env.as(env.bob, 'POST', `/repos/${full}/issues`, {
    title: 'org',
    body: `@${org.name}/triage and @${org.name}/coders, also @${env.carol.name}`,
  });
  assert.is(issue.status, 201, issue.text);
  assert.is((await threads(erin, full)).length, 1);
  assert.is((await threads(dave, full)).length, 0, 'the team cannot see issues');
  assert.is((await threads(env.carol, full)).length, 0, 'carol blocked bob');
});

test.run();
