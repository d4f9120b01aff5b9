// Commits and git objects through the API: the commit list with its filters and headers, single
// commits, diff/patch, compare, refs, trees, blobs, notes and commit statuses (Forgejo
// routers/api/v1/repo/{commits,git_ref,tree,blob,notes,status}.go; forgejo-facts 4.2, 6.10, 12.3).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call } from '../helpers/client.ts';
import { makeRepo, makeUser, type TestUser } from '../helpers/fixtures.ts';
import { cloneUrl, mustGit, mustGitEnv, workDir } from '../helpers/git-cli.ts';
import { ApiSchemas, validateResponse } from '../../model/schemas/index.ts';

let db: TestDb;
let srv: TestServer;
let alice: TestUser;
let bob: TestUser;
let tmp: string;
const shas: string[] = []; // oldest first

const valid = (schema: keyof typeof ApiSchemas, value: unknown) => {
  const r = validateResponse(ApiSchemas[schema], value);
  assert.ok(r.ok, JSON.stringify(r));
};
const validList = (schema: keyof typeof ApiSchemas, r: { json: unknown; text: string }) => {
  assert.ok(Array.isArray(r.json), r.text);
  for (const v of r.json) valid(schema, v);
};
const api = (method: string, p: string, body?: unknown, token = alice.token) => call(srv.api, method, p, { token, body });
const R = () => `/repos/${alice.name}/hist`;

test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
  alice = await makeUser(db, srv.api);
  bob = await makeUser(db, srv.api);
  tmp = workDir();
  await makeRepo(srv.api, alice, { name: 'hist' });
  await makeRepo(srv.api, alice, { name: 'blank' });
  const wt = path.join(tmp, 'hist');
  await mustGit(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'hist', [alice.name, alice.token]), wt);
  // Five commits a day apart; commit 3 touches only docs/, commit 1 is authored by Alice's address.
  for (let i = 1; i <= 5; i++) {
    const file = i === 3 ? 'docs/guide.md' : 'main.txt';
    fs.mkdirSync(path.join(wt, 'docs'), { recursive: true });
    fs.appendFileSync(path.join(wt, file), `line ${i}\n`);
    await mustGit(wt, 'add', '-A');
    const date = `2024-01-0${i}T12:00:00+02:00`;
    const email = i === 1 ? `${alice.name}@example.com` : 'someone@example.com';
    await mustGitEnv({ GIT_AUTHOR_EMAIL: email, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }, wt, 'commit', '-q', '-m', `commit ${i}`);
    shas.push(await mustGit(wt, 'rev-parse', 'HEAD'));
  }
  await mustGit(wt, 'push', '-q', 'origin', 'HEAD:main');
  await mustGit(wt, 'push', '-q', 'origin', `${shas[2]}:refs/heads/old`);
});
test.after(async () => {
  await srv.close();
  await db.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

// The list renders each commit's parts once and keeps them; its bytes must stay those of
// the single-commit answers, built afresh as objects, for every option, and its users must be read
// afresh (a renamed user shows at once in a list whose commits were rendered before).
test('GET {R}/commits: the bytes of each commit are those of GET {R}/git/commits/{sha}, cold and kept, and users are read afresh', async () => {
  const same = async (q: string, when: string) => {
    const list = await api('GET', `${R()}/commits${q}`);
    assert.is(list.status, 200);
    const ids = (list.json as { sha: string }[]).map((c) => c.sha);
    assert.equal(ids, [...shas].reverse(), when);
    const singles = await Promise.all(ids.map(async (sha) => (await api('GET', `${R()}/git/commits/${sha}${q}`)).text.slice(0, -1)));
    assert.is(list.text, `[${singles.join(',')}]\n`, `${when} ${q}`);
    return list.text;
  };
  for (const q of ['', '?stat=false', '?files=false&verification=false', '?stat=false&files=false&verification=false']) {
    await same(q, 'first');
    await same(q, 'again');
  }
  const before = ((await api('GET', '/user/settings')).json as { full_name: string }).full_name;
  assert.is((await api('PATCH', '/user/settings', { full_name: 'Alice Renamed' })).status, 200);
  assert.ok((await same('', 'after the rename')).includes('"full_name":"Alice Renamed"'));
  assert.is((await api('PATCH', '/user/settings', { full_name: before })).status, 200);
});

test('forgejo-facts 12.3: the commit list of an empty repository is 409', async () => {
  const r = await api('GET', `/repos/${alice.name}/blank/commits`);
  assert.is(r.status, 409);
  assert.is(r.json.message, 'Git Repository is empty.');
});

test('forgejo-facts 4.2 and 6.10: list with paging headers and the commit shape', async () => {
  const r = await api('GET', `${R()}/commits?limit=2&page=2`);
  assert.is(r.status, 200);
  for (const c of r.json) valid('Commit', c);
  assert.equal(
    r.json.map((c: { sha: string }) => c.sha),
    [shas[2], shas[1]],
  );
  assert.is(r.headers.get('x-total-count'), '5');
  assert.is(r.headers.get('x-total'), '5');
  assert.is(r.headers.get('x-page'), '2');
  assert.is(r.headers.get('x-perpage'), '2');
  assert.is(r.headers.get('x-pagecount'), '3');
  assert.is(r.headers.get('x-hasmore'), 'true');
  assert.match(r.headers.get('link') ?? '', 'rel="next"');
  const c = r.json[0];
  assert.is(c.commit.tree.sha, shas[2]);
  assert.is(c.commit.author.date, '2024-01-03T12:00:00+02:00');
  assert.is(c.created, c.commit.committer.date);
  assert.equal(
    c.parents.map((p: { sha: string }) => p.sha),
    [shas[1]],
  );
  assert.equal(c.files, [{ filename: 'docs/guide.md', status: 'added' }]);
  assert.equal(c.stats, { total: 1, additions: 1, deletions: 0 });
  assert.is(c.commit.verification.reason, 'gpg.error.not_signed_commit');
  assert.is(c.author, null);
  const first = await api('GET', `${R()}/commits?sha=${shas[0]}`);
  assert.is(first.json[0].author.login, alice.name);
  const last = await api('GET', `${R()}/commits?limit=2&page=3`);
  assert.is(last.headers.get('x-hasmore'), 'false');
});

test('filters: sha, path, not, since, until, and the stat/files/verification switches', async () => {
  const ids = async (q: string) => (await api('GET', `${R()}/commits?${q}`)).json.map((c: { sha: string }) => c.sha);
  assert.equal(await ids('sha=old'), [shas[2], shas[1], shas[0]]);
  assert.equal(await ids('path=docs/guide.md'), [shas[2]]);
  assert.equal(await ids(`not=old`), [shas[4], shas[3]]);
  assert.equal(await ids('since=2024-01-03T00:00:00Z'), [shas[4], shas[3], shas[2]]);
  assert.equal(await ids('until=2024-01-02T23:00:00Z'), [shas[1], shas[0]]);
  const lean = await api('GET', `${R()}/commits?limit=1&stat=false&files=false&verification=false`);
  assert.is(lean.json[0].stats, null);
  assert.is(lean.json[0].files, null);
  assert.is(lean.json[0].commit.verification, null);
  const unknown = await api('GET', `${R()}/commits?sha=nope`);
  assert.is(unknown.status, 404);
  assert.is(unknown.text, 'null\n');
  assert.is((await api('GET', `${R()}/commits?path=nope.txt`)).status, 404);
  assert.is((await api('GET', `${R()}/commits?since=yesterday`)).status, 422);
});

test('commit authors and committers are the users of an added address or a noreply address, read once for the page', async () => {
  await makeRepo(srv.api, alice, { name: 'who' });
  const added = `second-${alice.name}@example.com`;
  assert.is((await api('POST', '/user/emails', { emails: [added] })).status, 201);
  const wt = path.join(tmp, 'who');
  await mustGit(null, 'clone', '-q', cloneUrl(srv.url, alice.name, 'who', [alice.name, alice.token]), wt);
  const noreply = `${bob.name.toUpperCase()}@${srv.config.SERVICE.NO_REPLY_ADDRESS}`;
  const people: [string, string][] = [
    [added.toUpperCase(), 'nobody@example.com'],
    [noreply, added],
    ['nobody@example.com', noreply],
  ];
  for (const [i, [author, committer]] of people.entries()) {
    fs.writeFileSync(path.join(wt, 'f.txt'), `${i}\n`);
    await mustGit(wt, 'add', '-A');
    await mustGitEnv({ GIT_AUTHOR_EMAIL: author, GIT_COMMITTER_EMAIL: committer }, wt, 'commit', '-q', '-m', `c${i}`);
  }
  await mustGit(wt, 'push', '-q', 'origin', 'HEAD:main');
  const r = await api('GET', `/repos/${alice.name}/who/commits`);
  assert.is(r.status, 200);
  const logins = r.json.map((c: { author: { login: string } | null; committer: { login: string } | null }) => [
    c.author?.login ?? null,
    c.committer?.login ?? null,
  ]);
  assert.equal(logins, [
    [null, bob.name],
    [bob.name, alice.name],
    [alice.name, null],
  ]);
});

test('a single commit, its diff and its patch', async () => {
  const r = await api('GET', `${R()}/git/commits/${shas[1]}`);
  assert.is(r.status, 200);
  valid('Commit', r.json);
  assert.is(r.json.sha, shas[1]);
  assert.is(r.json.commit.message, 'commit 2\n');
  assert.is((await api('GET', `${R()}/git/commits/main`)).json.sha, shas[4]);
  assert.is((await api('GET', `${R()}/git/commits/${'f'.repeat(40)}`)).status, 404);
  assert.is((await api('GET', `${R()}/git/commits/main~1`)).status, 422);
  const diff = await fetch(`${srv.api}${R()}/git/commits/${shas[1]}.diff`);
  assert.is(diff.status, 200);
  const text = await diff.text();
  assert.match(text, 'diff --git a/main.txt b/main.txt');
  assert.match(text, '+line 2');
  const patch = await (await fetch(`${srv.api}${R()}/git/commits/${shas[1]}.patch`)).text();
  assert.match(patch, `From ${shas[1]}`);
  assert.match(patch, 'Subject: [PATCH] commit 2');
  assert.is((await fetch(`${srv.api}${R()}/git/commits/${shas[1]}.zip`)).status, 404);
});

test('compare: commits and files between two refs', async () => {
  const r = await api('GET', `${R()}/compare/old...main`);
  assert.is(r.status, 200);
  valid('Compare', r.json);
  assert.is(r.json.total_commits, 2);
  assert.equal(
    r.json.commits.map((c: { sha: string }) => c.sha),
    [shas[4], shas[3]],
  );
  assert.equal(r.json.files, [{ filename: 'main.txt', status: 'modified' }]);
  assert.is((await api('GET', `${R()}/compare/old...nope`)).status, 404);
});

test('git/refs/{ref}: the documented list for a prefix and for an exact name; nothing found is 404', async () => {
  const refs = (r: { json: { ref: string }[] }) => r.json.map((x) => x.ref);
  const all = await api('GET', `${R()}/git/refs`);
  assert.is(all.status, 200, all.text);
  validList('Reference', all);
  assert.equal(refs(all), ['refs/heads/main', 'refs/heads/old']);
  const heads = await api('GET', `${R()}/git/refs/heads`);
  validList('Reference', heads);
  assert.equal(refs(heads), ['refs/heads/main', 'refs/heads/old']);
  // A prefix of a name matches too (`heads/ma` finds main), as Forgejo's search does.
  assert.equal(refs(await api('GET', `${R()}/git/refs/heads/ma`)), ['refs/heads/main']);
  // The exact name answers a list of one, as Forgejo and its API description do.
  const exact = await api('GET', `${R()}/git/refs/heads/main`);
  assert.is(exact.status, 200, exact.text);
  validList('Reference', exact);
  assert.is(exact.json.length, 1);
  assert.equal(exact.json[0], {
    ref: 'refs/heads/main',
    url: `${srv.config.appUrl}api/v1${R()}/git/refs/heads/main`,
    object: { type: 'commit', sha: shas[4], url: `${srv.config.appUrl}api/v1${R()}/git/commits/${shas[4]}` },
  });
  // Forgejo prefixes `refs/` to what is given, so the full name finds nothing, like any other miss.
  for (const miss of ['heads/nope', 'tags', 'refs/heads/main', 'heads/main/x']) {
    const r = await api('GET', `${R()}/git/refs/${miss}`);
    assert.is(r.status, 404, `${miss}: ${r.text}`);
    valid('APINotFound', r.json);
  }
});

test('refs, trees and blobs', async () => {
  const tree = await api('GET', `${R()}/git/trees/main?recursive=1&per_page=2`);
  valid('GitTreeResponse', tree.json);
  assert.is(tree.json.sha, shas[4]);
  assert.is(tree.json.total_count, 3);
  assert.is(tree.json.truncated, true);
  assert.equal(
    tree.json.tree.map((e: { path: string }) => e.path),
    ['docs', 'docs/guide.md'],
  );
  const page2 = await api('GET', `${R()}/git/trees/main?recursive=1&per_page=2&page=2`);
  assert.equal(
    page2.json.tree.map((e: { path: string }) => e.path),
    ['main.txt'],
  );
  assert.is((await api('GET', `${R()}/git/trees/nope`)).status, 400);
  const entry = page2.json.tree[0];
  const blob = await api('GET', `${R()}/git/blobs/${entry.sha}`);
  valid('GitBlob', blob.json);
  assert.is(Buffer.from(blob.json.content, 'base64').toString(), 'line 1\nline 2\nline 4\nline 5\n');
  const blobs = await api('GET', `${R()}/git/blobs?shas=${entry.sha},${tree.json.tree[1].sha}`);
  assert.is(blobs.json.length, 2);
  assert.is((await api('GET', `${R()}/git/blobs`)).status, 400);
  assert.is((await api('GET', `${R()}/git/blobs/${shas[0]}`)).status, 400);
});

test('notes: add, read, replace, delete', async () => {
  assert.is((await api('GET', `${R()}/git/notes/${shas[0]}`)).status, 404);
  const added = await api('POST', `${R()}/git/notes/${shas[0]}`, { message: 'reviewed' });
  assert.is(added.status, 200);
  valid('Note', added.json);
  assert.is(added.json.message, 'reviewed\n');
  const read = await api('GET', `${R()}/git/notes/${shas[0].slice(0, 10)}`);
  assert.is(read.json.message, 'reviewed\n');
  valid('Commit', read.json.commit);
  await api('POST', `${R()}/git/notes/${shas[0]}`, { message: 'reviewed twice' });
  assert.is((await api('GET', `${R()}/git/notes/${shas[0]}`)).json.message, 'reviewed twice\n');
  assert.is((await api('POST', `${R()}/git/notes/${shas[0]}`, { message: 'x' }, bob.token)).status, 403);
  assert.is((await api('DELETE', `${R()}/git/notes/${shas[0]}`)).status, 204);
  assert.is((await api('GET', `${R()}/git/notes/${shas[0]}`)).status, 404);
  assert.is((await api('DELETE', `${R()}/git/notes/${shas[0]}`)).status, 404);
});

test('commit statuses: create, list by sha and ref, combined state', async () => {
  const created = await api('POST', `${R()}/statuses/${shas[4]}`, {
    state: 'pending',
    context: 'ci/build',
    target_url: 'https://ci.example.com/1',
  });
  assert.is(created.status, 201);
  valid('CommitStatus', created.json);
  assert.is(created.json.id, 1);
  assert.is(created.json.creator.login, alice.name);
  assert.is((await api('POST', `${R()}/statuses/${shas[4]}`, { state: 'success', context: 'ci/build' })).json.id, 2);
  await api('POST', `${R()}/statuses/main`, { state: 'failure', context: 'ci/lint' });
  assert.is((await api('POST', `${R()}/statuses/${shas[3]}`, { state: 'success', context: 'ci/build' })).json.id, 1);
  assert.is((await api('POST', `${R()}/statuses/${shas[4]}`, { state: 'bogus' })).status, 422);
  assert.is((await api('POST', `${R()}/statuses/${'e'.repeat(40)}`, { state: 'success' })).status, 404);
  assert.is((await api('POST', `${R()}/statuses/${shas[4]}`, { state: 'success' }, bob.token)).status, 403);
  const bySha = await api('GET', `${R()}/statuses/${shas[4]}`);
  assert.is(bySha.headers.get('x-total-count'), '3');
  for (const s of bySha.json) valid('CommitStatus', s);
  assert.equal(
    bySha.json.map((s: { id: number }) => s.id),
    [3, 2, 1],
  );
  const byRef = await api('GET', `${R()}/commits/main/statuses?state=success`);
  assert.equal(
    byRef.json.map((s: { id: number }) => s.id),
    [2],
  );
  const combined = await api('GET', `${R()}/commits/main/status`);
  valid('CombinedStatus', combined.json);
  assert.is(combined.json.state, 'failure');
  assert.is(combined.json.total_count, 2);
  assert.is(combined.json.sha, shas[4]);
  assert.is(combined.json.repository.full_name, `${alice.name}/hist`);
  const none = await api('GET', `${R()}/commits/old/status`);
  assert.is(none.json.state, '');
  assert.is(none.json.total_count, 0);
});

test('names git would refuse are 4xx, never 500', async () => {
  const cases: [string, number][] = [
    ['/branches/a%0Ab', 404],
    ['/branches/a%00b', 404],
    ['/tags/a%0Ab', 404],
    ['/git/trees/a%0Ab', 400],
    ['/git/commits/a%0Ab', 422],
    ['/raw/a%0Ab', 404],
    ['/raw/x?ref=a%0Ab', 404],
    ['/contents/README.md?ref=a%0Ab', 404],
    ['/commits?sha=a%0Ab', 404],
    ['/compare/a%0Ab...main', 404],
    ['/archive/a%0Ab.zip', 404],
    ['/commits/a%0Ab/status', 200],
    ['/git/blobs/a%0Ab', 400],
  ];
  for (const [p, status] of cases) assert.is((await api('GET', `${R()}${p}`)).status, status, p);
});

test('commits/{ref}/pull: no pull request exists', async () => {
  assert.is((await api('GET', `${R()}/commits/${shas[4]}/pull`)).status, 404);
});

test('readers read; the private repository is 404 for outsiders', async () => {
  await makeRepo(srv.api, alice, { name: 'secret', private: true, auto_init: true });
  assert.is((await api('GET', `${R()}/commits`, undefined, bob.token)).status, 200);
  for (const p of ['/commits', '/git/refs', '/contents', '/branches', '/tags', '/languages']) {
    assert.is((await api('GET', `/repos/${alice.name}/secret${p}`, undefined, bob.token)).status, 404, p);
  }
});

test.run();
