// The embedded database's raw-SQL path (model/db.ts): a `;` inside a quoted value must not turn one
// statement into the multi-statement path. Through the API: a repository search for `a;b`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { statementCount } from '../../model/db.ts';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call } from '../helpers/client.ts';

test('statementCount: quotes, dollar quotes and comments do not split statements', () => {
  assert.is(statementCount("select 'a;b'"), 1);
  assert.is(statementCount("select 'it''s;' ; "), 1);
  assert.is(statementCount('select "we;ird" from t'), 1);
  assert.is(statementCount('select $$a;b$$, $x$c;d$x$'), 1);
  assert.is(statementCount('select 1 -- a;b\n'), 1);
  assert.is(statementCount('select /* ; */ 1'), 1);
  assert.is(statementCount('select 1; select 2'), 2);
  assert.is(statementCount("create table t (a int); insert into t values (';')"), 2);
  assert.is(statementCount('  ;  '), 0);
});

let db: TestDb;
let srv: TestServer;
test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
});
test.after(async () => {
  await srv.close();
  await db.close();
});

test("raw SQL with a ';' in a value answers like any other query", async () => {
  const r = await call(srv.api, 'GET', `/repos/search?q=${encodeURIComponent("a;b'; select 1")}`);
  assert.is(r.status, 200, r.text);
  assert.equal(r.json, { ok: true, data: [] });
  const rows = await db.db.orm.em.fork().getConnection().execute("select 'x;y' as v, ? as w", ['p;q']);
  assert.equal(rows, [{ v: 'x;y', w: 'p;q' }]);
});

test.run();
