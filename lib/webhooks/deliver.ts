// Sending hook tasks (Forgejo's services/webhook/deliver.go, forgejo-facts 11), with retries. A task is
// claimed in one statement under `for update skip locked`: the attempt is counted and the task leased
// (`next_attempt_at` moved past the delivery timeout), so processes sharing the database never send it
// at the same time. After the attempt the task is finished (succeeded, or failed for good) or, while
// `[webhook] DELIVER_ATTEMPTS` allow, rescheduled with a doubling backoff. A process that dies during an
// attempt leaves the lease to expire: the task is then tried again, or given up if that was its last
// attempt. Every write after the claim checks the attempt number, so a late writer changes nothing.
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import { Webhook, type HookRequestInfo, type HookResponseInfo, type IHookTask } from '../../model/webhook.ts';
import { HookTask } from '../../model/webhook.ts';
import type { Services } from '../http/services.ts';
import { UnsupportedEvent } from './payloads/index.ts';
import { buildRequest } from './request.ts';
import { setDeliveryNudge } from './tasks.ts';
import { RefusedHost, sendRequest } from './transport.ts';
import { executeSql, sql, writeSql } from '../../model/sql.ts';

export const TICK_MS = 5_000;
const PER_TICK = 50;
/** How long a claim holds a task beyond the delivery timeout (building the request, recording it). */
const LEASE_MARGIN_S = 60;

interface Claim {
  id: number;
  attempt: number;
}

/** Claims the oldest due task: counts the attempt and leases the task, in one statement. */
async function claim(em: EntityManager, cfg: Config): Promise<Claim | null> {
  const rows = await executeSql<{ id: number; attempts: number }>(
    em,
    sql`update hook_task set attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${cfg.WEBHOOK.DELIVER_TIMEOUT + LEASE_MARGIN_S})
     where id = (select id from hook_task
                 where not is_delivered and attempts < ${cfg.WEBHOOK.DELIVER_ATTEMPTS} and (next_attempt_at is null or next_attempt_at <= now())
                 order by id limit 1 for update skip locked)
     returning id, attempts`,
  );
  return rows[0] ? { id: Number(rows[0].id), attempt: Number(rows[0].attempts) } : null;
}

/** Tasks whose last attempt was leased and never recorded (the process died): given up. */
async function giveUpAbandoned(em: EntityManager, cfg: Config): Promise<void> {
  const note: HookResponseInfo = { status: 0, headers: {}, body: 'the delivery attempt did not finish' };
  await writeSql(
    em,
    sql`update hook_task set is_delivered = true, delivered_at = now(), next_attempt_at = null,
       response_info = coalesce(response_info, ${JSON.stringify(note)}::jsonb)
     where not is_delivered and attempts >= ${cfg.WEBHOOK.DELIVER_ATTEMPTS} and next_attempt_at <= now()`,
  );
}

/** Delivers up to `limit` due tasks; returns how many attempts were made. */
export async function deliverTick(em: EntityManager, services: Services, cfg: Config, limit = PER_TICK): Promise<number> {
  await giveUpAbandoned(em.fork(), cfg);
  let n = 0;
  for (; n < limit; n++) {
    const c = await claim(em.fork(), cfg);
    if (c === null) break;
    await attempt(em.fork(), services, cfg, c);
  }
  return n;
}

interface Outcome {
  ok: boolean;
  /** A failure that another attempt cannot fix (deleted hook, refused host, event the service does not take). */
  permanent: boolean;
  request: HookRequestInfo | null;
  response: HookResponseInfo;
}

const failure = (body: string, permanent: boolean, request: HookRequestInfo | null = null): Outcome => ({
  ok: false,
  permanent,
  request,
  response: { status: 0, headers: {}, body },
});

async function attempt(em: EntityManager, services: Services, cfg: Config, c: Claim): Promise<void> {
  const task = await em.findOneOrFail(HookTask, { id: c.id });
  const out = await send(em, services, cfg, task);
  const last = out.ok || out.permanent || c.attempt >= cfg.WEBHOOK.DELIVER_ATTEMPTS;
  const backoffS = cfg.WEBHOOK.DELIVER_BACKOFF * 2 ** (c.attempt - 1);
  await writeSql(
    em,
    sql`update hook_task set is_delivered = ${last}, is_succeed = ${out.ok}, delivered_at = now(),
       next_attempt_at = case when ${last} then null else now() + make_interval(secs => ${backoffS}) end,
       request_info = ${out.request ? JSON.stringify(out.request) : null}::jsonb, response_info = ${JSON.stringify(out.response)}::jsonb
     where id = ${c.id} and attempts = ${c.attempt}`,
  );
}

async function send(em: EntityManager, services: Services, cfg: Config, task: IHookTask): Promise<Outcome> {
  const hook = await em.findOne(Webhook, { id: task.hookId }, { populate: ['secret', 'authorizationHeader'] });
  if (!hook) return failure('the webhook was deleted', true);
  const open = (v: string) => (v ? services.secrets.open(v) : '');
  const ctx = { cfg, repoPath: (fullName: string) => services.repoPath(...splitFullName(fullName)) };
  let req;
  try {
    req = await buildRequest(ctx, hook, open(hook.secret), open(hook.authorizationHeader), task);
  } catch (e) {
    // Forgejo's NewRequest failure: nothing is sent; the reason is what the record shows.
    if (e instanceof UnsupportedEvent)
      return failure(`cannot create http request for webhook ${hook.type}[${hook.id}]: ${e.message}`, true);
    throw e;
  }
  try {
    const response = await sendRequest(cfg, req.url, req.method, req.headers, req.body);
    return { ok: response.status >= 200 && response.status < 300, permanent: false, request: req.record, response };
  } catch (e) {
    // Network failures, timeouts and refusals are the destination's answer, recorded on the task.
    return failure(e instanceof Error ? e.message : String(e), e instanceof RefusedHost, req.record);
  }
}

const splitFullName = (fullName: string): [string, string] => {
  const at = fullName.indexOf('/');
  return [fullName.slice(0, at), fullName.slice(at + 1)];
};

/**
 * Delivers every TICK_MS and soon after tasks were queued in this process (the queueing transaction
 * has committed by then, or the next tick finds the row); never two ticks at once.
 */
export function startWebhookDeliverer(em: EntityManager, services: Services, cfg: Config): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  let again = false;
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = deliverTick(em, services, cfg)
      .catch((e: unknown) => services.log.error({ err: e }, 'webhook tick failed'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  const later = (ms: number) => {
    const t = setTimeout(() => {
      timers.delete(t);
      run();
    }, ms);
    timers.add(t);
  };
  setDeliveryNudge(() => {
    later(100);
    later(1000);
  });
  const interval = setInterval(run, TICK_MS);
  run();
  return {
    async stop() {
      stopped = true;
      clearInterval(interval);
      for (const t of timers) clearTimeout(t);
      setDeliveryNudge(() => {});
      await running;
    },
  };
}
