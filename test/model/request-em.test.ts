// A request's EntityManager (model/db.ts, requestEm) is made as MikroORM's `fork()` makes one, without
// fork's writes to the configuration (issue 10): it must hold what a fork holds, or a MikroORM upgrade
// that changes `fork` would go unnoticed.
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

/** The fields `fork` sets, as both EntityManagers hold them. */
const fields = (em: object) => {
  const e = em as Record<string, unknown>;
  return {
    class: em.constructor,
    config: e.config,
    driver: e.driver,
    metadata: e.metadata,
    eventManager: e.eventManager,
    useContext: e.useContext,
    global: e.global,
    flushMode: e.flushMode,
    disableTransactions: e.disableTransactions,
    filters: e.filters,
    filterParams: e.filterParams,
    loggerContext: e.loggerContext,
    schema: e._schema,
    transactionContext: e.transactionContext,
    name: e.name,
  };
};

test('requestEm holds what em.fork() holds', () => {
  const orm = db.db.orm;
  const mine = fields(requestEm(orm));
  const fork = fields(orm.em.fork());
  for (const k of Object.keys(fork) as (keyof typeof fork)[]) {
    if (typeof fork[k] === 'object' && fork[k] !== null && k !== 'config' && k !== 'driver' && k !== 'metadata' && k !== 'eventManager')
      assert.equal(mine[k], fork[k], k);
    else assert.is(mine[k], fork[k], k);
  }
});

test('requestEm gives a fresh identity map and the configuration unchanged', async () => {
  const orm = db.db.orm;
  const before = orm.config.get('allowGlobalContext');
  const a = requestEm(orm);
  const b = requestEm(orm);
  assert.is.not(a, b);
  assert.is.not(a.getUnitOfWork(), b.getUnitOfWork());
  assert.is.not(a, orm.em);
  const count = await a.count(User, {});
  assert.ok(count >= 0);
  assert.is(b.getUnitOfWork().getIdentityMap().keys().length, 0);
  assert.is(orm.config.get('allowGlobalContext'), before);
});

test.run();
