// Periodic mirror work (Forgejo services/mirror): pull mirrors fetch and push mirrors push once their
// interval has elapsed, and push mirrors with sync_on_commit push soon after refs move. The database
// decides who does what: a due row is claimed by moving its next_update_at a lease ahead under
// `for update skip locked`, so two processes on one database never sync one mirror at once, and a
// process that dies mid-sync leaves the row to be retried when the lease ends. The fetch or push runs
// with no transaction open; its outcome is written in a short one after (lib/mirrors/mirrors.ts).
import { EventEmitter } from 'node:events';
import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { Services } from '../http/services.ts';
import { Mirror, PushMirror } from '../../model/mirror.ts';
import { Repository } from '../../model/repo.ts';
import { parseDuration } from '../../model/duration.ts';
import { syncMirror, syncPushMirror } from './mirrors.ts';
import { recordCronRun } from '../../model/cron.ts';
import { executeSql, inTransaction, sql } from '../../model/sql.ts';

/** Longer than a remote operation may take (git/remote.ts REMOTE_TIMEOUT_MS). */
const LEASE = "interval '15 minutes'";
export const TICK_MS = 30_000;
/** How soon after refs moved a push is attempted: the request's transaction has committed by then. */
const NUDGE_DELAY_MS = 1_000;
const PER_TICK = 20;

/** A latency hint inside one process; the due rows in the database are what counts. */
const nudges = new EventEmitter();

type Table = 'mirror' | 'push_mirror';

/** Claims one due row; returns its id and the lease it now holds (whole seconds, so it round-trips). */
async function claim(em: EntityManager, table: Table): Promise<{ id: number; lease: Date } | null> {
  const t = sql.id(table);
  const rows = await executeSql<{ id: number; next_update_at: Date | string }>(
    em,
    sql`update ${t} set next_update_at = date_trunc('second', now()) + ${sql.raw(LEASE)}
     where id = (select id from ${t} where next_update_at <= now() order by next_update_at limit 1 for update skip locked)
     returning id, next_update_at`,
  );
  return rows[0] ? { id: Number(rows[0].id), lease: new Date(rows[0].next_update_at) } : null;
}

const nextAfter = (interval: string) => {
  const ms = parseDuration(interval) ?? 0;
  return ms > 0 ? new Date(Date.now() + ms) : null;
};

export interface TickResult {
  pulled: number;
  pushed: number;
  failed: number;
}

/** One round of due mirror work; `em` is a root EntityManager, forked per mirror. */
export async function mirrorTick(em: EntityManager, services: Services, limit = PER_TICK): Promise<TickResult> {
  const out: TickResult = { pulled: 0, pushed: 0, failed: 0 };
  for (let i = 0; i < limit; i++) {
    const c = await claim(em.fork(), 'mirror');
    if (!c) break;
    if (await guarded(services.log, { mirror: c.id }, () => pullOne(em.fork(), services, c.id))) out.pulled++;
    else out.failed++;
  }
  for (let i = 0; i < limit; i++) {
    const c = await claim(em.fork(), 'push_mirror');
    if (!c) break;
    if (await guarded(services.log, { pushMirror: c.id }, () => pushOne(em.fork(), services, c.id, c.lease))) out.pushed++;
    else out.failed++;
  }
  return out;
}

/**
 * Background work has no request to fail: an unexpected error (database, disk) is logged and the
 * row stays leased, to be retried when the lease ends. Remote failures are the mirror's last_error.
 */
async function guarded(log: Logger, ids: Record<string, number>, fn: () => Promise<boolean>): Promise<boolean> {
  try {
    return await fn();
  } catch (e) {
    log.error({ err: e, ...ids }, 'mirror sync failed');
    return false;
  }
}

async function pullOne(em: EntityManager, services: Services, id: number): Promise<boolean> {
  const mirror = await em.findOne(Mirror, { id });
  const repo = mirror && (await em.findOne(Repository, { id: mirror.repoId }));
  if (!repo) return false;
  const synced = await syncMirror(em, (work) => inTransaction(em, work), services, repo);
  if (synced?.lastError) services.log.warn({ repo: repo.id, error: synced.lastError }, 'mirror fetch failed');
  return !!synced && !synced.lastError;
}

async function pushOne(em: EntityManager, services: Services, id: number, lease: Date): Promise<boolean> {
  const pm = await em.findOne(PushMirror, { id });
  const repo = pm && (await em.findOne(Repository, { id: pm.repoId }));
  if (!pm || !repo) return false;
  const ok = await syncPushMirror(em, (work) => inTransaction(em, work), services, repo, pm);
  if (!ok) services.log.warn({ repo: repo.id, remote: pm.remoteName, error: pm.lastError }, 'push mirror failed');
  // Refs that moved during the push marked the row due again; that mark must survive.
  await em.nativeUpdate(PushMirror, { id, nextUpdateAt: lease }, { nextUpdateAt: nextAfter(pm.interval) });
  return ok;
}

/**
 * After refs moved (API writes and git pushes, through refreshAfterWrite): the repository's push
 * mirrors with sync_on_commit become due now. The push itself runs in the background scheduler,
 * never in the user's request.
 */
export async function afterRefsUpdated(em: EntityManager, repoId: number): Promise<void> {
  const n = await em.nativeUpdate(PushMirror, { repoId, syncOnCommit: true }, { nextUpdateAt: new Date() });
  if (n > 0) nudges.emit('due');
}

/** Runs ticks every TICK_MS (and soon after refs moved) until stopped; never two ticks at once. */
export function startMirrorScheduler(em: EntityManager, services: Services): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  let again = false;
  let nudgeTimer: NodeJS.Timeout | null = null;
  let stopped = false;
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    // Each tick is a run of Forgejo's update_mirrors task (GET /admin/cron, lib/maintenance/cron.ts).
    running = recordCronRun(em, 'update_mirrors')
      .then(() => mirrorTick(em, services))
      .catch((e: unknown) => services.log.error({ err: e }, 'mirror tick failed'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  const onDue = () => {
    nudgeTimer ??= setTimeout(() => {
      nudgeTimer = null;
      run();
    }, NUDGE_DELAY_MS);
  };
  nudges.on('due', onDue);
  const timer = setInterval(run, TICK_MS);
  run();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (nudgeTimer) clearTimeout(nudgeTimer);
      nudges.off('due', onDue);
      await running;
    },
  };
}
