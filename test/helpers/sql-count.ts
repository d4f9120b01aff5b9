// Counts the SQL statements the server sends while one HTTP request runs. Statements per request are
// part of the performance contract (issue 10, item 3): unlike time they are deterministic, so a test
// can pin them exactly and a change that adds a round trip fails a test instead of a benchmark.
//
// The hook is knex's `query` event, which knex emits for every statement it sends on any connection:
// queries built by MikroORM, raw `em.execute()` / `connection.execute()`, and the BEGIN / COMMIT of a
// transaction. Both drivers (PostgreSQL through pg, PGlite through its knex client) go through it.
import type { Orm } from '../../model/db.ts';

interface QueryEvent { sql: string }
interface Emitter {
  on(event: 'query', fn: (q: QueryEvent) => void): unknown;
  off(event: 'query', fn: (q: QueryEvent) => void): unknown;
}

export interface Counted<T> {
  result: T;
  /** The statements in the order they were sent, as knex saw them (placeholders, no values). */
  statements: string[];
}

/**
 * Runs `fn` and returns what it returned with every statement sent meanwhile. Attribution is by time
 * window, so nothing else may use the database while `fn` runs: the test servers start no background
 * schedulers, and tests run one request at a time.
 *
 * A token's record of its last use (lib/auth.ts: a write at most once a minute per token, not a cost
 * of any one kind of request) is left out of the count: on a loaded machine a minute can pass between
 * a warm-up request and the counted one, and the count would change with the machine's speed.
 */
/** The statement of a token's last-use record, as MikroORM's `nativeUpdate` writes it (lib/auth.ts; values inlined or not). */
const TOKEN_LAST_USE = /^update "access_token" set "updated_at" = \S+ where "id" = \S+$/;

export async function countSql<T>(orm: Orm, fn: () => Promise<T>): Promise<Counted<T>> {
  // The PGlite driver brings its own copy of knex, so the instance is typed by what is used of it.
  const knex = orm.em.getConnection().getKnex() as unknown as Emitter;
  const statements: string[] = [];
  const listener = (q: QueryEvent) => { if (!TOKEN_LAST_USE.test(q.sql)) statements.push(q.sql); };
  knex.on('query', listener);
  try {
    return { result: await fn(), statements };
  } finally {
    knex.off('query', listener);
  }
}

/** The statements as numbered one-line entries, for an assertion message that shows what changed. */
export const listing = (statements: string[]) =>
  statements.map((s, i) => `${i + 1}. ${s.replace(/\s+/g, ' ').slice(0, 200)}`).join('\n');
