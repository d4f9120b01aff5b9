// Entities read with plain SQL: one statement may join several tables (a token and its user, an
// owner and its repository), and each table's columns, selected under a prefix, become the same
// managed entity `em.findOne` would have given (issue 10: fewer statements per request).
import type { EntityDictionary, EntityManager, EntityName } from '@mikro-orm/core';

const SEP = '__';

interface Prefixed { select: string; fields: string[]; keys: string[]; pk: string }
/** Select lists by entity and alias: they depend only on the entity definitions. */
const lists = new Map<string, Prefixed>();

function prefixed<T extends object>(em: EntityManager, entity: EntityName<T>, alias: string): Prefixed {
  const meta = em.getMetadata().get(entity);
  const key = `${meta.className}\0${alias}`;
  let list = lists.get(key);
  if (list === undefined) {
    const fields = meta.props.filter((p) => !p.lazy && p.persist !== false && p.fieldNames?.length === 1).map((p) => p.fieldNames[0]!);
    const pk = meta.properties[meta.primaryKeys[0] as keyof typeof meta.properties].fieldNames[0]!;
    list = {
      select: fields.map((f) => `${alias}."${f}" as "${alias}${SEP}${f}"`).join(', '),
      fields,
      keys: fields.map((f) => `${alias}${SEP}${f}`),
      pk: `${alias}${SEP}${pk}`,
    };
    lists.set(key, list);
  }
  return list;
}

/** The non-lazy columns of an entity's table as `alias."col" as "alias__col"`, for a select list. */
export function prefixedColumns<T extends object>(em: EntityManager, entity: EntityName<T>, alias: string): string {
  return prefixed(em, entity, alias).select;
}

/**
 * The entity whose columns `prefixedColumns(…, alias)` selected in `row`, merged into the
 * EntityManager; null when its primary key is null (the outer side of a join that found nothing).
 */
export function mapPrefixed<T extends object>(em: EntityManager, entity: EntityName<T>, row: Record<string, unknown>, alias: string): T | null {
  const { fields, keys, pk } = prefixed(em, entity, alias);
  if (row[pk] == null) return null;
  const data: Record<string, unknown> = {};
  for (let i = 0; i < fields.length; i++) data[fields[i]!] = row[keys[i]!];
  return em.map(entity, data as EntityDictionary<T>);
}

/** A list of ids as one SQL parameter, for `= any(?::int[])` (an empty list matches nothing). */
export const intArray = (ids: Iterable<number>) => `{${[...ids].map((id) => Math.trunc(Number(id))).join(',')}}`;

/**
 * Runs a read in the EntityManager's transaction, first flushing pending changes to the entities it
 * reads, as `em.find` does (flush mode auto): a plain query must see what a find would have seen.
 */
export async function readRows<R>(em: EntityManager, reads: readonly { meta: { className: string } }[], sql: string, params: unknown[]): Promise<R[]> {
  for (const entity of reads) await em.tryFlush(entity.meta.className, {});
  return em.getConnection().execute<R[]>(sql, params, 'all', em.getTransactionContext());
}

/** The column a one-statement page (count joined to the rows) names its total; no table has it. */
export const TOTAL = 'cairn__total';

interface Column { field: string; prop: string; convert: ((v: unknown) => unknown) | null }
/** Column-to-property plans by entity: they depend only on the entity definitions. */
const plans = new Map<string, Column[]>();

function planOf<T extends object>(em: EntityManager, entity: EntityName<T>): Column[] {
  const meta = em.getMetadata().get(entity);
  let plan = plans.get(meta.className);
  if (plan === undefined) {
    const platform = em.getPlatform();
    plan = meta.props.filter((p) => !p.lazy && p.persist !== false && p.fieldNames?.length === 1).map((p) => {
      const type = p.customType;
      const toDate = p.runtimeType === 'Date';
      const convert = type ? (v: unknown) => type.convertToJSValue(v, platform)
        : toDate ? (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? new Date(v) : v)
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
  const plan = planOf(em, entity);
  return (rows as readonly Record<string, unknown>[]).map((row) => {
    const out: Record<string, unknown> = {};
    for (const c of plan) {
      const v = row[c.field];
      out[c.prop] = v == null || c.convert === null ? v : c.convert(v);
    }
    return out as T;
  });
}

/**
 * A select-list expression: the rows of an entity's table (alias `alias`) matching `where`, as one
 * JSON array of objects keyed by column, in `order` (a column of the table); `plainRows` reads them.
 * Several such lists in one statement read what several `em.find` would, in one round trip.
 */
export function jsonList<T extends object>(em: EntityManager, entity: EntityName<T>, alias: string, where: string, order = 'id'): string {
  const meta = em.getMetadata().get(entity);
  const columns = planOf(em, entity).map((c) => `${alias}."${c.field}"`).join(', ');
  return `(select coalesce(json_agg(x order by x."${order}"), '[]') from (select ${columns} from "${meta.tableName}" ${alias} where ${where}) x)`;
}
