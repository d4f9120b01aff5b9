// Entities read with plain SQL: one statement may join several tables (a token and its user, an
// owner and its repository), and each table's columns, selected as one JSON array under the table's
// alias, become the same managed entity `em.findOne` would have given (fewer statements per
// request). One JSON column instead of one column per field: the driver describes and parses three
// columns, not seventy, on every request. An array of the values in the plan's order, not an object
// keyed by column: PostgreSQL builds it with less work and the server parses half the text
// (measured on the token statement of `GET {R}` in a loop of prepared executions, 0.03 to 0.05 ms less
// backend CPU each, and 1.8 KB of JSON instead of 3.2 KB).
import type { EntityDictionary, EntityManager, EntityName, Primary } from '@mikro-orm/core';
import { executeSql, type Write } from './sql.ts';

/**
 * A row read for an answer, not an entity: a plain object with the entity's properties and the values
 * hydration would give, read-only. It is never merged into the EntityManager nor flushed, so changing
 * one writes nothing; to change a row, load the managed entity (`em.find*`, `em.map`, `mapPrefixed`)
 * or write a statement. A managed entity `T` is a `Plain<T>` too, so code that only reads takes
 * `Plain<T>` and accepts both shapes.
 */
export type Plain<T> = Readonly<T>;

/**
 * The managed entity `row` is, for code that changes it. A request that does not read its context
 * plain is given managed entities by its loaders, typed `Plain<T>` because other requests are given
 * plain rows; this checks that `row` is the entity the EntityManager manages, and throws when it is not
 * (a plain row: a change to it would never be written).
 */
export function managedOf<T extends { id: number }>(em: EntityManager, entity: EntityName<T>, row: Plain<T>): T {
  const name = em.getMetadata().get(entity).className;
  // `id` is the primary key of every entity this takes; TypeScript cannot resolve Primary<T> for a generic T.
  const found = em.getUnitOfWork().getById<T>(name, row.id as Primary<T>);
  if (found !== row) throw new Error(`${name} ${row.id} is a plain row, not a managed entity: load the entity to change it`);
  return found;
}

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
 * The entity whose columns `prefixedColumns(…, alias)` selected in `row`, as a plain object with the
 * entity's properties and the values `mapPrefixed` would give, but not merged into the EntityManager;
 * null when its primary key is null. For reads: hydrating, registering and snapshotting an
 * entity is most of a small GET's work, and nothing a GET does is flushed.
 */
export function plainPrefixed<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  row: Record<string, unknown>,
  alias: string,
): Plain<T> | null {
  const values = valuesOf(row, alias);
  return values === null ? null : (mapperOf(em, entity, 'values')(values) as Plain<T>);
}

/** A node of `textOf`'s memo: the text made for the parts up to here, and the next parts. */
interface TextNode {
  text?: string;
  next?: Map<string, TextNode>;
}
const texts: TextNode = {};

/**
 * The statement text `make` builds from `parts`, made once and then the same string for the same
 * parts. `parts` must come from a small fixed set (the code's own fragments), since every combination
 * is kept for the process's life.
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

/**
 * Runs `writes` one after the other in the EntityManager's transaction, each told its rows, then
 * commits it. When one fails nothing is committed, and the EntityManager has left the transaction.
 * Its unit of work must be flushed already.
 */
export async function commitWith(em: EntityManager, writes: readonly Write[]): Promise<void> {
  try {
    for (const w of writes) {
      const rows = await executeSql(em, w.sql, w.params);
      w.answered?.(rows);
    }
  } catch (err) {
    await em.rollback();
    throw err;
  }
  await em.commit();
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
 * entity's property names and values, for reads that only convert what they read (lists
 * skip hydration and the identity map). They are not managed (`Plain`): never change and flush one.
 */
export function plainRows<T extends object>(em: EntityManager, entity: EntityName<T>, rows: readonly unknown[]): Plain<T>[] {
  return (rows as readonly Record<string, unknown>[]).map(mapperOf(em, entity)) as Plain<T>[];
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
 * (its metadata and a key string per row were a lookup too many on every request).
 */
const mappers = new Map<string, Mapper>();
const mappersByEntity = new Map<unknown, Record<MapperKind, Mapper | undefined>>();

/**
 * One entity's row mapper: a function made from its plan whose object literal names every property,
 * in the plan's order (a loop over the plan stored and loaded each of a hundred properties
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
