// The periodic tasks cairn runs, under Forgejo's task names (services/cron), for GET /admin/cron and
// POST /admin/cron/{task}. Only tasks that do something are listed. Run counts and the last start
// live in the `cron_task` table, so every process on one database reports the same numbers.
//
// - update_mirrors: the mirror scheduler (lib/mirror-schedule.ts), which every serving process ticks
//   every 30 seconds; a tick fetches due pull mirrors and pushes due push mirrors, as Forgejo's task
//   does. Started from the API it runs in the background, as Forgejo's queue does.
// - delete_old_actions: deletes activity feed rows older than a year. As in Forgejo, where this task
//   is disabled by default, it is not scheduled (schedule "-") and runs only when an admin starts it.
import type { EntityManager } from '@mikro-orm/core';
import type { Services } from './services.ts';
import { Action } from '../model/action.ts';
import { CronTask, recordCronRun } from '../model/cron.ts';
import { mirrorTick, TICK_MS } from './mirror-schedule.ts';

export interface CronTaskDef {
  name: string;
  /** Forgejo's spec text; "-" when the task is not scheduled. */
  schedule: string;
  /** Period of a scheduled task. */
  everyMs: number | null;
  run(em: EntityManager, services: Services): Promise<void>;
}

/** Forgejo's delete_old_actions default OLDER_THAN (8760h). */
const ACTIONS_KEPT_MS = 8760 * 3_600_000;

const TASKS: readonly CronTaskDef[] = [
  {
    name: 'delete_old_actions',
    schedule: '-',
    everyMs: null,
    async run(em) {
      await em.nativeDelete(Action, { createdAt: { $lt: new Date(Date.now() - ACTIONS_KEPT_MS) } });
    },
  },
  {
    name: 'update_mirrors',
    schedule: `@every ${TICK_MS / 1000}s`,
    everyMs: TICK_MS,
    // Forgejo's task queues the due mirrors and returns; here a tick starts beside the request, on
    // its own EntityManager (the request's transaction must not hold the syncs).
    async run(em, services) {
      const own = em.fork();
      setImmediate(() => {
        mirrorTick(own, services).catch((e: unknown) => services.log.error({ err: e }, 'update_mirrors failed'));
      });
    },
  },
];

export const findCronTask = (name: string): CronTaskDef | undefined => TASKS.find((t) => t.name === name);

export interface CronRow { task: CronTaskDef; execTimes: number; prev: Date | null; next: Date | null }

/**
 * Every task with its counters, by name. `next` is the last start plus the period (each serving
 * process keeps its own timer, so it is when the next run is due, not a promise); unscheduled or
 * never-run tasks have none.
 */
export async function listCronTasks(em: EntityManager): Promise<CronRow[]> {
  const rows = await em.find(CronTask, { name: { $in: TASKS.map((t) => t.name) } });
  const byName = new Map(rows.map((r) => [r.name, r]));
  return [...TASKS].sort((a, b) => a.name.localeCompare(b.name)).map((task) => {
    const row = byName.get(task.name);
    const prev = row?.prevAt ?? null;
    return { task, execTimes: row?.execTimes ?? 0, prev, next: prev && task.everyMs ? new Date(prev.getTime() + task.everyMs) : null };
  });
}

/** Counts the run, then runs the task (Forgejo's Task.Run); update_mirrors only starts its tick. */
export async function runCronTask(em: EntityManager, services: Services, task: CronTaskDef): Promise<void> {
  await recordCronRun(em, task.name);
  await task.run(em, services);
}
