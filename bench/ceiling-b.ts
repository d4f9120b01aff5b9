// Ceiling B: ceiling A plus one primary-key lookup per request, with `pg` (pool of 10,
// cairn's default) on the PostgreSQL cairn uses: `<port> <json file> --pg <url> <id>`. The answer
// stays the static object, so B differs from A by the database round trip alone.
//
// With `--pglite` (cairn on its embedded database, which only one process may open) the lookup goes
// to an in-memory PGlite of this process holding one row: the embedded counterpart of the same step.
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { ceilingArgs, serveCeiling } from './ceiling-app.ts';

const a = ceilingArgs();
const [mode, url, id] = a.rest;

if (mode === '--pg' && url && id) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  serveCeiling(a, async () => {
    const r = await pool.query('select * from repository where id = $1', [Number(id)]);
    if (r.rowCount !== 1) throw new Error(`repository ${id} not found`);
  });
} else if (mode === '--pglite') {
  const db = new PGlite();
  await db.exec('create table repository (id integer primary key, body jsonb not null)');
  await db.query('insert into repository (id, body) values (1, $1)', [JSON.stringify(a.body)]);
  serveCeiling(a, async () => {
    const r = await db.query('select * from repository where id = $1', [1]);
    if (r.rows.length !== 1) throw new Error('row 1 not found');
  });
} else {
  throw new Error('usage: <port> <json file> --pg <url> <id> | --pglite');
}
