import { defineEntity, p, type EntityManager, type InferEntity } from '@mikro-orm/core';
import { executeSql, sql, writeSql } from './sql.ts';

/** Last run and run count of a cron task, shared by every process on the database (lib/maintenance/cron.ts). */
export const CronTask = defineEntity({
  name: 'CronTask',
  tableName: 'cron_task',
  properties: {
    name: p.string().length(64).primary(),
    execTimes: p.integer().default(0),
    prevAt: p.datetime().nullable(),
  },
});
export type ICronTask = InferEntity<typeof CronTask>;

/** Counts one run of `name`, starting now: one statement, so concurrent processes never lose a run. */
export async function recordCronRun(em: EntityManager, name: string): Promise<void> {
  await writeSql(
    em,
    sql`insert into cron_task (name, exec_times, prev_at) values (${name}, 1, now())
     on conflict (name) do update set exec_times = cron_task.exec_times + 1, prev_at = now()`,
  );
}

/**
 * Claims the scheduled run of `name` when its period has passed since the last run (or it never ran):
 * the run is counted in the same statement, so of several processes ticking together exactly one wins.
 */
export async function claimCronRun(em: EntityManager, name: string, everyMs: number): Promise<boolean> {
  const rows = await executeSql<{ name: string }>(
    em,
    sql`insert into cron_task (name, exec_times, prev_at) values (${name}, 1, now())
     on conflict (name) do update set exec_times = cron_task.exec_times + 1, prev_at = now()
     where cron_task.prev_at is null or cron_task.prev_at <= now() - make_interval(secs => ${everyMs / 1000})
     returning name`,
  );
  return rows.length > 0;
}
