// An unexpected failure answers 500 in Forgejo's shape with an empty message, and carries a
// request id that the log line also has; internals never reach the client.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb, startServer } from './helpers/server.ts';
import { call } from './helpers/client.ts';
import { makeUser } from './helpers/fixtures.ts';
import { statementPoolOf } from '../model/statement-pool.ts';

test('a database outage is a 500 without internals, never a 401 or 404', async () => {
  const t = await openTestDb();
  const srv = await startServer(t);
  const u = await makeUser(t, srv.api);
  // The outage takes every connection: the ORM's pool, the statement pool (model/statement-pool.ts)
  // and the database clock's (model/db-clock.ts).
  await statementPoolOf(t.db.orm.em.getConnection())?.end();
  await t.db.orm.close(true);
  await t.db.clock.close();
  const r = await call(srv.api, 'GET', '/user', { token: u.token });
  assert.is(r.status, 500);
  assert.equal(r.json, { message: '', url: `${srv.config.appUrl}api/swagger` });
  assert.match(r.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  await srv.close();
  await t.close().catch(() => undefined);
});

test('unknown API paths answer 404 in the JSON shape', async () => {
  const t = await openTestDb();
  const srv = await startServer(t);
  const r = await call(srv.api, 'GET', '/no/such/route');
  assert.is(r.status, 404);
  assert.equal(r.json.errors, []);
  await srv.close();
  await t.close();
});

test.run();
