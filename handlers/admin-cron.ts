// Site administration of periodic tasks (Forgejo's routers/api/v1/admin/cron.go): the list with run
// counts, and running one now. The chain (ADMIN) let only site admins in.
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import { findCronTask, listCronTasks, runCronTask } from '../lib/maintenance/cron.ts';
import { pageOf } from '../lib/http/paging.ts';
import { notFound } from '../lib/http/errors.ts';
import { fmtTime } from '../model/time.ts';

/** Forgejo pages the task table in memory and sets X-Total-Count only. */
export const list: Handler = async (c) => {
  const p = pageOf(c);
  const rows = await listCronTasks(c.em, c.config);
  const page = rows.slice(p.offset, p.offset + p.limit).map((r) => ({
    name: r.task.name,
    schedule: r.schedule,
    next: fmtTime(r.next),
    prev: fmtTime(r.prev),
    exec_times: r.execTimes,
  }));
  return json(200, page, { 'X-Total-Count': String(rows.length), 'Access-Control-Expose-Headers': 'X-Total-Count' });
};

export const run: Handler = async (c) => {
  const task = findCronTask(c.config, c.params.task ?? '');
  if (!task) throw notFound();
  await runCronTask(c.em, c.services, c.config, task);
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `adminCron.<key>`. */
export const handlers = {
  list,
  run,
} satisfies Record<string, Handler<never, never>>;
