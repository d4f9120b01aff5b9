// The lease (model/lease.ts, issue 10) hands the reads outside a transaction connections that knex's
// pool (tarn) counts as used. It must never make the pool larger, never keep a transaction waiting
// for a connection it only holds, never hand out a connection that failed, and give everything back
// when the pool closes. The first tests drive a real tarn pool with stand-in connections (on either
// database); the last ones the real pool on PostgreSQL, with a pool of two.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Pool } from 'tarn';
import { Lease, type LeaseClient, type Tarn } from '../../model/lease.ts';
import { openTestDb } from '../helpers/server.ts';
import { openDatabase, requestEm } from '../../model/db.ts';
import { executeFast } from '../../model/raw.ts';
import { loadConfig } from '../../config.ts';

interface Conn {
  id: number;
  busy: boolean;
  __knex__disposed?: unknown;
}

/** A tarn pool of stand-in connections, validated as knex validates them (not disposed), with the lease over it. */
function pool(max: number) {
  let made = 0;
  const destroyed: Conn[] = [];
  const tarn = new Pool<Conn>({
    min: 0,
    max,
    create: async () => ({ id: ++made, busy: false }),
    destroy: (c) => {
      destroyed.push(c);
    },
    validate: (c) => c.__knex__disposed === undefined,
    acquireTimeoutMillis: 3000,
  });
  const client: LeaseClient<Conn> = { pool: tarn as unknown as Tarn<Conn>, acquireConnection: () => tarn.acquire().promise };
  const lease = new Lease(client, client.pool!);
  return { tarn, client, lease, destroyed, made: () => made };
}

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

/** One read on the lease: no connection is ever in use twice, and tarn never has more than its maximum. */
async function read(p: ReturnType<typeof pool>, ms = 1, fail = false): Promise<Conn> {
  const c = p.lease.take() ?? (await p.lease.wait());
  assert.not.ok(c.busy, `connection ${c.id} handed out while in use`);
  c.busy = true;
  assert.ok(p.tarn.numUsed() <= (p.tarn as unknown as Tarn<Conn>).max, 'tarn over its maximum');
  await tick(ms);
  c.busy = false;
  p.lease.give(c, fail);
  return c;
}

/** A transaction's use of the pool: acquire through the client, hold, release. */
async function transaction(p: ReturnType<typeof pool>, ms = 2): Promise<void> {
  const c = await p.client.acquireConnection();
  assert.not.ok(c.busy, `connection ${c.id} handed to a transaction while a read uses it`);
  c.busy = true;
  await tick(ms);
  c.busy = false;
  p.tarn.release(c);
}

test('many concurrent reads stay within the pool and share its connections', async () => {
  const p = pool(2);
  await Promise.all(Array.from({ length: 200 }, () => read(p)));
  assert.ok(p.made() <= 2, `${p.made()} connections made`);
  assert.is(p.lease.held.busy, 0);
  // Every connection tarn counts as used is idle in the lease: none was lost.
  assert.is(p.lease.held.idle, p.tarn.numUsed());
  await p.tarn.destroy();
});

test('a transaction gets a connection while reads keep the pool busy', async () => {
  const p = pool(2);
  let readsDone = 0;
  let left = 400;
  const readers = Array.from({ length: 20 }, async () => {
    while (left-- > 0) {
      await read(p);
      readsDone++;
    }
  });
  await tick(5);
  const trx: Promise<number>[] = [];
  for (let i = 0; i < 5; i++) trx.push(transaction(p).then(() => readsDone));
  const doneAt = await Promise.all(trx);
  await Promise.all(readers);
  for (const at of doneAt) assert.ok(at < 400, `a transaction finished only after all reads (${at})`);
  await p.tarn.destroy();
});

test('idle connections of the lease go to a transaction when tarn has none free', async () => {
  const p = pool(2);
  await Promise.all([read(p), read(p)]);
  assert.is(p.lease.held.idle, 2);
  assert.is(p.tarn.numFree(), 0);
  const started = Date.now();
  await Promise.all([transaction(p), transaction(p)]);
  assert.ok(Date.now() - started < 1000, 'the transactions waited for the acquire timeout');
  assert.is(p.made(), 2);
  await p.tarn.destroy();
});

test('a connection whose statement failed goes back to tarn, and a disposed one is not reused', async () => {
  const p = pool(1);
  const failed = await read(p, 0, true);
  assert.is(p.lease.held.idle, 0, 'a failed connection stayed in the lease');
  assert.is(p.tarn.numFree(), 1);
  failed.__knex__disposed = new Error('connection reset');
  // tarn validates it before handing it out again: it is destroyed and a new one made.
  const next = await read(p);
  assert.is.not(next, failed);
  assert.equal(p.destroyed, [failed]);
  // One disposed while idle in the lease is not handed out either.
  next.__knex__disposed = 'Connection ended unexpectedly';
  const third = await read(p);
  assert.is.not(third, next);
  assert.is(p.destroyed.length, 2);
  await p.tarn.destroy();
});

test('idle connections go back to tarn after a second unused', async () => {
  const p = pool(3);
  await Promise.all([read(p), read(p), read(p)]);
  assert.is(p.lease.held.idle, 3);
  await tick(2300);
  assert.is(p.lease.held.idle, 0);
  assert.is(p.tarn.numFree(), 3);
  await p.tarn.destroy();
});

test('destroying the pool takes back idle and in-use connections and fails waiting reads', async () => {
  const p = pool(1);
  await read(p);
  assert.is(p.lease.held.idle, 1);
  const inUse = read(p, 50);
  const waiting = read(p).then(
    () => 'served',
    (e: Error) => e.message,
  );
  await tick(5);
  const destroyed = p.tarn.destroy();
  assert.is(await waiting, 'Unable to acquire a connection');
  await inUse;
  await destroyed;
  assert.is(p.destroyed.length, 1);
  assert.is(p.lease.held.idle, 0);
  await p.lease.wait().then(
    () => assert.unreachable('a read was served after the pool closed'),
    (e: Error) => assert.is(e.message, 'Unable to acquire a connection'),
  );
});

test('a failed acquire fails the reads that were waiting for it', async () => {
  let fail = true;
  const tarn = new Pool<Conn>({
    min: 0,
    max: 1,
    create: async () => {
      if (fail) throw new Error('connection refused');
      return { id: 1, busy: false };
    },
    destroy: () => {},
    propagateCreateError: true,
  });
  const client: LeaseClient<Conn> = { pool: tarn as unknown as Tarn<Conn>, acquireConnection: () => tarn.acquire().promise };
  const lease = new Lease(client, client.pool!);
  const outcomes = await Promise.all(
    [lease.wait(), lease.wait()].map((w) =>
      w.then(
        () => 'served',
        (e: Error) => e.message,
      ),
    ),
  );
  assert.equal(outcomes, ['connection refused', 'connection refused']);
  fail = false;
  const c = await lease.wait();
  lease.give(c, false);
  await tarn.destroy();
});

const onPostgres = Boolean(process.env.CAIRN__DATABASE__URL);

test('on PostgreSQL, a pool of two serves concurrent reads and transactions, keeps two connections and closes', async () => {
  if (!onPostgres) return;
  const t = await openTestDb();
  const url = t.db.orm.config.getClientUrl();
  const db = await openDatabase(loadConfig({}, { DATABASE__URL: url, DATABASE__POOL_MAX: '2', SERVER__APP_DATA_PATH: t.dataPath }));
  const name = new URL(url).pathname.slice(1);
  const reads = Array.from({ length: 300 }, (_, i) => executeFast<{ n: number }>(requestEm(db.orm), 'select ?::int as n', [i]));
  const writes = Array.from({ length: 5 }, (_, i) =>
    requestEm(db.orm).transactional((em) => executeFast<{ n: number }>(em, 'select ?::int + 1 as n', [i])),
  );
  const got = await Promise.all(reads);
  assert.equal(
    got.map((r) => r[0]!.n),
    Array.from({ length: 300 }, (_, i) => i),
  );
  assert.equal(
    (await Promise.all(writes)).map((r) => r[0]!.n),
    [1, 2, 3, 4, 5],
  );
  // A statement that fails leaves the pool usable.
  await executeFast(requestEm(db.orm), 'select 1 / ?::int as n', [0]).then(
    () => assert.unreachable('division by zero'),
    () => undefined,
  );
  assert.equal(await executeFast(requestEm(db.orm), 'select ?::int as n', [7]), [{ n: 7 }]);
  const rows = await t.db.orm.em
    .getConnection()
    .execute<{ n: string }[]>(`select count(*) as n from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`);
  // The test database's own pool has its connections too: at most one (this statement's) besides the two.
  assert.ok(Number(rows[0]!.n) <= 3, `${rows[0]!.n} connections`);
  const closed = await Promise.race([db.close().then(() => true), tick(10_000).then(() => false)]);
  assert.ok(closed, 'orm.close() did not end');
  await t.close();
});

test.run();
