// POST /repos/migrate from another instance of this API (Forgejo services/migrations gitea_downloader.go,
// gitea_uploader.go): milestones, labels, releases, issues with comments and reactions, and pull
// requests are read from a second cairn (its own database: one embedded database serves one request at
// a time) and read back from the new repository through the API and the database. A small proxy in
// front of that source answers a few listings the way Forgejo does (fork pulls, release assets, a
// comment listing that ignores paging) and breaks the import on purpose.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Attachment } from '../../model/attachment.ts';
import { Comment, Issue, Reaction } from '../../model/issue.ts';
import { Label } from '../../model/label.ts';
import { Milestone } from '../../model/milestone.ts';
import { PullRequest } from '../../model/pull.ts';
import { Release } from '../../model/release.ts';
import { Repository } from '../../model/repo.ts';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call, type Res } from '../helpers/client.ts';
import { makeUser, type TestUser } from '../helpers/fixtures.ts';
import { mustGit } from '../helpers/git-cli.ts';
import { runGit } from '../../git/exec.ts';
import { checked, exists, gitDir, setup, uniq, valid, validList, type Env } from './repo-setup.ts';

let env: Env;
let sourceDb: TestDb;
let source: TestServer;
/** The source's people: `twinA`/`twinC` carry the logins of the target's alice and carol. */
let owner: TestUser;
let twinA: TestUser;
let twinC: TestUser;
let dave: TestUser;
let src: { full: string; dir: string; feature: string; done: string; main: string };
const ASSET = Buffer.from('release notes\n\u0000binary');

const here = () => env.db.db.orm.em.fork();
const there = () => sourceDb.db.orm.em.fork();
const S = async (u: TestUser, method: string, p: string, body?: unknown) =>
  checked(await call(source.api, method, p, { token: u.token, body }));
const T = (u: TestUser, method: string, p: string, body?: unknown) => env.as(u, method, p, body);
const b64 = (s: string) => Buffer.from(s).toString('base64');

function ok(r: Res, status: number): Res {
  assert.is(r.status, status, r.text);
  return r;
}

/** Commits one file to a new branch made from main through the source's contents API. */
async function branchWithCommit(full: string, branch: string, file: string): Promise<string> {
  const r = ok(
    await S(owner, 'POST', `/repos/${full}/contents`, {
      branch: 'main',
      new_branch: branch,
      message: `add ${file}`,
      files: [{ operation: 'create', path: file, content: b64(`${file}\n`) }],
    }),
    201,
  );
  return r.json.commit.sha;
}

/** A wiki repository next to a source repository, with one page on main. */
async function wikiWithPage(wiki: string): Promise<void> {
  await mustGit(null, 'init', '--bare', '--quiet', '--initial-branch=main', wiki);
  const g = (...args: string[]) => mustGit(null, `--git-dir=${wiki}`, ...args);
  const blob = (await runGit(wiki, ['hash-object', '-w', '--stdin'], { input: '# Home\n' })).stdout.toString().trim();
  const tree = (await runGit(wiki, ['mktree'], { input: `100644 blob ${blob}\tHome.md\n` })).stdout.toString().trim();
  await g('update-ref', 'refs/heads/main', await g('commit-tree', tree, '-m', 'wiki home'));
}

test.before(async () => {
  env = await setup({ MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
  sourceDb = await openTestDb();
  source = await startServer(sourceDb);
  owner = await makeUser(sourceDb, source.api);
  twinA = await makeUser(sourceDb, source.api, { name: env.alice.name });
  twinC = await makeUser(sourceDb, source.api, { name: env.carol.name });
  dave = await makeUser(sourceDb, source.api);

  const repo = ok(await S(owner, 'POST', '/user/repos', { name: uniq('src'), auto_init: true, private: true }), 201).json;
  const full = repo.full_name as string;
  for (const u of [twinA, twinC, dave]) ok(await S(owner, 'PUT', `/repos/${full}/collaborators/${u.name}`, { permission: 'write' }), 204);
  const bug = ok(await S(owner, 'POST', `/repos/${full}/labels`, { name: 'bug', color: '#ee0701', description: 'broken' }), 201).json.id;
  const kind = ok(await S(owner, 'POST', `/repos/${full}/labels`, { name: 'kind/feature', color: '00aabb', exclusive: true }), 201).json.id;
  const v1 = ok(
    await S(owner, 'POST', `/repos/${full}/milestones`, { title: 'v1', description: 'first', due_on: '2031-05-01T00:00:00Z' }),
    201,
  ).json.id;
  const v0 = ok(await S(owner, 'POST', `/repos/${full}/milestones`, { title: 'v0' }), 201).json.id;
  ok(await S(owner, 'PATCH', `/repos/${full}/milestones/${v0}`, { state: 'closed' }), 200);
  const feature = await branchWithCommit(full, 'feature', 'feature.txt');
  const done = await branchWithCommit(full, 'done', 'done.txt');

  // #1 open, labelled, in a milestone, assigned to both twins; #2 by dave, commented, reacted to, closed.
  ok(
    await S(owner, 'POST', `/repos/${full}/issues`, {
      title: 'First issue',
      body: 'the body',
      labels: [bug],
      milestone: v1,
      assignees: [twinA.name, twinC.name],
    }),
    201,
  );
  ok(await S(dave, 'POST', `/repos/${full}/issues`, { title: 'Second issue', body: 'by dave', milestone: v0 }), 201);
  const c1 = ok(await S(dave, 'POST', `/repos/${full}/issues/2/comments`, { body: 'first comment' }), 201).json.id;
  ok(await S(owner, 'POST', `/repos/${full}/issues/2/comments`, { body: 'second comment' }), 201);
  ok(await S(owner, 'POST', `/repos/${full}/issues/2/reactions`, { content: '+1' }), 201);
  ok(await S(dave, 'POST', `/repos/${full}/issues/comments/${c1}/reactions`, { content: 'heart' }), 201);
  ok(await S(owner, 'PATCH', `/repos/${full}/issues/2`, { state: 'closed' }), 201);
  ok(await S(twinA, 'POST', `/repos/${full}/issues/1/comments`, { body: 'on it' }), 201);
  // #3 open pull with a label and a comment; #4 merged.
  ok(
    await S(owner, 'POST', `/repos/${full}/pulls`, { head: 'feature', base: 'main', title: 'Add feature', body: 'please', labels: [kind] }),
    201,
  );
  ok(await S(dave, 'POST', `/repos/${full}/issues/3/comments`, { body: 'looks good' }), 201);
  ok(await S(owner, 'POST', `/repos/${full}/pulls`, { head: 'done', base: 'main', title: 'Done work' }), 201);
  ok(await S(owner, 'POST', `/repos/${full}/pulls/4/merge`, { Do: 'merge' }), 200);
  const dir = `${source.config.repoRoot}/${full.toLowerCase()}.git`;
  await wikiWithPage(dir.replace(/\.git$/, '.wiki.git'));
  const em = there();
  const issue1 = await em.findOneOrFail(Issue, { repoId: repo.id, index: 1 });
  issue1.isLocked = true;
  await em.flush();

  const v10 = ok(
    await S(owner, 'POST', `/repos/${full}/releases`, { tag_name: 'v1.0', target_commitish: 'main', name: 'Version 1', body: 'notes' }),
    201,
  ).json.id;
  const form = new FormData();
  form.append('attachment', new Blob([ASSET]), 'notes.txt');
  const up = await fetch(`${source.api}/repos/${full}/releases/${v10}/assets?name=notes.txt`, {
    method: 'POST',
    headers: { Authorization: `token ${owner.token}` },
    body: form,
  });
  assert.is(up.status, 201, await up.text());
  ok(
    await S(owner, 'POST', `/repos/${full}/releases`, {
      tag_name: 'v2.0-rc',
      target_commitish: 'feature',
      name: 'Candidate',
      prerelease: true,
    }),
    201,
  );
  ok(await S(owner, 'POST', `/repos/${full}/releases`, { tag_name: 'v3.0', target_commitish: 'main', name: 'Next', draft: true }), 201);
  src = { full, dir, feature, done, main: await mustGit(null, `--git-dir=${dir}`, 'rev-parse', 'refs/heads/main') };
});

test.after(async () => {
  await source.close();
  await sourceDb.close();
  await env.close();
});

const ALL = { issues: true, labels: true, milestones: true, releases: true, pull_requests: true };
const cloneUrl = (base = source.url) => `${base}/${src.full}.git`;
const sourceList = async (p: string) => ok(await S(owner, 'GET', `/repos/${src.full}${p}`), 200).json;
const rev = (dir: string, ref: string) => mustGit(null, `--git-dir=${dir}`, 'rev-parse', '--verify', '--quiet', ref).catch(() => null);
const byNumber = (xs: Res['json']): Res['json'][] => [...xs].sort((a: { number: number }, b: { number: number }) => a.number - b.number);

/** Rows a failed migration must not leave behind, and the attachment files on disk. */
async function footprint() {
  const em = here();
  const root = `${env.srv.config.dataPath}/attachments`;
  const files = fs.existsSync(root) ? fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).length : 0;
  return {
    repos: await em.count(Repository, {}),
    issues: await em.count(Issue, {}),
    comments: await em.count(Comment, {}),
    labels: await em.count(Label, {}),
    milestones: await em.count(Milestone, {}),
    releases: await em.count(Release, {}),
    pulls: await em.count(PullRequest, {}),
    reactions: await em.count(Reaction, {}),
    attachments: await em.count(Attachment, {}),
    files,
  };
}

test('migrate from another instance: numbers, authors, states, labels, milestones, comments, reactions, pulls and releases come over', async () => {
  const { alice } = env;
  const name = uniq('mig');
  const r = ok(
    await T(alice, 'POST', '/repos/migrate', {
      clone_addr: cloneUrl(),
      repo_name: name,
      service: 'gitea',
      auth_token: owner.token,
      wiki: true,
      ...ALL,
    }),
    201,
  );
  valid('Repository', r.json);
  assert.ok(exists(gitDir(env, alice.name, `${name}.wiki`)), 'the wiki came over');
  assert.is(r.json.open_issues_count, 1);
  assert.is(r.json.open_pr_counter, 1);
  assert.is(r.json.release_counter, 2, 'the draft is not counted');
  const R = `/repos/${alice.name}/${name}`;
  const dir = gitDir(env, alice.name, name);

  // Labels and milestones.
  const labels = ok(await T(alice, 'GET', `${R}/labels`), 200);
  validList('Label', labels);
  assert.equal(labels.json.map((l: { name: string; color: string; exclusive: boolean }) => [l.name, l.color, l.exclusive]).sort(), [
    ['bug', 'ee0701', false],
    ['kind/feature', '00aabb', true],
  ]);
  const milestones = ok(await T(alice, 'GET', `${R}/milestones?state=all`), 200);
  validList('Milestone', milestones);
  const ms = Object.fromEntries(milestones.json.map((m: { title: string }) => [m.title, m]));
  assert.equal(Object.keys(ms).sort(), ['v0', 'v1']);
  assert.is(ms.v1.state, 'open');
  assert.is(ms.v1.description, 'first');
  assert.is(ms.v1.due_on, '2031-05-01T00:00:00Z');
  assert.is(ms.v1.open_issues, 1);
  assert.is(ms.v0.state, 'closed');
  assert.is(ms.v0.closed_issues, 1);

  // Issues: the source's numbers, texts, states and times; authors as original authors on Ghost.
  const want = byNumber(await sourceList('/issues?state=all&type=issues'));
  const got = ok(await T(alice, 'GET', `${R}/issues?state=all&type=issues`), 200);
  validList('Issue', got);
  const issues = byNumber(got.json);
  assert.equal(
    issues.map((i) => i.number),
    [1, 2],
  );
  for (const [i, w] of issues.map((x: unknown, k: number) => [x, want[k]])) {
    for (const f of ['title', 'body', 'state', 'created_at', 'updated_at', 'closed_at', 'comments', 'is_locked'])
      assert.equal(i[f], w[f], `#${i.number} ${f}`);
    assert.equal(
      i.labels.map((l: { name: string }) => l.name),
      w.labels.map((l: { name: string }) => l.name),
    );
    assert.is(i.milestone?.title, w.milestone?.title);
    assert.is(i.user.id, -1);
    assert.is(i.user.login, 'Ghost');
    assert.is(i.original_author, w.user.login);
    assert.is(i.original_author_id, w.user.id);
  }
  assert.is(issues[0].is_locked, true);
  assert.equal(
    issues[0].assignees.map((a: { login: string }) => a.login),
    [alice.name],
    'carol has no access to the new repository',
  );
  assert.equal(want[0].assignees.map((a: { login: string }) => a.login).sort(), [twinA.name, twinC.name].sort());

  const comments = ok(await T(alice, 'GET', `${R}/issues/2/comments`), 200);
  validList('Comment', comments);
  const srcComments = await sourceList('/issues/2/comments');
  assert.equal(
    comments.json.map((c: { body: string; original_author: string; created_at: string }) => [c.body, c.original_author, c.created_at]),
    srcComments.map((c: { body: string; user: { login: string }; created_at: string }) => [c.body, c.user.login, c.created_at]),
  );
  assert.equal(
    comments.json.map((c: { user: { id: number } }) => c.user.id),
    [-1, -1],
  );
  const em = here();
  const issue2 = await em.findOneOrFail(Issue, { repoId: r.json.id, index: 2 });
  const reactions = await em.find(Reaction, { issueId: issue2.id }, { orderBy: { id: 'asc' } });
  assert.equal(
    reactions.map((x) => [x.type, x.commentId === 0, x.userId, x.originalAuthor, x.originalAuthorId]),
    [
      ['+1', true, -1, owner.name, owner.id],
      ['heart', false, -1, dave.name, dave.id],
    ],
  );
  const listed = ok(await T(alice, 'GET', `${R}/issues/2/reactions`), 200);
  validList('Reaction', listed);
  assert.equal(
    listed.json.map((x: { content: string }) => x.content),
    ['+1'],
  );

  // Pull requests: heads, bases, merged state and the pull refs.
  const pulls = ok(await T(alice, 'GET', `${R}/pulls?state=all`), 200);
  validList('PullRequest', pulls);
  const [p3, p4] = byNumber(pulls.json);
  const srcP4 = byNumber(await sourceList('/pulls?state=all'))[1];
  assert.is(p3.number, 3);
  assert.is(p3.title, 'Add feature');
  assert.is(p3.body, 'please');
  assert.is(p3.state, 'open');
  assert.is(p3.merged, false);
  assert.is(p3.mergeable, true, 'an open pull is tested for mergeability');
  assert.is(p3.head.ref, 'feature');
  assert.is(p3.head.sha, src.feature);
  assert.is(p3.head.repo_id, r.json.id);
  assert.is(p3.base.ref, 'main');
  assert.equal(
    p3.labels.map((l: { name: string }) => l.name),
    ['kind/feature'],
  );
  assert.is(p3.comments, 1);
  assert.is(p4.number, 4);
  assert.is(p4.state, 'closed');
  assert.is(p4.merged, true);
  assert.is(p4.merge_commit_sha, srcP4.merge_commit_sha);
  assert.is(p4.merge_commit_sha, src.main, 'the merge commit is main');
  assert.is(p4.merged_at, srcP4.merged_at);
  assert.is(p4.closed_at, srcP4.closed_at);
  assert.is(p4.merged_by.login, alice.name, 'Forgejo records the migrating user as merger');
  assert.is(await rev(dir, 'refs/pull/3/head'), await rev(src.dir, 'refs/pull/3/head'));
  assert.is(await rev(dir, 'refs/pull/4/head'), src.done);
  const rows = await em.find(PullRequest, { baseRepoId: r.json.id }, { orderBy: { index: 'asc' } });
  assert.equal(
    rows.map((p) => [p.index, p.headRepoId, p.headBranch, p.baseBranch, p.headCommitId, p.hasMerged, p.mergedCommitId]),
    [
      [3, r.json.id, 'feature', 'main', src.feature, false, ''],
      [4, r.json.id, 'done', 'main', src.done, true, src.main],
    ],
  );
  const srcPulls = byNumber(await sourceList('/pulls?state=all'));
  assert.equal(
    rows.map((x) => x.mergeBase),
    srcPulls.map((x) => x.merge_base),
  );
  assert.ok(/^[0-9a-f]{40}$/.test(rows[0].mergeBase));

  // Releases: rows for the tags the clone brought, the draft too (the token could see it).
  const releases = ok(await T(alice, 'GET', `${R}/releases`), 200);
  validList('Release', releases);
  const rel = Object.fromEntries(releases.json.map((x: { tag_name: string }) => [x.tag_name, x]));
  assert.equal(Object.keys(rel).sort(), ['v1.0', 'v2.0-rc', 'v3.0']);
  assert.equal([rel['v1.0'].name, rel['v1.0'].body, rel['v1.0'].prerelease, rel['v1.0'].draft], ['Version 1', 'notes', false, false]);
  assert.equal([rel['v2.0-rc'].name, rel['v2.0-rc'].prerelease, rel['v2.0-rc'].target_commitish], ['Candidate', true, 'feature']);
  assert.is(rel['v3.0'].draft, true);
  assert.is(rel['v1.0'].author.login, 'Ghost');
  const relRows = await em.find(Release, { repoId: r.json.id }, { orderBy: { tagName: 'asc' } });
  assert.equal(
    relRows.map((x) => [x.tagName, x.sha1, x.originalAuthor]),
    [
      ['v1.0', src.main, owner.name],
      ['v2.0-rc', src.feature, owner.name],
      ['v3.0', '', owner.name],
    ],
  );
  assert.is(await rev(dir, 'refs/tags/v1.0'), await rev(src.dir, 'refs/tags/v1.0'));
  assert.equal(
    rel['v1.0'].assets.map((a: { name: string; size: number }) => [a.name, a.size]),
    [['notes.txt', ASSET.length]],
  );
  const [stored] = await em.find(Attachment, { releaseId: relRows[0].id });
  const bytes = await fetch(`${env.srv.url}/attachments/${stored.uuid}`, { headers: { Authorization: `token ${alice.token}` } });
  assert.is(bytes.status, 200);
  assert.ok(Buffer.from(await bytes.arrayBuffer()).equals(ASSET), 'the asset bytes came over');

  // The numbering goes on after the source's numbers.
  const next = ok(await T(alice, 'POST', `${R}/issues`, { title: 'after the migration' }), 201);
  assert.is(next.json.number, 5);
});

test('a migration from this very instance (its ROOT_URL) keeps authors whose id still has the same name', async () => {
  const { alice } = env;
  // A server whose ROOT_URL is the source's address: to it, the source is itself (Forgejo's sameApp).
  const same = await startServer(env.db, { MIGRATIONS__ALLOW_LOCALNETWORKS: 'true', SERVER__ROOT_URL: `${source.url}/` });
  try {
    assert.is(twinA.id, alice.id, 'fixture: the twin of alice has her id on the source');
    const name = uniq('same');
    const r = ok(
      await call(same.api, 'POST', '/repos/migrate', {
        token: alice.token,
        body: { clone_addr: cloneUrl(), repo_name: name, service: 'gitea', auth_token: owner.token, issues: true },
      }),
      201,
    );
    const em = here();
    const issues = await em.find(Issue, { repoId: r.json.id }, { orderBy: { index: 'asc' } });
    const comments = await em.find(
      Comment,
      { issueId: { $in: issues.map((i) => i.id) }, type: 0 },
      { orderBy: { createdAt: 'asc', id: 'asc' } },
    );
    // Others keep their name unless a local user has their id under the same name.
    const expect = async (u: TestUser) => {
      const mine = await em.getConnection().execute<{ name: string }[]>('select name from "user" where id = ?', [u.id]);
      return mine[0]?.name === u.name ? [u.id, ''] : [-1, u.name];
    };
    assert.equal(
      issues.map((i) => [i.index, i.posterId, i.originalAuthor]),
      [
        [1, ...(await expect(owner))],
        [2, ...(await expect(dave))],
      ],
    );
    assert.equal(
      comments.map((c) => [c.content, c.posterId, c.originalAuthor]),
      [
        ['first comment', ...(await expect(dave))],
        ['second comment', ...(await expect(owner))],
        ['on it', alice.id, ''],
      ],
    );
  } finally {
    await same.close();
  }
});

// -------------------------------------------------------------------------------------------------
// A source that answers some listings its own way

type Override = (
  req: http.IncomingMessage,
  url: URL,
) => { status: number; body: unknown; headers?: Record<string, string> } | Buffer | null;

/** A proxy in front of the source: `override` may answer a request, everything else goes through. */
async function proxy(
  override: Override,
): Promise<{ url: string; seen: { path: string; query: string; auth: string }[]; close(): Promise<void> }> {
  const seen: { path: string; query: string; auth: string }[] = [];
  const target = new URL(source.url);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    seen.push({ path: url.pathname, query: url.search.slice(1), auth: String(req.headers.authorization ?? '') });
    const answer = override(req, url);
    if (Buffer.isBuffer(answer)) return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(answer);
    if (answer)
      return res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body));
    const up = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const repoApi = () => `/api/v1/repos/${src.full}`;

/** Forgejo-shaped pulls: an open one from a fork, a closed one whose fork is gone, a merged one. */
function forgejoPulls() {
  const user = { id: 77, login: 'zed' };
  const common = {
    user,
    body: '',
    labels: [],
    milestone: null,
    assignees: null,
    is_locked: false,
    created_at: '2029-01-01T00:00:00Z',
    updated_at: '2029-01-02T00:00:00Z',
  };
  return [
    {
      ...common,
      number: 3,
      title: 'From a fork',
      state: 'open',
      merged: false,
      head: { label: 'topic', ref: 'topic', sha: src.feature, repo: { name: 'fork', owner: { login: 'zed' } } },
      base: { ref: 'main', sha: src.main },
    },
    {
      ...common,
      number: 4,
      title: 'Fork gone',
      state: 'closed',
      closed_at: '2029-01-03T00:00:00Z',
      merged: false,
      head: { label: 'gone', ref: 'refs/pull/4/head', sha: src.done, repo: null },
      base: { ref: 'main' },
    },
    {
      ...common,
      number: 6,
      title: 'Merged here',
      state: 'closed',
      closed_at: '2029-01-04T00:00:00Z',
      merged: true,
      merged_at: '2029-01-04T00:00:00Z',
      merge_commit_sha: src.done,
      head: { label: 'done', ref: 'done', sha: src.done, repo: { name: src.full.split('/')[1], owner: { login: owner.name } } },
      base: { ref: 'main' },
    },
  ];
}

function paged(url: URL, items: unknown[]) {
  const limit = Number(url.searchParams.get('limit') ?? 50);
  const page = Number(url.searchParams.get('page') ?? 1);
  return { status: 200, body: items.slice((page - 1) * limit, page * limit) };
}

test('a Forgejo-shaped source: paging by its page size, fork pulls, release assets downloaded with the credentials, comments listed once', async () => {
  const { alice } = env;
  const asset = Buffer.from('asset bytes \u0000\u0001 here');
  const p = await proxy((req, url) => {
    if (url.pathname === '/api/v1/settings/api') return { status: 200, body: { max_response_items: 2, default_paging_num: 2 } };
    if (url.pathname === `${repoApi()}/pulls`) return paged(url, forgejoPulls());
    // Pull #6 exists only in these answers.
    if (url.pathname === `${repoApi()}/issues/6/comments`) return { status: 200, body: [] };
    if (url.pathname === `${repoApi()}/issues/1/comments`) {
      // Forgejo's comment listing has no paging: every page answers every comment.
      return {
        status: 200,
        body: [1, 2, 3, 4, 5].map((n) => ({
          id: 900 + n,
          body: `c${n}`,
          user: { id: 5, login: 'someone' },
          created_at: `2029-02-0${n}T00:00:00Z`,
        })),
      };
    }
    if (url.pathname === `${repoApi()}/releases`) {
      return paged(url, [
        {
          tag_name: 'v1.0',
          target_commitish: 'main',
          name: 'With assets',
          body: '',
          draft: false,
          prerelease: false,
          author: { id: 9, login: 'rel' },
          created_at: '2029-03-01T00:00:00Z',
          assets: [
            {
              id: 1,
              name: 'tool.bin',
              size: asset.length,
              download_count: 7,
              created_at: '2029-03-02T00:00:00Z',
              browser_download_url: `${p.url}/attachments/abc`,
              type: 'attachment',
            },
            {
              id: 2,
              name: 'elsewhere',
              size: 0,
              download_count: 0,
              browser_download_url: 'https://example.com/file.tgz',
              type: 'external',
            },
          ],
        },
      ]);
    }
    if (url.pathname === '/attachments/abc')
      return req.headers.authorization === `token ${owner.token}` ? asset : { status: 404, body: {} };
    return null;
  });
  try {
    const name = uniq('fj');
    // service git: the API is found at the clone URL's host.
    const r = ok(
      await T(alice, 'POST', '/repos/migrate', {
        clone_addr: cloneUrl(p.url),
        repo_name: name,
        service: 'git',
        auth_token: owner.token,
        ...ALL,
      }),
      201,
    );
    valid('Repository', r.json);
    const R = `/repos/${alice.name}/${name}`;
    const dir = gitDir(env, alice.name, name);
    const em = here();

    // Listings are read by the source's page size; three pulls without a total: a full page, then a short one.
    assert.equal(
      p.seen.filter((x) => x.path === `${repoApi()}/pulls`).map((x) => x.query),
      ['state=all&limit=2&page=1', 'state=all&limit=2&page=2'],
    );
    assert.ok(p.seen.filter((x) => x.path === `${repoApi()}/issues`).every((x) => x.query.includes('limit=2')));
    assert.ok(
      p.seen.filter((s) => s.path.startsWith('/api/v1/')).every((s) => s.auth === `token ${owner.token}`),
      'every API call carries the token',
    );

    const comments = ok(await T(alice, 'GET', `${R}/issues/1/comments`), 200);
    assert.equal(
      comments.json.map((c: { body: string }) => c.body),
      ['c1', 'c2', 'c3', 'c4', 'c5'],
      'a listing that ignores paging is read once',
    );
    assert.equal(
      comments.json.map((c: { original_author: string; original_author_id: number }) => [c.original_author, c.original_author_id])[0],
      ['someone', 5],
    );

    const rows = await em.find(PullRequest, { baseRepoId: r.json.id }, { orderBy: { index: 'asc' } });
    assert.equal(
      rows.map((x) => [x.index, x.headRepoId, x.headBranch, x.headCommitId, x.hasMerged, x.mergedCommitId]),
      [
        [3, r.json.id, 'zed/topic', src.feature, false, ''],
        [4, 0, 'gone', src.done, false, ''],
        [6, r.json.id, 'done', src.done, true, src.done],
      ],
    );
    assert.is(await rev(dir, 'refs/heads/zed/topic'), src.feature, 'an open fork pull gets its head as a branch');
    assert.is(await rev(dir, 'refs/pull/3/head'), src.feature);
    assert.is(await rev(dir, 'refs/pull/4/head'), src.done);
    assert.is(await rev(dir, 'refs/pull/6/head'), src.done, 'a pull ref the source lacks is set from the head commit');
    const pulls = ok(await T(alice, 'GET', `${R}/pulls?state=all`), 200);
    validList('PullRequest', pulls);
    assert.equal(
      byNumber(pulls.json).map((x) => [x.number, x.state, x.merged, x.head.ref, x.user.login]),
      [
        [3, 'open', false, 'zed/topic', 'Ghost'],
        [4, 'closed', false, 'refs/pull/4/head', 'Ghost'],
        [6, 'closed', true, 'done', 'Ghost'],
      ],
    );
    const issues = ok(await T(alice, 'GET', `${R}/issues?state=all`), 200).json;
    assert.equal(
      byNumber(issues).map((i: { number: number; original_author: string }) => [i.number, i.original_author]),
      [
        [1, owner.name],
        [2, dave.name],
        [3, 'zed'],
        [4, 'zed'],
        [6, 'zed'],
      ],
    );

    const rel = await em.findOneOrFail(Release, { repoId: r.json.id, tagName: 'v1.0' });
    const assets = await em.find(Attachment, { releaseId: rel.id }, { orderBy: { id: 'asc' } });
    assert.equal(
      assets.map((a) => [a.name, a.size, a.downloadCount, a.externalUrl, a.repoId]),
      [
        ['tool.bin', asset.length, 7, '', r.json.id],
        ['elsewhere', 0, 0, 'https://example.com/file.tgz', r.json.id],
      ],
    );
    const stored = `${env.srv.config.dataPath}/attachments/${assets[0].uuid[0]}/${assets[0].uuid[1]}/${assets[0].uuid}`;
    assert.ok(fs.readFileSync(stored).equals(asset));
    const api = ok(await T(alice, 'GET', `${R}/releases/tags/v1.0`), 200);
    valid('Release', api.json);
    assert.equal(
      api.json.assets.map((a: { name: string; type: string }) => [a.name, a.type]),
      [
        ['elsewhere', 'external'],
        ['tool.bin', 'attachment'],
      ],
    );
  } finally {
    await p.close();
  }
});

test('an import that fails after the clone leaves no repository, rows, files or directory behind (422)', async () => {
  const { alice } = env;
  const cases: [string, (base: string) => Override, RegExp][] = [
    [
      'a release asset that cannot be downloaded',
      (base) => (_req, url) => {
        if (url.pathname === '/broken-asset') return { status: 500, body: {} };
        if (url.pathname !== `${repoApi()}/releases`) return null;
        return paged(url, [
          {
            tag_name: 'v1.0',
            name: 'x',
            author: { id: 1, login: 'x' },
            assets: [{ name: 'ok.bin', size: 2, browser_download_url: `${base}/broken-asset` }],
          },
        ]);
      },
      /could not download the release asset ok\.bin .*status 500/,
    ],
    [
      'comments the source does not answer',
      () => (_req, url) => {
        if (url.pathname === `${repoApi()}/issues/2/comments`) return { status: 500, body: { message: 'boom' } };
        // The source's own asset address is not below this proxy, so it would not get the token.
        return url.pathname === `${repoApi()}/releases` ? { status: 200, body: [] } : null;
      },
      /could not read the comments of #2 .*status 500/,
    ],
  ];
  for (const [what, override, message] of cases) {
    let base = '';
    const p = await proxy((req, url) => override(base)(req, url));
    base = p.url;
    try {
      const before = await footprint();
      const name = uniq('fail');
      const r = await T(alice, 'POST', '/repos/migrate', {
        clone_addr: cloneUrl(p.url),
        repo_name: name,
        service: 'gitea',
        auth_token: owner.token,
        wiki: true,
        ...ALL,
      });
      assert.is(r.status, 422, `${what}: ${r.text}`);
      assert.match(r.json.message, message, what);
      assert.ok(
        p.seen.some((x) => x.path.endsWith('/git-upload-pack')),
        `${what}: the clone ran first`,
      );
      assert.equal(await footprint(), before, what);
      assert.not.ok(exists(gitDir(env, alice.name, name)), what);
      assert.not.ok(exists(gitDir(env, alice.name, `${name}.wiki`)), `${what}: the wiki copied before goes too`);
      const spool = `${env.srv.config.repoRoot}/.migrating`;
      assert.equal(exists(spool) ? fs.readdirSync(spool) : [], [], `${what}: the staged clone goes too`);
      assert.is((await T(alice, 'GET', `/repos/${alice.name}/${name}`)).status, 404, what);
    } finally {
      await p.close();
    }
  }
});

test('a private source with a bad token: 422 and nothing written; with mirror the options are ignored', async () => {
  const { alice } = env;
  const before = await footprint();
  const name = uniq('bad');
  const r = await T(alice, 'POST', '/repos/migrate', {
    clone_addr: cloneUrl(),
    repo_name: name,
    service: 'gitea',
    auth_token: 'not-a-token',
    ...ALL,
  });
  assert.is(r.status, 422, r.text);
  assert.match(r.json.message, /Authentication failed/);
  assert.equal(await footprint(), before);
  assert.not.ok(exists(gitDir(env, alice.name, name)));

  const anon = await T(alice, 'POST', '/repos/migrate', { clone_addr: cloneUrl(), repo_name: name, service: 'gitea', ...ALL });
  assert.is(anon.status, 422, anon.text);
  assert.equal(await footprint(), before);

  // Forgejo turns every import option off for a mirror.
  const mirror = ok(
    await T(alice, 'POST', '/repos/migrate', {
      clone_addr: cloneUrl(),
      repo_name: uniq('mirror'),
      service: 'gitea',
      auth_token: owner.token,
      mirror: true,
      ...ALL,
    }),
    201,
  );
  assert.is(mirror.json.mirror, true);
  const em = here();
  assert.is(await em.count(Issue, { repoId: mirror.json.id }), 0);
  assert.is(await em.count(Label, { repoId: mirror.json.id }), 0);
  assert.is(await em.count(Release, { repoId: mirror.json.id }), 0);
});

test('options that need an API: a non-http clone address with service gitea is 422, other services are refused', async () => {
  const { alice } = env;
  const before = await footprint();
  const gitea = await T(alice, 'POST', '/repos/migrate', {
    clone_addr: `file://${src.dir}`,
    repo_name: uniq('f'),
    service: 'gitea',
    issues: true,
  });
  assert.is(gitea.status, 422, gitea.text);
  assert.match(gitea.json.message, /clone_addr/);
  const gitlab = await T(alice, 'POST', '/repos/migrate', {
    clone_addr: cloneUrl(),
    repo_name: uniq('g'),
    service: 'gitlab',
    releases: true,
    pull_requests: true,
  });
  assert.is(gitlab.status, 422, gitlab.text);
  assert.match(gitlab.json.message, /^migrating releases, pull_requests from gitlab is not supported/);
  assert.equal(await footprint(), before);
});

test.run();
