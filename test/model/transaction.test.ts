// A request's transaction (model/transaction.ts, issue 10): on PostgreSQL made without knex's
// transaction object, taking its connection at its first statement. Held here: all or nothing through
// the ORM, raw statements and model/pipeline.ts alike; savepoints for a nested `em.transactional`;
// nothing runs after the end; a failed COMMIT commits nothing; no connection is kept or lost. On the
// embedded database `openTransaction` is `em.begin()`, and the same rules hold.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EntityManager } from '@mikro-orm/core';
import { openTestDb, type TestDb } from '../helpers/server.ts';
import { requestEm } from '../../model/db.ts';
import { commitWith, executeFast } from '../../model/raw.ts';
import { openTransaction } from '../../model/transaction.ts';
import { countSql } from '../helpers/sql-count.ts';

const onPostgres = Boolean(process.env.CAIRN__DATABASE__URL);
let db: TestDb;

test.before(async () => {
  db = await openTestDb();
  const conn = db.db.orm.em.getConnection();
  await conn.execute('create table trx_t (id int primary key, n int not null)');
  // Checked at COMMIT: two rows with one `k` fail the COMMIT itself.
  await conn.execute('create table trx_d (k int, constraint trx_d_k unique (k) deferrable initially deferred)');
});
test.after(async () => {
  await db.close();
});

const conn = () => db.db.orm.em.getConnection();
const rows = async () => (await conn().execute<{ id: number; n: number }[]>('select id, n from trx_t order by id')).map((r) => [r.id, r.n]);
const reset = () => conn().execute('delete from trx_t; delete from trx_d');
/** `sql` in the EntityManager's transaction, through MikroORM's connection (knex's `.transacting`). */
const viaOrm = (em: EntityManager, sql: string, params: unknown[] = []) =>
  em.getConnection().execute(sql, params, 'all', em.getTransactionContext());

/** Connections of knex's pool in use (tarn): none once every transaction has ended. */
function poolInUse(): number | null {
  const pool = (conn().getKnex().client as { pool?: { numUsed(): number } }).pool;
  return onPostgres && pool ? pool.numUsed() : null;
}

test('a transaction that runs nothing takes no connection, and announces its BEGIN and end as knex did', async () => {
  for (const end of ['commit', 'rollback'] as const) {
    const em = requestEm(db.db.orm);
    const counted = await countSql(db.db.orm, async () => {
      await openTransaction(em);
      if (onPostgres) assert.is(poolInUse(), 0, `${end}: a connection was taken before any statement`);
      if (end === 'commit') await commitWith(em, []);
      else await em.rollback();
    });
    assert.equal(
      counted.statements.map((s) => s.split(' ')[0]!.replace(/;$/, '')),
      ['BEGIN', end.toUpperCase()],
      end,
    );
    assert.not.ok(em.isInTransaction(), end);
  }
  if (onPostgres) assert.is(poolInUse(), 0);
});

/** An emptied table and a transaction that inserted row `a` through the ORM and row `b` through `executeFast` (n = id). */
async function insertedBothWays(a: number, b: number): Promise<EntityManager> {
  await reset();
  const em = requestEm(db.db.orm);
  await openTransaction(em);
  await viaOrm(em, 'insert into trx_t (id, n) values (?, ?)', [a, a]);
  await executeFast(em, 'insert into trx_t (id, n) values (?, ?)', [b, b]);
  return em;
}

test("the ORM's statements and the fast ones share the transaction, and commit together", async () => {
  const em = await insertedBothWays(1, 2);
  // Both are visible inside the transaction, neither outside it (the embedded database has one
  // connection: a read outside would wait for the transaction).
  assert.equal((await viaOrm(em, 'select count(*)::int as n from trx_t'))[0], { n: 2 });
  if (onPostgres) assert.equal(await rows(), []);
  await commitWith(em, [{ sql: 'update trx_t set n = n + 10 where id = ?', params: [1] }]);
  assert.equal(await rows(), [
    [1, 11],
    [2, 2],
  ]);
  if (onPostgres) assert.is(poolInUse(), 0);
});

test("a rolled-back transaction leaves nothing of the ORM's statements, the fast ones or a flush", async () => {
  const em = await insertedBothWays(5, 6);
  await em.flush();
  await em.rollback();
  assert.not.ok(em.isInTransaction());
  assert.equal(await rows(), []);
  if (onPostgres) assert.is(poolInUse(), 0);
});

test('a nested em.transactional is a savepoint: its failure undoes only its own statements', async () => {
  await reset();
  const em = requestEm(db.db.orm);
  await openTransaction(em);
  await viaOrm(em, 'insert into trx_t (id, n) values (?, ?)', [1, 1]);
  const failed = await em
    .transactional(async (inner) => {
      await viaOrm(inner, 'insert into trx_t (id, n) values (?, ?)', [2, 2]);
      throw new Error('inner fails');
    })
    .then(
      () => null,
      (e: unknown) => (e as Error).message,
    );
  assert.is(failed, 'inner fails');
  await em.transactional(async (inner) => {
    await viaOrm(inner, 'insert into trx_t (id, n) values (?, ?)', [3, 3]);
  });
  await commitWith(em, []);
  assert.equal(await rows(), [
    [1, 1],
    [3, 3],
  ]);
  if (onPostgres) assert.is(poolInUse(), 0);
});

test('nothing runs in a transaction once it has ended', async () => {
  const em = requestEm(db.db.orm);
  await openTransaction(em);
  await viaOrm(em, 'select 1');
  const ctx = em.getTransactionContext();
  await commitWith(em, []);
  const late = await em
    .getConnection()
    .execute('select 1', [], 'all', ctx)
    .then(
      () => null,
      (e: unknown) => (e as Error).message,
    );
  assert.ok(late && /complete/i.test(late), String(late));
  if (onPostgres) assert.is(poolInUse(), 0);
});

test('a COMMIT that fails commits nothing, answers its error and gives the connection back usable', async () => {
  await reset();
  const em = requestEm(db.db.orm);
  await openTransaction(em);
  await viaOrm(em, 'insert into trx_t (id, n) values (?, ?)', [1, 1]);
  const err = await commitWith(em, [{ sql: 'insert into trx_d (k) values (1), (1)', params: [] }]).then(
    () => null,
    (e: unknown) => e as Error & { code?: string },
  );
  assert.ok(err, 'the COMMIT succeeded');
  assert.is(err.code, '23505', err.message);
  // Pipelined, the transaction has ended with the failed COMMIT; on the embedded database MikroORM's
  // commit keeps it, and the caller rolls it back (server.ts transactional does).
  if (onPostgres) assert.not.ok(em.isInTransaction());
  else await em.rollback();
  assert.equal(await rows(), []);
  if (onPostgres) assert.is(poolInUse(), 0);
  // Every connection of the pool still answers.
  const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => executeFast(requestEm(db.db.orm), 'select ?::int as n', [i])));
  assert.equal(
    answers.map((a) => a[0]),
    Array.from({ length: 12 }, (_, i) => ({ n: i })),
  );
});

test('concurrent transactions on one row: every increment lands once, and the pool keeps no connection', async () => {
  await reset();
  await conn().execute('insert into trx_t (id, n) values (1, 0)');
  await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      const em = requestEm(db.db.orm);
      await openTransaction(em);
      await executeFast(em, 'insert into trx_t (id, n) values (?, ?)', [100 + i, i]);
      if (i % 4 === 3) return em.rollback();
      return commitWith(em, [{ sql: 'update trx_t set n = n + 1 where id = ?', params: [1] }]);
    }),
  );
  const all = await rows();
  assert.equal(all[0], [1, 30]);
  assert.is(all.length, 31);
  if (onPostgres) assert.is(poolInUse(), 0);
});

test("on PostgreSQL a transaction plans its named statements once (generic plans); a read outside keeps PostgreSQL's choice", async () => {
  const mode = "select current_setting('plan_cache_mode') as m";
  const em = requestEm(db.db.orm);
  await openTransaction(em);
  // PostgreSQL's own choice makes five custom plans first: eight executions on the transaction's
  // connection are eight generic plans only when the transaction asks for them.
  const probe = `select n from trx_t where id = ? /* plans ${Date.now()} */`;
  for (let i = 0; i < 8; i++) await executeFast(em, probe, [i]);
  const [inside] = await executeFast(em, mode, []);
  const [viaKnex] = await viaOrm(em, mode);
  const [plans] = await executeFast(
    em,
    'select generic_plans::int as g, custom_plans::int as c from pg_prepared_statements where statement like ?',
    [`%${probe.slice(probe.indexOf('/*'))}%`],
  );
  await commitWith(em, []);
  const [outside] = await executeFast(requestEm(db.db.orm), mode, []);
  if (!onPostgres) {
    // The embedded database's transaction is MikroORM's own; it keeps PostgreSQL's choice.
    assert.equal([inside, outside], [{ m: 'auto' }, { m: 'auto' }]);
    return;
  }
  assert.equal(inside, { m: 'force_generic_plan' });
  assert.equal(viaKnex, { m: 'force_generic_plan' });
  assert.equal(plans, { g: 8, c: 0 });
  assert.equal(outside, { m: 'auto' });
});

test.run();
