// Retries and cleanup of hook tasks: a failed delivery is tried again after a doubling backoff until
// DELIVER_ATTEMPTS are used, a lease left by a dead deliverer expires, and cleanup_hook_task_table
// (run by an admin or by the database-claimed scheduler) removes finished tasks only.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Config } from '../../config.ts';
import { HookTask } from '../../model/webhook.ts';
import { cronSchedulerTick } from '../../lib/maintenance/cron.ts';
import { cleanupHookTasks } from '../../lib/webhooks/hook-task-cleanup.ts';
import { deliverTick } from '../../lib/webhooks/deliver.ts';
import { SecretBox } from '../../lib/auth/secretbox.ts';
import { repoPathFor, type Services } from '../../lib/http/services.ts';
import { secretKey } from '../../server.ts';
import { newRepo, setup, type Env } from './repo-setup.ts';

let env: Env;
let services: Services;
let receiver: http.Server;
let url: string;
let hits = 0;
let status = 500;

test.before(async () => {
  env = await setup({ WEBHOOK__ALLOWED_HOST_LIST: 'loopback' });
  services = { log: pino({ level: 'silent' }), secrets: new SecretBox(secretKey(env.srv.config)), repoPath: repoPathFor(env.srv.config) };
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits++;
      res.writeHead(status);
      res.end(`answer ${status}`);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
test.after(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await env.close();
});

const em = () => env.db.db.orm.em.fork();
const withWebhook = (w: Partial<Config['WEBHOOK']>): Config => ({ ...env.srv.config, WEBHOOK: { ...env.srv.config.WEBHOOK, ...w } });
const withCleanup = (c: Partial<Config['CRON_CLEANUP_HOOK_TASK_TABLE']>): Config => ({
  ...env.srv.config,
  CRON_CLEANUP_HOOK_TASK_TABLE: { ...env.srv.config.CRON_CLEANUP_HOOK_TASK_TABLE, ...c },
});
const tick = (cfg: Config) => deliverTick(env.db.db.orm.em, services, cfg);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A repository whose hook hears of issues, with one issue queued; returns the hook id. */
async function queuedTask(): Promise<number> {
  const repo = await newRepo(env, env.alice);
  const h = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/hooks`, {
    type: 'forgejo',
    config: { url, content_type: 'json' },
    events: ['issues'],
    active: true,
  });
  assert.is(h.status, 201, h.text);
  assert.is((await env.as(env.alice, 'POST', `/repos/${repo.full_name}/issues`, { title: 'retry me' })).status, 201);
  return h.json.id;
}
const taskOf = (hookId: number) => em().findOneOrFail(HookTask, { hookId });

test('a failed delivery is retried after the backoff, which doubles, until it succeeds', async () => {
  const hookId = await queuedTask();
  const cfg = withWebhook({ DELIVER_ATTEMPTS: 3, DELIVER_BACKOFF: 1 });
  status = 500;
  hits = 0;
  await tick(cfg);
  assert.is(hits, 1);
  let t = await taskOf(hookId);
  assert.is(t.attempts, 1);
  assert.is(t.isDelivered, false);
  assert.is(t.responseInfo?.status, 500);
  assert.ok(t.nextAttemptAt && t.nextAttemptAt.getTime() > Date.now(), 'rescheduled into the future');
  await tick(cfg);
  assert.is(hits, 1, 'not before the backoff has passed');
  await sleep(1100);
  await tick(cfg);
  assert.is(hits, 2);
  t = await taskOf(hookId);
  assert.is(t.attempts, 2);
  // The second wait is twice the first.
  assert.ok(
    t.nextAttemptAt!.getTime() - t.deliveredAt!.getTime() >= 1900,
    `${t.nextAttemptAt?.toISOString()} ${t.deliveredAt?.toISOString()}`,
  );
  status = 200;
  await sleep(2100);
  await tick(cfg);
  assert.is(hits, 3);
  t = await taskOf(hookId);
  assert.is(t.attempts, 3);
  assert.is(t.isDelivered, true);
  assert.is(t.isSucceed, true);
  assert.is(t.nextAttemptAt, null);
  assert.is(t.responseInfo?.status, 200);
});

test('after DELIVER_ATTEMPTS failures the task is given up; three deliverers at once send each attempt once', async () => {
  const hookId = await queuedTask();
  const cfg = withWebhook({ DELIVER_ATTEMPTS: 2, DELIVER_BACKOFF: 0 });
  status = 503;
  hits = 0;
  await Promise.all([tick(cfg), tick(cfg), tick(cfg)]);
  assert.is(hits, 2);
  const t = await taskOf(hookId);
  assert.is(t.attempts, 2);
  assert.is(t.isDelivered, true);
  assert.is(t.isSucceed, false);
  await tick(cfg);
  assert.is(hits, 2, 'never again');
});

test('a leased task is not sent by another deliverer; an expired lease on the last attempt is given up unsent', async () => {
  const hookId = await queuedTask();
  const cfg = withWebhook({ DELIVER_ATTEMPTS: 2, DELIVER_BACKOFF: 0 });
  const t = await taskOf(hookId);
  // A deliverer claimed the last attempt and died: attempts used up, lease in the future.
  await em().nativeUpdate(HookTask, { id: t.id }, { attempts: 2, nextAttemptAt: new Date(Date.now() + 60_000) });
  hits = 0;
  await tick(cfg);
  assert.is(hits, 0);
  assert.is((await taskOf(hookId)).isDelivered, false);
  await em().nativeUpdate(HookTask, { id: t.id }, { nextAttemptAt: new Date(Date.now() - 1000) });
  await tick(cfg);
  assert.is(hits, 0);
  const done = await taskOf(hookId);
  assert.is(done.isDelivered, true);
  assert.is(done.isSucceed, false);
  assert.is(done.responseInfo?.body, 'the delivery attempt did not finish');
});

/** Replaces the hook's tasks by finished ones that many days old, plus `pending` unfinished old ones. */
async function finishedTasks(hookId: number, ages: number[], pending = 0): Promise<void> {
  const m = em();
  const t = await m.findOneOrFail(HookTask, { hookId });
  const row = (isDelivered: boolean, days: number) => ({
    hookId,
    repoId: t.repoId,
    uuid: randomUUID(),
    eventType: t.eventType,
    payload: t.payload,
    isDelivered,
    isSucceed: isDelivered,
    requestInfo: null,
    responseInfo: null,
    attempts: 1,
    nextAttemptAt: isDelivered ? null : new Date(Date.now() + 3_600_000),
    createdAt: new Date(Date.now() - days * 86_400_000),
    deliveredAt: new Date(Date.now() - days * 86_400_000),
  });
  await m.nativeDelete(HookTask, { hookId });
  for (const days of ages) await m.insert(HookTask, row(true, days));
  for (let i = 0; i < pending; i++) await m.insert(HookTask, row(false, 30));
}

test('cleanup_hook_task_table (OlderThan, run by an admin) removes finished tasks older than OLDER_THAN, keeps newer and unfinished ones', async () => {
  const hookId = await queuedTask();
  await finishedTasks(hookId, [10, 8, 2, 0], 1);
  const before = (await env.as(env.admin, 'GET', '/admin/cron')).json.find((c: { name: string }) => c.name === 'cleanup_hook_task_table');
  assert.is((await env.as(env.alice, 'POST', '/admin/cron/cleanup_hook_task_table')).status, 403);
  assert.is((await env.as(env.admin, 'POST', '/admin/cron/cleanup_hook_task_table')).status, 204);
  const left = await em().find(HookTask, { hookId }, { orderBy: { id: 'asc' } });
  assert.equal(
    left.map((t) => t.isDelivered),
    [true, true, false],
  );
  assert.ok(left.filter((t) => t.isDelivered).every((t) => t.deliveredAt!.getTime() > Date.now() - 7 * 86_400_000));
  const after = (await env.as(env.admin, 'GET', '/admin/cron')).json.find((c: { name: string }) => c.name === 'cleanup_hook_task_table');
  assert.is(after.exec_times, before.exec_times + 1);
});

test('cleanup PerWebhook keeps the NUMBER_TO_KEEP newest finished tasks of each hook', async () => {
  const a = await queuedTask();
  const b = await queuedTask();
  await finishedTasks(a, [5, 4, 3, 2, 1], 1);
  await finishedTasks(b, [1]);
  await cleanupHookTasks(em(), withCleanup({ CLEANUP_TYPE: 'PerWebhook', NUMBER_TO_KEEP: 2 }));
  const left = await em().find(HookTask, { hookId: a }, { orderBy: { deliveredAt: 'asc' } });
  assert.is(left.filter((t) => t.isDelivered).length, 2);
  assert.is(left.filter((t) => !t.isDelivered).length, 1);
  assert.ok(left.filter((t) => t.isDelivered).every((t) => t.deliveredAt!.getTime() > Date.now() - 2.5 * 86_400_000));
  assert.is(await em().count(HookTask, { hookId: b }), 1);
});

test('the scheduler runs a due task in one process only, and not again before its period', async () => {
  const cfg = withCleanup({ SCHEDULE: '@every 1h' });
  await em().getConnection().execute(`update cron_task set prev_at = now() - interval '2 hours' where name = 'cleanup_hook_task_table'`);
  const runs = await Promise.all([cronSchedulerTick(env.db.db.orm.em, services, cfg), cronSchedulerTick(env.db.db.orm.em, services, cfg)]);
  assert.equal(runs.flat(), ['cleanup_hook_task_table']);
  assert.equal(await cronSchedulerTick(env.db.db.orm.em, services, cfg), []);
  assert.equal(await cronSchedulerTick(env.db.db.orm.em, services, withCleanup({ ENABLED: false })), []);
});

test.run();
