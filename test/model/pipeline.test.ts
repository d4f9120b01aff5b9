// A transaction's BEGIN rides with its first statement and its COMMIT with its last writes
// (model/pipeline.ts, issue 10). On PostgreSQL the tests count what is written to the connection's
// socket (one write per wait for the server); on either database they hold what must not change:
// a transaction is all or nothing, a failed end commits nothing and leaves the connection usable.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EntityManager } from '@mikro-orm/core';
import { openTestDb, type TestDb } from '../helpers/server.ts';
import { requestEm } from '../../model/db.ts';
import { commitWith, executeFast } from '../../model/raw.ts';
import { countSql } from '../helpers/sql-count.ts';

const onPostgres = Boolean(process.env.CAIRN__DATABASE__URL);
let db: TestDb;

test.before(async () => {
  db = await openTestDb();
  await db.db.orm.em.getConnection().execute('create table pipeline_t (id int primary key, n int not null)');
});
test.after(async () => {
  await db.close();
});

const rows = async () =>
  (await db.db.orm.em.getConnection().execute<{ id: number; n: number }[]>('select id, n from pipeline_t order by id')).map((r) => [
    r.id,
    r.n,
  ]);
const insert = (id: number, n = 0) => ({ sql: 'insert into pipeline_t (id, n) values (?, ?)', params: [id, n] });
const bump = (id: number) => ({ sql: 'update pipeline_t set n = n + 1 where id = ?', params: [id] });
const reset = () => db.db.orm.em.getConnection().execute('delete from pipeline_t');

interface Socket {
  _write?: (...a: unknown[]) => unknown;
  _writev?: (...a: unknown[]) => unknown;
}
interface TrxClient {
  connection: { stream: Socket };
}

/**
 * Counts the writes to the socket of the transaction's connection from now on (PostgreSQL; on the
 * embedded database there is no socket and the count stays null).
 */
async function socketWrites(em: EntityManager): Promise<{ count: () => number | null; stop: () => void }> {
  if (!onPostgres) return { count: () => null, stop: () => undefined };
  const trx = em.getTransactionContext() as { client: { acquireConnection(): Promise<TrxClient> } };
  const stream = (await trx.client.acquireConnection()).connection.stream;
  let n = 0;
  const own = { write: Object.hasOwn(stream, '_write'), writev: Object.hasOwn(stream, '_writev') };
  const write = stream._write!;
  const writev = stream._writev!;
  stream._write = function (this: unknown, ...a: unknown[]) {
    n++;
    return write.apply(this, a);
  };
  stream._writev = function (this: unknown, ...a: unknown[]) {
    n++;
    return writev.apply(this, a);
  };
  return {
    count: () => n,
    stop: () => {
      if (own.write) stream._write = write;
      else delete stream._write;
      if (own.writev) stream._writev = writev;
      else delete stream._writev;
    },
  };
}

test('BEGIN goes with the first statement, COMMIT with the last writes: two writes to the socket, every statement still counted', async () => {
  await reset();
  const em = requestEm(db.db.orm);
  const counted = await countSql(db.db.orm, async () => {
    await em.begin();
    const w = await socketWrites(em);
    try {
      await executeFast(em, insert(1).sql, insert(1).params);
      await executeFast(em, insert(2).sql, insert(2).params);
      await commitWith(em, [bump(1), bump(2)]);
    } finally {
      w.stop();
    }
    return w.count();
  });
  if (onPostgres) assert.is(counted.result, 3, 'BEGIN + insert, insert, the two updates + COMMIT');
  assert.equal(
    counted.statements.map((s) => s.split(' ')[0]!.toLowerCase().replace(/;$/, '')),
    ['begin', 'insert', 'insert', 'update', 'update', 'commit'],
  );
  assert.not.ok(em.isInTransaction());
  assert.equal(await rows(), [
    [1, 1],
    [2, 1],
  ]);
});

test('a transaction that runs nothing sends nothing, whether it commits or rolls back', async () => {
  for (const end of ['commit', 'rollback'] as const) {
    const em = requestEm(db.db.orm);
    await em.begin();
    const w = await socketWrites(em);
    if (end === 'commit') await commitWith(em, []);
    else await em.rollback();
    w.stop();
    if (onPostgres) assert.is(w.count(), 0, end);
    assert.not.ok(em.isInTransaction(), end);
  }
  // The connections are as good as before.
  assert.equal(await executeFast(requestEm(db.db.orm), 'select ?::int as n', [5]), [{ n: 5 }]);
});

test('a write before COMMIT that fails commits nothing of the transaction, answers its own error and leaves the connection usable', async () => {
  await reset();
  await db.db.orm.em.getConnection().execute('insert into pipeline_t (id, n) values (9, 0)');
  const em = requestEm(db.db.orm);
  await em.begin();
  await executeFast(em, insert(1).sql, insert(1).params);
  // The second write breaks the primary key; the one after it and COMMIT are on the wire already.
  const err = await commitWith(em, [bump(1), insert(9), bump(9)]).then(
    () => null,
    (e: unknown) => e as Error & { code?: string },
  );
  assert.ok(err, 'commitWith succeeded');
  assert.match(String(err!.message), /duplicate key|unique/i);
  assert.not.ok(em.isInTransaction());
  assert.equal(await rows(), [[9, 0]], 'nothing of the failed transaction stays');
  // Every connection of the pool serves the next transactions (none is left inside the failed one).
  for (let i = 0; i < 6; i++) {
    await requestEm(db.db.orm).transactional(async (tx) => {
      await executeFast(tx, bump(9).sql, bump(9).params);
    });
  }
  assert.equal(await rows(), [[9, 6]]);
});

test('a statement that fails inside the transaction: ROLLBACK undoes what ran before it', async () => {
  await reset();
  const em = requestEm(db.db.orm);
  await em.begin();
  await executeFast(em, insert(1).sql, insert(1).params);
  await executeFast(em, 'select 1 / ?::int as n', [0]).then(
    () => assert.unreachable('division by zero'),
    () => undefined,
  );
  await em.rollback();
  assert.equal(await rows(), []);
});

test('nested transactions (savepoints) and transactions run by the ORM keep their meaning', async () => {
  await reset();
  await requestEm(db.db.orm).transactional(async (outer) => {
    await executeFast(outer, insert(1).sql, insert(1).params);
    await outer.transactional(async (inner) => {
      await executeFast(inner, insert(2).sql, insert(2).params);
    });
    await outer
      .transactional(async (inner) => {
        await executeFast(inner, insert(3).sql, insert(3).params);
        throw new Error('undo the savepoint');
      })
      .catch(() => undefined);
  });
  assert.equal(await rows(), [
    [1, 0],
    [2, 0],
  ]);
});

test('concurrent transactions on a small pool each commit their own writes', async () => {
  await reset();
  await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      (async () => {
        const em = requestEm(db.db.orm);
        await em.begin();
        await executeFast(em, insert(100 + i).sql, insert(100 + i).params);
        await commitWith(em, [bump(100 + i)]);
      })(),
    ),
  );
  const got = await rows();
  assert.is(got.length, 20);
  assert.ok(
    got.every(([, n]) => n === 1),
    JSON.stringify(got),
  );
});

test.run();
