// SQL statements per request (issue 10, item 3): deterministic, unlike time, so they are pinned here.
//
// These are the counts of the code as it is, not the targets. The performance work tightens them to
// the contract: `GET {R}` ≤ 3, `GET /user` ≤ 2, and list routes independent of the page size
// (today `GET /repos/search` reads units and pending transfer per repository: an N+1). Whoever
// lowers a count lowers its pin; a pin that goes up is a regression to explain.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb, startServer, type TestDb, type TestServer } from './helpers/server.ts';
import { call, type Call } from './helpers/client.ts';
import { makeRepo, makeUser, type TestUser } from './helpers/fixtures.ts';
import { countSql, listing } from './helpers/sql-count.ts';

let db: TestDb;
let srv: TestServer;
let owner: TestUser;
let repo: string;
const SEARCH_REPOS = 50;

test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
  owner = await makeUser(db, srv.api);
  repo = `${owner.name}/counted`;
  await makeRepo(srv.api, owner, { name: 'counted', auto_init: true });
  // A few at a time: each one is a `git init` and a transaction.
  for (let i = 1; i < SEARCH_REPOS; i += 7) {
    await Promise.all(Array.from({ length: Math.min(7, SEARCH_REPOS - i) }, (_, k) => makeRepo(srv.api, owner, { name: `s${i + k}` })));
  }
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
  const tx = await countSql(db.db.orm, () => em.transactional((t) => t.getConnection().execute('select 2 as two', [], 'all', t.getTransactionContext())));
  assert.ok(tx.statements.length >= 3, listing(tx.statements));
  assert.ok(tx.statements.some((s) => /select 2/.test(s)), listing(tx.statements));
});

test('GET {R} with a token', async () => {
  pin(await statementsOf(`/repos/${repo}`, { token: owner.token }), 5, 'GET {R} token');
});

test('GET {R} anonymous', async () => {
  pin(await statementsOf(`/repos/${repo}`), 4, 'GET {R} anonymous');
});

test('GET /user', async () => {
  pin(await statementsOf('/user', { token: owner.token }), 3, 'GET /user');
});

test('GET /repos/search: statements grow with the page size (N+1)', async () => {
  const small = await statementsOf('/repos/search?limit=10', { token: owner.token });
  const large = await statementsOf(`/repos/search?limit=${SEARCH_REPOS}`, { token: owner.token });
  // Six statements for the page (token, user, count, ids, repositories, owners), then units and
  // transfer for each repository on it.
  pin(small, 6 + 2 * 10, 'search limit=10');
  pin(large, 6 + 2 * SEARCH_REPOS, `search limit=${SEARCH_REPOS}`);
});

test.run();
