// Counters are allocated in the database (forgejo-facts 9), so concurrent requests — and two cairn
// processes on one PostgreSQL — never hand out a number twice.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb } from '../helpers/server.ts';
import { nextIndex } from '../../model/counter.ts';
import { openDatabase } from '../../model/db.ts';
import { loadConfig } from '../../config.ts';

test('concurrent allocations from two ORM instances are unique and gap-free', async () => {
  const t = await openTestDb();
  const url = t.db.orm.config.getClientUrl();
  // A second "process": its own ORM and connection pool on the same database when PostgreSQL is used.
  const second = process.env.CAIRN__DATABASE__URL
    ? await openDatabase(loadConfig({}, { DATABASE__URL: url, SERVER__APP_DATA_PATH: t.dataPath }))
    : null;
  const orms = second ? [t.db.orm, second.orm] : [t.db.orm];
  const jobs = Array.from({ length: 60 }, (_, i) => orms[i % orms.length].em.fork().transactional((em) => nextIndex(em, 'issue', 42)));
  const got = (await Promise.all(jobs)).sort((a, b) => a - b);
  assert.equal(
    got,
    Array.from({ length: 60 }, (_, i) => i + 1),
  );
  // Another group starts at 1; a rolled-back allocation is not lost twice.
  assert.is(await t.db.orm.em.fork().transactional((em) => nextIndex(em, 'issue', 43)), 1);
  await second?.close();
  await t.close();
});

test.run();
