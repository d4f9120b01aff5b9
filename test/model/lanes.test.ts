// Lanes of hot rows (model/raw.ts commitInLane, issue 10): transactions of one hot row that sent
// nothing before COMMIT are written one behind the other on one connection. Each stays its own
// transaction: all of it or nothing, a failure its own; the lane closes when none is under way.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb, type TestDb } from '../helpers/server.ts';
import { requestEm } from '../../model/db.ts';
import { commitInLane, executeFast, lanesOpen } from '../../model/raw.ts';
import { openTransaction } from '../../model/transaction.ts';
import { countSql } from '../helpers/sql-count.ts';

const onPostgres = Boolean(process.env.CAIRN__DATABASE__URL);
let db: TestDb;

test.before(async () => {
  db = await openTestDb();
  await db.db.orm.em.getConnection().execute('create table lane_t (id int primary key, n int not null)');
});
test.after(async () => {
  await db.close();
});

const conn = () => db.db.orm.em.getConnection();
const counter = async () => (await conn().execute<{ n: number }[]>('select n from lane_t where id = 0'))[0]!.n;
const reset = async () => {
  await conn().execute('delete from lane_t');
  await conn().execute('insert into lane_t (id, n) values (0, 0)');
};

/** One request's transaction: a new row `id`, the shared counter raised, the backend that ran it. */
async function newRow(id: number, backends: number[]): Promise<void> {
  const em = requestEm(db.db.orm);
  await openTransaction(em);
  await commitInLane(em, 'lane_t 0', [
    { sql: 'insert into lane_t (id, n) values (?, 0)', params: [id] },
    {
      sql: 'select pg_backend_pid() as pid',
      params: [],
      answered: (rows) => {
        backends.push(Number(rows[0]!.pid));
      },
    },
    { sql: 'update lane_t set n = n + 1 where id = ?', params: [0] },
  ]);
  assert.not.ok(em.isInTransaction());
}

test('transactions of one hot row at once: all committed, on one connection, each statement counted in its order', async () => {
  await reset();
  const backends: number[] = [];
  const counted = await countSql(db.db.orm, () => Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((id) => newRow(id, backends))));
  assert.is(await counter(), 8);
  assert.is(backends.length, 8);
  if (onPostgres) assert.is(new Set(backends).size, 1, `one backend ran them all: ${backends.join(', ')}`);
  const words = counted.statements.map((s) => s.split(' ')[0]!.toLowerCase().replace(/;$/, ''));
  assert.is(words.length, 8 * 5);
  for (let i = 0; i < words.length; i += 5)
    assert.equal(words.slice(i, i + 5), ['begin', 'insert', 'select', 'update', 'commit'], words.join(' '));
  assert.is(lanesOpen(), 0, 'the lane closes when nothing is under way');
});

test('a failing transaction in the lane rolls back alone; the ones behind it commit', async () => {
  await reset();
  const backends: number[] = [];
  const outcomes = await Promise.allSettled([10, 11, 10, 12].map((id) => newRow(id, backends)));
  assert.equal(
    outcomes.map((o) => o.status),
    ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
  );
  const err = (outcomes[2] as PromiseRejectedResult).reason as { code?: string; message: string };
  assert.match(err.message, /duplicate key|unique/i);
  assert.is(await counter(), 3, 'the failed one raised nothing');
  assert.equal(
    (await conn().execute<{ id: number }[]>('select id from lane_t where id > 0 order by id')).map((r) => r.id),
    [10, 11, 12],
  );
  assert.is(lanesOpen(), 0);
  // The connection went back to the pool usable.
  assert.is(Number((await executeFast(requestEm(db.db.orm), 'select count(*)::int as c from lane_t', []))[0]!.c), 4);
});

test('a transaction that ran a statement before COMMIT commits on its own connection, not in a lane', async () => {
  await reset();
  const em = requestEm(db.db.orm);
  await openTransaction(em);
  await executeFast(em, 'insert into lane_t (id, n) values (?, 0)', [20]);
  const backends: number[] = [];
  await commitInLane(em, 'lane_t 0', [
    {
      sql: 'select pg_backend_pid() as pid',
      params: [],
      answered: (rows) => {
        backends.push(Number(rows[0]!.pid));
      },
    },
    { sql: 'update lane_t set n = n + 1 where id = ?', params: [0] },
  ]);
  assert.not.ok(em.isInTransaction());
  assert.is(await counter(), 1);
  assert.is(backends.length, 1);
  assert.is(lanesOpen(), 0, 'no lane was opened');
});

test('two pools in one process (two ORMs, two databases): a hot row of the same name is a lane in each', async () => {
  await reset();
  const other = await openTestDb();
  try {
    await other.db.orm.em.getConnection().execute('create table lane_t (id int primary key, n int not null)');
    await other.db.orm.em.getConnection().execute('insert into lane_t (id, n) values (0, 0)');
    const inOther = async (id: number) => {
      const em = requestEm(other.db.orm);
      await openTransaction(em);
      await commitInLane(em, 'lane_t 0', [
        { sql: 'insert into lane_t (id, n) values (?, 0)', params: [id] },
        { sql: 'update lane_t set n = n + 1 where id = ?', params: [0] },
      ]);
    };
    const backends: number[] = [];
    await Promise.all([30, 31, 32].flatMap((id) => [newRow(id, backends), inOther(id + 10)]));
    assert.is(await counter(), 3);
    assert.equal(
      (await conn().execute<{ id: number }[]>('select id from lane_t where id > 0 order by id')).map((r) => r.id),
      [30, 31, 32],
    );
    const there = await other.db.orm.em.getConnection().execute<{ id: number; n: number }[]>('select id, n from lane_t order by id');
    assert.equal(
      there.map((r) => [r.id, r.n]),
      [
        [0, 3],
        [40, 0],
        [41, 0],
        [42, 0],
      ],
    );
    assert.is(lanesOpen(), 0);
  } finally {
    await other.close();
  }
});

test.run();
