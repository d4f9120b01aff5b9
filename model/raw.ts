// Entities read with plain SQL: one statement may join several tables (a token and its user, an
// owner and its repository), and each table's columns, selected as one JSON array under the table's
// alias, become the same managed entity `em.findOne` would have given (issue 10: fewer statements per
// request). One JSON column instead of one column per field: the driver describes and parses three
// columns, not seventy, on every request. An array of the values in the plan's order, not an object
// keyed by column: PostgreSQL builds it with less work and the server parses half the text (issue 10:
// measured on the token statement of `GET {R}` in a loop of prepared executions, 0.03 to 0.05 ms less
// backend CPU each, and 1.8 KB of JSON instead of 3.2 KB).
import { createRequire } from 'node:module';
import type { EntityDictionary, EntityManager, EntityName } from '@mikro-orm/core';
import { PostgreSqlConnection } from '@mikro-orm/postgresql';
import pg from 'pg';
import { leaseOf, type LeaseClient } from './lease.ts';
import { BEGIN, commitPipelined, pipelinedConnection, send, withPendingBegin, type PipelineClient } from './pipeline.ts';

interface Prefixed {
  select: string;
  alias: string;
}
/** Select expressions by entity and alias: they depend only on the entity definitions. */
const lists = new Map<string, Prefixed>();

function prefixed<T extends object>(em: EntityManager, entity: EntityName<T>, alias: string): Prefixed {
  const meta = em.getMetadata().get(entity);
  const key = `${meta.className}\0${alias}`;
  let list = lists.get(key);
  if (list === undefined) {
    const fields = planOf(em, entity).map((c) => c.field);
    const pk = fields[pkIndex(em, entity)]!;
    // json_build_array takes at most 100 arguments: larger tables are built in parts and joined.
    const parts: string[] = [];
    for (let i = 0; i < fields.length; i += 100) {
      parts.push(
        `json_build_array(${fields
          .slice(i, i + 100)
          .map((f) => `${alias}."${f}"`)
          .join(', ')})`,
      );
    }
    const array = parts.length === 1 ? parts[0]! : `(${parts.map((x) => `${x}::jsonb`).join(' || ')})::json`;
    list = { select: `case when ${alias}."${pk}" is null then null else ${array} end as "${alias}"`, alias };
    lists.set(key, list);
  }
  return list;
}

/**
 * The non-lazy columns of an entity's table as one JSON array named after the alias, in the order of
 * the entity's plan (null when the primary key is null: the outer side of a join that found nothing),
 * for a select list. Only `mapPrefixed`, `plainPrefixed` and `prefixedId` read it.
 */
export function prefixedColumns<T extends object>(em: EntityManager, entity: EntityName<T>, alias: string): string {
  return prefixed(em, entity, alias).select;
}

/** The values `prefixedColumns(…, alias)` selected in `row`, in the plan's order; null for none. */
const valuesOf = (row: Record<string, unknown>, alias: string) => (row[alias] ?? null) as unknown[] | null;

/**
 * The entity whose columns `prefixedColumns(…, alias)` selected in `row`, merged into the
 * EntityManager; null when its primary key is null (the outer side of a join that found nothing).
 */
export function mapPrefixed<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  row: Record<string, unknown>,
  alias: string,
): T | null {
  const values = valuesOf(row, alias);
  return values === null ? null : em.map(entity, mapperOf(em, entity, 'columns')(values) as EntityDictionary<T>);
}

/** The primary key of the entity `prefixedColumns(…, alias)` selected in `row`, unconverted; null for none. */
export function prefixedId<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  row: Record<string, unknown>,
  alias: string,
): unknown {
  return valuesOf(row, alias)?.[pkIndex(em, entity)] ?? null;
}

/** Where an entity's primary key column is in its plan, by entity: it depends only on the definitions. */
const pkIndexes = new Map<unknown, number>();
function pkIndex<T extends object>(em: EntityManager, entity: EntityName<T>): number {
  let index = pkIndexes.get(entity);
  if (index === undefined) {
    const meta = em.getMetadata().get(entity);
    const pk = meta.properties[meta.primaryKeys[0] as keyof typeof meta.properties].fieldNames[0]!;
    index = planOf(em, entity).findIndex((c) => c.field === pk);
    pkIndexes.set(entity, index);
  }
  return index;
}

/** A list of ids as one SQL parameter, for `= any(?::int[])` (an empty list matches nothing). */
export const intArray = (ids: Iterable<number>) => `{${[...ids].map((id) => Math.trunc(Number(id))).join(',')}}`;

/**
 * A list of strings as one SQL parameter, for `= any(?::text[])` (an empty list matches nothing): a
 * PostgreSQL array literal, every element quoted, so one statement text serves any number of values.
 */
export const textArray = (values: Iterable<string>) => `{${[...values].map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;

/**
 * Runs a read in the EntityManager's transaction, first flushing pending changes to the entities it
 * reads, as `em.find` does (flush mode auto): a plain query must see what a find would have seen.
 */
export async function readRows<R>(
  em: EntityManager,
  reads: readonly { meta: { className: string } }[],
  sql: string,
  params: unknown[],
): Promise<R[]> {
  await flushFor(em, reads);
  return em.getConnection().execute<R[]>(sql, params, 'all', em.getTransactionContext());
}

/**
 * Flushes pending changes to the entities a read reads. An EntityManager that manages nothing and has
 * nothing persisted or removed (a GET's: its reads are plain) has no change to flush, and is not asked
 * once per entity (issue 10: four awaits and four identity-map stores per read).
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
 * The entity whose columns `prefixedColumns(…, alias)` selected in `row`, as a plain object with the
 * entity's properties and the values `mapPrefixed` would give, but not merged into the EntityManager;
 * null when its primary key is null. For reads (issue 10): hydrating, registering and snapshotting an
 * entity is most of a small GET's work, and nothing a GET does is flushed.
 */
export function plainPrefixed<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  row: Record<string, unknown>,
  alias: string,
): T | null {
  const values = valuesOf(row, alias);
  return values === null ? null : (mapperOf(em, entity, 'values')(values) as T);
}

interface Rows {
  rows: unknown[];
  rowCount: number | null;
}
/** The driver's own connection (a `pg` client), as far as a plain statement uses it. */
interface DriverConnection {
  query(q: PgQuery): unknown;
}

/** pg's protocol connection under a client, as far as `NamedStatement` uses it (pg 8.23). */
interface Wire {
  bind(config: { portal: string; statement: string; values: unknown[]; binary: boolean; valueMapper: (v: unknown) => unknown }): void;
  close(config: { type: 'S'; name: string }): void;
  sync(): void;
}
/** pg's Result, as far as `NamedStatement` reads and sets what a RowDescription gave it (pg 8.23's `addFields`). */
interface Shape {
  fields: unknown[];
  _parsers: unknown[] | undefined;
  _prebuiltEmptyResultObject: unknown;
}
/** pg's Query, as far as `NamedStatement` builds on it (pg 8.23). */
interface PgQuery {
  name: string;
  portal: string;
  values: unknown[];
  binary: boolean;
  rows: number | undefined;
  _result: Shape;
  _accumulateRows: boolean;
  hasBeenParsed(wire: Wire): boolean;
  prepare(wire: Wire): void;
  handleRowDescription(msg: unknown): void;
  handleError(err: unknown, wire: Wire): void;
  _getRows(wire: Wire, rows: number | undefined): void;
}
const Query = pg.Query as unknown as new (text: string, values: unknown[], callback: (err: Error | null, res: Rows) => void) => PgQuery;
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (v: unknown) => unknown };

/** What a RowDescription gave a named statement, by statement name, by protocol connection. */
const shapes = new WeakMap<Wire, Map<string, Shape>>();
const shapesOf = (wire: Wire) => {
  let map = shapes.get(wire);
  if (map === undefined) shapes.set(wire, (map = new Map()));
  return map;
};

/**
 * A named prepared statement that asks for its result's description once per connection, not on
 * every execution (issue 10): pg sends Describe each time, PostgreSQL answers a RowDescription and pg
 * parses it and rebuilds the row's fields and value parsers. A prepared statement's columns cannot
 * change on its connection (PostgreSQL refuses "cached plan must not change result type"), so the
 * first execution's description serves the later ones. Made from the text, not a config object, which
 * pg copies property by property. Both were 6 to 9 % of cairn's CPU for `GET {R}` or `GET /version`
 * with a token, by profile. It relies on pg 8.23's Query internals (named below), held against pg's own
 * Query by test/model/pg-named.test.ts, which fails when an update of pg changes them.
 */
export class NamedStatement extends Query {
  private wire: Wire | null = null;

  constructor(name: string, text: string, values: unknown[], callback: (err: Error | null, res: Rows) => void) {
    super(text, values, callback);
    this.name = name;
  }

  override prepare(wire: Wire): void {
    const shape = this.hasBeenParsed(wire) ? shapesOf(wire).get(this.name) : undefined;
    if (shape === undefined) {
      this.wire = wire;
      return super.prepare(wire);
    }
    // pg 8.23's Query.prepare for a statement parsed on this connection, without the Describe.
    try {
      wire.bind({ portal: this.portal, statement: this.name, values: this.values, binary: this.binary, valueMapper: prepareValue });
    } catch (err) {
      wire.close({ type: 'S', name: this.name });
      wire.sync();
      this.handleError(err, wire);
      return;
    }
    const result = this._result;
    result.fields = shape.fields;
    result._parsers = shape._parsers;
    result._prebuiltEmptyResultObject = shape._prebuiltEmptyResultObject;
    this._accumulateRows = true;
    this._getRows(wire, this.rows);
  }

  override handleRowDescription(msg: unknown): void {
    super.handleRowDescription(msg);
    const { fields, _parsers, _prebuiltEmptyResultObject } = this._result;
    if (this.wire) shapesOf(this.wire).set(this.name, { fields, _parsers, _prebuiltEmptyResultObject });
  }
}

/** Runs a statement on a driver connection: named when `name` is given, else pg's unnamed statement. */
const runNamed = (db: DriverConnection, name: string | undefined, text: string, values: unknown[]) =>
  new Promise<Rows>((resolve, reject) => {
    const done = (err: Error | null, res: Rows) => (err ? reject(err) : resolve(res));
    db.query(name === undefined ? new Query(text, values, done) : new NamedStatement(name, text, values, done));
  });
interface PoolClient extends LeaseClient<DriverConnection> {
  emit(event: 'query', q: { sql: string; bindings: unknown[] }): unknown;
}
/** A knex transaction, as far as it is used here: its client always hands out the transaction's connection. */
interface TransactionContext {
  client: { acquireConnection(): Promise<DriverConnection> };
  isCompleted(): boolean;
}

/** Named statements by SQL text: `?` placeholders become `$n` once, and PostgreSQL parses and plans the text once per connection. */
const named = new Map<string, { name: string; text: string }>();
/**
 * The texts named at most: a list's text varies with its filters (how many labels, words, ids), so a
 * caller could otherwise make the process and every connection keep a statement per variant. Past it,
 * a new text runs unnamed, parsed and planned each time as a plain statement is.
 */
const MAX_NAMED = 200;

const placeholders = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/** A node of `textOf`'s memo: the text made for the parts up to here, and the next parts. */
interface TextNode {
  text?: string;
  next?: Map<string, TextNode>;
}
const texts: TextNode = {};

/**
 * The statement text `make` builds from `parts`, made once and then the same string object for the
 * same parts (issue 10). A named statement is found by its text on every execution (`statementOf`),
 * and a text built afresh per request (a template with parts) is copied flat and hashed each time, a
 * string of a few kilobytes for the hot writes, where a string kept from before has its hash already:
 * 1.7 % of cairn's CPU per new issue, by profile. `parts` must come from a small fixed set (the code's
 * own fragments), since every combination is kept for the process's life.
 */
export function textOf(parts: readonly string[], make: () => string): string {
  let node = texts;
  for (const part of parts) {
    node.next ??= new Map();
    let child = node.next.get(part);
    if (child === undefined) {
      child = {};
      node.next.set(part, child);
    }
    node = child;
  }
  return (node.text ??= make());
}

function statementOf(sql: string): { name?: string; text: string } {
  let st = named.get(sql);
  if (st === undefined) {
    if (named.size >= MAX_NAMED) return { text: placeholders(sql) };
    st = { name: `cairn_read_${named.size + 1}`, text: placeholders(sql) };
    named.set(sql, st);
  }
  return st;
}

/**
 * One statement straight to a `pg` connection as a named prepared statement, on PostgreSQL: the
 * transaction's connection inside the EntityManager's transaction, else one from the pool's lease
 * (model/lease.ts); null on the embedded database, where callers go through the ORM's connection. No knex query is built and
 * MikroORM does not inline the parameters (issue 10). The SQL uses `?` only as placeholders, and is
 * best a fixed text: one named statement per text, kept for the process's life (up to `MAX_NAMED`). knex's
 * `query` event announces it, as for every statement (the tests count them).
 */
async function onDriver(em: EntityManager, sql: string, params: unknown[]): Promise<Rows | null> {
  const conn = em.getConnection();
  if (!(conn instanceof PostgreSqlConnection)) return null;
  const client = conn.getKnex().client as unknown as PoolClient;
  const trx = em.isInTransaction() ? (em.getTransactionContext() as TransactionContext) : null;
  if (trx?.isCompleted()) throw new Error('Transaction query already complete');
  if (trx) return queueOn(client, await trx.client.acquireConnection(), sql, params);
  client.emit('query', { sql, bindings: params });
  const { name, text } = statementOf(sql);
  const lease = leaseOf(client);
  const db = lease.take() ?? (await lease.wait());
  let rows: Rows;
  try {
    rows = await runNamed(db, name, text, params);
  } catch (err) {
    lease.give(db, true);
    throw err;
  }
  lease.give(db, false);
  return rows;
}

/**
 * Queues one statement on a transaction's connection (announced to knex's `query` listeners), after
 * its BEGIN when that is still pending (model/pipeline.ts); its rows once answered.
 */
function queueOn(client: PoolClient, db: DriverConnection, sql: string, params: unknown[]): Promise<Rows> {
  const { name, text } = statementOf(sql);
  client.emit('query', { sql, bindings: params });
  return withPendingBegin(db, () => runNamed(db, name, text, params));
}

/**
 * `readRows` for the reads every request makes (the caller's token, the addressed repository) and the
 * hot writes' reads: a named prepared statement on the driver's connection (see `onDriver`), in the
 * request's transaction if one is open. On the embedded database it is `readRows`.
 */
export async function readRowsFast<R>(
  em: EntityManager,
  reads: readonly { meta: { className: string } }[],
  sql: string,
  params: unknown[],
): Promise<R[]> {
  if (!(em.getConnection() instanceof PostgreSqlConnection)) return readRows<R>(em, reads, sql, params);
  await flushFor(em, reads);
  return (await onDriver(em, sql, params))!.rows as R[];
}

/**
 * `em.getConnection().execute(sql, params, 'all', em.getTransactionContext())` for the statements of
 * the hot writes (a new issue, a new comment): on PostgreSQL a named prepared statement on the
 * transaction's own connection (see `onDriver`, whose rules the SQL follows); the rows it returns.
 * Like `execute`, it flushes nothing first.
 */
export async function executeFast<R = Record<string, unknown>>(em: EntityManager, sql: string, params: unknown[]): Promise<R[]> {
  const done = await onDriver(em, sql, params);
  return done ? (done.rows as R[]) : em.getConnection().execute<R[]>(sql, params, 'all', em.getTransactionContext());
}

/**
 * Runs `writes` (statements whose answers only their `answered` reads) and commits the EntityManager's
 * transaction: on PostgreSQL all written at once with COMMIT (model/pipeline.ts), one round trip; else
 * one after the other, then COMMIT. When one fails nothing is committed, and the EntityManager has left the
 * transaction. Its unit of work must be flushed already.
 */
export async function commitWith(em: EntityManager, writes: readonly CommitWrite[]): Promise<void> {
  const conn = em.getConnection();
  const db = conn instanceof PostgreSqlConnection ? await pipelinedConnection(em) : null;
  if (db === null) {
    try {
      for (const w of writes) {
        const rows = await executeFast(em, w.sql, w.params);
        w.answered?.(rows);
      }
    } catch (err) {
      await em.rollback();
      throw err;
    }
    await em.commit();
    return;
  }
  const client = (conn as PostgreSqlConnection).getKnex().client as unknown as PoolClient;
  await commitPipelined(em, db, () => queueWrites(client, db as unknown as DriverConnection, writes));
}

/** Queues `writes` on `db` at once (`queueOn`); each settles once answered and told to its `answered`. */
const queueWrites = (client: PoolClient, db: DriverConnection, writes: readonly CommitWrite[]): Promise<unknown>[] =>
  writes.map((w) => {
    const sent = queueOn(client, db, w.sql, w.params);
    const { answered } = w;
    return answered ? sent.then((r) => answered(r.rows as Record<string, unknown>[])) : sent;
  });

/** Lanes of hot rows (see `commitInLane`): the connection of each while a transaction of it is under way, and how many are. */
interface Lane {
  conn: Promise<PipelineClient>;
  running: number;
}
/** By pool (one per ORM: a process may hold several, as the tests do), then by hot row. */
const lanesByPool = new WeakMap<object, Map<string, Lane>>();
/** Every open lane's pool's map, for `lanesOpen`. */
const laneMaps = new Set<Map<string, Lane>>();

/** Hot rows with a lane open, in every pool (for tests). */
export const lanesOpen = (): number => [...laneMaps].reduce((n, m) => n + m.size, 0);

/** A transaction that can be ended by statements sent on another connection (model/transaction.ts). */
interface EndsElsewhere {
  holdsConnection(): boolean;
  endedElsewhere(ended: Promise<unknown>): void;
}

/**
 * `commitWith` for a transaction that has sent nothing yet and whose writes lock the hot row `key`
 * (issue 10). Every new issue of a repository takes its number and raises `num_open_issues`, every
 * new comment of an issue raises its `num_comments`: rows all of them share, whose lock PostgreSQL
 * gives one transaction at a time, until its COMMIT is flushed. Waiting there is not free (the waiter
 * sleeps, wakes at the holder's COMMIT and redoes its check): pgbench with a new issue's statements,
 * pipelined as cairn sends them, cost 0.25 ms of PostgreSQL CPU per transaction with one client on one
 * repository, 0.34 with four, 0.41 with six, and 0.25 at any number of clients on a repository each.
 * With a pool of four, up to four of this process's transactions waited on one row, each holding a
 * connection.
 *
 * So this process writes every such transaction of one hot row on one connection, the lane of `key`,
 * while one is under way: its BEGIN, writes and COMMIT at once, behind the ones written before it.
 * PostgreSQL runs them one after the other there, none waits for another's lock, and none takes a
 * connection of its own from the pool (bench/runtime.md: about half again as many new issues and
 * comments a second). Each is still its own transaction: a statement that fails aborts that one only,
 * and its COMMIT ends it as a ROLLBACK before the next one's BEGIN. Correctness stays with PostgreSQL's
 * locks (other processes, and transactions that locked something earlier: those never come here, so a
 * transaction in a lane never waits for one queued behind it, which holds nothing yet). Elsewhere (not
 * PostgreSQL, or a transaction that ran statements already) it is `commitWith`.
 */
export async function commitInLane(em: EntityManager, key: string, writes: readonly CommitWrite[]): Promise<void> {
  const conn = em.getConnection();
  const trx = em.getTransactionContext() as Partial<EndsElsewhere> | undefined;
  if (!(conn instanceof PostgreSqlConnection) || typeof trx?.endedElsewhere !== 'function' || trx.holdsConnection!())
    return commitWith(em, writes);
  const client = conn.getKnex().client as unknown as PoolClient & { releaseConnection(c: unknown): Promise<void> };
  let lanes = lanesByPool.get(client);
  if (lanes === undefined) {
    lanes = new Map();
    lanesByPool.set(client, lanes);
    laneMaps.add(lanes);
  }
  const found = lanes.get(key);
  const lane = found ?? { conn: client.acquireConnection() as unknown as Promise<PipelineClient>, running: 0 };
  const open = lanes;
  /** Later arrivals open a new lane (this one's connection could not be had, failed, or is going back). */
  const forget = () => {
    if (open.get(key) === lane) open.delete(key);
  };
  if (found === undefined) {
    lanes.set(key, lane);
    lane.conn.catch(forget);
  }
  lane.running++;
  let db: PipelineClient | null = null;
  try {
    db = await lane.conn;
    const { __knexUid } = db as { __knexUid?: string };
    const announce = (sql: string) => client.emit('query', { __knexUid, sql, bindings: [] } as { sql: string; bindings: unknown[] });
    const driver = db as unknown as DriverConnection;
    let sent: Promise<unknown>[];
    let committed: Promise<unknown>;
    // Written at once: nothing of another transaction on the lane comes between.
    db.connection.stream.cork?.();
    try {
      announce('BEGIN;');
      sent = [send(db, BEGIN), ...queueWrites(client, driver, writes)];
      announce('COMMIT;');
      committed = send(db, 'COMMIT');
    } finally {
      db.connection.stream.uncork?.();
    }
    (trx as EndsElsewhere).endedElsewhere(committed);
    em.resetTransactionContext();
    const outcome = await Promise.allSettled([...sent, committed]);
    const failed = outcome.find((o) => o.status === 'rejected');
    if (failed) {
      // Without an SQLSTATE the connection itself failed: the lane is given up, and the pool
      // does not hand the connection out again.
      if ((failed.reason as { code?: unknown })?.code === undefined) {
        forget();
        (db as { __knex__disposed?: unknown }).__knex__disposed ??= failed.reason;
      }
      throw failed.reason;
    }
  } finally {
    if (--lane.running === 0) {
      forget();
      if (db !== null) await client.releaseConnection(db);
    }
  }
}

/** A statement `commitWith` sends; `answered`, when given, is told its rows (before COMMIT's answer). */
interface CommitWrite {
  sql: string;
  params: unknown[];
  answered?: (rows: Record<string, unknown>[]) => void;
}

/** The column a one-statement page (count joined to the rows) names its total; no table has it. */
export const TOTAL = 'cairn__total';

interface Column {
  field: string;
  prop: string;
  convert: ((v: unknown) => unknown) | null;
}
/** Column-to-property plans by entity: they depend only on the entity definitions. */
const plans = new Map<string, Column[]>();

/** The non-lazy columns of an entity's table, each with its property and how hydration converts its value. */
function planOf<T extends object>(em: EntityManager, entity: EntityName<T>): Column[] {
  const meta = em.getMetadata().get(entity);
  let plan = plans.get(meta.className);
  if (plan === undefined) {
    const platform = em.getPlatform();
    plan = meta.props
      .filter((p) => !p.lazy && p.persist !== false && p.fieldNames?.length === 1)
      .map((p) => {
        const type = p.customType;
        const toDate = p.runtimeType === 'Date';
        const convert = type
          ? (v: unknown) => type.convertToJSValue(v, platform)
          : toDate
            ? (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? new Date(v) : v)
            : null;
        return { field: p.fieldNames[0]!, prop: p.name, convert };
      });
    plans.set(meta.className, plan);
  }
  return plan;
}

/**
 * Rows of an entity's table (all its columns, as `select t.*` gives them) as plain objects with the
 * entity's property names and values, for reads that only convert what they read (issue 10: lists
 * skip hydration and the identity map). They are not managed: never change and flush one.
 */
export function plainRows<T extends object>(em: EntityManager, entity: EntityName<T>, rows: readonly unknown[]): T[] {
  return (rows as readonly Record<string, unknown>[]).map(mapperOf(em, entity)) as T[];
}

type Mapper = (row: Record<string, unknown> | unknown[]) => Record<string, unknown>;
/**
 * What a mapper reads and gives: `rows`, a row keyed by column, as the entity's properties and values;
 * `values`, the array `prefixedColumns` selects, the same; `columns`, that array keyed by column,
 * unconverted, as `em.map` takes it.
 */
type MapperKind = 'rows' | 'values' | 'columns';
/**
 * Row mappers by entity and kind, made from its plan; looked up by the entity as callers name it
 * (issue 10: its metadata and a key string per row were a lookup too many on every request).
 */
const mappers = new Map<string, Mapper>();
const mappersByEntity = new Map<unknown, Record<MapperKind, Mapper | undefined>>();

/**
 * One entity's row mapper: a function made from its plan whose object literal names every property,
 * in the plan's order (issue 10: a loop over the plan stored and loaded each of a hundred properties
 * by a computed key, which V8 cannot specialise, on every request). The names and columns come
 * from the entity definitions, written as JSON strings; the conversions are passed in, by position.
 */
function mapperOf<T extends object>(em: EntityManager, entity: EntityName<T>, kind: MapperKind = 'rows'): Mapper {
  let byKind = mappersByEntity.get(entity);
  if (byKind === undefined) mappersByEntity.set(entity, (byKind = { rows: undefined, values: undefined, columns: undefined }));
  return (byKind[kind] ??= makeMapper(em, entity, kind));
}

function makeMapper<T extends object>(em: EntityManager, entity: EntityName<T>, kind: MapperKind): Mapper {
  const key = `${em.getMetadata().get(entity).className}\0${kind}`;
  let mapper = mappers.get(key);
  if (mapper === undefined) {
    const plan = planOf(em, entity);
    const props = plan.map((c, i) => {
      const read = kind === 'rows' ? `row[${JSON.stringify(c.field)}]` : `row[${i}]`;
      if (kind === 'columns') return `${JSON.stringify(c.field)}: ${read}`;
      return `${JSON.stringify(c.prop)}: ${c.convert === null ? read : `(v = ${read}) == null ? v : convert[${i}](v)`}`;
    });
    mapper = new Function('convert', `return (row) => { let v; return { ${props.join(', ')} }; };`)(plan.map((c) => c.convert)) as Mapper;
    mappers.set(key, mapper);
  }
  return mapper;
}

/**
 * A select-list expression: the rows of an entity's table (alias `alias`) matching `where`, as one
 * JSON array of objects keyed by column, in `order` (a column of the table); `plainRows` reads them.
 * Several such lists in one statement read what several `em.find` would, in one round trip.
 */
export function jsonList<T extends object>(em: EntityManager, entity: EntityName<T>, alias: string, where: string, order = 'id'): string {
  const meta = em.getMetadata().get(entity);
  const columns = planOf(em, entity)
    .map((c) => `${alias}."${c.field}"`)
    .join(', ');
  return `(select coalesce(json_agg(x order by x."${order}"), '[]') from (select ${columns} from "${meta.tableName}" ${alias} where ${where}) x)`;
}
