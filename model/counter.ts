import { defineEntity, p, type EntityManager } from '@mikro-orm/core';
import { executeSql, sql } from './sql.ts';

/**
 * Per-group counters (issue and pull numbers per repository, action run numbers, ...). Allocation is
 * one upsert statement, so it is safe across processes sharing one database (forgejo-facts 9).
 */
export const ResourceIndex = defineEntity({
  name: 'ResourceIndex',
  tableName: 'resource_index',
  properties: {
    kind: p.string().length(32).primary(),
    groupId: p.integer().primary(),
    maxIndex: p.integer().default(0),
  },
  primaryKeys: ['kind', 'groupId'],
});

export async function nextIndex(em: EntityManager, kind: string, groupId: number): Promise<number> {
  const rows = await executeSql<{ max_index: number }>(
    em,
    sql`insert into resource_index (kind, group_id, max_index) values (${kind}, ${groupId}, 1)
     on conflict (kind, group_id) do update set max_index = resource_index.max_index + 1
     returning max_index`,
  );
  return Number(rows[0]!.max_index);
}
