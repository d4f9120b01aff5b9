// The one way to run SQL that is not an entity operation: a statement is built with the `sql` tagged
// template, whose interpolated values always become parameters (never text), and runs on the
// EntityManager's connection, inside its transaction when one is open, through MikroORM's public
// `Connection.execute`. Both databases (PostgreSQL through `pg`, the embedded PGlite) take the same path.
//
//   const rows = await readRows<{ id: number }>(em, [Issue], sql`select id from issue where repo_id = ${repoId}`);
//   const where = sql.join([sql`a = ${1}`, sql`b = ${2}`], ' and ');
//   await executeSql(em, sql`update ${sql.id('issue')} set num_comments = num_comments + 1 where ${where}`);
//   const changed = await writeSql(em, sql`delete from hook_task where id = ${id}`); // rows it changed
//
// A fragment's text never holds a value: a value is a `?` placeholder in the compiled text, and a
// fragment interpolated into another is spliced in with its own values, in order.
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { AbstractSqlConnection } from '@mikro-orm/postgresql';
import { statementPoolOf, type PoolValue, type PreparedText } from './statement-pool.ts';

/** A piece of SQL: its code text between the values, which the compiled statement passes as parameters. */
export class Sql {
  /** Text parts; always one more than the values. */
  readonly parts: readonly string[];
  readonly values: readonly unknown[];

  constructor(parts: readonly string[], values: readonly unknown[]) {
    this.parts = parts;
    this.values = values;
  }

  /** The statement text, each value a `?` placeholder (the form `Connection.execute` takes). */
  get text(): string {
    return this.parts.join('?');
  }
}

/** A code text part may not hold `?`: the connection would read it as a placeholder. */
function checked(part: string): string {
  if (part.includes('?')) throw new Error('an SQL text part may not contain "?": pass the value, or use a function such as jsonb_exists');
  return part;
}

function build(strings: readonly string[], values: readonly unknown[]): Sql {
  const parts: string[] = [checked(strings[0]!)];
  const out: unknown[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const next = checked(strings[i + 1]!);
    if (v instanceof Sql) {
      // Spliced: its first part joins the current one, its last part the next one.
      parts[parts.length - 1] += v.parts[0]!;
      for (let j = 0; j < v.values.length; j++) {
        out.push(v.values[j]);
        parts.push(v.parts[j + 1]!);
      }
      parts[parts.length - 1] += next;
    } else {
      out.push(v);
      parts.push(next);
    }
  }
  return new Sql(parts, out);
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

export interface SqlTag {
  (strings: TemplateStringsArray, ...values: unknown[]): Sql;
  /** The fragments joined by `separator` (code text); an empty list gives `empty`. */
  join(fragments: readonly Sql[], separator?: string): Sql;
  /** A quoted identifier (a table, column or alias name of the code: lower case, digits, `_`). */
  id(name: string): Sql;
  /** Code text from the program itself (never from a request): a keyword, an operator, a fixed expression. */
  raw(text: string): Sql;
  /** `(?, ?, ...)` contents: the values as a list of parameters (at least one). */
  list(values: readonly unknown[]): Sql;
  readonly empty: Sql;
}

export const sql: SqlTag = Object.assign((strings: TemplateStringsArray, ...values: unknown[]) => build(strings, values), {
  join(fragments: readonly Sql[], separator = ', '): Sql {
    if (fragments.length === 0) return new Sql([''], []);
    const strings = ['', ...fragments.slice(1).map(() => separator), ''];
    return build(strings, fragments);
  },
  id(name: string): Sql {
    if (!IDENTIFIER.test(name)) throw new Error(`not an identifier: ${name}`);
    return new Sql([`"${name}"`], []);
  },
  raw(text: string): Sql {
    return new Sql([checked(text)], []);
  },
  list(values: readonly unknown[]): Sql {
    if (values.length === 0) throw new Error('an SQL list needs at least one value');
    return new Sql(['', ...values.slice(1).map(() => ', '), ''], values);
  },
  empty: new Sql([''], []),
});

/** Every one of the conditions, each parenthesized; none: `true`. */
export const allOf = (conditions: readonly Sql[]): Sql =>
  conditions.length
    ? sql.join(
        conditions.map((c) => sql`(${c})`),
        ' and ',
      )
    : sql`true`;

/** At least one of the conditions, each parenthesized; none: `false`. */
export const anyOf = (conditions: readonly Sql[]): Sql =>
  conditions.length
    ? sql.join(
        conditions.map((c) => sql`(${c})`),
        ' or ',
      )
    : sql`false`;

/**
 * A fragment from a text with `?` placeholders and its values, in order: a `{ sql, params }` pair of code
 * that still builds its conditions as text, spliced into a statement of this module.
 */
export function fromPlaceholders(f: { sql: string; params: readonly unknown[] }): Sql {
  const parts = f.sql.split('?');
  if (parts.length !== f.params.length + 1) throw new Error(`${parts.length - 1} placeholders for ${f.params.length} values`);
  return new Sql(parts, f.params);
}

/** A statement as the connection takes it: a fragment, or a fixed text with `?` placeholders and its values. */
type Statement = Sql | string;

const textOf = (q: Statement) => (typeof q === 'string' ? q : q.text);
const paramsOf = (q: Statement, params: readonly unknown[] | undefined) => (typeof q === 'string' ? (params ?? []) : q.values);

/**
 * Runs a statement on the EntityManager's connection, in its transaction when one is open, and
 * answers its rows (plain objects keyed by column; none for a statement that returns nothing). It
 * flushes nothing first: the caller has flushed whatever the statement must see.
 */
export function executeSql<R = Record<string, unknown>>(em: EntityManager, q: Statement, params?: readonly unknown[]): Promise<R[]> {
  return em.getConnection().execute<R[]>(textOf(q), [...paramsOf(q, params)], 'all', em.getTransactionContext());
}

/**
 * Runs a write on the EntityManager's connection, in its transaction when one is open, and answers the
 * number of rows it changed (PostgreSQL's row count: inserted, updated or deleted). Like `executeSql`,
 * it flushes nothing first.
 */
export async function writeSql(em: EntityManager, q: Statement, params?: readonly unknown[]): Promise<number> {
  const res = await em
    .getConnection()
    .execute<{ affectedRows: number }>(textOf(q), [...paramsOf(q, params)], 'run', em.getTransactionContext());
  return Number(res.affectedRows);
}

/**
 * A read, in the EntityManager's transaction, after flushing pending changes to the entities it reads,
 * as `em.find` does (flush mode auto): a plain read sees what a find would have seen.
 */
export async function readRows<R>(
  em: EntityManager,
  reads: readonly { meta: { className: string } }[],
  q: Statement,
  params?: readonly unknown[],
): Promise<R[]> {
  await flushFor(em, reads);
  return executeSql<R>(em, q, params);
}

/** A value a prepared statement takes as it is: pg sends it as text, and PostgreSQL types it by its place. */
export type PreparedValue = string | number | boolean | null;

/** Prepared texts by text; the texts are a fixed set of shapes (a function of the code and the route table). */
const preparedTexts = new Map<string, PreparedText>();
const PREPARED_MAX = 1_000;

/**
 * A text's prepared form: its statement name, the same in every process (a hash of the text, so one
 * name never stands for two texts), and its `$n` form for pg. Null past PREPARED_MAX texts.
 */
function preparedText(text: string): PreparedText | null {
  let p = preparedTexts.get(text);
  if (p === undefined) {
    if (preparedTexts.size >= PREPARED_MAX) return null;
    let n = 0;
    p = { name: `cairn_${createHash('sha1').update(text).digest('hex')}`, text, numbered: text.replace(/\?/g, () => `$${++n}`) };
    preparedTexts.set(text, p);
  }
  return p;
}

/** PostgreSQL's "cached plan must not change result type": the schema moved under a statement prepared before. */
const PLAN_CHANGED = '0A000';

/**
 * readRows for a statement that runs on (nearly) every request: on PostgreSQL it runs as a named
 * prepared statement (pg's `name`, passed through knex's public `options()`), which PostgreSQL parses
 * once per connection and, once its generic plan is as good as a custom one, does not plan again. A
 * text with its values inlined (what `Connection.execute` sends) is parsed and planned on every
 * execution: for the token's statement of `GET {R}` that was 1.2 of its 1.4 ms of PostgreSQL's CPU
 * (pgbench, bench/runtime.md). The text has fixed `?` placeholders and its values are scalars; a text
 * whose shape depends on a value (a list) goes through readRows. The embedded database's knex client
 * (PGlite) sends the text with its values as parameters and no name. The statement counts and round
 * trips are readRows's: pg sends Parse with the first execution on a connection, in the same write as
 * Bind and Execute.
 */
export async function readPrepared<R>(
  em: EntityManager,
  reads: readonly { meta: { className: string } }[],
  text: string,
  params: readonly PreparedValue[],
): Promise<R[]> {
  const prepared = preparedText(text);
  if (prepared === null) return readRows<R>(em, reads, text, params);
  await flushFor(em, reads);
  return runPrepared<R>(em, prepared, params);
}

/**
 * Runs a fixed text as a named prepared statement (as readPrepared describes): in the EntityManager's
 * transaction when one is open, else on PostgreSQL on the statement pool (model/statement-pool.ts).
 */
async function runPrepared<R>(em: EntityManager, prepared: PreparedText, params: readonly PoolValue[], hot?: string): Promise<R[]> {
  const { text } = prepared;
  const ctx = em.getTransactionContext();
  const pool = ctx ? null : statementPoolOf(em.getConnection());
  try {
    if (pool) return await (hot === undefined ? pool.query<R>(prepared, params) : pool.queryInLane<R>(hot, prepared, params));
    const query = (em.getConnection() as AbstractSqlConnection)
      .getKnex()
      .raw(text, [...params])
      .options({ name: prepared.name });
    if (ctx) query.transacting(ctx);
    return ((await query) as { rows: R[] }).rows;
  } catch (e) {
    // After a migration that changed a table the text reads as a whole row, PostgreSQL refuses the
    // statement a connection prepared before (the statement pool prepares it again next time; the ORM's
    // connection keeps it until it closes): the text's own plain form runs instead (outside a
    // transaction, which the failed statement has not aborted).
    if ((e as { code?: string }).code === PLAN_CHANGED && !ctx) return executeSql<R>(em, text, params);
    throw e;
  }
}

const scalar = (v: unknown): v is PreparedValue => v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * A read whose plan does not depend on its values (a page read by an index, no keyword), built as a
 * fragment: run as `readPrepared` when every value is a scalar, else as `executeSql`. Its text is one of
 * a fixed set of shapes (the fragments' code), so PostgreSQL plans it once per connection instead of on
 * every execution.
 */
export function readFragmentPrepared<R = Record<string, unknown>>(em: EntityManager, q: Sql): Promise<R[]> {
  return q.values.every(scalar) ? readPrepared<R>(em, [], q.text, q.values as readonly PreparedValue[]) : executeSql<R>(em, q);
}

/**
 * Flushes pending changes to the entities a read reads. An EntityManager that manages nothing and has
 * nothing persisted or removed (a GET's: its reads are plain) has no change to flush, and is not asked
 * once per entity.
 */
async function flushFor(em: EntityManager, reads: readonly { meta: { className: string } }[]): Promise<void> {
  const uow = em.getUnitOfWork();
  if (uow.getPersistStack().size === 0 && uow.getRemoveStack().size === 0 && isEmpty(uow.getIdentityMap())) return;
  for (const entity of reads) await em.tryFlush(entity.meta.className, {});
}

const isEmpty = (entities: Iterable<unknown>) => {
  for (const _ of entities) return false;
  return true;
};

/**
 * Runs `work` on `em` in a transaction of its own (`em.begin()`): flushed and committed when it
 * returns, rolled back when it throws. For the short transactions of work outside a request (a
 * request's go through the server's `transactional` hook, with its counter queue).
 */
export async function inTransaction<T>(em: EntityManager, work: () => Promise<T>): Promise<T> {
  await em.begin();
  try {
    const out = await work();
    await em.flush();
    await em.commit();
    return out;
  } catch (e) {
    if (em.isInTransaction()) await em.rollback();
    throw e;
  }
}

/** A statement of `writeAlone`; `answered`, when given, is told its rows. */
export interface Write {
  sql: string;
  params: readonly unknown[];
  answered?: (rows: Record<string, unknown>[]) => void;
  /**
   * The text is one of a fixed set (the code's own) and every value a scalar or a Date: sent alone, it
   * runs as a named prepared statement, parsed once per connection.
   */
  prepared?: true;
  /**
   * The hot row a prepared write locks until it commits (`repo:<id>`, `issue:<id>`): sent alone, it
   * goes on that row's lane of the statement pool (model/statement-pool.ts), behind the row's other writes.
   */
  hot?: string;
}

/** Whether the EntityManager's unit of work has changes a flush would write. */
export function hasChanges(em: EntityManager): boolean {
  const uow = em.getUnitOfWork();
  uow.computeChangeSets();
  return uow.getChangeSets().length > 0;
}

/** The rows of each statement of a multi-statement text, as the driver answers it (pg: one result or a list; PGlite: a list). */
function resultsOf(res: unknown, count: number): Record<string, unknown>[][] {
  const list = (Array.isArray(res) ? res : [res]) as { rows?: Record<string, unknown>[] }[];
  if (list.length !== count) throw new Error(`expected ${count} results, the driver answered ${list.length}`);
  return list.map((r) => r.rows ?? []);
}

/**
 * Runs `writes` outside any transaction as one text of several statements, one round trip: PostgreSQL
 * runs the statements of one simple query as one implicit transaction, each seeing the ones before
 * it, and when one fails none of them stays. Values are inlined by the platform's `formatQuery` (as
 * `Connection.execute` does for every statement), so the text has no parameters. Each write's
 * `answered` is told its rows once all have run.
 */
export async function writeAlone(em: EntityManager, writes: readonly Write[]): Promise<void> {
  if (em.isInTransaction()) throw new Error('writeAlone runs outside a transaction');
  if (writes.length === 0) return;
  if (writes.length === 1) {
    const w = writes[0]!;
    const prepared = w.prepared ? preparedText(w.sql) : null;
    const rows = prepared
      ? await runPrepared<Record<string, unknown>>(em, prepared, w.params as readonly PoolValue[], w.hot)
      : await executeSql(em, w.sql, w.params);
    w.answered?.(rows);
    return;
  }
  const platform = em.getPlatform();
  const text = writes.map((w) => platform.formatQuery(w.sql, [...w.params])).join(';\n');
  const conn = em.getConnection() as AbstractSqlConnection;
  const results = resultsOf(await conn.getKnex().raw(text), writes.length);
  writes.forEach((w, i) => w.answered?.(results[i]!));
}
