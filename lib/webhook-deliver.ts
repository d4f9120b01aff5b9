// Sending hook tasks (Forgejo's services/webhook/deliver.go, forgejo-facts 11). A task is claimed by
// marking it delivered under `for update skip locked`, so processes sharing the database never send
// one twice; it is marked before the request goes out and never sent again (no retries). Tasks left
// undelivered (written while no deliverer ran) go out at the next tick, also after a restart.
import { createHmac } from 'node:crypto';
import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../config.ts';
import { HookTask, Webhook, type HookRequestInfo, type HookResponseInfo, type IHookTask, type IWebhook } from '../model/webhook.ts';
import { HostList } from './remote-url.ts';
import type { Services } from './services.ts';
import { coarseEvent } from './webhooks.ts';
import { setDeliveryNudge } from './webhook-tasks.ts';

export const TICK_MS = 5_000;
const PER_TICK = 50;
/** Response bodies are kept up to this many bytes (the rest is cut). */
const BODY_LIMIT = 64 * 1024;

/** Claims the oldest undelivered task; marks it delivered in the same statement. */
async function claim(em: EntityManager): Promise<number | null> {
  const rows = await em.getConnection().execute<{ id: number }[]>(
    `update hook_task set is_delivered = true, delivered_at = now()
     where id = (select id from hook_task where not is_delivered order by id limit 1 for update skip locked)
     returning id`,
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/** Delivers up to `limit` due tasks; returns how many were sent (successfully or not). */
export async function deliverTick(em: EntityManager, services: Services, cfg: Config, limit = PER_TICK): Promise<number> {
  let n = 0;
  for (; n < limit; n++) {
    const id = await claim(em.fork());
    if (id === null) break;
    try {
      await deliverTask(em.fork(), services, cfg, id);
    } catch (e) {
      // Background work has no request to fail; the task stays delivered (no retries), the cause is logged.
      services.log.error({ err: e, hookTask: id }, 'webhook delivery failed');
    }
  }
  return n;
}

interface Outcome { ok: boolean; request: HookRequestInfo; response: HookResponseInfo }

async function deliverTask(em: EntityManager, services: Services, cfg: Config, id: number): Promise<void> {
  const task = await em.findOneOrFail(HookTask, { id });
  const hook = await em.findOne(Webhook, { id: task.hookId }, { populate: ['secret', 'authorizationHeader'] });
  const out: Outcome = hook
    ? await send(cfg, services, hook, task)
    : { ok: false, request: { url: '', http_method: 'POST', headers: {} }, response: { status: 0, headers: {}, body: 'the webhook was deleted' } };
  await em.nativeUpdate(HookTask, { id }, { isSucceed: out.ok, requestInfo: out.request, responseInfo: out.response });
}

/** forgejo-facts 11.1: delivery ids, event names and signatures (empty without a secret). */
export function deliveryHeaders(task: Pick<IHookTask, 'uuid' | 'eventType' | 'payload'>, secret: string, contentType: string, authorization: string): Record<string, string> {
  const sha1 = secret ? createHmac('sha1', secret).update(task.payload).digest('hex') : '';
  const sha256 = secret ? createHmac('sha256', secret).update(task.payload).digest('hex') : '';
  const event = coarseEvent(task.eventType);
  const h: Record<string, string> = {
    'Content-Type': contentType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
    'User-Agent': 'cairn',
  };
  for (const name of ['Forgejo', 'Gitea', 'Gogs', 'GitHub']) {
    h[`X-${name}-Delivery`] = task.uuid;
    h[`X-${name}-Event`] = event;
    h[`X-${name}-Event-Type`] = task.eventType;
  }
  for (const name of ['Forgejo', 'Gitea', 'Gogs']) h[`X-${name}-Signature`] = sha256;
  h['X-Hub-Signature'] = `sha1=${sha1}`;
  h['X-Hub-Signature-256'] = `sha256=${sha256}`;
  if (authorization) h.Authorization = authorization;
  return h;
}

async function send(cfg: Config, services: Services, hook: IWebhook, task: IHookTask): Promise<Outcome> {
  const open = (v: string) => (v ? services.secrets.open(v) : '');
  const headers = deliveryHeaders(task, open(hook.secret), hook.contentType, open(hook.authorizationHeader));
  const body = hook.contentType === 'form' ? `payload=${encodeURIComponent(task.payload)}` : task.payload;
  // The Authorization header is a credential: it is sent, not kept in the task's record.
  const shown = { ...headers };
  if (shown.Authorization) shown.Authorization = '(hidden)';
  const request: HookRequestInfo = { url: hook.url, http_method: hook.httpMethod, headers: shown };
  try {
    const response = await post(cfg, hook.url, hook.httpMethod, headers, body);
    return { ok: response.status >= 200 && response.status < 300, request, response };
  } catch (e) {
    return { ok: false, request, response: { status: 0, headers: {}, body: e instanceof Error ? e.message : String(e) } };
  }
}

class RefusedHost extends Error {}

/** [webhook] ALLOWED_HOST_LIST (empty: external hosts only), matched on the name and on every address it resolves to. */
async function allowedAddress(cfg: Config, host: string): Promise<{ address: string; family: number }> {
  const allow = new HostList(cfg.WEBHOOK.ALLOWED_HOST_LIST);
  if (allow.empty) allow.add('external');
  const addrs = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await dns.lookup(host, { all: true });
  const ok = allow.matchHost(host) ? addrs[0] : addrs.find((a) => allow.matchIp(a.address));
  if (!ok) {
    throw new RefusedHost(`webhook can only call allowed HTTP servers (check your webhook.ALLOWED_HOST_LIST setting), deny '${host}(${addrs.map((a) => a.address).join(',')})'`);
  }
  return ok;
}

/** A `lookup` that answers the checked address, in both callback forms (`all` is asked for with autoSelectFamily). */
function pinnedLookup(target: { address: string; family: number }): net.LookupFunction {
  return ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (opts.all) cb(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  }) as unknown as net.LookupFunction;
}

/** One request with Node's client, pinned to the address that passed the allow list (no DNS rebinding between check and connect). */
async function post(cfg: Config, url: string, method: string, headers: Record<string, string>, body: string): Promise<HookResponseInfo> {
  const u = new URL(url);
  const target = await allowedAddress(cfg, u.hostname.replace(/^\[|\]$/g, ''));
  const client = u.protocol === 'https:' ? https : http;
  const timeoutMs = cfg.WEBHOOK.DELIVER_TIMEOUT * 1000;
  return new Promise((resolve, reject) => {
    const req = client.request(u, {
      method,
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      lookup: pinnedLookup(target),
      rejectUnauthorized: !cfg.WEBHOOK.SKIP_TLS_VERIFY,
      timeout: timeoutMs,
    }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < BODY_LIMIT) chunks.push(c.subarray(0, BODY_LIMIT - size));
        size += c.length;
      });
      res.on('end', () => {
        const h: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({ status: res.statusCode ?? 0, headers: h, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    const timer = setTimeout(() => req.destroy(new Error(`timeout after ${cfg.WEBHOOK.DELIVER_TIMEOUT}s`)), timeoutMs);
    req.on('timeout', () => req.destroy(new Error(`timeout after ${cfg.WEBHOOK.DELIVER_TIMEOUT}s`)));
    req.on('error', (e) => { clearTimeout(timer); reject(e); });
    req.on('close', () => clearTimeout(timer));
    req.end(body);
  });
}

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
    if (running) { again = true; return; }
    running = deliverTick(em, services, cfg)
      .catch((e: unknown) => services.log.error({ err: e }, 'webhook tick failed'))
      .finally(() => {
        running = null;
        if (again) { again = false; run(); }
      });
  };
  const later = (ms: number) => {
    const t = setTimeout(() => { timers.delete(t); run(); }, ms);
    timers.add(t);
  };
  setDeliveryNudge(() => { later(100); later(1000); });
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
