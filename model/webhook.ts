import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * Which events a hook receives (Forgejo's webhook_module.HookEvent): everything, push only, or the
 * chosen kinds in `events` (keys are Forgejo's HookEvents field names in snake case: `push`, `issues`,
 * `issue_assign`, `pull_request_review`, ...). `branch_filter` is a glob over branch (and tag) names
 * for push, create and delete.
 */
export interface HookEventSpec {
  push_only: boolean;
  send_everything: boolean;
  choose_events: boolean;
  branch_filter: string;
  events: Record<string, boolean>;
}

/**
 * A webhook. Its owner is a repository (`repoId`), a user or organization (`ownerId`), or, with both
 * 0, the instance: a system hook (`isSystemWebhook`, fires for every repository) or a default hook
 * (copied into new repositories by Forgejo's UI; cairn stores and lists them). The secret and the
 * Authorization header are sealed with the instance secret and never returned.
 */
export const Webhook = defineEntity({
  name: 'Webhook',
  tableName: 'webhook',
  properties: {
    id: p.integer().primary().autoincrement(),
    repoId: p.integer().default(0).index(),
    ownerId: p.integer().default(0).index(),
    isSystemWebhook: p.boolean().default(false),
    type: p.string().length(16),
    url: p.text(),
    httpMethod: p.string().length(8).default('POST'),
    /** `json` or `form`. */
    contentType: p.string().length(8).default('json'),
    secret: p.text().default('').hidden().lazy(true, false),
    events: p.json<HookEventSpec>(),
    /** Type-specific settings (slack channel, username, icon_url, color) as JSON. */
    meta: p.text().default(''),
    isActive: p.boolean().default(false),
    authorizationHeader: p.text().default('').hidden().lazy(true, false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IWebhook = InferEntity<typeof Webhook>;

/** What was sent (Forgejo's HookRequest); `body` is the converted payload the destination got. */
export interface HookRequestInfo {
  url: string;
  http_method: string;
  headers: Record<string, string>;
  body?: string;
}
export interface HookResponseInfo {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One delivery of one event to one hook (Forgejo's HookTask). It is written in the transaction of the
 * change that caused it. A deliverer claims it by counting an attempt and leasing it (`nextAttemptAt`
 * in the future) in one statement; a failed attempt is rescheduled until `[webhook] DELIVER_ATTEMPTS`
 * are used up, and `isDelivered` marks the task as finished (succeeded or given up). Forgejo never
 * retries (forgejo-facts 11.3); DELIVER_ATTEMPTS = 1 behaves like it.
 */
export const HookTask = defineEntity({
  name: 'HookTask',
  tableName: 'hook_task',
  properties: {
    id: p.integer().primary().autoincrement(),
    hookId: p.integer().index(),
    repoId: p.integer().default(0),
    uuid: p.string().length(36).unique(),
    /** The fine event type (`issue_label`, `pull_request_sync`, ...); the coarse event is derived. */
    eventType: p.string().length(64),
    payload: p.text(),
    isDelivered: p.boolean().default(false).index(),
    isSucceed: p.boolean().default(false),
    requestInfo: p.json<HookRequestInfo>().nullable(),
    responseInfo: p.json<HookResponseInfo>().nullable(),
    /** Attempts made (or started) so far. */
    attempts: p.integer().default(0),
    /** When an unfinished task may be claimed: null or past means now; a claim leases it until then. */
    nextAttemptAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    deliveredAt: p.datetime().nullable(),
  },
});
export type IHookTask = InferEntity<typeof HookTask>;
