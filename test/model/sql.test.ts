// The one way to run SQL besides entities (model/sql.ts): values are always parameters, fragments
// compose in order, and the writes a request queues for its end run as one text, all or nothing, on
// both databases.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb, type TestDb } from '../helpers/server.ts';
import { executeSql, fromPlaceholders, inTransaction, readPrepared, readRows, sql, writeAlone, writeSql } from '../../model/sql.ts';
import { countSql } from '../helpers/sql-count.ts';
import { statementPoolOf } from '../../model/statement-pool.ts';

let db: TestDb;
test.before(async () => {
  db = await openTestDb();
  await db.db.orm.em.getConnection().execute('create table sql_t (id int primary key, n int not null, s text not null)');
});
test.after(async () => {
  await db.close();
});

const em = () => db.db.orm.em.fork();
const rows = async () =>
  (await executeSql<{ id: number; n: number; s: string }>(em(), sql`select id, n, s from sql_t order by id`)).map((r) => [r.id, r.n, r.s]);

test('sql: values become placeholders in order, fragments splice in with their values', () => {
  const where = sql.join([sql`a = ${1}`, sql`b in (${sql.list([2, 3])})`, sql`c = ${'x'}`], ' and ');
  const q = sql`select ${sql.id('col_1')} from t where ${where} limit ${4}`;
  assert.is(q.text, 'select "col_1" from t where a = ? and b in (?, ?) and c = ? limit ?');
  assert.equal(q.values, [1, 2, 3, 'x', 4]);
  assert.is(sql.join([]).text, '');
  assert.is(sql`x ${sql.empty}y`.text, 'x y');
  assert.throws(() => sql.id('a"; drop table t; --'), /not an identifier/);
  assert.throws(() => sql.raw('a ? b'), /may not contain/);
  assert.throws(() => sql.list([]), /at least one/);
});

test('a value that looks like SQL stays a value, on the database too', async () => {
  const evil = "x'); delete from sql_t; --";
  await executeSql(em(), sql`insert into sql_t (id, n, s) values (${1}, ${0}, ${evil})`);
  await executeSql(em(), sql`insert into sql_t (id, n, s) values (${2}, ${0}, ${'a;b?c'})`);
  assert.equal(await rows(), [
    [1, 0, evil],
    [2, 0, 'a;b?c'],
  ]);
  const found = await readRows<{ id: number }>(em(), [], sql`select id from sql_t where s = ${'a;b?c'}`);
  assert.equal(found, [{ id: 2 }]);
  await executeSql(em(), 'delete from sql_t');
});

test('writeSql answers the rows a write changed; fromPlaceholders splices a `{ sql, params }` pair', async () => {
  const e = em();
  assert.is(await writeSql(e, sql`insert into sql_t (id, n, s) values (${1}, ${0}, ${''}), (${2}, ${0}, ${''})`), 2);
  const one = fromPlaceholders({ sql: 'id = ? and s = ?', params: [2, ''] });
  assert.is(one.text, 'id = ? and s = ?');
  assert.is(await writeSql(e, sql`update sql_t set n = n + ${5} where ${one}`), 1);
  assert.is(await writeSql(e, sql`update sql_t set n = 0 where id = ${99}`), 0);
  assert.equal(await rows(), [
    [1, 0, ''],
    [2, 5, ''],
  ]);
  assert.throws(() => fromPlaceholders({ sql: 'a = ?', params: [] }), /1 placeholders for 0 values/);
  await executeSql(em(), sql`delete from sql_t`);
});

test('inTransaction: the statements run in the transaction, and a failure undoes them', async () => {
  const e = em();
  await inTransaction(e, () => executeSql(e, sql`insert into sql_t (id, n, s) values (${1}, ${0}, ${''})`));
  const f = em();
  await inTransaction(f, async () => {
    await executeSql(f, sql`insert into sql_t (id, n, s) values (${2}, ${0}, ${''})`);
    await executeSql(f, sql`insert into sql_t (id, n, s) values (${1}, ${0}, ${''})`);
  }).then(
    () => assert.unreachable('a duplicate key commits nothing'),
    () => undefined,
  );
  assert.equal(await rows(), [[1, 0, '']]);
  await executeSql(em(), 'delete from sql_t');
});

test('writeAlone: one statement text, each write told its rows, later writes see earlier ones', async () => {
  const answers: unknown[] = [];
  const counted = await countSql(db.db.orm, () =>
    writeAlone(em(), [
      { sql: 'insert into sql_t (id, n, s) values (?, ?, ?) returning id', params: [1, 0, "it's; a ?"], answered: (r) => answers.push(r) },
      { sql: 'update sql_t set n = n + ? where id = ?', params: [5, 1] },
      { sql: 'select n from sql_t where id = ?', params: [1], answered: (r) => answers.push(r) },
    ]),
  );
  assert.is(counted.statements.length, 1, counted.statements.join('\n'));
  assert.equal(answers, [[{ id: 1 }], [{ n: 5 }]]);
  assert.equal(await rows(), [[1, 5, "it's; a ?"]]);
});

test('writeAlone: when one write fails none stays, and the connection serves the next statement', async () => {
  const before = await rows();
  await writeAlone(em(), [
    { sql: 'update sql_t set n = n + 1 where id = ?', params: [1] },
    { sql: 'insert into sql_t (id, n, s) values (?, ?, ?)', params: [2, 0, ''] },
    { sql: 'insert into sql_t (id, n, s) values (?, ?, ?)', params: [1, 0, ''] },
  ]).then(
    () => assert.unreachable('a duplicate key fails the text'),
    () => undefined,
  );
  assert.equal(await rows(), before);
  // Every pooled connection is usable (not left in a failed transaction).
  for (let i = 0; i < 4; i++) assert.equal(await executeSql(em(), sql`select ${i}::int as i`), [{ i }]);
});

test('readPrepared: the rows readRows reads, one statement each, in and out of a transaction; on PostgreSQL a named statement planned once', async () => {
  await executeSql(em(), 'delete from sql_t');
  await executeSql(em(), sql`insert into sql_t (id, n, s) values (${1}, ${7}, ${"it's"}), (${2}, ${8}, ${'b'})`);
  const text = 'select id, n, s from sql_t where s = ? or n = ? order by id';
  const plain = await readRows(em(), [], text, ["it's", 8]);
  const { result, statements } = await countSql(db.db.orm, () => readPrepared(em(), [], text, ["it's", 8]));
  assert.equal(result, plain);
  assert.is(statements.length, 1);
  const e = em();
  await inTransaction(e, async () => assert.equal(await readPrepared(e, [], text, ["it's", 8]), plain));
  if (process.env.CAIRN__DATABASE__URL) {
    // On the connection that ran it, the statement is prepared, and a second execution is not planned as a new text.
    const seen = await inTransaction(e, async () => {
      await readPrepared(e, [], text, ['b', 0]);
      return executeSql<{ n: number }>(
        e,
        "select count(*)::int as n from pg_prepared_statements where statement like '%from sql_t where s = $1 or n = $2%'",
      );
    });
    assert.is(seen[0]!.n, 1);
  }
  await executeSql(em(), 'delete from sql_t');
});

test('readPrepared: after a column changed its type under a prepared statement, the statement still answers (PostgreSQL)', async () => {
  if (!process.env.CAIRN__DATABASE__URL) return;
  await executeSql(em(), 'create table sql_p (a int primary key, b int not null)');
  await executeSql(em(), 'insert into sql_p (a, b) values (1, 2)');
  const text = 'select a, b from sql_p where a = ?';
  // More calls than the pool has connections, so that each connection prepares it.
  for (let i = 0; i < 12; i++) assert.equal(await readPrepared(em(), [], text, [1]), [{ a: 1, b: 2 }]);
  await executeSql(em(), 'alter table sql_p alter column b type bigint');
  for (let i = 0; i < 12; i++) assert.is(Number((await readPrepared<{ b: unknown }>(em(), [], text, [1]))[0]!.b), 2);
  await executeSql(em(), 'drop table sql_p');
});

test("the statement pool (PostgreSQL): each connection reads a prepared statement's rows as the ORM's connection does, every time; after an error it prepares the statement again", async () => {
  if (!process.env.CAIRN__DATABASE__URL) return;
  const pool = statementPoolOf(db.db.orm.em.getConnection())!;
  assert.ok(pool, 'PostgreSQL has a statement pool');
  await executeSql(em(), 'create table sql_q (a int primary key, b text, c timestamptz not null, d jsonb, e bigint, f int[], g boolean)');
  const at = new Date('2026-01-02T03:04:05.678Z');
  await executeSql(
    em(),
    sql`insert into sql_q values (${1}, ${null}, ${at}, ${'{"k": [1, "<x>"]}'}, ${'9007199254740993'}, ${'{1,2}'}, ${true})`,
  );
  const text = 'select a, b, c, d, e, f, g, a + 1 as "a plus", null::text as "none" from sql_q where c = ? and g = ? and a > ?';
  const plain = await readRows(em(), [], text, [at, true, 0]);
  assert.is(plain.length, 1);
  // More executions than the pool has connections: each one prepares the statement once and then reads
  // the rows by the columns it was told.
  for (let i = 0; i < 12; i++) assert.equal(await readPrepared(em(), [], text, [at.toISOString(), true, 0]), plain);
  const write = {
    name: 'cairn_test_pool_insert',
    text: 'insert into sql_q (a, c) values (?, ?)',
    numbered: 'insert into sql_q (a, c) values ($1, $2)',
  };
  for (let i = 0; i < 12; i++) {
    // A key taken: PostgreSQL refuses, the connection stays in the pool and prepares the text again next time.
    await pool.query(write, [1, at]).then(
      () => assert.unreachable('a duplicate key'),
      (e: { code?: string }) => assert.is(e.code, '23505'),
    );
    assert.equal(await pool.query(write, [100 + i, at]), [], 'a statement without rows answers none');
  }
  assert.is(Number((await executeSql<{ n: string }>(em(), 'select count(*) as n from sql_q'))[0]!.n), 13);
  // A table that gains a column changes a `*` statement's rows: refused once on a connection that
  // prepared it before, then prepared again with the new columns.
  const star = { name: 'cairn_test_pool_star', text: 'select * from sql_q where a = ?', numbered: 'select * from sql_q where a = $1' };
  for (let i = 0; i < 12; i++) assert.equal(Object.keys((await pool.query<object>(star, [1]))[0]!).length, 7);
  await executeSql(em(), 'alter table sql_q add column h int not null default 5');
  let refused = 0;
  for (let i = 0; i < 30; i++) {
    const got = await pool.query<{ h: number }>(star, [1]).catch((e: { code?: string }) => {
      assert.is(e.code, '0A000');
      refused++;
      return null;
    });
    if (got) assert.is(got[0]!.h, 5);
  }
  assert.ok(refused <= 10, `${refused} refusals: each connection is refused once at most`);
  await executeSql(em(), 'drop table sql_q');
});

test("a hot row's lane: its statements run in the order sent, each in its own transaction, one failing alone", async () => {
  const pool = statementPoolOf(db.db.orm.em.getConnection());
  if (!pool) return; // the embedded database has no statement pool: a hot write runs as any other
  await executeSql(em(), 'create table sql_lane (id int primary key, n int not null)');
  await executeSql(em(), 'insert into sql_lane values (1, 0)');
  const bump = {
    name: 'cairn_test_lane_bump',
    text: 'update sql_lane set n = n + 1 / ? where id = 1 returning n',
    numbered: 'update sql_lane set n = n + 1 / $1 where id = 1 returning n',
  };
  // Forty writes of one row sent at once, the eleventh dividing by zero: the others all commit, one
  // after the other in the order they were sent, so each reads the count the ones before it left.
  const sent = Array.from({ length: 40 }, (_, i) =>
    pool.queryInLane<{ n: number }>('sql_lane:1', bump, [i === 10 ? 0 : 1]).then(
      (rows) => rows[0]!.n,
      (e: { code?: string }) => e.code,
    ),
  );
  const got = await Promise.all(sent);
  assert.is(got[10], '22012', 'division by zero fails alone');
  assert.equal(
    got.filter((_, i) => i !== 10),
    Array.from({ length: 39 }, (_, i) => i + 1),
  );
  assert.is((await executeSql<{ n: number }>(em(), 'select n from sql_lane'))[0]!.n, 39);
  // Writes of other rows go on as well, on their lanes.
  const other = await Promise.all(['sql_lane:2', 'sql_lane:3', 'sql_lane:4'].map((row) => pool.queryInLane<{ n: number }>(row, bump, [1])));
  assert.equal(
    other.map((r) => r[0]!.n).sort((a, b) => a - b),
    [40, 41, 42],
  );
  // A table that gains a column: the lane's connection prepared `*` before, PostgreSQL refuses it once
  // there, and the lane's next statements go on a new connection that prepares it with the new column.
  const star = {
    name: 'cairn_test_lane_star',
    text: 'select * from sql_lane where id = ?',
    numbered: 'select * from sql_lane where id = $1',
  };
  assert.equal(await pool.queryInLane('sql_lane:1', star, [1]), [{ id: 1, n: 42 }]);
  await executeSql(em(), 'alter table sql_lane add column z int not null default 7');
  const after: unknown[] = [];
  for (let i = 0; i < 3; i++) after.push(await pool.queryInLane('sql_lane:1', star, [1]).catch((e: { code?: string }) => e.code));
  assert.equal(after.slice(-2), [[{ id: 1, n: 42, z: 7 }], [{ id: 1, n: 42, z: 7 }]], JSON.stringify(after));
  await executeSql(em(), 'drop table sql_lane');
});

test('writeAlone refuses to run inside a transaction (it would commit nothing of its own)', async () => {
  const e = em();
  await e.begin();
  await writeAlone(e, [{ sql: 'select 1', params: [] }]).then(
    () => assert.unreachable('refused'),
    (err: Error) => assert.match(err.message, /outside a transaction/),
  );
  await e.rollback();
});

test.run();
