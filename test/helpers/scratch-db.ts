// A PostgreSQL database of a test's own on the server of `base` (CAIRN__DATABASE__URL), dropped with `drop`.
import pg from 'pg';

export interface ScratchDb {
  name: string;
  /** `base` with the new database's name. */
  url: string;
  drop(): Promise<void>;
}

async function run(base: string, statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

/** Creates `<prefix>_<pid>_<time>` (a name of letters, digits and underscores). */
export async function createScratchDb(base: string, prefix: string): Promise<ScratchDb> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  await run(base, `create database ${name}`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  return { name, url: u.toString(), drop: () => run(base, `drop database if exists ${name} with (force)`) };
}
