// Pull request reviews, review comments, dismissals and review requests against a real server,
// database and git (Forgejo routers/api/v1/repo/pull_review.go, services/pull/review.go,
// models/issues/review.go, services/issue/assignee.go).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { setup, newOrg, valid, validList, type Env } from './repo-setup.ts';
import { makeToken, uniq, type TestUser } from '../helpers/fixtures.ts';
import { cutDiffAroundLine } from '../../lib/pulls/review-code-comments.ts';
import { Comment, CommentType, Issue } from '../../model/issue.ts';
import { Review, ReviewType } from '../../model/pull.ts';

let env: Env;
const b64 = (s: string) => Buffer.from(s).toString('base64');
const em = () => env.db.db.orm.em.fork();

test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

const BASE_TEXT = Array.from({ length: 10 }, (_, i) => `line${i + 1}`).join('\n') + '\n';
const HEAD_TEXT = BASE_TEXT.replace('line5\n', 'changed5\n') + 'added11\n';

/** Commits `files` to `branch` (or to a new branch made from it) through the contents API; returns the commit. */
async function commit(u: TestUser, full: string, branch: string, files: Record<string, string>, newBranch?: string): Promise<string> {
  const ops = [];
  for (const [p, content] of Object.entries(files)) {
    const cur = await env.as(u, 'GET', `/repos/${full}/contents/${p}?ref=${branch}`);
    const sha = cur.status === 200 ? (cur.json as { sha: string }).sha : undefined;
    ops.push({ operation: sha ? 'update' : 'create', path: p, content: b64(content), sha });
  }
  const r = await env.as(u, 'POST', `/repos/${full}/contents`, { branch, new_branch: newBranch, message: 'change', files: ops });
  assert.is(r.status, 201, r.text);
  return (r.json as { commit: { sha: string } }).commit.sha;
}

interface Fixture {
  full: string;
  pulls: string;
  n: number;
  head: string;
  base: string;
  html: string;
}

/**
 * alice's repository (public unless said otherwise) where a.txt has ten lines on main; the branch
 * `feature` changes line 5, adds line 11 and a file b.txt. alice opens the pull; bob writes as a
 * collaborator, carol only reads what the public may read.
 */
async function fixture(opts: { owner?: TestUser; org?: string; private?: boolean; poster?: TestUser } = {}): Promise<Fixture> {
  const owner = opts.owner ?? env.alice;
  const body = { name: uniq('r'), auto_init: true, private: opts.private ?? false };
  const created = opts.org
    ? await env.as(owner, 'POST', `/orgs/${opts.org}/repos`, body)
    : await env.as(owner, 'POST', '/user/repos', body);
  assert.is(created.status, 201, created.text);
  const full = created.json.full_name as string;
  const base = await commit(owner, full, 'main', { 'a.txt': BASE_TEXT });
  if (!opts.org)
    assert.is((await env.as(owner, 'PUT', `/repos/${full}/collaborators/${env.bob.name}`, { permission: 'write' })).status, 204);
  const head = await commit(owner, full, 'main', { 'a.txt': HEAD_TEXT, 'b.txt': 'b1\nb2\n' }, 'feature');
  const poster = opts.poster ?? owner;
  const pr = await env.as(poster, 'POST', `/repos/${full}/pulls`, { head: 'feature', base: 'main', title: 'a change' });
  assert.is(pr.status, 201, pr.text);
  return { full, pulls: `/repos/${full}/pulls`, n: pr.json.number, head, base, html: pr.json.html_url };
}

const reviewsOf = (f: Fixture) => `${f.pulls}/${f.n}/reviews`;

async function review(u: TestUser, f: Fixture, body: Record<string, unknown>) {
  const r = await env.as(u, 'POST', reviewsOf(f), body);
  assert.is(r.status, 200, r.text);
  valid('PullReview', r.json);
  return r.json;
}

/** The pull's issue row id, to scope database checks to one pull. */
async function issueIdOf(f: Fixture): Promise<number> {
  const repoId = (await env.as(env.alice, 'GET', `/repos/${f.full}`)).json.id;
  return (await em().findOneOrFail(Issue, { repoId, index: f.n })).id;
}

const countRows = async (what: typeof Review | typeof Comment, where: Record<string, unknown>) => em().count(what as typeof Review, where);

// -------------------------------------------------------------------------------------------------
// Creating and reading reviews

test('POST reviews COMMENT with code comments: 200 PullReview; comments carry path, positions, blamed commit and diff hunk', async () => {
  const f = await fixture();
  const r = await review(env.bob, f, {
    event: 'COMMENT',
    body: 'some notes',
    comments: [
      { path: 'a.txt', body: 'why five?', new_position: 5 },
      { path: 'a.txt', body: 'old five', old_position: 5 },
    ],
  });
  assert.is(r.state, 'COMMENT');
  assert.is(r.body, 'some notes');
  assert.is(r.user.login, env.bob.name);
  assert.is(r.team, null);
  assert.is(r.commit_id, f.head, 'defaults to the pull head');
  assert.is(r.comments_count, 2);
  assert.is(r.official, false, 'only verdicts are official');
  assert.is(r.stale, false);
  assert.is(r.dismissed, false);
  assert.is(r.pull_request_url, f.html);
  assert.match(r.html_url, new RegExp(`^${f.html}#issuecomment-\\d+$`));
  const timelineId = Number(r.html_url.split('-').pop());
  const entry = await em().findOne(Comment, { id: timelineId });
  assert.equal([entry?.type, entry?.reviewId, entry?.content], [CommentType.review, r.id, 'some notes']);

  const list = await env.as(env.carol, 'GET', `${reviewsOf(f)}/${r.id}/comments`);
  assert.is(list.status, 200, list.text);
  validList('PullReviewComment', list);
  const [onNew, onOld] = list.json;
  assert.equal([onNew.path, onNew.body, onNew.position, onNew.original_position], ['a.txt', 'why five?', 5, 0]);
  assert.equal([onOld.position, onOld.original_position], [0, 5]);
  assert.is(onNew.commit_id, f.head, 'line 5 was last changed by the head commit');
  assert.is(onOld.commit_id, f.head);
  assert.is(onNew.pull_request_review_id, r.id);
  assert.is(onNew.user.login, env.bob.name);
  assert.is(onNew.resolver, null);
  assert.is(onNew.original_commit_id, '');
  assert.is(onNew.html_url, `${f.html}#issuecomment-${onNew.id}`);
  assert.is(onNew.pull_request_url, f.html);
  assert.ok(onNew.diff_hunk.startsWith('@@ '), onNew.diff_hunk);
  assert.ok(onNew.diff_hunk.endsWith('+changed5'), onNew.diff_hunk);
  assert.ok(onOld.diff_hunk.endsWith('-line5'), onOld.diff_hunk);
  assert.not.match(onNew.diff_hunk, 'diff --git');

  const one = await env.as(env.carol, 'GET', `${reviewsOf(f)}/${r.id}/comments/${onOld.id}`);
  assert.is(one.status, 200, one.text);
  valid('PullReviewComment', one.json);
  assert.equal(one.json, onOld);
});

test('a comment on an unchanged line is pinned to the commit that last changed it', async () => {
  const f = await fixture();
  const r = await review(env.bob, f, { event: 'COMMENT', comments: [{ path: 'a.txt', body: 'context', new_position: 2 }] });
  assert.is(r.body, '');
  const [c] = (await env.as(env.bob, 'GET', `${reviewsOf(f)}/${r.id}/comments`)).json;
  assert.is(c.commit_id, f.base);
  assert.match(c.diff_hunk, /^@@ -2,9 \+2,10 @@[^\n]*\n line2$/, 'the hunk starts three lines above the change');
});

test('APPROVED: official for a writer, not for a reader; stale when given an older commit; GET and list show them', async () => {
  const f = await fixture();
  const byBob = await review(env.bob, f, { event: 'APPROVED' });
  assert.equal([byBob.state, byBob.official, byBob.stale, byBob.body], ['APPROVED', true, false, '']);
  const byCarol = await review(env.carol, f, { event: 'APPROVED', commit_id: f.base });
  assert.equal([byCarol.state, byCarol.official, byCarol.stale, byCarol.commit_id], ['APPROVED', false, true, f.base]);

  const got = await env.as(env.bob, 'GET', `${reviewsOf(f)}/${byBob.id}`);
  assert.is(got.status, 200, got.text);
  valid('PullReview', got.json);
  assert.equal(got.json, byBob);

  const list = await env.as(env.carol, 'GET', reviewsOf(f));
  assert.is(list.status, 200);
  validList('PullReview', list);
  assert.equal(
    list.json.map((x: { id: number }) => x.id),
    [byBob.id, byCarol.id],
  );
  assert.is(list.headers.get('x-total-count'), '2');
  const page = await env.as(env.carol, 'GET', `${reviewsOf(f)}?limit=1&page=2`);
  assert.equal(
    page.json.map((x: { id: number }) => x.id),
    [byCarol.id],
  );
  assert.match(page.headers.get('link') ?? '', 'rel="first"');
});

test('a second verdict supersedes the first (dismissed) and only the latest is official', async () => {
  const f = await fixture();
  const first = await review(env.bob, f, { event: 'APPROVED' });
  const second = await review(env.bob, f, { event: 'REQUEST_CHANGES', body: 'on second thought' });
  assert.equal([second.state, second.official, second.dismissed], ['REQUEST_CHANGES', true, false]);
  const again = (await env.as(env.bob, 'GET', `${reviewsOf(f)}/${first.id}`)).json;
  assert.equal([again.dismissed, again.official], [true, false]);
});

test('POST reviews: 422 for verdicts on your own pull and for missing bodies; nothing is written', async () => {
  const f = await fixture();
  const cases: [TestUser, Record<string, unknown>, string][] = [
    [env.alice, { event: 'APPROVED' }, 'approve your own pull is not allowed'],
    [env.alice, { event: 'REQUEST_CHANGES', body: 'x' }, 'reject your own pull is not allowed'],
    [
      env.bob,
      { event: 'REQUEST_CHANGES', comments: [{ path: 'a.txt', body: 'x', new_position: 1 }] },
      'review event REQUEST_CHANGES requires a body',
    ],
    [env.bob, { event: 'COMMENT', body: '   ' }, 'review event COMMENT requires a body or a comment'],
    [env.bob, { event: 'PENDING' }, 'review event PENDING requires a body'],
    [env.bob, {}, 'review event  requires a body'],
    [env.bob, { event: 'COMMENT', comments: [{ body: 'no path', new_position: 1 }] }, '[Path]: Required'],
    [
      env.bob,
      { event: 'COMMENT', comments: [{ path: 'a.txt', body: 'x', new_position: -1 }] },
      'review comment positions must not be negative',
    ],
    [
      env.bob,
      { event: 'COMMENT', comments: [{ path: 'a.txt', body: 'x', new_position: 1, extra_lines_count: 2 }] },
      'multi-line review comments are not supported',
    ],
    [env.bob, { event: 'COMMENT', comments: 'nope' }, '[Comments]: Invalid'],
  ];
  for (const [u, body, message] of cases) {
    const r = await env.as(u, 'POST', reviewsOf(f), body);
    assert.is(r.status, 422, `${JSON.stringify(body)} ${r.text}`);
    assert.is(r.json.message, message);
  }
  const issueId = await issueIdOf(f);
  assert.is(await countRows(Review, { issueId }), 0);
  assert.is(await countRows(Comment, { issueId, type: { $in: [CommentType.code, CommentType.review] } }), 0);
});

test('reviews need a signed-in caller and a readable pull; unknown pulls and reviews are 404', async () => {
  const f = await fixture();
  assert.is((await env.as(undefined, 'POST', reviewsOf(f), { event: 'APPROVED' })).status, 401);
  assert.is((await env.as(env.bob, 'GET', `${f.pulls}/99/reviews`)).status, 404);
  assert.is((await env.as(env.bob, 'GET', `${reviewsOf(f)}/999999`)).status, 404);
  const other = await fixture();
  const elsewhere = await review(env.bob, other, { event: 'APPROVED' });
  const wrongPull = await env.as(env.bob, 'GET', `${reviewsOf(f)}/${elsewhere.id}`);
  assert.is(wrongPull.status, 404);
  assert.is(wrongPull.json.message, 'ReviewNotInPR');

  const hidden = await fixture({ private: true });
  const r = await review(env.bob, hidden, { event: 'APPROVED' });
  assert.is((await env.as(env.carol, 'GET', `${reviewsOf(hidden)}/${r.id}`)).status, 404);
  assert.is((await env.as(env.carol, 'POST', reviewsOf(hidden), { event: 'APPROVED' })).status, 404);
});

// -------------------------------------------------------------------------------------------------
// Pending reviews

test('a pending review: only its reviewer and repository admins see it; comments go on it; submitting it', async () => {
  const f = await fixture();
  const draft = await review(env.bob, f, {
    event: 'PENDING',
    body: 'draft',
    comments: [{ path: 'b.txt', body: 'new file', new_position: 1 }],
  });
  assert.equal([draft.state, draft.html_url, draft.comments_count], ['PENDING', '', 1]);
  const path = `${reviewsOf(f)}/${draft.id}`;

  for (const u of [env.bob, env.alice, env.admin]) assert.is((await env.as(u, 'GET', path)).status, 200, u.name);
  for (const u of [env.carol, undefined]) assert.is((await env.as(u, 'GET', path)).status, 404);
  const forCarol = await env.as(env.carol, 'GET', reviewsOf(f));
  assert.equal([forCarol.json.length, forCarol.headers.get('x-total-count')], [0, '0']);
  assert.is((await env.as(env.bob, 'GET', reviewsOf(f))).json.length, 1);
  const publicOnly = await makeToken(env.srv.api, env.alice, ['public-only', 'read:repository']);
  assert.is((await env.as(publicOnly, 'GET', path)).status, 404, 'restricted tokens do not inherit admin rights');

  const added = await env.as(env.bob, 'POST', `${path}/comments`, { path: 'a.txt', body: 'more', old_position: 5 });
  assert.is(added.status, 200, added.text);
  valid('PullReviewComment', added.json);
  assert.is(added.json.html_url, `${f.html}/files#issuecomment-${added.json.id}`);
  assert.is((await env.as(env.carol, 'POST', `${path}/comments`, { path: 'a.txt', body: 'x', new_position: 1 })).status, 404);
  assert.is((await env.as(env.alice, 'POST', `${path}/comments`, { path: 'a.txt', body: 'x', new_position: 1 })).status, 403);

  // Another review by the same reviewer goes into the same draft.
  const more = await review(env.bob, f, { event: 'PENDING', body: 'draft 2', comments: [{ path: 'a.txt', body: 'x', new_position: 11 }] });
  assert.equal([more.id, more.comments_count, more.body], [draft.id, 3, 'draft 2']);

  assert.is((await env.as(env.alice, 'POST', path, { event: 'COMMENT' })).status, 403, 'only the reviewer submits');
  const stay = await env.as(env.bob, 'POST', path, { event: 'PENDING', body: 'x' });
  assert.equal([stay.status, stay.json.message], [422, 'review stay pending']);
  const submitted = await env.as(env.bob, 'POST', path, { event: 'COMMENT' });
  assert.is(submitted.status, 200, submitted.text);
  valid('PullReview', submitted.json);
  assert.equal([submitted.json.id, submitted.json.state, submitted.json.body, submitted.json.comments_count], [draft.id, 'COMMENT', '', 3]);
  assert.match(submitted.json.html_url, `${f.html}#issuecomment-`);
  assert.is((await env.as(env.carol, 'GET', path)).status, 200, 'submitted reviews are public');
  const comments = await env.as(env.carol, 'GET', `${path}/comments`);
  validList('PullReviewComment', comments);
  assert.is(comments.json.length, 3);
  assert.ok(comments.json.every((c: { html_url: string }) => !c.html_url.includes('/files#')));

  const twice = await env.as(env.bob, 'POST', path, { event: 'COMMENT', body: 'x' });
  assert.equal([twice.status, twice.json.message], [422, 'only a pending review can be submitted']);
  const late = await env.as(env.bob, 'POST', `${path}/comments`, { path: 'a.txt', body: 'late', new_position: 1 });
  assert.is(late.status, 422, late.text);
});

test("submitting a pending review as APPROVED uses the head commit and answers the reviewer's request", async () => {
  const f = await fixture();
  assert.is((await env.as(env.alice, 'POST', `${f.pulls}/${f.n}/requested_reviewers`, { reviewers: [env.bob.name] })).status, 201);
  const draft = await review(env.bob, f, { event: 'PENDING', body: 'hmm', commit_id: f.base });
  assert.is(draft.commit_id, f.base);
  assert.is(
    (await env.as(env.alice, 'GET', `${f.pulls}/${f.n}`)).json.requested_reviewers.length,
    1,
    'a draft does not answer the request',
  );
  const r = await env.as(env.bob, 'POST', `${reviewsOf(f)}/${draft.id}`, { event: 'APPROVED', body: 'fine' });
  assert.is(r.status, 200, r.text);
  assert.equal([r.json.state, r.json.commit_id, r.json.stale, r.json.official, r.json.body], ['APPROVED', f.head, false, true, 'fine']);
  assert.equal((await env.as(env.alice, 'GET', `${f.pulls}/${f.n}`)).json.requested_reviewers, []);
});

// -------------------------------------------------------------------------------------------------
// Deleting reviews and review comments

test('DELETE review: the reviewer or a repository admin (not through restricted tokens); comments go with it', async () => {
  const f = await fixture();
  const r = await review(env.bob, f, { event: 'COMMENT', body: 'x', comments: [{ path: 'a.txt', body: 'c', new_position: 5 }] });
  const path = `${reviewsOf(f)}/${r.id}`;
  const denied = await env.as(env.carol, 'DELETE', path);
  assert.equal([denied.status, denied.json.message], [403, 'only admin and user itself can delete a review']);
  const publicOnly = await makeToken(env.srv.api, env.alice, ['public-only', 'write:repository']);
  assert.is((await env.as(publicOnly, 'DELETE', path)).status, 403);
  const repoToken = await makeToken(env.srv.api, env.alice, ['write:repository'], {
    repositories: [{ owner: env.alice.name, name: f.full.split('/')[1] }],
  });
  assert.is((await env.as(repoToken, 'DELETE', path)).status, 403);
  assert.is(await countRows(Comment, { reviewId: r.id }), 2, 'nothing deleted by the refused calls');

  assert.is((await env.as(env.alice, 'DELETE', path)).status, 204);
  assert.is((await env.as(env.alice, 'GET', path)).status, 404);
  assert.is(await countRows(Comment, { reviewId: r.id }), 0);

  const own = await review(env.carol, f, { event: 'APPROVED' });
  assert.is((await env.as(env.carol, 'DELETE', `${reviewsOf(f)}/${own.id}`)).status, 204);
});

test('DELETE review: a review request is not deleted this way (422)', async () => {
  const f = await fixture();
  const req = await env.as(env.alice, 'POST', `${f.pulls}/${f.n}/requested_reviewers`, { reviewers: [env.bob.name] });
  const r = await env.as(env.alice, 'DELETE', `${reviewsOf(f)}/${req.json[0].id}`);
  assert.is(r.status, 422, r.text);
  assert.is(await countRows(Review, { id: req.json[0].id }), 1);
});

test('review comments: GET needs the comment in that review; DELETE by the poster or a pull writer', async () => {
  const f = await fixture();
  const r1 = await review(env.carol, f, { event: 'COMMENT', comments: [{ path: 'a.txt', body: 'one', new_position: 5 }] });
  const r2 = await review(env.bob, f, { event: 'COMMENT', comments: [{ path: 'a.txt', body: 'two', new_position: 5 }] });
  const [c1] = (await env.as(env.bob, 'GET', `${reviewsOf(f)}/${r1.id}/comments`)).json;
  const [c2] = (await env.as(env.bob, 'GET', `${reviewsOf(f)}/${r2.id}/comments`)).json;
  assert.is((await env.as(env.bob, 'GET', `${reviewsOf(f)}/${r2.id}/comments/${c1.id}`)).status, 404);
  assert.is((await env.as(env.bob, 'GET', `${reviewsOf(f)}/${r1.id}/comments/999999`)).status, 404);

  const denied = await env.as(env.carol, 'DELETE', `${reviewsOf(f)}/${r2.id}/comments/${c2.id}`);
  assert.is(denied.status, 403, denied.text);
  assert.is((await env.as(env.carol, 'DELETE', `${reviewsOf(f)}/${r2.id}/comments/${c1.id}`)).status, 404, 'not a comment of that review');
  assert.is((await env.as(env.carol, 'DELETE', `${reviewsOf(f)}/${r1.id}/comments/${c1.id}`)).status, 204, 'own comment');
  assert.is((await env.as(env.bob, 'DELETE', `${reviewsOf(f)}/${r2.id}/comments/${c2.id}`)).status, 204);
  assert.is((await env.as(env.bob, 'GET', `${reviewsOf(f)}/${r2.id}/comments/${c2.id}`)).status, 404);
  assert.is((await env.as(env.bob, 'GET', `${reviewsOf(f)}/${r2.id}`)).json.comments_count, 0);

  // The review's own timeline entry shares its review id but is not a code comment: left alone.
  const timelineId = Number(r2.html_url.split('-').pop());
  assert.is((await env.as(env.bob, 'DELETE', `${reviewsOf(f)}/${r2.id}/comments/${timelineId}`)).status, 204);
  assert.is(await countRows(Comment, { id: timelineId }), 1);
  assert.is((await env.as(env.bob, 'GET', `${reviewsOf(f)}/${r2.id}/comments/${timelineId}`)).status, 404);
});

// -------------------------------------------------------------------------------------------------
// Dismissals

test('dismissals: repository admins only, approvals and change requests only; a dismiss_review comment', async () => {
  const f = await fixture();
  const approval = await review(env.bob, f, { event: 'APPROVED' });
  const path = `${reviewsOf(f)}/${approval.id}`;
  const notAdmin = await env.as(env.bob, 'POST', `${path}/dismissals`, { message: 'no' });
  assert.equal([notAdmin.status, notAdmin.json.message], [403, 'Must be repo admin']);
  assert.is((await env.as(env.bob, 'POST', `${reviewsOf(f)}/999999/dismissals`, {})).status, 403, 'the admin check comes first');
  const publicOnly = await makeToken(env.srv.api, env.alice, ['public-only', 'write:repository']);
  assert.is((await env.as(publicOnly, 'POST', `${path}/dismissals`, { message: 'no' })).status, 403);
  const repoToken = await makeToken(env.srv.api, env.alice, ['write:repository'], {
    repositories: [{ owner: env.alice.name, name: f.full.split('/')[1] }],
  });
  assert.is((await env.as(repoToken, 'POST', `${path}/dismissals`, { message: 'no' })).status, 403);
  assert.is((await env.as(env.bob, 'GET', path)).json.dismissed, false);
  assert.is(await countRows(Comment, { reviewId: approval.id, type: CommentType.dismissReview }), 0);

  const d = await env.as(env.alice, 'POST', `${path}/dismissals`, { message: 'outdated' });
  assert.is(d.status, 200, d.text);
  valid('PullReview', d.json);
  assert.equal([d.json.id, d.json.dismissed, d.json.state], [approval.id, true, 'APPROVED']);
  const note = await em().findOne(Comment, { reviewId: approval.id, type: CommentType.dismissReview });
  assert.equal([note?.content, note?.posterId], ['outdated', env.alice.id]);

  const u = await env.as(env.admin, 'POST', `${path}/undismissals`);
  assert.is(u.status, 200, u.text);
  valid('PullReview', u.json);
  assert.is(u.json.dismissed, false);
  assert.is(await countRows(Comment, { reviewId: approval.id, type: CommentType.dismissReview }), 1, 'undismissing adds no comment');

  const comment = await review(env.carol, f, { event: 'COMMENT', body: 'x' });
  const wrongType = await env.as(env.alice, 'POST', `${reviewsOf(f)}/${comment.id}/dismissals`, {});
  assert.is(wrongType.status, 403, wrongType.text);
});

test("dismissals: not on a closed pull; priors dismisses the reviewer's other verdicts", async () => {
  const f = await fixture();
  const approval = await review(env.bob, f, { event: 'APPROVED' });
  const issueId = (await em().findOneOrFail(Review, { id: approval.id })).issueId;
  // An older change request by the same reviewer, as a migration could leave it.
  const older = em();
  older.create(Review, { type: ReviewType.reject, issueId, reviewerId: env.bob.id, content: 'old' });
  await older.flush();
  const d = await env.as(env.alice, 'POST', `${reviewsOf(f)}/${approval.id}/dismissals`, { message: 'all', priors: true });
  assert.is(d.status, 200, d.text);
  assert.is(await countRows(Review, { issueId, reviewerId: env.bob.id, dismissed: false }), 0);

  await em().nativeUpdate(Issue, { id: issueId }, { isClosed: true });
  const closed = await env.as(env.alice, 'POST', `${reviewsOf(f)}/${approval.id}/undismissals`);
  assert.equal([closed.status, closed.json.message], [403, "can't dismiss a review associated to a closed or merged PR"]);
});

// -------------------------------------------------------------------------------------------------
// Review requests

test('requested_reviewers: 201 with the new requests; they show on the pull; already requested is skipped', async () => {
  const f = await fixture();
  const path = `${f.pulls}/${f.n}/requested_reviewers`;
  const r = await env.as(env.alice, 'POST', path, { reviewers: [env.bob.name, `${env.carol.name}@example.com`] });
  assert.is(r.status, 201, r.text);
  validList('PullReview', r);
  assert.equal(
    r.json.map((x: { state: string; user: { login: string } }) => [x.state, x.user.login]),
    [
      ['REQUEST_REVIEW', env.bob.name],
      ['REQUEST_REVIEW', env.carol.name],
    ],
  );
  assert.equal(
    r.json.map((x: { official: boolean }) => x.official),
    [true, false],
  );
  assert.is(await countRows(Comment, { issueId: await issueIdOf(f), type: CommentType.reviewRequest, assigneeId: env.bob.id }), 1);

  const pr = await env.as(env.carol, 'GET', `${f.pulls}/${f.n}`);
  valid('PullRequest', pr.json);
  assert.equal(pr.json.requested_reviewers.map((u: { login: string }) => u.login).sort(), [env.bob.name, env.carol.name].sort());

  const again = await env.as(env.alice, 'POST', path, { reviewers: [env.bob.name] });
  assert.equal([again.status, again.json], [201, []]);
  assert.is((await env.as(env.bob, 'GET', `${f.pulls}/${f.n}/reviews`)).json.length, 2, 'requests are listed as reviews');

  // bob answers with a review: his request is gone.
  await review(env.bob, f, { event: 'COMMENT', body: 'looked' });
  assert.equal(
    (await env.as(env.carol, 'GET', `${f.pulls}/${f.n}`)).json.requested_reviewers.map((u: { login: string }) => u.login),
    [env.carol.name],
  );
});

test('requested_reviewers: 404 for unknown users, 422 for the poster, organizations, non-readers and callers who may not choose', async () => {
  const f = await fixture({ private: true });
  const path = `${f.pulls}/${f.n}/requested_reviewers`;
  const unknown = await env.as(env.alice, 'POST', path, { reviewers: [env.bob.name, 'nobody-here'] });
  assert.equal([unknown.status, unknown.json.message], [404, "User 'nobody-here' not exist"]);
  const org = await newOrg(env, env.alice);
  for (const [body, reason] of [
    [{ reviewers: [env.alice.name] }, "poster of pr can't be reviewer"],
    [{ reviewers: [env.carol.name] }, "Reviewer can't read"],
    [{ reviewers: [org.name] }, "Organization can't be added as reviewer"],
  ] as const) {
    const r = await env.as(env.alice, 'POST', path, body);
    assert.is(r.status, 422, r.text);
    assert.ok(r.json.message.startsWith(reason), r.json.message);
  }
  assert.is(
    await countRows(Review, { issueId: await issueIdOf(f), type: ReviewType.request, reviewerId: env.bob.id }),
    0,
    'bob, listed first, was not requested either',
  );

  const pub = await fixture();
  const chooser = await env.as(env.carol, 'POST', `${pub.pulls}/${pub.n}/requested_reviewers`, { reviewers: [env.bob.name] });
  assert.is(chooser.status, 422);
  assert.ok(chooser.json.message.startsWith("Doer can't choose reviewer"), chooser.json.message);
  assert.is((await env.as(undefined, 'POST', `${pub.pulls}/${pub.n}/requested_reviewers`, { reviewers: [env.bob.name] })).status, 401);
});

test('DELETE requested_reviewers: the poster or a collaborator removes, a reviewer may decline, others 422', async () => {
  const f = await fixture();
  const path = `${f.pulls}/${f.n}/requested_reviewers`;
  assert.is((await env.as(env.alice, 'POST', path, { reviewers: [env.bob.name, env.carol.name] })).status, 201);
  const denied = await env.as(env.carol, 'DELETE', path, { reviewers: [env.bob.name] });
  assert.is(denied.status, 422, denied.text);
  assert.ok(denied.json.message.startsWith("Doer can't remove reviewer"));
  assert.is((await env.as(env.carol, 'DELETE', path, { reviewers: [env.carol.name] })).status, 204, 'carol declines');
  assert.is((await env.as(env.bob, 'DELETE', path, { reviewers: [env.bob.name] })).status, 204, 'bob is a collaborator');
  assert.equal((await env.as(env.alice, 'GET', `${f.pulls}/${f.n}`)).json.requested_reviewers, []);
  const removed = await em().find(Comment, { issueId: await issueIdOf(f), type: CommentType.reviewRequest, removedAssignee: true });
  assert.is(removed.length, 2);
  assert.is((await env.as(env.alice, 'DELETE', path, { reviewers: [env.bob.name] })).status, 204, 'nothing to remove is fine');
});

test('team_reviewers: teams of the owning organization; 404 unknown, 422 a team without the private repository', async () => {
  const org = await newOrg(env, env.alice);
  const team = await env.as(env.alice, 'POST', `/orgs/${org.name}/teams`, {
    name: 'reviewers',
    permission: 'read',
    units: ['repo.code', 'repo.pulls'],
  });
  assert.is(team.status, 201, team.text);
  assert.is((await env.as(env.alice, 'PUT', `/teams/${team.json.id}/members/${env.bob.name}`)).status, 204);
  const f = await fixture({ org: org.name, private: true });
  const path = `${f.pulls}/${f.n}/requested_reviewers`;

  const noRepo = await env.as(env.alice, 'POST', path, { team_reviewers: ['reviewers'] });
  assert.is(noRepo.status, 422, noRepo.text);
  assert.ok(noRepo.json.message.startsWith("Reviewing team can't read repo"));
  assert.is((await env.as(env.alice, 'POST', path, { team_reviewers: ['nope'] })).status, 404);
  const [, name] = f.full.split('/');
  assert.is((await env.as(env.alice, 'PUT', `/teams/${team.json.id}/repos/${org.name}/${name}`)).status, 204);

  const r = await env.as(env.alice, 'POST', path, { team_reviewers: ['Reviewers'] });
  assert.is(r.status, 201, r.text);
  validList('PullReview', r);
  assert.equal([r.json.length, r.json[0].state, r.json[0].user, r.json[0].team.name], [1, 'REQUEST_REVIEW', null, 'reviewers']);
  const pr = (await env.as(env.alice, 'GET', `${f.pulls}/${f.n}`)).json;
  assert.equal(
    pr.requested_reviewers_teams.map((t: { name: string }) => t.name),
    ['reviewers'],
  );
  assert.equal((await env.as(env.alice, 'POST', path, { team_reviewers: ['reviewers'] })).json, []);

  // bob, a member, approves: the team's request is answered.
  await review(env.bob, f, { event: 'APPROVED' });
  assert.equal((await env.as(env.alice, 'GET', `${f.pulls}/${f.n}`)).json.requested_reviewers_teams, []);
  assert.is((await env.as(env.alice, 'POST', path, { team_reviewers: ['reviewers'] })).status, 201);
  assert.is((await env.as(env.alice, 'DELETE', path, { team_reviewers: ['reviewers'] })).status, 204);
  assert.equal((await env.as(env.alice, 'GET', `${f.pulls}/${f.n}`)).json.requested_reviewers_teams, []);
});

test('team_reviewers are ignored on a repository of a user', async () => {
  const f = await fixture();
  const r = await env.as(env.alice, 'POST', `${f.pulls}/${f.n}/requested_reviewers`, { team_reviewers: ['whatever'] });
  assert.equal([r.status, r.json], [201, []]);
});

// -------------------------------------------------------------------------------------------------
// The diff hunk

test('cutDiffAroundLine keeps the hunk up to the line, cut to its last lines', () => {
  const diff = [
    'diff --git a/f b/f',
    'index 1..2 100644',
    '--- a/f',
    '+++ b/f',
    '@@ -1,8 +1,8 @@',
    ' l1',
    ' l2',
    ' l3',
    '-l4',
    '+L4',
    ' l5',
    ' l6',
    ' l7',
    ' l8',
    '',
  ].join('\n');
  assert.is(cutDiffAroundLine(diff, 2, false, 4), ['diff --git a/f b/f', '--- a/f', '+++ b/f', '@@ -1,8 +1,8 @@', ' l1', ' l2'].join('\n'));
  assert.is(
    cutDiffAroundLine(diff, 6, false, 4),
    ['diff --git ', '--- ', '+++ ', 'diff --git a/f b/f', '--- a/f', '+++ b/f', '@@ -4,3 +4,3 @@', '-l4', '+L4', ' l5', ' l6'].join('\n'),
  );
  assert.is(
    cutDiffAroundLine(diff, 4, true, 2),
    ['diff --git ', '--- ', '+++ ', 'diff --git a/f b/f', '--- a/f', '+++ b/f', '@@ -3,2 +3,1 @@', ' l3', '-l4'].join('\n'),
  );
  assert.is(cutDiffAroundLine(diff, 20, false, 4), '');
  assert.is(cutDiffAroundLine(diff, 0, false, 4), '');
});

test.run();
