// SQL statements per request: deterministic, unlike time, so they are pinned here.
//
// The issue's contract: `GET {R}` ≤ 3, `GET /user` ≤ 2, and list routes independent of the page size
// (no query per listed row). Whoever lowers a count lowers its pin; a pin that goes up is a
// regression to explain.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb, startServer, type TestDb, type TestServer } from './helpers/server.ts';
import { call, type Call } from './helpers/client.ts';
import { makeRepo, makeUser, type TestUser } from './helpers/fixtures.ts';
import { countDbWrites, countSql, listing } from './helpers/sql-count.ts';

let db: TestDb;
let srv: TestServer;
let owner: TestUser;
let repo: string;
let other: TestUser;
let org: string;
const SEARCH_REPOS = 50;
const ISSUES = 10;
const PULLS = 3;
const RELEASES = 3;

const ok = async (method: string, path: string, u: TestUser, body?: unknown) => {
  const r = await call(srv.api, method, path, { token: u.token, body });
  assert.ok(r.status >= 200 && r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
  return r.json;
};

test.before(async () => {
  db = await openTestDb();
  // The pins are what a request costs when it runs: answers kept across requests (lib/http/answer-cache.ts)
  // are off here, and their own cost is pinned at the end.
  srv = await startServer(db, { CACHE__ANSWERS: 'false' });
  owner = await makeUser(db, srv.api);
  repo = `${owner.name}/counted`;
  await makeRepo(srv.api, owner, { name: 'counted', auto_init: true });
  // A few at a time: each one is a `git init` and a transaction.
  for (let i = 1; i < SEARCH_REPOS; i += 7) {
    await Promise.all(Array.from({ length: Math.min(7, SEARCH_REPOS - i) }, (_, k) => makeRepo(srv.api, owner, { name: `s${i + k}` })));
  }
  // What makes a listed repository cost more than its row: another user who reaches it through a
  // collaboration (on a private one) or a team, a fork's parent, a pending transfer.
  other = await makeUser(db, srv.api);
  await ok('PATCH', `/repos/${owner.name}/s1`, owner, { private: true });
  await ok('PUT', `/repos/${owner.name}/s1/collaborators/${other.name}`, owner, { permission: 'write' });
  org = (await ok('POST', '/orgs', owner, { username: `org${process.pid % 1000}`, visibility: 'private' })).username;
  await ok('POST', `/repos/${owner.name}/s2/forks`, owner, { organization: org });
  for (const name of ['o1', 'o2', 'o3']) await ok('POST', `/orgs/${org}/repos`, owner, { name, private: name === 'o1' });
  const team = await ok('POST', `/orgs/${org}/teams`, owner, { name: 'writers', permission: 'write', units: ['repo.code', 'repo.issues'] });
  await ok('PUT', `/teams/${team.id}/members/${other.name}`, owner);
  await ok('PUT', `/teams/${team.id}/repos/${org}/o1`, owner);
  await ok('POST', `/repos/${owner.name}/s2/forks`, other, {});
  await ok('POST', `/repos/${owner.name}/s3/transfer`, owner, { new_owner: other.name });

  // Issues with a label, a milestone, an assignee, a comment and a mention of the other user (a
  // notification); pull requests; releases.
  const label = await ok('POST', `/repos/${repo}/labels`, owner, { name: 'bug', color: '#ff0000' });
  const milestone = await ok('POST', `/repos/${repo}/milestones`, owner, { title: 'm1' });
  for (let i = 1; i <= ISSUES; i++) {
    const issue = await ok('POST', `/repos/${repo}/issues`, owner, {
      title: `i${i}`,
      body: `@${other.name} look`,
      labels: [label.id],
      milestone: milestone.id,
      assignees: [owner.name],
    });
    await ok('POST', `/repos/${repo}/issues/${issue.number}/comments`, owner, { body: `c${i}` });
  }
  for (let i = 1; i <= PULLS; i++) {
    await ok('POST', `/repos/${repo}/contents/f${i}.txt`, owner, {
      content: Buffer.from(`f${i}\n`).toString('base64'),
      new_branch: `b${i}`,
    });
    await ok('POST', `/repos/${repo}/pulls`, owner, {
      head: `b${i}`,
      base: 'main',
      title: `p${i}`,
      body: `@${other.name}`,
      labels: [label.id],
      milestone: milestone.id,
      assignees: [owner.name],
    });
  }
  for (let i = 1; i <= RELEASES; i++)
    await ok('POST', `/repos/${repo}/releases`, owner, { tag_name: `v${i}`, target_commitish: 'main', name: `r${i}` });
});
test.after(async () => {
  await srv.close();
  await db.close();
});

/** Statements of one request, after one identical request (see countSql on the first request of a token). */
async function statementsOf(path: string, opts: Call = {}): Promise<string[]> {
  const warm = await call(srv.api, 'GET', path, opts);
  assert.is(warm.status, 200, warm.text);
  const { result, statements } = await countSql(db.db.orm, () => call(srv.api, 'GET', path, opts));
  assert.is(result.status, 200, result.text);
  return statements;
}

function pin(statements: string[], expected: number, what: string) {
  assert.is(statements.length, expected, `${what}: ${statements.length} statements\n${listing(statements)}`);
}

test('the counter sees raw statements and the BEGIN/COMMIT of a transaction', async () => {
  const em = db.db.orm.em.fork();
  const raw = await countSql(db.db.orm, () => em.getConnection().execute('select 1 as one'));
  pin(raw.statements, 1, 'raw execute');
  const tx = await countSql(db.db.orm, () =>
    em.transactional((t) => t.getConnection().execute('select 2 as two', [], 'all', t.getTransactionContext())),
  );
  assert.ok(tx.statements.length >= 3, listing(tx.statements));
  assert.ok(
    tx.statements.some((s) => /select 2/.test(s)),
    listing(tx.statements),
  );
});

test("a token's last-use record (at most once a minute) is written, and left out of the count", async () => {
  const em = db.db.orm.em.fork();
  const stale = new Date(Date.now() - 120_000);
  await em
    .getConnection()
    .execute('update access_token set updated_at = ? where uid = (select id from "user" where name = ?)', [stale, owner.name]);
  const { result, statements } = await countSql(db.db.orm, () => call(srv.api, 'GET', '/user', { token: owner.token }));
  assert.is(result.status, 200, result.text);
  pin(statements, 1, 'GET /user with a stale last use');
  const [row] = await em
    .getConnection()
    .execute<{ updated_at: Date }[]>(
      'select max(updated_at) as updated_at from access_token where uid = (select id from "user" where name = ?)',
      [owner.name],
    );
  assert.ok(new Date(row!.updated_at).getTime() > stale.getTime() + 60_000, 'the last use was recorded');
});

test("GET {R} with a token: one statement for the token, its user, the owner, the repository, its units and transfer, and the caller's access facts", async () => {
  pin(await statementsOf(`/repos/${repo}`, { token: owner.token }), 1, 'GET {R} token');
});

test('HEAD {R} with a token: the same statement as GET, the answer reuses what the loader read', async () => {
  await call(srv.api, 'HEAD', `/repos/${repo}`, { token: owner.token });
  const { result, statements } = await countSql(db.db.orm, () => call(srv.api, 'HEAD', `/repos/${repo}`, { token: owner.token }));
  assert.is(result.status, 200);
  pin(statements, 1, 'HEAD {R} token');
});

test('GET {R} anonymous: one statement', async () => {
  pin(await statementsOf(`/repos/${repo}`), 1, 'GET {R} anonymous');
});

test('GET {R} as a collaborator and as a team member: the access facts come with the token, no statement more', async () => {
  pin(await statementsOf(`/repos/${owner.name}/s1`, { token: other.token }), 1, 'GET {R} collaborator');
  pin(await statementsOf(`/repos/${org}/o1`, { token: other.token }), 1, 'GET {R} team member');
});

test('GET {R} of a fork: one more, for the parent with its owner and units', async () => {
  pin(await statementsOf(`/repos/${other.name}/s2`, { token: other.token }), 2, 'GET {R} fork');
});

test('GET {R}/issues/{index}: with a token the issue comes with the token (anonymous reads it alone), its extras in one more', async () => {
  pin(await statementsOf(`/repos/${repo}/issues/1`, { token: owner.token }), 2, 'GET issue token');
  pin(await statementsOf(`/repos/${repo}/issues/1`), 3, 'GET issue anonymous');
});

test('GET /user: the star count comes with the token', async () => {
  pin(await statementsOf('/user', { token: owner.token }), 1, 'GET /user');
});

// GET reads the addressed repository and the caller as plain objects, which a lookup by id
// does not find in the EntityManager: routes that meet them again must not read them again.
test('GET an issue timeline, pull files, starred repositories: the addressed repository and the caller are not read again', async () => {
  pin(await statementsOf(`/repos/${repo}/issues/1/timeline`, { token: owner.token }), 8, 'GET timeline');
  pin(await statementsOf(`/repos/${repo}/pulls/${ISSUES + 1}/files`, { token: owner.token }), 3, 'GET pull files');
  await ok('PUT', `/user/starred/${repo}`, owner);
  pin(await statementsOf('/user/starred', { token: owner.token }), 3, 'GET /user/starred');
});

/** A list route costs the same at both page sizes (and the pages differ, or the check proves nothing). */
async function samePerPage(path: string, small: number, large: number, expected: number, opts: Call = {}) {
  const sep = path.includes('?') ? '&' : '?';
  const a = await statementsOf(`${path}${sep}limit=${small}`, opts);
  const b = await statementsOf(`${path}${sep}limit=${large}`, opts);
  const sizes = await Promise.all(
    [small, large].map(async (n) => {
      const r = await call(srv.api, 'GET', `${path}${sep}limit=${n}`, opts);
      return (Array.isArray(r.json) ? r.json : r.json.data).length;
    }),
  );
  assert.ok(sizes[0] < sizes[1], `${path}: pages of ${sizes.join(' and ')} rows`);
  assert.is(a.length, b.length, `${path}: ${a.length} statements for ${sizes[0]} rows, ${b.length} for ${sizes[1]}\n${listing(b)}`);
  pin(a, expected, `${path} limit=${small}`);
}

// Token (with its user), the page of repositories with their count, then parents, pending transfers,
// owners (with the users of the transfers) and units in one statement, and the caller's access when
// it lists repositories it does not own. By id from the newest, both pages hold forks and repositories
// of the organization; the larger one also the pending transfer.
test('GET /repos/search: the same statements for any page size', async () => {
  await samePerPage('/repos/search?sort=id&order=desc', 10, SEARCH_REPOS, 4, { token: owner.token });
  await samePerPage('/repos/search?sort=id&order=desc', 10, SEARCH_REPOS, 2);
  await samePerPage('/repos/search?sort=id&order=desc', 10, SEARCH_REPOS, 4, { token: other.token });
});

test('repository lists of a user, of the caller and of an organization: the same for any page size', async () => {
  // The USER and ORG loaders read the user or organization first (and the caller's membership of a
  // private organization).
  await samePerPage(`/users/${owner.name}/repos`, 10, SEARCH_REPOS, 5, { token: other.token });
  await samePerPage('/user/repos?order_by=newest', 10, SEARCH_REPOS, 4, { token: owner.token });
  await samePerPage(`/orgs/${org}/repos`, 2, 10, 6, { token: other.token });
  // Forks come with their parent, which the loader read.
  await samePerPage(`/repos/${owner.name}/s2/forks`, 1, 10, 4, { token: owner.token });
});

// Issue lists: token with the repository (one statement below `{R}` with a token), the page with its count, then labels, assignees, attachments,
// milestones, users and pull request states of the page in one statement. A pull request list adds
// review requests, review comment counts, and the base repository shown as the loader read it (its
// transfer state included).
test('issue, pull, comment, release and notification lists: the same statements for any page size', async () => {
  await samePerPage(`/repos/${repo}/issues?type=issues`, 2, ISSUES, 3, { token: owner.token });
  await samePerPage(`/repos/${repo}/issues?state=all`, 2, ISSUES + PULLS, 3);
  await samePerPage(`/repos/${repo}/pulls`, 1, PULLS, 8, { token: owner.token });
  await samePerPage(`/repos/${repo}/issues/comments`, 2, ISSUES, 8, { token: owner.token });
  await samePerPage(`/repos/${repo}/releases`, 1, RELEASES, 5, { token: owner.token });
  await samePerPage('/repos/issues/search', 2, ISSUES, 4, { token: owner.token });
  await samePerPage('/notifications', 2, ISSUES, 10, { token: other.token });
  await samePerPage(`/repos/${repo}/notifications`, 2, ISSUES, 10, { token: other.token });
});

// Commit statuses (their creators read once) and branch protection rules (their allowlists' names
// read once): converters take what the list read for all of its rows.
test('commit status and branch protection lists: the same statements for any number of rows', async () => {
  const sha = (await ok('GET', `/repos/${repo}/branches/main`, owner)).commit.id;
  await ok('PUT', `/repos/${repo}/collaborators/${other.name}`, owner, { permission: 'write' });
  for (let i = 1; i <= 4; i++)
    await ok('POST', `/repos/${repo}/statuses/${sha}`, i % 2 ? owner : other, { state: 'success', context: `ci${i}` });
  await samePerPage(`/repos/${repo}/commits/${sha}/statuses`, 1, 4, 4, { token: owner.token });
  const rules = async () => statementsOf(`/repos/${repo}/branch_protections`, { token: owner.token });
  await ok('POST', `/repos/${repo}/branch_protections`, owner, {
    rule_name: 'r1',
    enable_push: true,
    enable_push_whitelist: true,
    push_whitelist_usernames: [owner.name],
  });
  const one = await rules();
  for (const name of ['r2', 'r3']) {
    await ok('POST', `/repos/${repo}/branch_protections`, owner, {
      rule_name: name,
      enable_merge_whitelist: true,
      merge_whitelist_usernames: [owner.name],
    });
  }
  const three = await rules();
  assert.is(three.length, one.length, listing(three));
  pin(three, 3, 'GET branch_protections with three rules');
});

// The git read routes: the token with its user and the repository in one statement, then for the commit
// list the users of the page's author and committer addresses in one statement, whatever the page
// size; the contents of a file need no statement of their own.
test('GET {R}/commits: the same statements for any page size; GET {R}/contents/{path}: none of its own', async () => {
  await samePerPage(`/repos/${repo}/commits?sha=b1`, 1, 2, 2, { token: owner.token });
  await samePerPage(`/repos/${repo}/commits?sha=b1`, 1, 2, 2);
  pin(await statementsOf(`/repos/${repo}/contents/README.md`, { token: owner.token }), 1, 'GET {R}/contents/README.md token');
  pin(await statementsOf(`/repos/${repo}/contents/README.md`), 1, 'GET {R}/contents/README.md anonymous');
});

// Last: its repositories and issues would change what the lists above count.
/**
 * Statements of one write (status 201), on a repository of its own with `watchers` watchers; on a
 * private one they are collaborators with read access, and whether each may read is asked of the database.
 */
/** PostgreSQL's port when the tests run on it (round trips are counted there), else null. */
const pgPort = process.env.CAIRN__DATABASE__URL ? Number(new URL(process.env.CAIRN__DATABASE__URL).port || 5432) : null;

/** `call`, with the writes to PostgreSQL's sockets it caused (null on the embedded database). */
async function tripsOf(method: string, path: string, u: TestUser, body: unknown) {
  if (pgPort === null) return { result: await call(srv.api, method, path, { token: u.token, body }), writes: null };
  return countDbWrites(pgPort, () => call(srv.api, method, path, { token: u.token, body }));
}

async function writeStatements(
  watchers: number,
  isPrivate = false,
): Promise<{ issue: number; afterNumber: number; comment: number; trips: (number | null)[] }> {
  const name = `w${watchers}${isPrivate ? 'p' : ''}`;
  await makeRepo(srv.api, owner, { name, auto_init: true, private: isPrivate });
  for (let i = 0; i < watchers; i++) {
    const w = await makeUser(db, srv.api);
    if (isPrivate) await ok('PUT', `/repos/${owner.name}/${name}/collaborators/${w.name}`, owner, { permission: 'read' });
    await ok('PUT', `/repos/${owner.name}/${name}/subscription`, w);
  }
  // One write of each kind first (see statementsOf), then the counted ones.
  const first = await ok('POST', `/repos/${owner.name}/${name}/issues`, owner, { title: 'warm' });
  await ok('POST', `/repos/${owner.name}/${name}/issues/${first.number}/comments`, owner, { body: 'warm' });
  const issue = await countSql(db.db.orm, () =>
    tripsOf('POST', `/repos/${owner.name}/${name}/issues`, owner, { title: 'counted', body: 'hello' }),
  );
  assert.is(issue.result.result.status, 201, issue.result.result.text);
  const comment = await countSql(db.db.orm, () =>
    tripsOf('POST', `/repos/${owner.name}/${name}/issues/${first.number}/comments`, owner, { body: 'counted' }),
  );
  assert.is(comment.result.result.status, 201, comment.result.result.text);
  // The repository's number lock (resource_index) is held from its statement to COMMIT: every other
  // writer of the repository waits that long, so what runs after it is pinned too: the statements
  // sent with COMMIT, in the same round trip (lib/issues/issues.ts numberAtCommit).
  const numbered = issue.statements.findIndex((s) => s.includes('resource_index'));
  assert.ok(numbered > 0, listing(issue.statements));
  return {
    issue: issue.statements.length,
    afterNumber: issue.statements.length - 1 - numbered,
    comment: comment.statements.length,
    trips: [issue.result.writes, comment.result.writes],
  };
}

test('POST issue and POST comment: the same statements for any number of watchers (public repository)', async () => {
  const few = await writeStatements(1);
  const many = await writeStatements(5);
  assert.equal(many, few, `1 watcher ${JSON.stringify(few)}, 5 watchers ${JSON.stringify(many)}`);
  // Counters are increments applied just before COMMIT (lib/db/counters.ts), right after one statement of
  // the notification threads and the feed rows (tailWrite); the answer is converted from
  // what the request wrote and read already; the notified users are found with their user rows in one
  // statement, and so are the feed's watchers; the repository's units are the ones the chain read.
  // The token's statement finds the repository of a write too (and the commented issue, lib/issues/issues.ts
  // keepIssueRead), and makes the new row's early reads: the id it will take and what its event reads
  // and does not need the row for (the feed's watchers and the hooks, lib/issues/events.ts
  // newRowAheadColumns). Everything else is sent with COMMIT: a new issue's number, row and watch, or
  // a new comment's row, first, so only the statements of that round trip hold the repository's
  // number lock (the feed row reads the number in SQL). On a public repository every signed-in user
  // may read the issue, so the notified are found by their insert. The owner (the poster) is not asked
  // whether they blocked themselves (lib/users/blocks.ts).
  // Two statements and two round trips in all: the token's statement; the queued writes as one text of
  // statements, run as one implicit transaction without BEGIN or COMMIT (lib/http/handler.ts writesAtEnd),
  // the number's lock held for that text alone.
  assert.equal(few, { issue: 2, afterNumber: 0, comment: 2, trips: pgPort === null ? [null, null] : [2, 2] });
});

test('POST issue and POST comment: the same statements for any number of watchers (private repository)', async () => {
  const few = await writeStatements(1, true);
  const many = await writeStatements(5, true);
  assert.equal(many, few, `1 watcher ${JSON.stringify(few)}, 5 watchers ${JSON.stringify(many)}`);
  // Who follows, and which of them and of the feed's watchers may read, are asked (a statement and a
  // round trip each) before the number is taken: the lock waits for none of it.
  assert.equal(few, { issue: 5, afterNumber: 0, comment: 5, trips: pgPort === null ? [null, null] : [5, 5] });
});

test("a kept answer (the rows marked cached): no statement on the pool, one question on the clock's own connection", async () => {
  const kept = await startServer(db);
  try {
    for (const path of [
      `/repos/${repo}`,
      '/user',
      `/repos/${repo}/contents/README.md`,
      `/repos/${repo}/commits?limit=30`,
      `/repos/${repo}/issues?state=open`,
      '/repos/search?limit=50',
    ]) {
      const read = () => call(kept.api, 'GET', path, { token: owner.token });
      assert.is((await read()).status, 200, path);
      // The snapshot is the whole PostgreSQL server's: a write in another database (another test file
      // running meanwhile) makes the answer be made again. Of 50 reads, one at least is a kept one.
      let statements: string[] = [];
      let trips = 0;
      for (let i = 0; i < 50; i++) {
        const counted = await countSql(db.db.orm, () => countDbWrites(pgPort ?? 0, read));
        assert.is(counted.result.result.status, 200, path);
        statements = counted.statements;
        trips = counted.result.writes;
        if (statements.length === 0) break;
      }
      pin(statements, 0, `kept ${path}`);
      if (pgPort !== null) assert.is(trips, 1, `kept ${path}: round trips`);
    }
  } finally {
    await kept.close();
  }
});

test.run();
