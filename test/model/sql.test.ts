// The one way to run SQL besides entities (model/sql.ts): values are always parameters, fragments
// compose in order, and the writes a request queues for its end run as one text, all or nothing, on
// both databases.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb, type TestDb } from '../helpers/server.ts';
import { executeSql, fromPlaceholders, inTransaction, readRows, sql, writeAlone, writeSql } from '../../model/sql.ts';
import { countSql } from '../helpers/sql-count.ts';

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
