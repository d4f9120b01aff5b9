// lib/db/counters.ts: the row locks a recount waits behind, entities learning counters
// written in SQL without writing anything back, and the queue of increments applied before COMMIT.
import { setTimeout as sleep } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  addCounters,
  applyBeforeCommit,
  applyCounterQueue,
  beforeCommitWrites,
  closeCounterQueue,
  deferTailWrites,
  firstWrite,
  learnCounters,
  lockCounterRows,
  openCounterQueue,
  tailWrite,
} from '../../lib/db/counters.ts';
import { commitWith } from '../../model/raw.ts';
import { Topic } from '../../model/topic.ts';
import { openTestDb, type TestDb } from '../helpers/server.ts';
import { countSql } from '../helpers/sql-count.ts';

let db: TestDb;
let topicId: number;
test.before(async () => {
  db = await openTestDb();
  const em = db.db.orm.em.fork();
  const t = em.create(Topic, { name: 'counted', repoCount: 0 });
  await em.flush();
  topicId = t.id;
});
test.after(async () => {
  await db.close();
});

test('learnCounters: a held entity takes the value, and its next flush sends nothing', async () => {
  const em = db.db.orm.em.fork();
  const t = await em.findOneOrFail(Topic, { id: topicId });
  await em.getConnection().execute('update topic set repo_count = 7 where id = ?', [topicId]);
  learnCounters(em, Topic, topicId, { repoCount: 7 });
  assert.is(t.repoCount, 7);
  const { statements } = await countSql(db.db.orm, () => em.flush());
  assert.equal(statements, []);
  // A later change of another column writes that column only, not the counter or the whole row.
  t.name = 'counted2';
  const updates = (await countSql(db.db.orm, () => em.flush())).statements.filter((s) => /^update/i.test(s));
  assert.is(updates.length, 1, updates.join('\n'));
  assert.not.match(updates[0], /repo_count/);
});

test('learnCounters: an entity the EntityManager does not hold is left alone (no partial entity)', async () => {
  const em = db.db.orm.em.fork();
  learnCounters(em, Topic, topicId, { repoCount: 9 });
  assert.is(em.getUnitOfWork().getById('Topic', topicId as never), undefined);
  assert.is((await em.findOneOrFail(Topic, { id: topicId })).name, 'counted2');
});

test('lockCounterRows: no statement for no rows', async () => {
  const em = db.db.orm.em.fork();
  const { statements } = await countSql(db.db.orm, () => lockCounterRows(em, { topic: [], issue: [0] }));
  assert.equal(statements, []);
});

// PGlite has one connection, so two transactions cannot wait for each other there.
test('lockCounterRows: a second writer waits until the first commits (PostgreSQL)', async () => {
  if (!process.env.CAIRN__DATABASE__URL) return;
  const a = db.db.orm.em.fork();
  const b = db.db.orm.em.fork();
  await a.begin();
  await lockCounterRows(a, { topic: [topicId] });
  await b.begin();
  let locked = false;
  const waiting = lockCounterRows(b, { topic: [topicId], repository: [1] }).then(() => {
    locked = true;
  });
  await sleep(300);
  assert.not.ok(locked, 'b waits while a holds the row');
  await a.commit();
  await waiting;
  assert.ok(locked);
  await b.commit();
});

/** The topic's counter, read outside any transaction, or inside `em`'s (PGlite's one connection is its while it is open). */
const repoCount = async (em?: EntityManager) => {
  const on: EntityManager = em ?? db.db.orm.em.fork();
  const rows = await on
    .getConnection()
    .execute<{ n: number }[]>('select repo_count as n from topic where id = ?', [topicId], 'all', on.getTransactionContext());
  return Number(rows[0]!.n);
};

/**
 * Runs `fn` in a transaction with a request's counter queue open, as server.ts runs a write, and
 * commits; a failed assertion rolls it back.
 */
async function queued(fn: (em: EntityManager) => Promise<void>): Promise<void> {
  const em = db.db.orm.em.fork();
  await em.begin();
  openCounterQueue(em);
  try {
    await fn(em);
    await em.commit();
  } finally {
    closeCounterQueue(em);
    if (em.isInTransaction()) await em.rollback();
  }
}

test('addCounters: with no queue (CLI, background work) the increment is written at once', async () => {
  const before = await repoCount();
  await addCounters(db.db.orm.em.fork(), 'topic', topicId, { repo_count: 2 });
  assert.is(await repoCount(), before + 2);
});

test('addCounters: a queue holds the deltas (summed) until applyCounterQueue, one UPDATE for the row', async () => {
  const before = await repoCount();
  await queued(async (em) => {
    await addCounters(em, 'topic', topicId, { repo_count: 1 });
    await addCounters(em, 'topic', topicId, { repo_count: 1 });
    assert.is(await repoCount(em), before, 'not even the transaction itself sees a queued delta');
    const { statements } = await countSql(db.db.orm, () => applyCounterQueue(em));
    assert.is(statements.length, 1, statements.join('\n'));
  });
  assert.is(await repoCount(), before + 2);
});

test('lockCounterRows takes the queued rows into its one ordered lock and writes their deltas', async () => {
  const before = await repoCount();
  await queued(async (em) => {
    await addCounters(em, 'topic', topicId, { repo_count: 3 });
    const { statements } = await countSql(db.db.orm, () => lockCounterRows(em, {}));
    assert.is(statements.length, 2, statements.join('\n'));
    assert.match(statements[0], /from "topic" where id in \(\d+\) order by id for no key update/);
    // Nothing is left for COMMIT.
    assert.equal((await countSql(db.db.orm, () => applyCounterQueue(em))).statements, []);
  });
  assert.is(await repoCount(), before + 3);
});

const NEW_TOPIC = 'insert into topic (name, repo_count, created_at, updated_at) values (?, 0, now(), now())';
const topicNamed = async (name: string) =>
  (await db.db.orm.em.fork().getConnection().execute<{ n: number }[]>('select count(*)::int as n from topic where name = ?', [name]))[0]!.n;

test("tailWrite: without deferTailWrites (or outside a request's queue) the write runs at once", async () => {
  const em = db.db.orm.em.fork();
  deferTailWrites(em);
  const { statements } = await countSql(db.db.orm, () => tailWrite(em, 'topic', NEW_TOPIC, ['tail-now']));
  assert.is(statements.length, 1, statements.join('\n'));
  assert.is(await topicNamed('tail-now'), 1);
});

test('tailWrite after deferTailWrites: queued, then all in one statement, the counters after it; a second write to the same table runs the first', async () => {
  const before = await repoCount();
  await queued(async (em) => {
    await addCounters(em, 'topic', topicId, { repo_count: 1 });
    deferTailWrites(em);
    assert.equal((await countSql(db.db.orm, () => tailWrite(em, 'topic', NEW_TOPIC, ['tail-1']))).statements, []);
    // Two writes of one table cannot share a statement (neither would see the other's rows).
    const second = await countSql(db.db.orm, () => tailWrite(em, 'topic', NEW_TOPIC, ['tail-2']));
    assert.is(second.statements.length, 1, second.statements.join('\n'));
    await tailWrite(em, 'topic-touch', 'update topic set updated_at = now() where id = ?', [topicId]);
    const { statements } = await countSql(db.db.orm, () => applyBeforeCommit(em));
    assert.is(statements.length, 2, statements.join('\n'));
    assert.match(
      statements[0],
      /^with w0 as \(insert into topic .* returning 1\), w1 as \(update topic set updated_at .* returning 1\) select/,
    );
    assert.match(statements[1], /^update "topic" set "repo_count"/);
  });
  assert.is(await repoCount(), before + 1);
  assert.is(await topicNamed('tail-1'), 1);
  assert.is(await topicNamed('tail-2'), 1);
});

const NEW_TOPIC_ID = 'insert into topic (name, repo_count, created_at, updated_at) values (?, 0, now(), now()) returning id';

test('firstWrite: queued ahead of the tail writes and counters, sent with COMMIT, its rows to `answered`; refused outside a queue', async () => {
  assert.is(firstWrite(db.db.orm.em.fork(), { sql: NEW_TOPIC_ID, params: ['never'] }), false);
  let id = 0;
  const em = db.db.orm.em.fork();
  await em.begin();
  openCounterQueue(em);
  try {
    await addCounters(em, 'topic', topicId, { repo_count: 1 });
    deferTailWrites(em);
    await tailWrite(em, 'topic-touch', 'update topic set updated_at = now() where id = ?', [topicId]);
    assert.ok(
      firstWrite(em, {
        sql: NEW_TOPIC_ID,
        params: ['first-1'],
        answered: (rows) => {
          id = Number(rows[0]!.id);
        },
      }),
    );
    const seen = await em
      .getConnection()
      .execute<{ n: number }[]>('select count(*)::int as n from topic where name = ?', ['first-1'], 'all', em.getTransactionContext());
    assert.is(seen[0]!.n, 0, 'not run before COMMIT');
    const writes = beforeCommitWrites(em);
    assert.equal(
      writes.map((w) => w.sql.split(' ')[0]),
      ['insert', 'update', 'update'],
    );
    assert.equal(beforeCommitWrites(em), [], 'taken off the queues');
    await commitWith(em, writes);
  } finally {
    closeCounterQueue(em);
    if (em.isInTransaction()) await em.rollback();
  }
  assert.ok(id > 0);
  const [row] = await db.db.orm.em.fork().getConnection().execute<{ name: string }[]>('select name from topic where id = ?', [id]);
  assert.is(row?.name, 'first-1');
});

test("firstWrite: whatever runs queued writes early (a second tail write of a table, a recount's lock) runs it first", async () => {
  const order: string[] = [];
  await queued(async (em) => {
    deferTailWrites(em);
    firstWrite(em, {
      sql: NEW_TOPIC_ID,
      params: ['first-2'],
      answered: () => {
        order.push('first');
      },
    });
    await tailWrite(em, 'topic', NEW_TOPIC, ['first-2-tail']);
    const { statements } = await countSql(db.db.orm, () => tailWrite(em, 'topic', NEW_TOPIC, ['first-2-tail-b']));
    assert.is(statements.length, 2, statements.join('\n'));
    assert.match(statements[0], /returning id$/);
    order.push('tail');
    firstWrite(em, {
      sql: NEW_TOPIC_ID,
      params: ['first-3'],
      answered: () => {
        order.push('first-3');
      },
    });
    await lockCounterRows(em, { topic: [topicId] });
    order.push('locked');
  });
  assert.equal(order, ['first', 'tail', 'first-3', 'locked']);
  assert.is(await topicNamed('first-2'), 1);
  assert.is(await topicNamed('first-3'), 1);
});

test('tail writes roll back with their transaction', async () => {
  const em = db.db.orm.em.fork();
  await em.begin();
  openCounterQueue(em);
  try {
    deferTailWrites(em);
    await tailWrite(em, 'topic', NEW_TOPIC, ['tail-rolled']);
    await tailWrite(em, 'topic', NEW_TOPIC, ['tail-rolled-2']);
    await em.rollback();
  } finally {
    closeCounterQueue(em);
  }
  assert.is(await topicNamed('tail-rolled'), 0);
  assert.is(await topicNamed('tail-rolled-2'), 0);
});

test.run();
