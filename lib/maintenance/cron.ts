// The periodic tasks cairn runs, under Forgejo's task names (services/cron), for GET /admin/cron and
// POST /admin/cron/{task}. Only tasks that do something are listed. Run counts and the last start
// live in the `cron_task` table, so every process on one database reports the same numbers.
//
// - update_mirrors: the mirror scheduler (lib/mirrors/schedule.ts), which every serving process ticks
//   every 30 seconds; a tick fetches due pull mirrors and pushes due push mirrors, as Forgejo's task
//   does. Started from the API it runs in the background, as Forgejo's queue does.
// - delete_old_actions: deletes activity feed rows older than a year. As in Forgejo, where this task
//   is disabled by default, it is not scheduled (schedule "-") and runs only when an admin starts it.
// - cleanup_hook_task_table: deletes finished webhook deliveries (lib/webhooks/hook-task-cleanup.ts) as
//   `[cron.cleanup_hook_task_table]` says; listed only when ENABLED. The shared scheduler below runs
//   it when its period has passed since the last run, claimed in the database (model/cron.ts), so of
//   several processes only one runs it.
import type { EntityManager } from '@mikro-orm/core';
import { schedulePeriod, type Config } from '../../config.ts';
import type { Services } from '../http/services.ts';
import { Action } from '../../model/action.ts';
import { claimCronRun, CronTask, recordCronRun } from '../../model/cron.ts';
import { cleanupHookTasks } from '../webhooks/index.ts';
import { mirrorTick, TICK_MS } from '../mirrors/index.ts';

export interface CronTaskDef {
  name: string;
  /** Forgejo's spec text; "-" when the task is not scheduled. */
  schedule(cfg: Config): string;
  /** Period of a scheduled task. */
  everyMs(cfg: Config): number | null;
  /** Run by startCronScheduler when due (update_mirrors has its own ticker). */
  byScheduler: boolean;
  enabled(cfg: Config): boolean;
  run(em: EntityManager, services: Services, cfg: Config): Promise<void>;
}

/** Forgejo's delete_old_actions default OLDER_THAN (8760h). */
const ACTIONS_KEPT_MS = 8760 * 3_600_000;
/** How often the scheduler looks for due tasks. */
const SCHEDULER_TICK_MS = 60_000;

const always = () => true;

const TASKS: readonly CronTaskDef[] = [
  {
    name: 'cleanup_hook_task_table',
    schedule: (cfg) => cfg.CRON_CLEANUP_HOOK_TASK_TABLE.SCHEDULE,
    everyMs: (cfg) => schedulePeriod(cfg.CRON_CLEANUP_HOOK_TASK_TABLE.SCHEDULE),
    byScheduler: true,
    enabled: (cfg) => cfg.CRON_CLEANUP_HOOK_TASK_TABLE.ENABLED,
    async run(em, _services, cfg) {
      await cleanupHookTasks(em, cfg);
    },
  },
  {
    name: 'delete_old_actions',
    schedule: () => '-',
    everyMs: () => null,
    byScheduler: false,
    enabled: always,
    async run(em) {
      await em.nativeDelete(Action, { createdAt: { $lt: new Date(Date.now() - ACTIONS_KEPT_MS) } });
    },
  },
  {
    name: 'update_mirrors',
    schedule: () => `@every ${TICK_MS / 1000}s`,
    everyMs: () => TICK_MS,
    byScheduler: false,
    enabled: always,
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

const enabledTasks = (cfg: Config) => TASKS.filter((t) => t.enabled(cfg));

export const findCronTask = (cfg: Config, name: string): CronTaskDef | undefined => enabledTasks(cfg).find((t) => t.name === name);

export interface CronRow {
  task: CronTaskDef;
  schedule: string;
  execTimes: number;
  prev: Date | null;
  next: Date | null;
}

/**
 * Every enabled task with its counters, by name. `next` is the last start plus the period (when the
 * next run is due, not a promise); unscheduled or never-run tasks have none.
 */
export async function listCronTasks(em: EntityManager, cfg: Config): Promise<CronRow[]> {
  const tasks = enabledTasks(cfg);
  const rows = await em.find(CronTask, { name: { $in: tasks.map((t) => t.name) } });
  const byName = new Map(rows.map((r) => [r.name, r]));
  return [...tasks]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((task) => {
      const row = byName.get(task.name);
      const prev = row?.prevAt ?? null;
      const every = task.everyMs(cfg);
      return {
        task,
        schedule: task.schedule(cfg),
        execTimes: row?.execTimes ?? 0,
        prev,
        next: prev && every ? new Date(prev.getTime() + every) : null,
      };
    });
}

/** Counts the run, then runs the task (Forgejo's Task.Run); update_mirrors only starts its tick. */
export async function runCronTask(em: EntityManager, services: Services, cfg: Config, task: CronTaskDef): Promise<void> {
  await recordCronRun(em, task.name);
  await task.run(em, services, cfg);
}

/** Runs the due scheduled tasks once: each is claimed in the database first, so only one process runs it. */
export async function cronSchedulerTick(em: EntityManager, services: Services, cfg: Config): Promise<string[]> {
  const ran: string[] = [];
  for (const task of enabledTasks(cfg).filter((t) => t.byScheduler)) {
    const every = task.everyMs(cfg);
    if (every === null || !(await claimCronRun(em.fork(), task.name, every))) continue;
    await task.run(em.fork(), services, cfg);
    ran.push(task.name);
  }
  return ran;
}

/** Ticks the scheduler every minute in a serving process (never two ticks at once). */
export function startCronScheduler(em: EntityManager, services: Services, cfg: Config): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const run = () => {
    if (running) return;
    running = cronSchedulerTick(em, services, cfg)
      .catch((e: unknown) => services.log.error({ err: e }, 'cron tick failed'))
      .finally(() => {
        running = null;
      });
  };
  const interval = setInterval(run, SCHEDULER_TICK_MS);
  return {
    async stop() {
      clearInterval(interval);
      await running;
    },
  };
}
