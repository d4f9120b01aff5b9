// Pull requests against a real server, database and git: creating (same repository and from a
// fork), reading, listing, editing, diffs, commits and files, every merge style with the resulting
// history checked and `git fsck` clean, conflicts, permissions, branch protection, auto-merge and
// pushes that move a pull's head (Forgejo routers/api/v1/repo/pull.go; forgejo-facts 6.8, 9, 10.4).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { setup, newRepo, valid, validList, gitDir, type Env } from './repo-setup.ts';
import type { TestUser } from '../helpers/fixtures.ts';
import { git, mustGit } from '../helpers/git-cli.ts';
import { call } from '../helpers/client.ts';
import { Comment, CommentType } from '../../model/issue.ts';
import { PullRequest } from '../../model/pull.ts';

let env: Env;
const b64 = (s: string) => Buffer.from(s).toString('base64');

test.before(async () => {
  env = await setup({ MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
});
test.after(async () => {
  await env.close();
});

type Repo = Awaited<ReturnType<typeof newRepo>>;

/** Commits `files` (path → content, null deletes) to `branch` (or a new branch made from it) through the contents API. */
async function commit(
  u: TestUser,
  full: string,
  branch: string,
  files: Record<string, string | null>,
  newBranch?: string,
): Promise<string> {
  const ops = [];
  for (const [p, content] of Object.entries(files)) {
    const cur = await env.as(u, 'GET', `/repos/${full}/contents/${p}?ref=${branch}`);
    const sha = cur.status === 200 ? (cur.json as { sha: string }).sha : undefined;
    if (content === null) ops.push({ operation: 'delete', path: p, sha });
    else ops.push({ operation: sha ? 'update' : 'create', path: p, content: b64(content), sha });
  }
  const r = await env.as(u, 'POST', `/repos/${full}/contents`, {
    branch,
    new_branch: newBranch,
    message: `change ${Object.keys(files).join(',')}`,
    files: ops,
  });
  assert.is(r.status, 201, r.text);
  return (r.json as { commit: { sha: string } }).commit.sha;
}

const dirOf = (full: string) => {
  const [o, n] = full.split('/');
  return gitDir(env, o, n);
};
const rev = (full: string, ref: string) =>
  mustGit(null, `--git-dir=${dirOf(full)}`, 'rev-parse', '--verify', '--quiet', ref).catch(() => null);
const gitIn = (full: string, ...args: string[]) => mustGit(null, `--git-dir=${dirOf(full)}`, ...args);
async function fsckClean(full: string) {
  const r = await git(null, `--git-dir=${dirOf(full)}`, 'fsck', '--strict', '--no-dangling');
  assert.ok(r.ok, r.out);
  assert.not.match(r.out, /error|missing|broken|bad/i);
}

async function repoWithBase(u: TestUser, extra: Record<string, unknown> = {}): Promise<Repo> {
  return newRepo(env, u, { auto_init: true, ...extra });
}

async function openPull(u: TestUser, full: string, head: string, base = 'main', extra: Record<string, unknown> = {}) {
  const r = await env.as(u, 'POST', `/repos/${full}/pulls`, { head, base, title: `pull ${head}`, ...extra });
  assert.is(r.status, 201, r.text);
  valid('PullRequest', r.json);
  return r.json as PR;
}

interface PR {
  id: number;
  number: number;
  url: string;
  html_url: string;
  state: string;
  merged: boolean;
  mergeable: boolean;
  draft: boolean;
  merge_base: string;
  merge_commit_sha: string | null;
  merged_by: { login: string } | null;
  merged_at: string | null;
  head: { ref: string; label: string; sha: string; repo_id: number; repo: { full_name: string } | null };
  base: { ref: string; label: string; sha: string; repo_id: number; repo: { full_name: string } | null };
  additions: number;
  deletions: number;
  changed_files: number;
  labels: { id: number }[];
  milestone: { id: number } | null;
  assignees: { login: string }[] | null;
  requested_reviewers: unknown[];
  requested_reviewers_teams: unknown[];
  title: string;
  body: string;
  comments: number;
  due_date: string | null;
  allow_maintainer_edit: boolean;
  closed_at: string | null;
}

// -------------------------------------------------------------------------------------------------
// Creating and reading

test('POST pulls from a branch of the same repository: 201 api.PullRequest, refs/pull/<n>/head written, shared number', async () => {
  const repo = await repoWithBase(env.alice);
  const base = (await rev(repo.full_name, 'refs/heads/main'))!;
  const head = await commit(env.alice, repo.full_name, 'main', { 'feature.txt': 'one\ntwo\n' }, 'feature');
  const pr = await openPull(env.alice, repo.full_name, 'feature');
  assert.is(pr.number, 1);
  assert.is(pr.url, `${env.srv.config.appUrl}api/v1/repos/${repo.full_name}/pulls/1`);
  assert.is(pr.html_url, `${env.srv.config.appUrl}${repo.full_name}/pulls/1`);
  assert.is(pr.state, 'open');
  assert.is(pr.merged, false);
  assert.is(pr.mergeable, true);
  assert.is(pr.merge_base, base);
  assert.is(pr.merge_commit_sha, null);
  assert.is(pr.merged_by, null);
  assert.equal([pr.head.ref, pr.head.label, pr.head.sha, pr.head.repo_id], ['feature', 'feature', head, repo.id]);
  assert.equal([pr.base.ref, pr.base.label, pr.base.sha, pr.base.repo_id], ['main', 'main', base, repo.id]);
  assert.is(pr.head.repo?.full_name, repo.full_name);
  assert.equal([pr.additions, pr.deletions, pr.changed_files], [2, 0, 1]);
  assert.equal(pr.requested_reviewers, []);
  assert.equal(pr.requested_reviewers_teams, []);
  assert.equal(pr.labels, []);
  assert.is(pr.assignees, null);
  assert.is(await rev(repo.full_name, 'refs/pull/1/head'), head);

  const got = await env.as(env.alice, 'GET', `/repos/${repo.full_name}/pulls/1`);
  assert.is(got.status, 200);
  valid('PullRequest', got.json);
  assert.equal(got.json, pr);
  // The open-pull counter of the repository counts it.
  const r = await env.as(env.alice, 'GET', `/repos/${repo.full_name}`);
  assert.is((r.json as { open_pr_counter: number }).open_pr_counter, 1);
  // The issue view shows it as a pull request.
  assert.is((await env.as(env.alice, 'GET', `/repos/${repo.full_name}/pulls/2`)).status, 404);
});

test('POST pulls: 422 same branch, 404 unknown branches or owner, 409 open duplicate, 422 missing title', async () => {
  const repo = await repoWithBase(env.alice);
  await commit(env.alice, repo.full_name, 'main', { 'x.txt': 'x' }, 'topic');
  const P = `/repos/${repo.full_name}/pulls`;
  let r = await env.as(env.alice, 'POST', P, { head: 'main', base: 'main', title: 't' });
  assert.is(r.status, 422);
  assert.is(r.json.message, 'Invalid PullRequest: There are no changes between the head and the base');
  r = await env.as(env.alice, 'POST', P, { head: 'nope', base: 'main', title: 't' });
  assert.is(r.status, 404);
  r = await env.as(env.alice, 'POST', P, { head: 'topic', base: 'nope', title: 't' });
  assert.is(r.status, 404);
  r = await env.as(env.alice, 'POST', P, { head: 'ghost-user:topic', base: 'main', title: 't' });
  assert.is(r.status, 404);
  r = await env.as(env.alice, 'POST', P, { head: `${env.bob.name}:topic`, base: 'main', title: 't' });
  assert.is(r.status, 404, 'bob has no fork');
  r = await env.as(env.alice, 'POST', P, { head: 'topic', base: 'main', title: '' });
  assert.is(r.status, 422);
  assert.is(r.json.message, '[Title]: Required');
  const first = await openPull(env.alice, repo.full_name, 'topic');
  r = await env.as(env.alice, 'POST', P, { head: `${env.alice.name}:topic`, base: 'main', title: 'again' });
  assert.is(r.status, 409);
  assert.match(r.json.message, `pull request already exists for these targets [id: ${first.id}, issue_id: 1,`);
  // Nothing half-written: still one pull, and the next number is 2.
  const list = await env.as(env.alice, 'GET', `${P}?state=all`);
  assert.is((list.json as unknown[]).length, 1);
  assert.is(list.headers.get('x-total-count'), '1');
  assert.is(await rev(repo.full_name, 'refs/pull/2/head'), null);
});

test('POST pulls: writers set labels, milestone, assignees and due date; a reader who cannot push still opens a pull, without them', async () => {
  const repo = await repoWithBase(env.alice);
  await commit(env.alice, repo.full_name, 'main', { 'a.txt': 'a' }, 'a');
  await commit(env.alice, repo.full_name, 'main', { 'b.txt': 'b' }, 'b');
  const label = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/labels`, { name: 'bug', color: '#ff0000' });
  const ms = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/milestones`, { title: 'v1' });
  const due = '2030-01-02T03:04:05Z';
  const pr = await openPull(env.alice, repo.full_name, 'a', 'main', {
    labels: [label.json.id, 999999],
    milestone: ms.json.id,
    assignees: [env.alice.name],
    due_date: due,
    body: 'text',
  });
  assert.equal(
    pr.labels.map((l) => l.id),
    [label.json.id],
  );
  assert.is(pr.milestone?.id, ms.json.id);
  assert.equal(
    pr.assignees?.map((a) => a.login),
    [env.alice.name],
  );
  assert.is(pr.due_date, due);
  assert.is(pr.body, 'text');
  let r = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/pulls`, {
    head: 'b',
    base: 'main',
    title: 't',
    assignees: ['no-such-user'],
  });
  assert.is(r.status, 422);
  assert.match(r.json.message, 'Assignee does not exist');
  r = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/pulls`, {
    head: 'b',
    base: 'main',
    title: 't',
    assignees: [env.carol.name],
  });
  assert.is(r.status, 422, 'carol cannot be assigned: no write access');
  r = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/pulls`, { head: 'b', base: 'main', title: 't', milestone: 999999 });
  assert.is(r.status, 404);
  // bob reads the public repository but cannot write: his fields are dropped.
  const bobs = await openPull(env.bob, repo.full_name, 'b', 'main', { labels: [label.json.id], milestone: ms.json.id });
  assert.equal(bobs.labels, []);
  assert.is(bobs.milestone, null);
  assert.is(bobs.number, 2);
});

test('GET pulls lists with state, sort, poster, labels, milestone filters and paging headers', async () => {
  const repo = await repoWithBase(env.alice);
  const label = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/labels`, { name: 'x', color: '#00ff00' });
  for (const n of ['p1', 'p2', 'p3']) await commit(env.alice, repo.full_name, 'main', { [`${n}.txt`]: n }, n);
  await openPull(env.alice, repo.full_name, 'p1', 'main', { labels: [label.json.id] });
  await openPull(env.bob, repo.full_name, 'p2');
  await openPull(env.alice, repo.full_name, 'p3');
  const P = `/repos/${repo.full_name}/pulls`;
  let r = await env.as(env.alice, 'GET', P);
  assert.is(r.status, 200);
  validList('PullRequest', r);
  assert.equal(
    (r.json as PR[]).map((p) => p.number),
    [3, 2, 1],
  );
  r = await env.as(env.alice, 'GET', `${P}?sort=oldest&limit=2`);
  assert.equal(
    (r.json as PR[]).map((p) => p.number),
    [1, 2],
  );
  assert.is(r.headers.get('x-total-count'), '3');
  assert.match(r.headers.get('link') ?? '', 'rel="next"');
  r = await env.as(env.alice, 'GET', `${P}?poster=${env.bob.name}`);
  assert.equal(
    (r.json as PR[]).map((p) => p.number),
    [2],
  );
  r = await env.as(env.alice, 'GET', `${P}?poster=no-such-user`);
  assert.is(r.status, 400);
  r = await env.as(env.alice, 'GET', `${P}?labels=${label.json.id}`);
  assert.equal(
    (r.json as PR[]).map((p) => p.number),
    [1],
  );
  r = await env.as(env.alice, 'GET', `${P}?state=closed`);
  assert.equal(r.json, []);
  assert.is(r.headers.get('x-total-count'), '0');
});

// -------------------------------------------------------------------------------------------------
// Merging: every style, with the resulting history checked and git fsck clean

const em = () => env.db.db.orm.em.fork();
const parents = async (full: string, sha: string) => (await gitIn(full, 'rev-list', '--parents', '-n', '1', sha)).split(' ').slice(1);
const fileAt = (full: string, rev0: string, p: string) => gitIn(full, 'show', `${rev0}:${p}`);
const authorOf = (full: string, sha: string) => gitIn(full, 'log', '-1', '--format=%an|%ae|%cn|%s', sha);
const merge = (u: TestUser, full: string, n: number, body: Record<string, unknown>) =>
  env.as(u, 'POST', `/repos/${full}/pulls/${n}/merge`, body);
/** Merge answers whose 409 body is Forgejo's Go error struct (no `message`), so not the checked error shape. */
const mergeRaw = (u: TestUser, full: string, n: number, body: Record<string, unknown>) =>
  call(env.srv.api, 'POST', `/repos/${full}/pulls/${n}/merge`, { token: u.token, body });

/** A repository whose main moved after `topic` branched off, so merges are real three-way merges. */
async function diverged(u: TestUser, extra: Record<string, unknown> = {}) {
  const repo = await repoWithBase(u, extra);
  const full = repo.full_name;
  const fork = (await rev(full, 'refs/heads/main'))!;
  const t1 = await commit(u, full, 'main', { 'topic1.txt': 'one\n' }, 'topic');
  const t2 = await commit(u, full, 'topic', { 'topic2.txt': 'two\n' });
  const m1 = await commit(u, full, 'main', { 'main.txt': 'main\n' });
  return { repo, full, fork, t1, t2, m1 };
}

async function assertMerged(full: string, n: number, mergedSha: string, by: TestUser) {
  const pr = await env.as(by, 'GET', `/repos/${full}/pulls/${n}`);
  valid('PullRequest', pr.json);
  const p = pr.json as PR;
  assert.is(p.merged, true);
  assert.is(p.state, 'closed');
  assert.is(p.merge_commit_sha, mergedSha);
  assert.is(p.merged_by?.login, by.name);
  assert.ok(p.merged_at && p.closed_at);
  assert.is((await env.as(by, 'GET', `/repos/${full}/pulls/${n}/merge`)).status, 204);
  assert.is(((await env.as(by, 'GET', `/repos/${full}`)).json as { open_pr_counter: number }).open_pr_counter, 0);
  assert.is(await em().count(Comment, { type: CommentType.mergePull }), await em().count(PullRequest, { hasMerged: true }));
  await fsckClean(full);
}

test('merge style "merge": a merge commit with the base and head as parents and the default title', async () => {
  const { full, t2, m1 } = await diverged(env.alice);
  const pr = await openPull(env.alice, full, 'topic');
  assert.is((await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}/merge`)).status, 404);
  const r = await merge(env.alice, full, pr.number, { Do: 'merge' });
  assert.is(r.status, 200, r.text);
  assert.is(r.text, '');
  const tip = (await rev(full, 'refs/heads/main'))!;
  assert.equal(await parents(full, tip), [m1, t2]);
  assert.is(await fileAt(full, tip, 'topic2.txt'), 'two');
  assert.is(await fileAt(full, tip, 'main.txt'), 'main');
  assert.is((await authorOf(full, tip)).split('|')[3], `Merge pull request 'pull topic' (#1) from topic into main`);
  assert.is(await rev(full, 'refs/heads/topic'), t2, 'the head branch stays');
  await assertMerged(full, pr.number, tip, env.alice);
  // Merging again: 405 with an empty message.
  const again = await merge(env.alice, full, pr.number, { Do: 'merge' });
  assert.is(again.status, 405);
  assert.is(again.json.message, '');
});

test('merge style "squash": one commit on top of the base, authored by the poster, committed by the merger, with the given title and message', async () => {
  const { full, m1 } = await diverged(env.alice);
  await env.as(env.alice, 'PUT', `/repos/${full}/collaborators/${env.bob.name}`, { permission: 'write' });
  const pr = await openPull(env.bob, full, 'topic');
  const r = await merge(env.alice, full, pr.number, { Do: 'squash', MergeTitleField: '  squashed  ', MergeMessageField: 'details' });
  assert.is(r.status, 200, r.text);
  const tip = (await rev(full, 'refs/heads/main'))!;
  assert.equal(await parents(full, tip), [m1]);
  assert.is(await fileAt(full, tip, 'topic1.txt'), 'one');
  assert.is(await fileAt(full, tip, 'topic2.txt'), 'two');
  const [an, , cn] = (await authorOf(full, tip)).split('|');
  assert.is(an, env.bob.name);
  assert.is(cn, env.alice.name);
  assert.is(await gitIn(full, 'log', '-1', '--format=%B', tip), 'squashed\n\ndetails');
  await assertMerged(full, pr.number, tip, env.alice);
});

test('merge style "rebase": the head commits replayed onto the base, authors and messages kept; the base fast-forwards to the last one', async () => {
  const { full, t1, t2, m1 } = await diverged(env.alice);
  const pr = await openPull(env.alice, full, 'topic');
  const r = await merge(env.alice, full, pr.number, { Do: 'rebase' });
  assert.is(r.status, 200, r.text);
  const tip = (await rev(full, 'refs/heads/main'))!;
  const chain = (await gitIn(full, 'rev-list', `${m1}..${tip}`)).split('\n');
  assert.is(chain.length, 2);
  assert.ok(!chain.includes(t1) && !chain.includes(t2), 'replayed, not reused');
  assert.equal(await parents(full, chain[1]), [m1]);
  assert.equal(await parents(full, chain[0]), [chain[1]]);
  assert.is(await gitIn(full, 'log', '-1', '--format=%s', chain[0]), await gitIn(full, 'log', '-1', '--format=%s', t2));
  assert.is(await gitIn(full, 'log', '-1', '--format=%an %ae %at', chain[1]), await gitIn(full, 'log', '-1', '--format=%an %ae %at', t1));
  assert.is(await fileAt(full, tip, 'main.txt'), 'main');
  assert.is(await fileAt(full, tip, 'topic2.txt'), 'two');
  await assertMerged(full, pr.number, tip, env.alice);
});

test('merge style "rebase-merge": the rebased commits and a merge commit on top', async () => {
  const { full, m1 } = await diverged(env.alice);
  const pr = await openPull(env.alice, full, 'topic');
  const r = await merge(env.alice, full, pr.number, { Do: 'rebase-merge' });
  assert.is(r.status, 200, r.text);
  const tip = (await rev(full, 'refs/heads/main'))!;
  const [p1, p2] = await parents(full, tip);
  assert.is(p1, m1);
  assert.equal(await parents(full, (await parents(full, p2))[0]), [m1], 'the rebased chain starts on the old base');
  assert.is(await gitIn(full, 'rev-parse', `${tip}^{tree}`), await gitIn(full, 'rev-parse', `${p2}^{tree}`));
  await assertMerged(full, pr.number, tip, env.alice);
});

test('merge style "fast-forward-only": the base moves to the head; a diverged head answers 409 and nothing moves', async () => {
  const repo = await repoWithBase(env.alice);
  const full = repo.full_name;
  const head = await commit(env.alice, full, 'main', { 'ff.txt': 'ff' }, 'ff');
  const pr = await openPull(env.alice, full, 'ff');
  const r = await merge(env.alice, full, pr.number, { Do: 'fast-forward-only' });
  assert.is(r.status, 200, r.text);
  assert.is(await rev(full, 'refs/heads/main'), head);
  await assertMerged(full, pr.number, head, env.alice);

  const d = await diverged(env.alice);
  const pr2 = await openPull(env.alice, d.full, 'topic');
  const refused = await mergeRaw(env.alice, d.full, pr2.number, { Do: 'fast-forward-only' });
  assert.is(refused.status, 409);
  assert.is(refused.json.Style, 'fast-forward-only');
  assert.equal(Object.keys(refused.json).sort(), ['Err', 'StdErr', 'StdOut', 'Style']);
  assert.is(await rev(d.full, 'refs/heads/main'), d.m1);
  assert.is(((await env.as(env.alice, 'GET', `/repos/${d.full}/pulls/${pr2.number}`)).json as PR).merged, false);
});

test('merge style "manually-merged": needs the setting, a full commit id in the base branch (else 409 {}), and takes the commit time', async () => {
  const { full, t2 } = await diverged(env.alice);
  const pr = await openPull(env.alice, full, 'topic');
  let r = await merge(env.alice, full, pr.number, { Do: 'manually-merged', MergeCommitID: t2 });
  assert.is(r.status, 405);
  assert.is(r.json.message, 'manually-merged is not an allowed merge style for this repository');
  await env.as(env.alice, 'PATCH', `/repos/${full}`, { allow_manual_merge: true });
  r = await mergeRaw(env.alice, full, pr.number, { Do: 'manually-merged', MergeCommitID: t2 });
  assert.is(r.status, 409, 'not in main yet');
  assert.equal(r.json, {});
  r = await mergeRaw(env.alice, full, pr.number, { Do: 'manually-merged', MergeCommitID: t2.slice(0, 10) });
  assert.is(r.status, 409);
  // Someone merged it outside: main now contains the head.
  const main = (await rev(full, 'refs/heads/main'))!;
  const mergedOutside = await gitIn(full, 'commit-tree', `${t2}^{tree}`, '-p', main, '-p', t2, '-m', 'outside');
  await gitIn(full, 'update-ref', 'refs/heads/main', mergedOutside, main);
  r = await merge(env.alice, full, pr.number, { Do: 'manually-merged', MergeCommitID: mergedOutside });
  assert.is(r.status, 200, r.text);
  const p = (await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}`)).json as PR;
  assert.is(p.merged, true);
  assert.is(p.merge_commit_sha, mergedOutside);
  assert.is(new Date(p.merged_at!).getTime() / 1000, Number(await gitIn(full, 'log', '-1', '--format=%at', mergedOutside)));
  assert.is(await rev(full, 'refs/heads/main'), mergedOutside, 'no git work');
});

test('merging: 405 for readers, WIP titles, disallowed styles and conflicting pulls; 409 head out of date; 404 closed; nothing moves', async () => {
  const { full, m1 } = await diverged(env.alice);
  const pr = await openPull(env.alice, full, 'topic');
  let r = await merge(env.carol, full, pr.number, { Do: 'merge' });
  assert.is(r.status, 405);
  assert.is(r.json.message, 'User not allowed to merge PR');
  r = await env.api('POST', `/repos/${full}/pulls/${pr.number}/merge`, { body: { Do: 'merge' } });
  assert.is(r.status, 401);
  r = await merge(env.alice, full, pr.number, { Do: 'octopus' });
  assert.is(r.status, 422);
  r = await merge(env.alice, full, pr.number, { Do: 'merge', head_commit_id: m1 });
  assert.is(r.status, 409);
  assert.is(r.json.message, 'head out of date');
  await env.as(env.alice, 'PATCH', `/repos/${full}`, { allow_squash_merge: false });
  r = await merge(env.alice, full, pr.number, { Do: 'squash' });
  assert.is(r.status, 405);
  assert.is(r.json.message, 'squash is not an allowed merge style for this repository');
  await env.as(env.alice, 'PATCH', `/repos/${full}/pulls/${pr.number}`, { title: 'WIP: not yet' });
  let p = (await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}`)).json as PR;
  assert.is(p.draft, true);
  assert.is(p.mergeable, false);
  r = await merge(env.alice, full, pr.number, { Do: 'merge' });
  assert.is(r.status, 405);
  assert.is(r.json.message, 'Work in progress PRs cannot be merged');
  await env.as(env.alice, 'PATCH', `/repos/${full}/pulls/${pr.number}`, { title: 'ready', state: 'closed' });
  r = await merge(env.alice, full, pr.number, { Do: 'merge' });
  assert.is(r.status, 404);
  await env.as(env.alice, 'PATCH', `/repos/${full}/pulls/${pr.number}`, { state: 'open' });
  // A conflicting change on main: the pull is no longer mergeable.
  await commit(env.alice, full, 'main', { 'topic1.txt': 'main says otherwise\n' });
  p = (await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}`)).json as PR;
  assert.is(p.mergeable, false);
  const before = await rev(full, 'refs/heads/main');
  r = await merge(env.alice, full, pr.number, { Do: 'merge' });
  assert.is(r.status, 405);
  assert.is(r.json.message, 'Please try again later');
  assert.is(await rev(full, 'refs/heads/main'), before);
  assert.is(((await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}`)).json as PR).merged, false);
  await fsckClean(full);
});

test('a rebase that conflicts commit by commit answers 409 with the commit, though a three-way merge is clean; nothing moves', async () => {
  const repo = await repoWithBase(env.alice);
  const full = repo.full_name;
  await commit(env.alice, full, 'main', { 'f.txt': 'a\n' });
  // The head changes f.txt and changes it back; main changes it once: the sum merges cleanly.
  await commit(env.alice, full, 'main', { 'f.txt': 'x\n' }, 'flip');
  const flipped = await commit(env.alice, full, 'flip', { 'f.txt': 'a\n', 'g.txt': 'g\n' });
  const m = await commit(env.alice, full, 'main', { 'f.txt': 'y\n' });
  const pr = await openPull(env.alice, full, 'flip');
  assert.is(pr.mergeable, true);
  const r = await mergeRaw(env.alice, full, pr.number, { Do: 'rebase' });
  assert.is(r.status, 409, r.text);
  assert.is(r.json.Style, 'rebase');
  assert.is(r.json.CommitSHA, await gitIn(full, 'rev-parse', 'flip~1'));
  assert.match(r.json.StdOut, 'CONFLICT (content): Merge conflict in f.txt');
  assert.is(await rev(full, 'refs/heads/main'), m);
  assert.is(await rev(full, 'refs/heads/flip'), flipped);
  const ok = await merge(env.alice, full, pr.number, { Do: 'merge' });
  assert.is(ok.status, 200, ok.text);
  assert.is(await fileAt(full, 'main', 'f.txt'), 'y');
  await fsckClean(full);
});

test('branch protection: required approvals and status checks refuse with 405; force_merge lets an admin through; the allowlist decides who merges', async () => {
  const { full } = await diverged(env.alice);
  await env.as(env.alice, 'PUT', `/repos/${full}/collaborators/${env.bob.name}`, { permission: 'write' });
  let r = await env.as(env.alice, 'POST', `/repos/${full}/branch_protections`, {
    rule_name: 'main',
    required_approvals: 1,
    enable_status_check: true,
    status_check_contexts: ['ci/*'],
  });
  assert.is(r.status, 201, r.text);
  const pr = await openPull(env.bob, full, 'topic');
  r = await merge(env.bob, full, pr.number, { Do: 'merge' });
  assert.is(r.status, 405);
  assert.is(r.json.message, 'not allowed to merge [reason: Not all required status checks successful]');
  const head = pr.head.sha;
  r = await env.as(env.alice, 'POST', `/repos/${full}/statuses/${head}`, { state: 'success', context: 'ci/build' });
  assert.is(r.status, 201, r.text);
  r = await merge(env.bob, full, pr.number, { Do: 'merge' });
  assert.is(r.json.message, 'not allowed to merge [reason: Does not have enough approvals]');
  r = await merge(env.bob, full, pr.number, { Do: 'merge', force_merge: true });
  assert.is(r.status, 405, 'bob is no admin');
  await env.as(env.alice, 'PATCH', `/repos/${full}/branch_protections/main`, {
    enable_merge_whitelist: true,
    merge_whitelist_usernames: [env.alice.name],
  });
  r = await merge(env.bob, full, pr.number, { Do: 'merge' });
  assert.is(r.json.message, 'User not allowed to merge PR');
  r = await merge(env.alice, full, pr.number, { Do: 'merge', force_merge: true });
  assert.is(r.status, 200, r.text);
  await fsckClean(full);
});

test('an approval by a writer (pull review) satisfies required_approvals; a stale one after a push does not with dismiss_stale_approvals', async () => {
  const { full } = await diverged(env.alice);
  await env.as(env.alice, 'PUT', `/repos/${full}/collaborators/${env.bob.name}`, { permission: 'write' });
  await env.as(env.alice, 'POST', `/repos/${full}/branch_protections`, {
    rule_name: 'main',
    required_approvals: 1,
    dismiss_stale_approvals: true,
  });
  const pr = await openPull(env.alice, full, 'topic');
  let r = await env.as(env.bob, 'POST', `/repos/${full}/pulls/${pr.number}/reviews`, { event: 'APPROVED', body: 'fine' });
  assert.is(r.status, 200, r.text);
  await commit(env.alice, full, 'topic', { 'late.txt': 'late\n' });
  r = await merge(env.alice, full, pr.number, { Do: 'merge' });
  assert.is(r.status, 405);
  assert.is(r.json.message, 'not allowed to merge [reason: Does not have enough approvals]');
  r = await env.as(env.bob, 'POST', `/repos/${full}/pulls/${pr.number}/reviews`, { event: 'APPROVED', body: 'still fine' });
  assert.is(r.status, 200, r.text);
  r = await merge(env.alice, full, pr.number, { Do: 'merge' });
  assert.is(r.status, 200, r.text);
});

test('merge_when_checks_succeed schedules an auto-merge (201, then 409); DELETE merge cancels it (204, then 404); only the scheduler or an admin may', async () => {
  const { full } = await diverged(env.alice);
  await env.as(env.alice, 'PUT', `/repos/${full}/collaborators/${env.bob.name}`, { permission: 'write' });
  await env.as(env.alice, 'PUT', `/repos/${full}/collaborators/${env.carol.name}`, { permission: 'write' });
  const pr = await openPull(env.bob, full, 'topic');
  const main = await rev(full, 'refs/heads/main');
  let r = await merge(env.bob, full, pr.number, { Do: 'merge', merge_when_checks_succeed: true });
  assert.is(r.status, 201, r.text);
  assert.is(await rev(full, 'refs/heads/main'), main);
  r = await merge(env.bob, full, pr.number, { Do: 'merge', merge_when_checks_succeed: true });
  assert.is(r.status, 409);
  r = await env.as(env.carol, 'DELETE', `/repos/${full}/pulls/${pr.number}/merge`);
  assert.is(r.status, 403);
  r = await env.as(env.bob, 'DELETE', `/repos/${full}/pulls/${pr.number}/merge`);
  assert.is(r.status, 204);
  r = await env.as(env.bob, 'DELETE', `/repos/${full}/pulls/${pr.number}/merge`);
  assert.is(r.status, 404);
  assert.is(await em().count(Comment, { type: CommentType.prScheduledToAutoMerge }), 1);
  assert.is(await em().count(Comment, { type: CommentType.prUnScheduledToAutoMerge }), 1);
  // With the checks already green it merges at once (200).
  await env.as(env.alice, 'POST', `/repos/${full}/statuses/${pr.head.sha}`, { state: 'success', context: 'ci' });
  r = await merge(env.bob, full, pr.number, { Do: 'merge', merge_when_checks_succeed: true });
  assert.is(r.status, 200, r.text);
  assert.is(((await env.as(env.bob, 'GET', `/repos/${full}/pulls/${pr.number}`)).json as PR).merged, true);
});

test('a scheduled merge runs as its scheduler when the required checks succeed, with the chosen style and branch deletion', async () => {
  const { full, m1 } = await diverged(env.alice);
  await env.as(env.alice, 'POST', `/repos/${full}/branch_protections`, {
    rule_name: 'main',
    enable_status_check: true,
    status_check_contexts: ['ci/*'],
  });
  const pr = await openPull(env.alice, full, 'topic');
  let r = await merge(env.alice, full, pr.number, {
    Do: 'squash',
    merge_when_checks_succeed: true,
    MergeTitleField: 'auto',
    delete_branch_after_merge: true,
  });
  assert.is(r.status, 201, r.text);
  // A pending check, then a check outside the required contexts: nothing happens.
  await env.as(env.carol, 'POST', `/repos/${full}/statuses/${pr.head.sha}`, { state: 'pending', context: 'ci/build' });
  await env.as(env.alice, 'POST', `/repos/${full}/statuses/${pr.head.sha}`, { state: 'success', context: 'lint' });
  assert.is(await rev(full, 'refs/heads/main'), m1);
  r = await env.as(env.alice, 'POST', `/repos/${full}/statuses/${pr.head.sha}`, { state: 'success', context: 'ci/build' });
  assert.is(r.status, 201, r.text);
  const tip = (await rev(full, 'refs/heads/main'))!;
  assert.equal(await parents(full, tip), [m1]);
  assert.is(await gitIn(full, 'log', '-1', '--format=%s', tip), 'auto');
  assert.is(await rev(full, 'refs/heads/topic'), null, 'deleted as asked');
  const p = (await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}`)).json as PR;
  assert.is(p.merged, true);
  assert.is(p.merged_by?.login, env.alice.name);
  assert.is((await env.as(env.alice, 'DELETE', `/repos/${full}/pulls/${pr.number}/merge`)).status, 404, 'the schedule is gone');
  await fsckClean(full);
});

test('delete_branch_after_merge deletes the head branch; the default branch is refused with 403 after the merge', async () => {
  const { full } = await diverged(env.alice);
  const pr = await openPull(env.alice, full, 'topic');
  let r = await merge(env.alice, full, pr.number, { Do: 'merge', delete_branch_after_merge: true });
  assert.is(r.status, 200, r.text);
  assert.is(await rev(full, 'refs/heads/topic'), null);
  const p = (await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}`)).json as PR;
  assert.is(p.head.ref, `refs/pull/${pr.number}/head`, 'the head ref of a deleted branch');
  assert.ok(p.head.sha);
  // A pull from main of a fork into its parent: main is the fork's default branch.
  const fork = await env.as(env.bob, 'POST', `/repos/${full}/forks`, {});
  assert.is(fork.status, 202, fork.text);
  const forkName = (fork.json as { full_name: string }).full_name;
  await commit(env.bob, forkName, 'main', { 'from-fork.txt': 'x' });
  const pr2 = await openPull(env.bob, full, `${env.bob.name}:main`);
  r = await merge(env.alice, full, pr2.number, { Do: 'merge', delete_branch_after_merge: true });
  assert.is(r.status, 403);
  assert.is(r.json.message, 'the head branch is the default branch');
  assert.is(((await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr2.number}`)).json as PR).merged, true, 'merged anyway');
  await fsckClean(full);
});

// -------------------------------------------------------------------------------------------------
// Forks

test('a pull from a fork: the head commit is fetched into the base repository; merging brings the fork commits; a fork pulls from its parent too', async () => {
  const repo = await repoWithBase(env.alice);
  const full = repo.full_name;
  const fork = await env.as(env.bob, 'POST', `/repos/${full}/forks`, {});
  const forkName = (fork.json as { full_name: string; id: number }).full_name;
  const head = await commit(env.bob, forkName, 'main', { 'fork.txt': 'from bob\n' }, 'feature');
  const pr = await openPull(env.bob, full, `${env.bob.name}:feature`);
  assert.is(pr.head.repo?.full_name, forkName);
  assert.is(pr.head.sha, head);
  assert.is(pr.head.label, 'feature');
  assert.is(pr.base.repo?.full_name, full);
  assert.is(await rev(full, `refs/pull/${pr.number}/head`), head);
  assert.is(await gitIn(full, 'cat-file', '-t', head), 'commit');
  // The fork's branch moves: the pull follows.
  const head2 = await commit(env.bob, forkName, 'feature', { 'fork2.txt': 'more\n' });
  let p = (await env.as(env.bob, 'GET', `/repos/${full}/pulls/${pr.number}`)).json as PR;
  assert.is(p.head.sha, head2);
  assert.is(await rev(full, `refs/pull/${pr.number}/head`), head2);
  assert.is(p.changed_files, 2);
  const r = await merge(env.alice, full, pr.number, { Do: 'merge' });
  assert.is(r.status, 200, r.text);
  assert.is(await fileAt(full, 'main', 'fork2.txt'), 'more');
  await fsckClean(full);
  await fsckClean(forkName);
  // The other way: alice's main into bob's fork (the fork's parent is the head repository).
  await commit(env.alice, full, 'main', { 'upstream.txt': 'new\n' });
  const back = await openPull(env.bob, forkName, `${env.alice.name}:main`);
  assert.is(back.head.repo?.full_name, full);
  assert.is(back.base.repo?.full_name, forkName);
  p = (await env.as(env.bob, 'GET', `/repos/${forkName}/pulls/${back.number}`)).json as PR;
  assert.ok(p.mergeable);
  const r2 = await merge(env.bob, forkName, back.number, { Do: 'fast-forward-only' });
  assert.is(r2.status, 200, r2.text);
  assert.is(await rev(forkName, 'refs/heads/main'), await rev(full, 'refs/heads/main'));
  await fsckClean(forkName);
});

test('a head repository the caller cannot read is 404; a private fork of another user is not a valid head', async () => {
  const repo = await repoWithBase(env.alice, { private: true });
  await env.as(env.alice, 'PUT', `/repos/${repo.full_name}/collaborators/${env.bob.name}`, { permission: 'write' });
  const fork = await env.as(env.bob, 'POST', `/repos/${repo.full_name}/forks`, {});
  const forkName = (fork.json as { full_name: string }).full_name;
  await commit(env.bob, forkName, 'main', { 'secret.txt': 's' }, 'hidden');
  await env.as(env.alice, 'PUT', `/repos/${repo.full_name}/collaborators/${env.carol.name}`, { permission: 'write' });
  const r = await env.as(env.carol, 'POST', `/repos/${repo.full_name}/pulls`, { head: `${env.bob.name}:hidden`, base: 'main', title: 't' });
  assert.is(r.status, 404);
  const ok = await env.as(env.bob, 'POST', `/repos/${repo.full_name}/pulls`, { head: `${env.bob.name}:hidden`, base: 'main', title: 't' });
  assert.is(ok.status, 201, ok.text);
});

// -------------------------------------------------------------------------------------------------
// Editing

test('PATCH pulls: title, body, due date, state, base change with a change_target_branch event; 201 as Forgejo', async () => {
  const repo = await repoWithBase(env.alice);
  const full = repo.full_name;
  await commit(env.alice, full, 'main', { 'a.txt': 'a\n' }, 'dev');
  await commit(env.alice, full, 'main', { 'e.txt': 'e\n' }, 'edit');
  const pr = await openPull(env.alice, full, 'edit');
  const P = `/repos/${full}/pulls/${pr.number}`;
  let r = await env.as(env.alice, 'PATCH', P, { title: 'new title', body: 'new body', due_date: '2031-05-06T10:00:00+02:00' });
  assert.is(r.status, 201, r.text);
  valid('PullRequest', r.json);
  let p = r.json as PR;
  assert.is(p.title, 'new title');
  assert.is(p.body, 'new body');
  assert.is(p.due_date, '2031-05-06T21:59:59Z', 'the end of that day in the given offset');
  r = await env.as(env.alice, 'PATCH', P, { unset_due_date: true });
  assert.is((r.json as PR).due_date, null);
  r = await env.as(env.alice, 'PATCH', P, { base: 'dev' });
  assert.is(r.status, 201, r.text);
  p = r.json as PR;
  assert.is(p.base.ref, 'dev');
  assert.is(p.merge_base, await gitIn(full, 'merge-base', 'dev', 'edit'));
  assert.is(await em().count(Comment, { type: CommentType.changeTargetBranch, oldRef: 'main', newRef: 'dev' }), 1);
  r = await env.as(env.alice, 'PATCH', P, { base: 'nope' });
  assert.is(r.status, 404);
  r = await env.as(env.alice, 'PATCH', P, { base: 'edit' });
  assert.is(r.status, 422);
  r = await env.as(env.alice, 'PATCH', P, { state: 'closed' });
  assert.is((r.json as PR).state, 'closed');
  assert.is(((await env.as(env.alice, 'GET', `/repos/${full}`)).json as { open_pr_counter: number }).open_pr_counter, 0);
  // A second pull with the same targets is open now: reopening the first is a conflict.
  const twin = await openPull(env.alice, full, 'edit', 'dev');
  r = await env.as(env.alice, 'PATCH', P, { state: 'open' });
  assert.is(r.status, 409);
  assert.match(r.json.message, 'pull request already exists for these targets');
  await env.as(env.alice, 'PATCH', `/repos/${full}/pulls/${twin.number}`, { state: 'closed' });
  r = await env.as(env.alice, 'PATCH', P, { state: 'open' });
  assert.is((r.json as PR).state, 'open');
});

test('PATCH pulls: others need pull write (403); assignees/labels/milestone only by writers; reopening without the head branch is 409; merged state is 412', async () => {
  const repo = await repoWithBase(env.alice);
  const full = repo.full_name;
  await commit(env.alice, full, 'main', { 'b.txt': 'b\n' }, 'bobs');
  const pr = await openPull(env.bob, full, 'bobs');
  const P = `/repos/${full}/pulls/${pr.number}`;
  let r = await env.as(env.carol, 'PATCH', P, { title: 'carol was here' });
  assert.is(r.status, 403);
  const label = await env.as(env.alice, 'POST', `/repos/${full}/labels`, { name: 'l', color: '#123456' });
  r = await env.as(env.bob, 'PATCH', P, { title: 'by the poster', labels: [label.json.id], assignees: [env.alice.name] });
  assert.is(r.status, 201);
  assert.is((r.json as PR).title, 'by the poster');
  assert.equal((r.json as PR).labels, [], 'the poster is no writer');
  r = await env.as(env.bob, 'PATCH', P, { allow_maintainer_edit: true });
  assert.is((r.json as PR).allow_maintainer_edit, true);
  r = await env.as(env.alice, 'PATCH', P, { allow_maintainer_edit: false });
  assert.is(r.status, 403, 'only the poster');
  r = await env.as(env.alice, 'PATCH', P, { labels: [label.json.id], assignees: [env.alice.name] });
  assert.equal(
    (r.json as PR).labels.map((l) => l.id),
    [label.json.id],
  );
  assert.equal(
    (r.json as PR).assignees?.map((a) => a.login),
    [env.alice.name],
  );
  await env.as(env.alice, 'PATCH', P, { state: 'closed' });
  r = await env.as(env.alice, 'DELETE', `/repos/${full}/branches/bobs`);
  assert.is(r.status, 204, r.text);
  r = await env.as(env.alice, 'PATCH', P, { state: 'open' });
  assert.is(r.status, 409);
  const other = await repoWithBase(env.alice);
  await commit(env.alice, other.full_name, 'main', { 'm.txt': 'm\n' }, 'm');
  const merged = await openPull(env.alice, other.full_name, 'm');
  await merge(env.alice, other.full_name, merged.number, { Do: 'merge' });
  r = await env.as(env.alice, 'PATCH', `/repos/${other.full_name}/pulls/${merged.number}`, { state: 'open' });
  assert.is(r.status, 412);
});

// -------------------------------------------------------------------------------------------------
// Diff, patch, commits, files

test('GET pulls/{n}.diff and .patch are plain text from the merge base; commits and files lists page with headers', async () => {
  const { full, t1, t2 } = await diverged(env.alice);
  await commit(env.alice, full, 'topic', { 'README.md': null, 'moved.md': (await fileAt(full, 'main', 'README.md')) + '\n' });
  const pr = await openPull(env.alice, full, 'topic');
  const diff = await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}.diff`);
  assert.is(diff.status, 200);
  assert.match(diff.headers.get('content-type') ?? '', 'text/plain');
  assert.match(diff.text, 'diff --git a/topic2.txt b/topic2.txt');
  assert.not.match(diff.text, 'main.txt', 'changes of the base are not part of the pull');
  const patch = await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}.patch`);
  assert.is(patch.status, 200);
  assert.is((patch.text.match(/^From [0-9a-f]{40} /gm) ?? []).length, 3);
  assert.match(patch.text, `From ${t1} `);
  assert.is((await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}.txt`)).status, 404);

  let r = await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}/commits?limit=2`);
  assert.is(r.status, 200);
  validList('Commit', r);
  const shas = (r.json as { sha: string }[]).map((x) => x.sha);
  assert.is(shas.length, 2);
  assert.is(shas[1], t2);
  assert.is(r.headers.get('x-total-count'), '3');
  assert.is(r.headers.get('x-pagecount'), '2');
  assert.is(r.headers.get('x-hasmore'), 'true');
  assert.is(r.headers.get('x-page'), '1');
  assert.is(r.headers.get('x-perpage'), '2');
  r = await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}/commits?page=2&limit=2&files=false`);
  assert.equal(
    (r.json as { sha: string }[]).map((x) => x.sha),
    [t1],
  );
  assert.is((r.json as { files: unknown }[])[0].files, null);

  r = await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}/files`);
  assert.is(r.status, 200);
  validList('ChangedFile', r);
  const files = r.json as {
    filename: string;
    status: string;
    previous_filename: string;
    additions: number;
    changes: number;
    raw_url: string;
    contents_url: string;
  }[];
  const byName = Object.fromEntries(files.map((f) => [f.filename, f]));
  assert.equal(Object.keys(byName).sort(), ['moved.md', 'topic1.txt', 'topic2.txt']);
  assert.is(byName['moved.md'].status, 'renamed');
  assert.is(byName['moved.md'].previous_filename, 'README.md');
  assert.is(byName['topic2.txt'].status, 'added');
  assert.is(byName['topic2.txt'].previous_filename, '');
  assert.is(byName['topic2.txt'].changes, 1);
  const head = (await rev(full, 'refs/heads/topic'))!;
  assert.is(byName['topic2.txt'].raw_url, `${env.srv.config.appUrl}${full}/raw/commit/${head}/topic2.txt`);
  assert.is(byName['topic2.txt'].contents_url, `${env.srv.config.appUrl}api/v1/repos/${full}/contents/topic2.txt?ref=${head}`);
  assert.is(r.headers.get('x-total-count'), String(files.length));
  r = await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}/files?limit=1&page=2`);
  assert.is((r.json as unknown[]).length, 1);
  assert.is(r.headers.get('x-hasmore'), 'true');
});

test('GET pulls/{base}/{head} finds the open pull (else the newest), also by owner:branch; 404 otherwise', async () => {
  const repo = await repoWithBase(env.alice);
  const full = repo.full_name;
  await commit(env.alice, full, 'main', { 'q.txt': 'q\n' }, 'q');
  const first = await openPull(env.alice, full, 'q');
  await env.as(env.alice, 'PATCH', `/repos/${full}/pulls/${first.number}`, { state: 'closed' });
  let r = await env.as(env.alice, 'GET', `/repos/${full}/pulls/main/q`);
  assert.is(r.status, 200);
  assert.is((r.json as PR).number, first.number);
  const second = await openPull(env.alice, full, 'q');
  r = await env.as(env.alice, 'GET', `/repos/${full}/pulls/main/${env.alice.name}:q`);
  valid('PullRequest', r.json);
  assert.is((r.json as PR).number, second.number);
  r = await env.as(env.alice, 'GET', `/repos/${full}/pulls/main/q?state=closed`);
  assert.is((r.json as PR).number, first.number);
  assert.is((await env.as(env.alice, 'GET', `/repos/${full}/pulls/main/other`)).status, 404);
  assert.is((await env.as(env.alice, 'GET', `/repos/${full}/pulls/main/nobody-here:q`)).status, 404);
});

test('GET commits/{sha}/pull answers the pull merged as that commit, or whose head it is', async () => {
  const repo = await repoWithBase(env.alice);
  const full = repo.full_name;
  const head = await commit(env.alice, full, 'main', { 'c.txt': 'c\n' }, 'c');
  const pr = await openPull(env.alice, full, 'c');
  let r = await env.as(env.alice, 'GET', `/repos/${full}/commits/${head}/pull`);
  assert.is(r.status, 200, r.text);
  valid('PullRequest', r.json);
  assert.is((r.json as PR).number, pr.number);
  await merge(env.alice, full, pr.number, { Do: 'merge' });
  const mergeCommit = (await rev(full, 'refs/heads/main'))!;
  r = await env.as(env.alice, 'GET', `/repos/${full}/commits/${mergeCommit}/pull`);
  assert.is((r.json as PR).number, pr.number);
  r = await env.as(env.alice, 'GET', `/repos/${full}/commits/${'0'.repeat(40)}/pull`);
  assert.is(r.status, 404);
});

// -------------------------------------------------------------------------------------------------
// Refs that move: pushes, branch deletion, update

test('a push to the head branch moves refs/pull/<n>/head, records a pull_push event and re-tests; a base push re-tests; deleting the head branch closes the pull', async () => {
  const repo = await repoWithBase(env.alice);
  const full = repo.full_name;
  const h1 = await commit(env.alice, full, 'main', { 's.txt': 'one\n' }, 'sync');
  const pr = await openPull(env.alice, full, 'sync');
  // Pushed over git HTTP.
  const wt = `${env.db.dataPath}/wt-${pr.id}`;
  await mustGit(
    null,
    'clone',
    '-q',
    '-b',
    'sync',
    `${env.srv.url.replace('://', `://${env.alice.name}:${env.alice.token}@`)}/${full}.git`,
    wt,
  );
  await mustGit(wt, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'pushed');
  await mustGit(wt, 'push', '-q', 'origin', 'sync');
  const h2 = (await rev(full, 'refs/heads/sync'))!;
  assert.is.not(h2, h1);
  assert.is(await rev(full, `refs/pull/${pr.number}/head`), h2);
  let p = (await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}`)).json as PR;
  assert.is(p.head.sha, h2);
  const push = await em().findOne(Comment, { type: CommentType.pullRequestPush }, { orderBy: { id: 'desc' } });
  assert.equal(JSON.parse(push!.content), { is_force_push: false, commit_ids: [h2] });
  assert.is(push!.posterId, env.alice.id);
  // The base moves with a conflicting change: the pull is re-tested.
  await commit(env.alice, full, 'main', { 's.txt': 'other\n' });
  p = (await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}`)).json as PR;
  assert.is(p.mergeable, false);
  assert.equal((await em().findOneOrFail(PullRequest, { id: pr.id })).conflictedFiles, ['s.txt']);
  // A force push is recorded as one.
  await mustGit(wt, 'reset', '-q', '--hard', 'HEAD~1');
  await mustGit(wt, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'again');
  await mustGit(wt, 'push', '-q', '-f', 'origin', 'sync');
  const forced = await em().findOne(Comment, { type: CommentType.pullRequestPush }, { orderBy: { id: 'desc' } });
  assert.is(JSON.parse(forced!.content).is_force_push, true);
  // Deleting the head branch closes the pull.
  await mustGit(wt, 'push', '-q', 'origin', ':sync');
  p = (await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}`)).json as PR;
  assert.is(p.state, 'closed');
  assert.is(p.head.ref, `refs/pull/${pr.number}/head`);
});

test('POST pulls/{n}/update merges the base into the head branch, or rebases it; conflicts are 409; readers 403', async () => {
  const { full, t2, m1 } = await diverged(env.alice);
  const pr = await openPull(env.alice, full, 'topic');
  let r = await env.as(env.carol, 'POST', `/repos/${full}/pulls/${pr.number}/update`);
  assert.is(r.status, 403);
  r = await env.as(env.alice, 'POST', `/repos/${full}/pulls/${pr.number}/update`);
  assert.is(r.status, 200, r.text);
  const updated = (await rev(full, 'refs/heads/topic'))!;
  assert.equal(await parents(full, updated), [t2, m1]);
  assert.is(await gitIn(full, 'log', '-1', '--format=%s', updated), "Merge branch 'main' into topic");
  assert.is(await rev(full, `refs/pull/${pr.number}/head`), updated);
  let p = (await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}`)).json as PR;
  assert.is(p.head.sha, updated);
  assert.is(p.merge_base, m1);
  // Nothing to do now.
  r = await env.as(env.alice, 'POST', `/repos/${full}/pulls/${pr.number}/update`);
  assert.is(r.status, 200);
  assert.is(await rev(full, 'refs/heads/topic'), updated);
  // Rebase style after main moves again.
  const m2 = await commit(env.alice, full, 'main', { 'main2.txt': 'm2\n' });
  r = await env.as(env.alice, 'POST', `/repos/${full}/pulls/${pr.number}/update?style=rebase`);
  assert.is(r.status, 200, r.text);
  const rebased = (await rev(full, 'refs/heads/topic'))!;
  assert.is(await gitIn(full, 'merge-base', rebased, 'main'), m2);
  assert.is(await gitIn(full, 'rev-list', '--count', '--merges', `${m2}..${rebased}`), '0');
  // A conflicting base: 409 and the head stays.
  await commit(env.alice, full, 'main', { 'topic2.txt': 'conflict\n' });
  r = await env.as(env.alice, 'POST', `/repos/${full}/pulls/${pr.number}/update`);
  assert.is(r.status, 409);
  assert.is(r.json.message, 'merge failed because of conflict');
  assert.is(await rev(full, 'refs/heads/topic'), rebased);
  p = (await env.as(env.alice, 'GET', `/repos/${full}/pulls/${pr.number}`)).json as PR;
  assert.is(p.head.sha, rebased);
  await fsckClean(full);
});

test('update of a pull from a fork writes the merge commit into the fork', async () => {
  const repo = await repoWithBase(env.alice);
  const full = repo.full_name;
  const fork = await env.as(env.bob, 'POST', `/repos/${full}/forks`, {});
  const forkName = (fork.json as { full_name: string }).full_name;
  const h = await commit(env.bob, forkName, 'main', { 'f.txt': 'f\n' }, 'feat');
  const m = await commit(env.alice, full, 'main', { 'up.txt': 'up\n' });
  const pr = await openPull(env.bob, full, `${env.bob.name}:feat`);
  const r = await env.as(env.bob, 'POST', `/repos/${full}/pulls/${pr.number}/update`);
  assert.is(r.status, 200, r.text);
  const tip = (await rev(forkName, 'refs/heads/feat'))!;
  assert.equal(await parents(forkName, tip), [h, m]);
  assert.is(await rev(full, `refs/pull/${pr.number}/head`), tip);
  assert.is(await rev(full, `refs/pull/${pr.number}/update`), null, 'the transfer ref is gone');
  await fsckClean(forkName);
  await fsckClean(full);
});

// -------------------------------------------------------------------------------------------------
// Gates

test('pull routes of an empty repository or a mirror answer 404 (forgejo-facts 12.3)', async () => {
  const empty = await newRepo(env, env.alice);
  assert.is((await env.as(env.alice, 'GET', `/repos/${empty.full_name}/pulls`)).status, 404);
  assert.is((await env.as(env.alice, 'POST', `/repos/${empty.full_name}/pulls`, { head: 'a', base: 'b', title: 't' })).status, 404);
  const src = await repoWithBase(env.alice);
  const m = await env.as(env.alice, 'POST', '/repos/migrate', {
    clone_addr: `file://${dirOf(src.full_name)}`,
    repo_name: `${src.name}-mirror`,
    mirror: true,
  });
  assert.is(m.status, 201, m.text);
  assert.is((await env.as(env.alice, 'GET', `/repos/${env.alice.name}/${src.name}-mirror/pulls`)).status, 404);
});

test('LOCAL_ISSUE_GATE: with the issues unit off, GET issues/{n} still answers for a pull and 404s for an issue', async () => {
  const repo = await repoWithBase(env.alice);
  const full = repo.full_name;
  const issue = await env.as(env.alice, 'POST', `/repos/${full}/issues`, { title: 'plain issue' });
  assert.is(issue.status, 201, issue.text);
  await commit(env.alice, full, 'main', { 'g.txt': 'g\n' }, 'g');
  const pr = await openPull(env.alice, full, 'g');
  assert.is(pr.number, 2);
  const off = await env.as(env.alice, 'PATCH', `/repos/${full}`, { has_issues: false });
  assert.is(off.status, 200, off.text);
  const r = await env.as(env.alice, 'GET', `/repos/${full}/issues/${pr.number}`);
  assert.is(r.status, 200, r.text);
  valid('Issue', r.json);
  assert.is((r.json as { pull_request: { merged: boolean } | null }).pull_request?.merged, false);
  assert.is((await env.as(env.alice, 'GET', `/repos/${full}/issues/1`)).status, 404);
  assert.is((await env.as(env.alice, 'GET', `/repos/${full}/issues/99`)).status, 404);
});

test.run();
