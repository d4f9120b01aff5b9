// Every connection of cairn's pool runs with PostgreSQL's JIT off (model/db.ts): a plan estimated as
// costly was compiled on each execution, seconds for a statement that runs in a millisecond.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb, type TestDb } from '../helpers/server.ts';

let db: TestDb;
test.before(async () => {
  db = await openTestDb();
});
test.after(async () => {
  await db.close();
});

test('jit is off on every connection of a PostgreSQL server (PGlite has no JIT compiler)', async () => {
  if (!process.env.CAIRN__DATABASE__URL) return;
  const em = db.db.orm.em.fork();
  const rows = await Promise.all(Array.from({ length: 3 }, () => em.fork().getConnection().execute<{ jit: string }[]>('show jit')));
  for (const r of rows) assert.is(r[0].jit, 'off');
});

test.run();
