// Forgejo's cron task cleanup_hook_task_table (services/cron/tasks_extended.go, models/webhook/
// hooktask.go CleanupHookTaskTable): finished hook tasks (succeeded, or failed with no attempt left)
// are removed either when finished more than OLDER_THAN ago, or beyond each hook's NUMBER_TO_KEEP
// newest. Tasks still waiting for a retry are kept. Each variant is one statement, so two processes
// running it at once delete nothing twice and leave nothing half done.
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import { parseDuration } from '../../model/duration.ts';
import { sql, writeSql } from '../../model/sql.ts';

/** Deletes finished tasks as `[cron.cleanup_hook_task_table]` says; returns how many went. */
export async function cleanupHookTasks(em: EntityManager, cfg: Config): Promise<number> {
  const c = cfg.CRON_CLEANUP_HOOK_TASK_TABLE;
  if (c.CLEANUP_TYPE === 'PerWebhook') {
    return writeSql(
      em,
      sql`delete from hook_task where id in (
         select id from (
           select id, row_number() over (partition by hook_id order by delivered_at desc nulls last, id desc) as n
           from hook_task where is_delivered) ranked
         where n > ${c.NUMBER_TO_KEEP})`,
    );
  }
  // loadConfig checked OLDER_THAN.
  const olderThanS = (parseDuration(c.OLDER_THAN) ?? 0) / 1000;
  return writeSql(em, sql`delete from hook_task where is_delivered and delivered_at < now() - make_interval(secs => ${olderThanS})`);
}
