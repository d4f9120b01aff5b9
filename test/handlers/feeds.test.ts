// Activity feeds and the heatmap: which feeds an activity lands in (actor, organization, watchers who
// may read it), who may see which rows, the date filter, paging, the repository and team feeds.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EntityManager } from '@mikro-orm/core';
import { makeToken, makeUser } from '../helpers/fixtures.ts';
import type { Res } from '../helpers/client.ts';
import { newOrg, newRepo, setup, uniq, valid, validList, type Env } from './repo-setup.ts';
import { recordAction, recordEvent, truncateComment, dayRange } from '../../lib/activity/feeds.ts';
import { Action, OpType } from '../../model/action.ts';
import { Repository, type IRepository } from '../../model/repo.ts';
import { User, type IUser } from '../../model/user.ts';
import { Comment } from '../../model/issue.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

const em = (): EntityManager => env.db.db.orm.em.fork();
const repoRow = async (id: number) => em().findOneOrFail(Repository, { id });
const userRow = async (id: number) => em().findOneOrFail(User, { id });
const rowsOf = async (where: object) => em().find(Action, where, { orderBy: { id: 'asc' } });

type Activity = {
  op_type: string;
  act_user_id: number;
  user_id: number;
  repo_id: number;
  content: string;
  comment_id: number;
  comment: { id: number; body: string } | null;
  ref_name: string;
  is_private: boolean;
  created: string;
};
const acts = (r: Res): Activity[] => {
  validList('Activity', r);
  return r.json;
};
const ops = (r: Res) => acts(r).map((a) => a.op_type);
/** The titles of the issues created in a feed. */
const titles = (r: Res) =>
  acts(r)
    .filter((a) => a.op_type === 'create_issue')
    .map((a) => a.content.split('|')[1]);

async function newIssue(u: { token: string }, fullName: string, title = uniq('t')) {
  const r = await env.as(u.token, 'POST', `/repos/${fullName}/issues`, { title });
  assert.is(r.status, 201, r.text);
  return r.json as { number: number; id: number; title: string };
}

test('recording: one row for the actor, one for the organization, one per watcher who may read the unit', async () => {
  const { alice, bob, carol } = env;
  const org = await newOrg(env, alice);
  const r = await env.as(alice, 'POST', `/orgs/${org.name}/repos`, { name: uniq('r') });
  assert.is(r.status, 201, r.text);
  const full = r.json.full_name as string;
  // bob watches; carol watches but has blocked alice; an inactive watcher is left out too.
  for (const u of [bob, carol]) assert.is((await env.as(u, 'PUT', `/repos/${full}/subscription`)).status, 200);
  assert.is((await env.as(carol, 'PUT', `/user/block/${alice.name}`)).status, 204);
  const issue = await newIssue(alice, full, 'first issue');
  const rows = await rowsOf({ repoId: r.json.id, opType: OpType.create_issue });
  assert.equal(rows.map((a) => a.userId).sort(), [alice.id, org.id, bob.id].sort());
  for (const a of rows) {
    assert.is(a.actUserId, alice.id);
    assert.is(a.content, `${issue.number}|first issue`);
    assert.is(a.isPrivate, false);
  }
});

test('recording: a watcher who lost read access to the unit gets nothing; the actor is never a second receiver', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice, { private: true });
  assert.is((await env.as(alice, 'PUT', `/repos/${repo.full_name}/collaborators/${bob.name}`, { permission: 'read' })).status, 204);
  assert.is((await env.as(bob, 'PUT', `/repos/${repo.full_name}/subscription`)).status, 200);
  await newIssue(alice, repo.full_name);
  assert.equal(
    (await rowsOf({ repoId: repo.id }))
      .filter((a) => a.opType === OpType.create_issue)
      .map((a) => a.userId)
      .sort(),
    [alice.id, bob.id].sort(),
  );
  assert.is((await env.as(alice, 'DELETE', `/repos/${repo.full_name}/collaborators/${bob.name}`)).status, 204);
  await newIssue(alice, repo.full_name);
  const second = (await rowsOf({ repoId: repo.id, opType: OpType.create_issue })).slice(2);
  assert.equal(
    second.map((a) => a.userId),
    [alice.id],
  );
  assert.ok(second.every((a) => a.isPrivate));
});

test('GET /users/{u}/activities/feeds: own and watched activity, only-performed-by, Activity shape', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  assert.is((await env.as(bob, 'PUT', `/repos/${repo.full_name}/subscription`)).status, 200);
  const issue = await newIssue(alice, repo.full_name, 'watched');
  const mine = await env.as(alice, 'GET', `/users/${alice.name}/activities/feeds`);
  assert.is(mine.status, 200, mine.text);
  const top = acts(mine)[0];
  assert.is(top.op_type, 'create_issue');
  assert.is(top.user_id, alice.id);
  assert.is(top.act_user_id, alice.id);
  assert.is(top.repo_id, repo.id);
  assert.is(top.content, `${issue.number}|watched`);
  assert.is(top.comment, null);
  assert.is(top.comment_id, 0);
  valid('Repository', (mine.json[0] as { repo: unknown }).repo);
  valid('User', (mine.json[0] as { act_user: unknown }).act_user);
  assert.ok(mine.headers.get('x-total-count'));
  const bobs = await env.as(bob, 'GET', `/users/${bob.name}/activities/feeds`);
  assert.ok(acts(bobs).some((a) => a.act_user_id === alice.id && a.user_id === bob.id && a.content === `${issue.number}|watched`));
  const onlyBob = await env.as(bob, 'GET', `/users/${bob.name}/activities/feeds?only-performed-by=true`);
  assert.ok(acts(onlyBob).every((a) => a.act_user_id === bob.id));
  assert.not.ok(acts(onlyBob).some((a) => a.act_user_id === alice.id));
});

test('comments: comment_issue carries the comment; closing links the close comment', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const issue = await newIssue(alice, repo.full_name);
  const long = `${'word '.repeat(60)}end`;
  const c = await env.as(alice, 'POST', `/repos/${repo.full_name}/issues/${issue.number}/comments`, { body: long });
  assert.is(c.status, 201, c.text);
  assert.is((await env.as(alice, 'PATCH', `/repos/${repo.full_name}/issues/${issue.number}`, { state: 'closed' })).status, 201);
  const feed = acts(await env.as(alice, 'GET', `/repos/${repo.full_name}/activities/feeds`));
  assert.equal(
    feed.map((a) => a.op_type),
    ['close_issue', 'comment_issue', 'create_issue', 'create_repo'],
  );
  const [close, comment] = feed;
  assert.is(comment.comment_id, c.json.id);
  assert.is(comment.comment?.body, long);
  valid('Comment', comment.comment);
  assert.is(comment.content, `${issue.number}|${truncateComment(long)}`);
  assert.ok(comment.content.length < long.length && comment.content.endsWith('…'), comment.content);
  assert.is(close.content, `${issue.number}|`);
  const closeComment = await em().findOneOrFail(Comment, { id: close.comment_id });
  assert.is(closeComment.type, 2);
});

test('truncateComment: 200 bytes at most, a broken last word dropped, multi-byte text cut on a character', () => {
  assert.is(truncateComment('short'), 'short');
  const cut = truncateComment(`${'a'.repeat(195)} bcdefghij`);
  assert.is(cut, `${'a'.repeat(195)}…`);
  const wide = truncateComment('é'.repeat(150));
  assert.is(Buffer.byteLength(wide), 200);
  assert.is(wide, 'é'.repeat(100));
});

test('visibility: private repositories, hidden activity, anonymous callers, public-only tokens, admins', async () => {
  const { alice, bob, admin } = env;
  const pub = await newRepo(env, alice);
  const priv = await newRepo(env, alice, { private: true });
  await newIssue(alice, pub.full_name, 'in public');
  await newIssue(alice, priv.full_name, 'in private');
  const path = `/users/${alice.name}/activities/feeds?limit=50`;
  assert.ok(titles(await env.as(alice, 'GET', path)).includes('in private'));
  assert.ok(titles(await env.as(admin, 'GET', path)).includes('in private'));
  for (const caller of [undefined, bob.token]) {
    const seen = titles(await env.as(caller, 'GET', path));
    assert.ok(seen.includes('in public'));
    assert.not.ok(seen.includes('in private'));
  }
  // Spec, token kinds: no extra administrator view of private user activity feeds.
  const adminPublicOnly = await makeToken(env.srv.api, admin, ['public-only', 'read:user', 'read:repository']);
  assert.not.ok(titles(await env.as(adminPublicOnly, 'GET', path)).includes('in private'));
  const adminRepoToken = await makeToken(env.srv.api, admin, ['read:repository'], {
    repositories: [{ owner: alice.name, name: pub.name }],
  });
  assert.is((await env.as(adminRepoToken, 'GET', `/repos/${priv.full_name}/activities/feeds`)).status, 404);
  assert.equal(titles(await env.as(adminRepoToken, 'GET', `/repos/${pub.full_name}/activities/feeds`)), ['in public']);
  // hide_activity: only the user and site admins see what the user did.
  const hidden = await makeUser(env.db, env.srv.api);
  const hr = await newRepo(env, hidden);
  await newIssue(hidden, hr.full_name, 'quiet');
  assert.is((await env.as(hidden, 'PATCH', '/user/settings', { hide_activity: true })).status, 200);
  const hpath = `/users/${hidden.name}/activities/feeds`;
  assert.equal(acts(await env.as(bob, 'GET', hpath)), []);
  assert.equal(acts(await env.as(undefined, 'GET', hpath)), []);
  assert.ok(titles(await env.as(hidden, 'GET', hpath)).includes('quiet'));
  assert.ok(titles(await env.as(admin, 'GET', hpath)).includes('quiet'));
  assert.equal((await env.as(bob, 'GET', `/users/${hidden.name}/heatmap`)).json, []);
  const own = (await env.as(hidden, 'GET', `/users/${hidden.name}/heatmap`)).json as { contributions: number }[];
  assert.is(
    own.reduce((n, h) => n + h.contributions, 0),
    2,
    'the repository and the issue',
  );
  // A private repository's old public rows disappear once it is private.
  const flip = await newRepo(env, alice);
  await newIssue(alice, flip.full_name, 'before private');
  assert.ok(titles(await env.as(bob, 'GET', path)).includes('before private'));
  assert.is((await env.as(alice, 'PATCH', `/repos/${flip.full_name}`, { private: true })).status, 200);
  assert.not.ok(titles(await env.as(bob, 'GET', path)).includes('before private'));
  const flipped = acts(await env.as(alice, 'GET', path)).find((a) => a.content.endsWith('|before private'));
  assert.is(flipped?.is_private, true);
});

test('date filter and paging', async () => {
  const { alice } = env;
  const u = await makeUser(env.db, env.srv.api);
  const repo = await newRepo(env, u);
  for (let i = 0; i < 3; i++) await newIssue(u, repo.full_name);
  const base = `/users/${u.name}/activities/feeds`;
  const all = await env.as(alice, 'GET', base);
  const n = acts(all).length;
  assert.ok(n >= 3);
  const page = await env.as(alice, 'GET', `${base}?limit=2&page=1`);
  assert.is(acts(page).length, 2);
  assert.is(page.headers.get('x-total-count'), String(n));
  assert.match(page.headers.get('link') ?? '', /rel="next"/);
  const today = new Date().toISOString().slice(0, 10);
  assert.is(acts(await env.as(alice, 'GET', `${base}?date=${today}`)).length, n);
  assert.equal(acts(await env.as(alice, 'GET', `${base}?date=2001-02-03`)), []);
  // Forgejo ignores a date it cannot parse.
  assert.is(acts(await env.as(alice, 'GET', `${base}?date=yesterday`)).length, n);
  assert.is(dayRange('2023-02-30'), null);
  assert.equal(
    dayRange('2024-02-29')?.map((d) => d.toISOString()),
    ['2024-02-29T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
  );
  // Newest first.
  const created = acts(all).map((a) => a.created);
  assert.equal([...created].sort().reverse(), created);
});

test('GET /repos/{R}/activities/feeds: every activity once; 404 for callers who cannot read the repository', async () => {
  const { alice, bob } = env;
  const org = await newOrg(env, alice);
  const r = await env.as(alice, 'POST', `/orgs/${org.name}/repos`, { name: uniq('r'), private: true });
  const full = r.json.full_name as string;
  assert.is((await env.as(bob, 'GET', `/repos/${full}/activities/feeds`)).status, 404);
  await newIssue(alice, full);
  const feed = await env.as(alice, 'GET', `/repos/${full}/activities/feeds`);
  assert.is(feed.status, 200);
  assert.equal(ops(feed), ['create_issue', 'create_repo'], 'the organization copies are not listed again');
  assert.is(feed.headers.get('x-total-count'), '2');
  assert.is(feed.headers.get('link'), null);
});

test('GET /orgs/{org}/activities/feeds: members see private repositories, others only public ones', async () => {
  const { alice, bob, admin } = env;
  const org = await newOrg(env, alice);
  const pub = await env.as(alice, 'POST', `/orgs/${org.name}/repos`, { name: uniq('pub') });
  const priv = await env.as(alice, 'POST', `/orgs/${org.name}/repos`, { name: uniq('priv'), private: true });
  await newIssue(alice, pub.json.full_name, 'org public');
  await newIssue(alice, priv.json.full_name, 'org private');
  const path = `/orgs/${org.name}/activities/feeds`;
  const member = await env.as(alice, 'GET', path);
  assert.equal(titles(member).sort(), ['org private', 'org public']);
  assert.ok(acts(member).every((a) => a.user_id === org.id));
  assert.is(member.headers.get('x-total-count'), String(acts(member).length));
  assert.equal(titles(await env.as(bob, 'GET', path)), ['org public']);
  assert.equal(titles(await env.as(undefined, 'GET', path)), ['org public']);
  assert.equal(titles(await env.as(admin, 'GET', path)).sort(), ['org private', 'org public']);
});

test('GET /teams/{id}/activities/feeds: the organization feed limited to the team repositories', async () => {
  const { alice, bob } = env;
  const org = await newOrg(env, alice);
  const a = await env.as(alice, 'POST', `/orgs/${org.name}/repos`, { name: uniq('a'), private: true });
  const b = await env.as(alice, 'POST', `/orgs/${org.name}/repos`, { name: uniq('b'), private: true });
  const team = await env.as(alice, 'POST', `/orgs/${org.name}/teams`, {
    name: uniq('t'),
    permission: 'read',
    units: ['repo.code', 'repo.issues'],
  });
  assert.is(team.status, 201, team.text);
  assert.is((await env.as(alice, 'PUT', `/teams/${team.json.id}/repos/${org.name}/${a.json.name}`)).status, 204);
  assert.is((await env.as(alice, 'PUT', `/teams/${team.json.id}/members/${bob.name}`)).status, 204);
  await newIssue(alice, a.json.full_name, 'team repo');
  await newIssue(alice, b.json.full_name, 'other repo');
  const feed = await env.as(bob, 'GET', `/teams/${team.json.id}/activities/feeds`);
  assert.is(feed.status, 200, feed.text);
  assert.equal(titles(feed), ['team repo']);
  assert.ok(acts(feed).every((x) => x.repo_id === a.json.id));
  // Not a member: the chain refuses (TM).
  assert.ok([403, 404].includes((await env.as(env.carol, 'GET', `/teams/${team.json.id}/activities/feeds`)).status));
});

test('heatmap: own actions per 15-minute bucket; an organization counts its whole feed', async () => {
  const { alice, bob } = env;
  const u = await makeUser(env.db, env.srv.api);
  const repo = await newRepo(env, u);
  const before = (await env.as(u, 'GET', `/users/${u.name}/heatmap`)).json as { contributions: number }[];
  const count = (rows: { contributions: number }[]) => rows.reduce((n, r) => n + r.contributions, 0);
  await newIssue(u, repo.full_name);
  await newIssue(u, repo.full_name);
  // Someone else's activity in the user's feed does not count.
  assert.is((await env.as(u, 'PUT', `/repos/${repo.full_name}/subscription`)).status, 200);
  await newIssue(bob, repo.full_name);
  const heat = await env.as(alice, 'GET', `/users/${u.name}/heatmap`);
  assert.is(heat.status, 200);
  for (const h of heat.json) {
    valid('UserHeatmapData', h);
    assert.is(h.timestamp % 900, 0);
  }
  assert.is(count(heat.json) - count(before), 2);
  const now = Math.floor(Date.now() / 1000);
  assert.ok(heat.json.some((h: { timestamp: number }) => h.timestamp <= now && now - h.timestamp < 900 + 60));
  const org = await newOrg(env, alice);
  const or = await env.as(alice, 'POST', `/orgs/${org.name}/repos`, { name: uniq('r') });
  await newIssue(alice, or.json.full_name);
  await newIssue(bob, or.json.full_name);
  // The repository's creation and both issues, whoever did them.
  assert.is(count((await env.as(alice, 'GET', `/users/${org.name}/heatmap`)).json), 3);
});

test('events: pushes, tags, branches, releases, forks and repository deletion as Forgejo records them', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const r: IRepository = await repoRow(repo.id);
  const sender: IUser = await userRow(alice.id);
  const commit = {
    sha: 'a'.repeat(40),
    message: 'msg\n',
    author: { name: 'A', email: 'a@x' },
    committer: { name: 'C', email: 'c@x' },
    timestamp: '2024-01-02T03:04:05Z',
    added: [],
    removed: [],
    modified: [],
  };
  const commits = async () => ({ commits: [commit], total: 3, head: commit });
  const zero = '0'.repeat(40);
  const m = em();
  await m.transactional(async (t) => {
    await recordEvent(t, { name: 'create', repo: r, sender, refType: 'branch', ref: 'dev', sha: commit.sha });
    await recordEvent(t, { name: 'push', repo: r, sender, ref: 'refs/heads/dev', before: 'b'.repeat(40), after: commit.sha, commits });
    await recordEvent(t, { name: 'push', repo: r, sender, ref: 'refs/tags/v1', before: zero, after: commit.sha, commits });
    await recordEvent(t, { name: 'create', repo: r, sender, refType: 'tag', ref: 'v1', sha: commit.sha });
    await recordEvent(t, { name: 'push', repo: r, sender, ref: 'refs/tags/v1', before: commit.sha, after: zero, commits });
    await recordEvent(t, { name: 'push', repo: r, sender, ref: 'refs/heads/dev', before: commit.sha, after: zero, commits });
    await recordEvent(t, { name: 'delete', repo: r, sender, refType: 'branch', ref: 'dev' });
  });
  const feed = acts(await env.as(alice, 'GET', `/repos/${repo.full_name}/activities/feeds`));
  // (create_repo, when repository creation is recorded, is not part of this sequence)
  assert.equal(
    feed
      .filter((a) => a.op_type !== 'create_repo')
      .map((a) => `${a.op_type} ${a.ref_name}`)
      .reverse(),
    [
      'commit_repo refs/heads/dev',
      'commit_repo refs/heads/dev',
      'push_tag refs/tags/v1',
      'delete_tag refs/tags/v1',
      'delete_branch refs/heads/dev',
    ],
  );
  const pushed = feed.find((a) => a.op_type === 'commit_repo' && a.content);
  const content = JSON.parse(pushed!.content);
  assert.is(content.Len, 3);
  assert.is(content.Commits[0].Sha1, commit.sha);
  assert.is(content.HeadCommit.AuthorEmail, 'a@x');
  assert.is(content.CompareURL, `${repo.full_name}/compare/${'b'.repeat(40)}...${commit.sha}`);
  // A fork is a new repository of the one who forked.
  const fork = await newRepo(env, env.bob);
  await m.transactional(async (t) => {
    await recordEvent(t, {
      name: 'fork',
      repo: r,
      sender: await t.findOneOrFail(User, { id: env.bob.id }),
      fork: await t.findOneOrFail(Repository, { id: fork.id }),
    });
  });
  assert.ok(ops(await env.as(env.bob, 'GET', `/repos/${fork.full_name}/activities/feeds`)).includes('create_repo'));
  // Deleting the repository drops its activities.
  await m.transactional(async (t) => {
    await recordEvent(t, { name: 'repository', action: 'deleted', repo: r, sender });
  });
  assert.equal(await rowsOf({ repoId: repo.id }), []);
});

test('over HTTP: branches, tags and releases land in the repository feed with full ref names', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const R = `/repos/${repo.full_name}`;
  assert.is((await env.as(alice, 'POST', `${R}/branches`, { new_branch_name: 'dev' })).status, 201);
  assert.is((await env.as(alice, 'POST', `${R}/tags`, { tag_name: 'v1' })).status, 201);
  const rel = await env.as(alice, 'POST', `${R}/releases`, { tag_name: 'v1', name: 'First' });
  assert.is(rel.status, 201, rel.text);
  assert.is((await env.as(alice, 'DELETE', `${R}/branches/dev`)).status, 204);
  assert.is((await env.as(alice, 'DELETE', `${R}/releases/${rel.json.id}`)).status, 204);
  assert.is((await env.as(alice, 'DELETE', `${R}/tags/v1`)).status, 204);
  const feed = acts(await env.as(bob, 'GET', `${R}/activities/feeds`)).reverse();
  const seen = feed.map((a) => `${a.op_type} ${a.ref_name}`);
  assert.equal(
    seen.filter((x) => x.endsWith('refs/heads/dev')),
    ['commit_repo refs/heads/dev', 'commit_repo refs/heads/dev', 'delete_branch refs/heads/dev'],
  );
  assert.equal(
    seen.filter((x) => x.includes('v1')),
    ['push_tag refs/tags/v1', 'publish_release v1', 'delete_tag refs/tags/v1'],
  );
  const release = feed.find((a) => a.op_type === 'publish_release');
  assert.is(release?.content, 'First');
  const pushed = JSON.parse(feed.find((a) => a.op_type === 'commit_repo' && a.content)!.content);
  assert.is(pushed.Commits.length, 1, 'a new branch lists its latest commits');
});

test('over HTTP: a pull request opened, approved with a body, commented and merged', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice, { auto_init: true });
  const R = `/repos/${repo.full_name}`;
  assert.is((await env.as(alice, 'PUT', `${R}/collaborators/${bob.name}`, { permission: 'write' })).status, 204);
  const file = await env.as(alice, 'POST', `${R}/contents`, {
    branch: 'main',
    new_branch: 'feature',
    message: 'change',
    files: [{ operation: 'create', path: 'b.txt', content: Buffer.from('b\n').toString('base64') }],
  });
  assert.is(file.status, 201, file.text);
  const pr = await env.as(alice, 'POST', `${R}/pulls`, { head: 'feature', base: 'main', title: 'a change' });
  assert.is(pr.status, 201, pr.text);
  const n = pr.json.number as number;
  const rv = await env.as(bob, 'POST', `${R}/pulls/${n}/reviews`, { event: 'APPROVED', body: 'looks good\nreally' });
  assert.is(rv.status, 200, rv.text);
  assert.is((await env.as(bob, 'POST', `${R}/issues/${n}/comments`, { body: 'merging?' })).status, 201);
  const merged = await env.as(alice, 'POST', `${R}/pulls/${n}/merge`, { Do: 'merge' });
  assert.is(merged.status, 200, merged.text);
  const feed = acts(await env.as(alice, 'GET', `${R}/activities/feeds`)).reverse();
  const pulls = feed.filter((a) => a.content.startsWith(`${n}|`)).map((a) => `${a.op_type} ${a.content}`);
  assert.equal(pulls, [
    `create_pull_request ${n}|a change`,
    `approve_pull_request ${n}|looks good`,
    `comment_pull ${n}|merging?`,
    `merge_pull_request ${n}|a change`,
  ]);
  const approval = feed.find((a) => a.op_type === 'approve_pull_request')!;
  assert.is(approval.act_user_id, bob.id);
  assert.ok(approval.comment_id > 0 && approval.comment?.body === 'looks good\nreally', JSON.stringify(approval.comment));
  // The merge pushed the base branch.
  assert.ok(feed.some((a) => a.op_type === 'commit_repo' && a.ref_name === 'refs/heads/main' && a.act_user_id === alice.id));
});

test('recordAction inside a failed transaction leaves nothing behind', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const r = await repoRow(repo.id);
  const before = (await rowsOf({ repoId: repo.id })).length;
  await em()
    .transactional(async (t) => {
      await recordAction(t, { op: 'publish_release', actUserId: alice.id, repo: r, content: 'v1', refName: 'v1' });
      throw new Error('rolled back');
    })
    .catch(() => undefined);
  assert.is((await rowsOf({ repoId: repo.id })).length, before);
});

test.run();
