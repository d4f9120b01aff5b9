// The request a hook task becomes (Forgejo's handler NewRequest and AddDefaultHeaders): the API
// payload itself for forgejo, gitea and gogs hooks (JSON or `payload=` form), each chat service's own
// body otherwise, with the delivery and signature headers where Forgejo sends them and the hook's
// Authorization header. The Authorization value is a credential: the record shows it redacted.
import { createHmac } from 'node:crypto';
import type { HookRequestInfo, IHookTask, IWebhook } from '../../model/webhook.ts';
import { convertTask, type ConvertContext } from './payloads/index.ts';
import { coarseEvent, RAW_PAYLOAD_TYPES } from './webhooks.ts';

export interface OutgoingRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  /** What the task records: the Authorization value redacted. */
  record: HookRequestInfo;
}

/** forgejo-facts 11.1: delivery ids, event names and signatures over `signed` (empty without a secret). */
export function deliveryHeaders(task: Pick<IHookTask, 'uuid' | 'eventType'>, signed: string, secret: string): Record<string, string> {
  const sha1 = secret ? createHmac('sha1', secret).update(signed).digest('hex') : '';
  const sha256 = secret ? createHmac('sha256', secret).update(signed).digest('hex') : '';
  const event = coarseEvent(task.eventType);
  const h: Record<string, string> = {};
  for (const name of ['Forgejo', 'Gitea', 'Gogs', 'GitHub']) {
    h[`X-${name}-Delivery`] = task.uuid;
    h[`X-${name}-Event`] = event;
    h[`X-${name}-Event-Type`] = task.eventType;
  }
  for (const name of ['Forgejo', 'Gitea', 'Gogs']) h[`X-${name}-Signature`] = sha256;
  h['X-Hub-Signature'] = `sha1=${sha1}`;
  h['X-Hub-Signature-256'] = `sha256=${sha256}`;
  return h;
}

/** Forgejo's redaction of the Authorization header in the delivery record. */
const redact = (authorization: string) => (/^(Bearer|Basic) /.exec(authorization)?.[0] ?? '') + '******';

/**
 * The request for `task` to `hook`, whose secret and Authorization header are given opened. Throws
 * UnsupportedEvent (from the converters) when the hook's service takes no such event.
 */
export async function buildRequest(
  ctx: ConvertContext,
  hook: IWebhook,
  secret: string,
  authorization: string,
  task: IHookTask,
): Promise<OutgoingRequest> {
  let url = hook.url;
  let method = hook.httpMethod;
  let body: string;
  let headers: Record<string, string>;
  if (RAW_PAYLOAD_TYPES.includes(hook.type)) {
    const form = hook.contentType === 'form';
    body = form ? `payload=${encodeURIComponent(task.payload)}` : task.payload;
    // The signature covers the JSON payload, also for a form body (forgejo-facts 11.1).
    headers = {
      'Content-Type': form ? 'application/x-www-form-urlencoded' : 'application/json',
      ...deliveryHeaders(task, task.payload, secret),
    };
  } else {
    const c = await convertTask(ctx, hook, task);
    ({ url, method, body } = c);
    headers = { 'Content-Type': 'application/json', ...(c.withDefaultHeaders ? deliveryHeaders(task, c.body, secret) : {}) };
  }
  headers['User-Agent'] = 'cairn';
  const shown = { ...headers };
  if (authorization) {
    headers.Authorization = authorization;
    shown.Authorization = redact(authorization);
  }
  return { url, method, headers, body, record: { url, http_method: method, headers: shown, body } };
}
