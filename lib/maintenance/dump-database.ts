// The database part of `cairn admin dump` and `restore` (lib/maintenance/dump.ts), in one of two forms:
// - `pg_dump`: PostgreSQL's own plain SQL dump, taken by pg_dump under the dump's snapshot
//   (`--snapshot`, exported by the dump's REPEATABLE READ transaction) and read back with psql, when
//   the server is PostgreSQL and a pg_dump at least as new as the server is on the PATH;
// - `json`: a logical export either database reads back: for every table of the schema, one JSON
//   array per row holding each column's value as PostgreSQL's own text (`::text`, so bigints stay
//   exact, times keep their offset, and a jsonb `null` stays apart from SQL NULL, which is JSON null),
//   read inside the dump's transaction, and the sequences' positions. Restored into the schema
//   migrated to the same migrations, each text cast back to its column's type, user triggers off (the
//   rows come back as they were, derived counters included), in one transaction.
// Table and sequence names come from PostgreSQL's catalog and are quoted by the ORM's platform; every
// value is a parameter.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { once } from 'node:events';
import readline from 'node:readline';
import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, sql, type Sql } from '../../model/sql.ts';

export interface TableDump {
  name: string;
  columns: string[];
  rows: number;
}

/** A table's columns in order, with their types as `format_type` writes them. */
type Column = { name: string; type: string };
export interface SequenceDump {
  name: string;
  lastValue: string;
  isCalled: boolean;
}
/** What a `json` export holds besides its rows (database/tables.json). */
export interface LogicalDump {
  tables: TableDump[];
  sequences: SequenceDump[];
}

/** The table whose rows the migrator writes: restored by migrating, never by import. */
const MIGRATIONS_TABLE = 'cairn_migrations';
const FETCH_ROWS = 1000;
/** Rows go back in statements of about this many bytes of JSON. */
const INSERT_BYTES = 4 << 20;

const quote = (em: EntityManager, name: string) => em.getPlatform().quoteIdentifier(name);
/** A name from PostgreSQL's catalog, quoted by the platform, as code text. */
const named = (em: EntityManager, name: string): Sql => sql.raw(quote(em, name));

async function columnsOf(em: EntityManager, quotedTable: string): Promise<Column[]> {
  return executeSql<Column>(
    em,
    sql`select attname as name, format_type(atttypid, atttypmod) as type from pg_attribute where attrelid = ${quotedTable}::regclass and attnum > 0 and not attisdropped order by attnum`,
  );
}

/** Tables, views and sequences in the connection's schema: a database to restore into has none. */
export async function relationCount(em: EntityManager): Promise<number> {
  const [row] = await executeSql<{ n: string | number }>(
    em,
    sql`select count(*) as n from pg_class where relnamespace = current_schema()::regnamespace and relkind in ('r', 'p', 'v', 'm', 'S')`,
  );
  return Number(row?.n ?? 0);
}

/** The applied migrations, in order. Inside the dump's transaction: as of its snapshot. */
export async function appliedMigrations(tx: EntityManager): Promise<string[]> {
  const rows = await executeSql<{ name: string }>(tx, sql`select name from ${named(tx, MIGRATIONS_TABLE)} order by id`);
  return rows.map((r) => r.name);
}

/**
 * Writes every table of the schema to `<dir>/<table>.jsonl` and returns the tables and sequences.
 * Runs inside the dump's REPEATABLE READ transaction `tx`, so every table is read at one snapshot.
 */
export async function exportTables(tx: EntityManager, dir: string): Promise<LogicalDump> {
  const tables: TableDump[] = [];
  const names = await executeSql<{ name: string }>(
    tx,
    sql`select relname as name from pg_class where relnamespace = current_schema()::regnamespace and relkind in ('r', 'p') order by relname`,
  );
  for (const { name } of names) {
    const q = quote(tx, name);
    const columns = (await columnsOf(tx, q)).map((c) => c.name);
    const out = fs.createWriteStream(`${dir}/${name}.jsonl`);
    let rows = 0;
    const values = sql.join(columns.map((c) => sql`t.${named(tx, c)}::text`));
    await executeSql(
      tx,
      sql`declare cairn_dump no scroll cursor for select array_to_json(array[${values}]::text[])::text as j from ${named(tx, name)} t`,
    );
    for (;;) {
      const batch = await executeSql<{ j: string }>(tx, sql`fetch ${sql.raw(String(FETCH_ROWS))} from cairn_dump`);
      for (const r of batch) if (!out.write(`${r.j}\n`)) await once(out, 'drain');
      rows += batch.length;
      if (batch.length < FETCH_ROWS) break;
    }
    await executeSql(tx, sql`close cairn_dump`);
    out.end();
    await once(out, 'close');
    tables.push({ name, columns, rows });
  }
  const sequences: SequenceDump[] = [];
  const seqs = await executeSql<{ name: string }>(
    tx,
    sql`select relname as name from pg_class where relnamespace = current_schema()::regnamespace and relkind = 'S' order by relname`,
  );
  for (const { name } of seqs) {
    // A sequence is not transactional: this reads its position now, at or past every id in the snapshot.
    const [s] = await executeSql<{ last_value: string | number; is_called: boolean }>(
      tx,
      sql`select last_value, is_called from ${named(tx, name)}`,
    );
    sequences.push({ name, lastValue: String(s!.last_value), isCalled: !!s!.is_called });
  }
  return { tables, sequences };
}

/**
 * Reads an export back into a schema migrated to the export's migrations (and holding only what the
 * migrations wrote), in one transaction; returns the rows restored.
 */
export async function importTables(em: EntityManager, dir: string, dump: LogicalDump): Promise<number> {
  const tables = dump.tables.filter((t) => t.name !== MIGRATIONS_TABLE);
  let restored = 0;
  await em.fork().transactional(async (tx) => {
    const known = new Set(
      (
        await executeSql<{ name: string }>(
          tx,
          sql`select relname as name from pg_class where relnamespace = current_schema()::regnamespace and relkind in ('r', 'p')`,
        )
      ).map((r) => r.name),
    );
    const strange = tables.filter((t) => !known.has(t.name)).map((t) => t.name);
    if (strange.length) throw new Error(`the archive has tables the migrated schema lacks: ${strange.join(', ')}`);
    for (const t of tables) await executeSql(tx, sql`alter table ${named(tx, t.name)} disable trigger user`);
    if (tables.length) await executeSql(tx, sql`truncate table ${sql.join(tables.map((t) => named(tx, t.name)))}`);
    for (const t of tables) {
      const q = quote(tx, t.name);
      const types = new Map((await columnsOf(tx, q)).map((c) => [c.name, c.type]));
      const lost = t.columns.filter((c) => !types.has(c));
      if (lost.length) throw new Error(`${t.name}: the migrated schema lacks the archive's columns ${lost.join(', ')}`);
      // Each column's type as the catalog's format_type wrote it.
      const values = sql.join(t.columns.map((c, i) => sql`(r->>${sql.raw(String(i))})::${sql.raw(types.get(c)!)}`));
      const columns = sql.join(t.columns.map((c) => named(tx, c)));
      const insert = (rows: string[]) =>
        executeSql(
          tx,
          sql`insert into ${named(tx, t.name)} (${columns}) select ${values} from json_array_elements(${`[${rows.join(',')}]`}::json) r`,
        );
      let batch: string[] = [];
      let bytes = 0;
      const lines = readline.createInterface({ input: fs.createReadStream(`${dir}/${t.name}.jsonl`), crlfDelay: Number.POSITIVE_INFINITY });
      for await (const line of lines) {
        if (line === '') continue;
        batch.push(line);
        bytes += line.length;
        restored++;
        if (bytes >= INSERT_BYTES) {
          await insert(batch);
          batch = [];
          bytes = 0;
        }
      }
      if (batch.length) await insert(batch);
    }
    for (const s of dump.sequences) await executeSql(tx, sql`select setval(${quote(tx, s.name)}::regclass, ${s.lastValue}, ${s.isCalled})`);
    for (const t of tables) await executeSql(tx, sql`alter table ${named(tx, t.name)} enable trigger user`);
  });
  return restored;
}

/** A URL for libpq without its password, which goes in PGPASSWORD (not on a command line others can read). */
function libpqTarget(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { url: u.toString(), env: password ? { ...process.env, PGPASSWORD: password } : { ...process.env } };
}

function run(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(program, args, { env, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${program} failed: ${stderr.trim() || err.message}`));
      else resolve({ stdout, stderr });
    });
  });
}

/** The major version of the pg_dump on the PATH and its version line, or null when there is none. */
export async function pgDumpVersion(): Promise<{ major: number; text: string } | null> {
  try {
    const { stdout } = await run('pg_dump', ['--version'], process.env);
    const m = /(\d+)(?:\.\d+)*/.exec(stdout);
    return m ? { major: Number(m[1]), text: stdout.trim() } : null;
  } catch {
    return null;
  }
}

/** The server's major version, as pg_dump compares it. */
export async function serverMajor(em: EntityManager): Promise<number> {
  const [row] = await executeSql<{ v: string }>(em, sql`select current_setting('server_version_num') as v`);
  return Math.floor(Number(row!.v) / 10000);
}

/** pg_dump of the whole database as of `snapshot` (exported by a transaction still open), as plain SQL. */
export async function pgDump(url: string, snapshot: string, file: string): Promise<void> {
  const target = libpqTarget(url);
  await run(
    'pg_dump',
    ['--no-owner', '--no-privileges', '--format=plain', `--snapshot=${snapshot}`, `--file=${file}`, `--dbname=${target.url}`],
    target.env,
  );
}

/** Runs a plain SQL dump against an empty database, all or nothing. */
export async function psqlRestore(url: string, file: string): Promise<void> {
  const target = libpqTarget(url);
  await run(
    'psql',
    ['-X', '--quiet', '--single-transaction', '-v', 'ON_ERROR_STOP=1', `--file=${file}`, `--dbname=${target.url}`],
    target.env,
  );
}
