// A request's EntityManager (model/db.ts requestEm) is what `orm.em.fork()` makes: its own identity map
// and unit of work, no context, the global EntityManager's driver, metadata, schema, flush behaviour,
// logger context and subscribers, on both databases.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb, type TestDb } from '../helpers/server.ts';
import { requestEm } from '../../model/db.ts';
import { User } from '../../model/user.ts';

let db: TestDb;
test.before(async () => {
  db = await openTestDb();
});
test.after(async () => {
  await db.close();
});

test('a request EntityManager is a fork of the global one, made without touching its configuration', async () => {
  const orm = db.db.orm;
  const forked = orm.em.fork();
  const em = requestEm(orm);
  assert.ok(em !== orm.em && em.id !== forked.id, 'a new EntityManager each time');
  assert.is(em.global, false);
  assert.is(em.constructor, forked.constructor);
  assert.is(em.getDriver(), forked.getDriver());
  assert.is(em.getMetadata(), forked.getMetadata());
  assert.is(em.config, forked.config);
  assert.is(em.schema, forked.schema);
  assert.equal(em.getLoggerContext(), forked.getLoggerContext());
  assert.equal([...em.getEventManager().getSubscribers()], [...forked.getEventManager().getSubscribers()]);
  assert.is(em.isInTransaction(), false);
  assert.ok(em.getUnitOfWork() !== forked.getUnitOfWork() && em.getUnitOfWork() !== requestEm(orm).getUnitOfWork());
  assert.is(orm.config.get('allowGlobalContext'), false);
  assert.throws(() => orm.em.getUnitOfWork(), /global EntityManager/, 'the global EntityManager still refuses to be used directly');
  // Its identity map is its own: what one request holds, another does not see.
  const held = em.getReference(User, 1);
  assert.is(em.getUnitOfWork().getById(User.meta.className, 1), held, 'held by this request');
  assert.is(requestEm(orm).getUnitOfWork().getById(User.meta.className, 1), undefined, 'not by the next one');
});

test.run();
