// Denormalised counters under concurrent writers: each request runs in its own
// READ COMMITTED transaction, and a recount that cannot see another writer's uncommitted rows loses
// them. Races only show on PostgreSQL (PGlite has one connection), so run with CAIRN__DATABASE__URL.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeUser, type TestUser } from '../helpers/fixtures.ts';
import { newRepo, setup, uniq, type Env } from './repo-setup.ts';
import { OpType } from '../../model/action.ts';

let env: Env;
let crowd: TestUser[];
test.before(async () => {
  env = await setup();
  crowd = await Promise.all(Array.from({ length: 12 }, () => makeUser(env.db, env.srv.api)));
});
test.after(async () => {
  await env.close();
});

const N = 30;
const times = <T>(n: number, f: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => f(i)));

async function ok(r: Promise<{ status: number; text: string; json: any }>, status: number) {
  const res = await r;
  assert.is(res.status, status, res.text);
  return res.json;
}

test('30 comments posted in parallel: the issue says 30 comments', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const issue = await ok(env.as(alice, 'POST', `/repos/${repo.full_name}/issues`, { title: 'busy' }), 201);
  await times(N, (i) => ok(env.as(alice, 'POST', `/repos/${repo.full_name}/issues/${issue.number}/comments`, { body: `c${i}` }), 201));
  const got = await ok(env.as(alice, 'GET', `/repos/${repo.full_name}/issues/${issue.number}`), 200);
  assert.is(got.comments, N);
  // Deleting in parallel takes them back down.
  const list = await ok(env.as(alice, 'GET', `/repos/${repo.full_name}/issues/${issue.number}/comments`), 200);
  assert.is(list.length, N);
  await times(10, (i) => ok(env.as(alice, 'DELETE', `/repos/${repo.full_name}/issues/comments/${list[i].id}`), 204));
  assert.is((await ok(env.as(alice, 'GET', `/repos/${repo.full_name}/issues/${issue.number}`), 200)).comments, N - 10);
});

test('issues created in parallel with a label and a milestone: open_issues_count, label and milestone counts', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const R = `/repos/${repo.full_name}`;
  const label = await ok(env.as(alice, 'POST', `${R}/labels`, { name: 'bug', color: '#ff0000' }), 201);
  const ms = await ok(env.as(alice, 'POST', `${R}/milestones`, { title: 'v1' }), 201);
  const made = await times(N, (i) =>
    ok(env.as(alice, 'POST', `${R}/issues`, { title: `i${i}`, labels: [label.id], milestone: ms.id }), 201),
  );
  assert.is((await ok(env.as(alice, 'GET', R), 200)).open_issues_count, N);
  let m = await ok(env.as(alice, 'GET', `${R}/milestones/${ms.id}`), 200);
  assert.equal([m.open_issues, m.closed_issues], [N, 0]);
  // Closing a third of them in parallel.
  const closing = made.slice(0, 10);
  await times(closing.length, (i) => ok(env.as(alice, 'PATCH', `${R}/issues/${closing[i].number}`, { state: 'closed' }), 201));
  assert.is((await ok(env.as(alice, 'GET', R), 200)).open_issues_count, N - 10);
  m = await ok(env.as(alice, 'GET', `${R}/milestones/${ms.id}`), 200);
  assert.equal([m.open_issues, m.closed_issues], [N - 10, 10]);
  // Forgejo's Label API has no counts on the wire, so the columns are read directly.
  const counts = await env.db.db.orm.em
    .fork()
    .getConnection()
    .execute<{ num_issues: number; num_closed_issues: number }[]>('select num_issues, num_closed_issues from label where id = ?', [
      label.id,
    ]);
  assert.equal([Number(counts[0].num_issues), Number(counts[0].num_closed_issues)], [N, 10]);
});

test('stars by different users in parallel: stars_count; unstarring too', async () => {
  const repo = await newRepo(env, env.alice);
  await times(crowd.length, (i) => ok(env.as(crowd[i], 'PUT', `/user/starred/${repo.full_name}`), 204));
  assert.is((await ok(env.as(env.alice, 'GET', `/repos/${repo.full_name}`), 200)).stars_count, crowd.length);
  await times(5, (i) => ok(env.as(crowd[i], 'DELETE', `/user/starred/${repo.full_name}`), 204));
  assert.is((await ok(env.as(env.alice, 'GET', `/repos/${repo.full_name}`), 200)).stars_count, crowd.length - 5);
});

test('watches by different users in parallel: watchers_count (the owner watches already)', async () => {
  const repo = await newRepo(env, env.alice);
  await times(crowd.length, (i) => ok(env.as(crowd[i], 'PUT', `/repos/${repo.full_name}/subscription`), 200));
  assert.is((await ok(env.as(env.alice, 'GET', `/repos/${repo.full_name}`), 200)).watchers_count, crowd.length + 1);
  await times(5, (i) => ok(env.as(crowd[i], 'DELETE', `/repos/${repo.full_name}/subscription`), 204));
  assert.is((await ok(env.as(env.alice, 'GET', `/repos/${repo.full_name}`), 200)).watchers_count, crowd.length + 1 - 5);
});

test('forks by different users in parallel: forks_count', async () => {
  const repo = await newRepo(env, env.alice, { auto_init: true });
  const forkers = crowd.slice(0, 6);
  const forks = await times(forkers.length, (i) => ok(env.as(forkers[i], 'POST', `/repos/${repo.full_name}/forks`, {}), 202));
  assert.is((await ok(env.as(env.alice, 'GET', `/repos/${repo.full_name}`), 200)).forks_count, forkers.length);
  await times(3, (i) => ok(env.as(forkers[i], 'DELETE', `/repos/${forks[i].full_name}`), 204));
  assert.is((await ok(env.as(env.alice, 'GET', `/repos/${repo.full_name}`), 200)).forks_count, forkers.length - 3);
});

test('releases created and deleted in parallel: release_counter', async () => {
  const repo = await newRepo(env, env.alice, { auto_init: true });
  const made = await times(N, (i) =>
    ok(env.as(env.alice, 'POST', `/repos/${repo.full_name}/releases`, { tag_name: `v${i}.0`, name: `r${i}` }), 201),
  );
  assert.is((await ok(env.as(env.alice, 'GET', `/repos/${repo.full_name}`), 200)).release_counter, N);
  await times(N - 4, (i) => ok(env.as(env.alice, 'DELETE', `/repos/${repo.full_name}/releases/${made[i].id}`), 204));
  assert.is((await ok(env.as(env.alice, 'GET', `/repos/${repo.full_name}`), 200)).release_counter, 4);
});

test('follows of one user by many in parallel: followers_count', async () => {
  const target = await makeUser(env.db, env.srv.api);
  await times(crowd.length, (i) => ok(env.as(crowd[i], 'PUT', `/user/following/${target.name}`), 204));
  assert.is((await ok(env.as(target, 'GET', `/users/${target.name}`), 200)).followers_count, crowd.length);
  await times(5, (i) => ok(env.as(crowd[i], 'DELETE', `/user/following/${target.name}`), 204));
  assert.is((await ok(env.as(target, 'GET', `/users/${target.name}`), 200)).followers_count, crowd.length - 5);
});

test('one topic added to many repositories in parallel: its repo_count', async () => {
  const topic = uniq('t').toLowerCase();
  const repos = await times(8, (i) => newRepo(env, crowd[i]));
  await times(repos.length, (i) => ok(env.as(crowd[i], 'PUT', `/repos/${repos[i].full_name}/topics/${topic}`), 204));
  const found = await ok(env.as(env.alice, 'GET', `/topics/search?q=${topic}`), 200);
  assert.is(found.topics.find((t: { topic_name: string }) => t.topic_name === topic)?.repo_count, repos.length);
});

test('one user starring, watching, following and tagging twice at once: no error, counted once', async () => {
  const [u] = crowd;
  const repo = await newRepo(env, u);
  const target = await makeUser(env.db, env.srv.api);
  const topic = uniq('t').toLowerCase();
  await Promise.all([
    times(4, () => ok(env.as(env.bob, 'PUT', `/user/starred/${repo.full_name}`), 204)),
    times(4, () => ok(env.as(env.bob, 'PUT', `/repos/${repo.full_name}/subscription`), 200)),
    times(4, () => ok(env.as(env.bob, 'PUT', `/user/following/${target.name}`), 204)),
    times(4, () => ok(env.as(u, 'PUT', `/repos/${repo.full_name}/topics/${topic}`), 204)),
  ]);
  const r = await ok(env.as(u, 'GET', `/repos/${repo.full_name}`), 200);
  assert.equal([r.stars_count, r.watchers_count, r.topics], [1, 2, [topic]]);
  assert.is((await ok(env.as(target, 'GET', `/users/${target.name}`), 200)).followers_count, 1);
});

test('mixed writers on one repository at once (comments, new issues, closing, labelling, stars) all succeed and count right', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const R = `/repos/${repo.full_name}`;
  const label = await ok(env.as(alice, 'POST', `${R}/labels`, { name: 'l', color: '#00ff00' }), 201);
  const ms = await ok(env.as(alice, 'POST', `${R}/milestones`, { title: 'm' }), 201);
  const hub = await ok(env.as(alice, 'POST', `${R}/issues`, { title: 'hub', labels: [label.id], milestone: ms.id }), 201);
  const plain = await times(10, (i) => ok(env.as(alice, 'POST', `${R}/issues`, { title: `p${i}`, milestone: ms.id }), 201));
  await Promise.all([
    times(10, (i) => ok(env.as(alice, 'POST', `${R}/issues/${hub.number}/comments`, { body: `c${i}` }), 201)),
    times(10, (i) => ok(env.as(alice, 'POST', `${R}/issues`, { title: `n${i}`, labels: [label.id], milestone: ms.id }), 201)),
    times(5, (i) => ok(env.as(alice, 'PATCH', `${R}/issues/${plain[i].number}`, { state: 'closed' }), 201)),
    times(5, (i) => ok(env.as(alice, 'POST', `${R}/issues/${plain[5 + i].number}/labels`, { labels: [label.id] }), 200)),
    ok(env.as(alice, 'PATCH', `${R}/issues/${hub.number}`, { state: 'closed' }), 201),
    times(6, (i) => ok(env.as(crowd[i], 'PUT', `/user/starred/${repo.full_name}`), 204)),
  ]);
  const r = await ok(env.as(alice, 'GET', R), 200);
  assert.equal([r.open_issues_count, r.stars_count], [1 + 10 + 10 - 5 - 1, 6]);
  assert.is((await ok(env.as(alice, 'GET', `${R}/issues/${hub.number}`), 200)).comments, 10);
  const m = await ok(env.as(alice, 'GET', `${R}/milestones/${ms.id}`), 200);
  assert.equal([m.open_issues, m.closed_issues], [21 - 6, 6]);
  const counts = await env.db.db.orm.em
    .fork()
    .getConnection()
    .execute<{ num_issues: number; num_closed_issues: number }[]>('select num_issues, num_closed_issues from label where id = ?', [
      label.id,
    ]);
  assert.equal([Number(counts[0].num_issues), Number(counts[0].num_closed_issues)], [1 + 10 + 5, 1]);
});

test('new issues and comments in parallel, their increments queued until COMMIT (lib/db/counters.ts): consecutive numbers, exact open_issues_count and comments', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const R = `/repos/${repo.full_name}`;
  const hub = await ok(env.as(alice, 'POST', `${R}/issues`, { title: 'hub' }), 201);
  // Closed at creation: a recount in the middle of the request, among writers that only increment.
  const [open, closed] = await Promise.all([
    times(N, (i) => ok(env.as(alice, 'POST', `${R}/issues`, { title: `t${i}` }), 201)),
    times(5, (i) => ok(env.as(alice, 'POST', `${R}/issues`, { title: `x${i}`, closed: true }), 201)),
    times(20, (i) => ok(env.as(alice, 'POST', `${R}/issues/${hub.number}/comments`, { body: `c${i}` }), 201)),
  ]);
  const numbers = [...open, ...closed].map((i: { number: number }) => i.number).sort((a, b) => a - b);
  assert.equal(
    numbers,
    Array.from({ length: N + 5 }, (_, i) => hub.number + 1 + i),
  );
  assert.ok(closed.every((i: { state: string }) => i.state === 'closed'));
  assert.is((await ok(env.as(alice, 'GET', R), 200)).open_issues_count, 1 + N);
  const got = await ok(env.as(alice, 'GET', `${R}/issues/${hub.number}`), 200);
  assert.is(got.comments, 20);
  const [last] = await ok(env.as(alice, 'GET', `${R}/issues/${hub.number}/comments?limit=1&page=20`), 200);
  // The update time was stamped by the comments (the last COMMIT wins; every stamp is at or after its comment).
  assert.ok(Date.parse(got.updated_at) >= Date.parse(last.created_at) - 1000, `${got.updated_at} ${last.created_at}`);
});

/** The rows of `sql` (a plain read of what the API does not show). */
const rows = <T>(sql: string, params: unknown[]) => env.db.db.orm.em.fork().getConnection().execute<T[]>(sql, params);

test('plain new issues and comments in parallel, inserted with COMMIT (lib/issues/issues.ts numberAtCommit, commentAtCommit): every answer, feed row and hook payload names its own number and comment', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  const R = `/repos/${repo.full_name}`;
  const hub = await ok(env.as(alice, 'POST', `${R}/issues`, { title: 'hub' }), 201);
  // Without hooks the rows go with COMMIT; a mention writes a second notification thread earlier,
  // which inserts the row then.
  const [quiet, quietComments] = await Promise.all([
    times(12, (i) => ok(env.as(alice, 'POST', `${R}/issues`, { title: `q${i}`, body: i % 4 ? 'text' : `@${bob.name} look` }), 201)),
    times(8, (i) => ok(env.as(alice, 'POST', `${R}/issues/${hub.number}/comments`, { body: i % 4 ? `c${i}` : `@${bob.name} c${i}` }), 201)),
  ]);
  // A hook's payload needs the rows before COMMIT.
  await ok(
    env.as(alice, 'POST', `${R}/hooks`, {
      type: 'gitea',
      active: true,
      events: ['issues', 'issue_comment'],
      config: { url: 'http://hooks.example.com/in', content_type: 'json' },
    }),
    201,
  );
  const [hooked, hookedComments] = await Promise.all([
    times(6, (i) => ok(env.as(alice, 'POST', `${R}/issues`, { title: `h${i}` }), 201)),
    times(4, (i) => ok(env.as(alice, 'POST', `${R}/issues/${hub.number}/comments`, { body: `d${i}` }), 201)),
  ]);
  const made = [...quiet, ...hooked] as { id: number; number: number; title: string; url: string; html_url: string }[];
  assert.equal(
    made.map((i) => i.number).sort((a, b) => a - b),
    Array.from({ length: made.length }, (_, i) => i + 2),
  );
  for (const i of made) {
    assert.ok(
      i.url.endsWith(`${R}/issues/${i.number}`) && i.html_url.endsWith(`/issues/${i.number}`),
      `${i.number} ${i.url} ${i.html_url}`,
    );
    const got = await ok(env.as(alice, 'GET', `${R}/issues/${i.number}`), 200);
    assert.equal([got.id, got.title], [i.id, i.title]);
  }
  // The feed's create_issue rows (the actor's copy) say `<number>|<title>` of their issue.
  const feed = await rows<{ content: string }>(`select content from action where repo_id = ? and op_type = ? and user_id = act_user_id`, [
    repo.id,
    OpType.create_issue,
  ]);
  assert.equal(feed.map((a) => a.content).sort(), [hub, ...made].map((i) => `${i.number}|${i.title}`).sort());
  const comments = [...quietComments, ...hookedComments] as { id: number; body: string; issue_url: string }[];
  const listed = await ok(env.as(alice, 'GET', `${R}/issues/${hub.number}/comments`), 200);
  assert.equal(
    listed.map((c: { id: number; body: string }) => `${c.id} ${c.body}`).sort(),
    comments.map((c) => `${c.id} ${c.body}`).sort(),
  );
  assert.ok(
    comments.every((c) => c.issue_url.endsWith(`/${repo.full_name}/issues/${hub.number}`)),
    comments[0]!.issue_url,
  );
  const commented = await rows<{ comment_id: number; content: string }>(
    `select comment_id, content from action where repo_id = ? and op_type = ? and user_id = act_user_id`,
    [repo.id, OpType.comment_issue],
  );
  assert.equal(commented.map((a) => `${a.comment_id} ${a.content}`).sort(), comments.map((c) => `${c.id} ${hub.number}|${c.body}`).sort());
  const tasks = await rows<{ payload: string }>('select payload from hook_task where repo_id = ?', [repo.id]);
  const payloads = tasks.map(
    (t) => JSON.parse(t.payload) as { action: string; issue: { number: number; title: string }; comment?: { id: number; body: string } },
  );
  assert.equal(
    payloads.map((p) => `${p.action} ${p.issue.number}|${p.issue.title} ${p.comment ? `${p.comment.id} ${p.comment.body}` : ''}`).sort(),
    [
      ...hooked.map((i: { number: number; title: string }) => `opened ${i.number}|${i.title} `),
      ...hookedComments.map((c: { id: number; body: string }) => `created ${hub.number}|hub ${c.id} ${c.body}`),
    ].sort(),
  );
  // The mentioned user was notified of each issue that mentions them, and of the hub, where they
  // were mentioned first in a comment.
  const threads = await rows<{ issue_id: number; comment_id: number }>(
    'select issue_id, comment_id from notification where repo_id = ? and user_id = ?',
    [repo.id, bob.id],
  );
  assert.is(threads.length, 4);
  const hubThread = threads.find((t) => Number(t.issue_id) === hub.id);
  assert.ok(hubThread && comments.some((c) => c.id === Number(hubThread.comment_id)), JSON.stringify(threads));
});

test.run();
