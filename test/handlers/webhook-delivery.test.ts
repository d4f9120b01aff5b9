// Webhook deliveries (forgejo-facts 11): changes queue hook tasks in their own transaction, the
// deliverer sends them once with Forgejo's headers and signatures, and records the answer. Most tests
// run the deliverer's tick directly; one runs the background loop.
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HookTask } from '../../model/webhook.ts';
import { Issue } from '../../model/issue.ts';
import { Repository } from '../../model/repo.ts';
import { User } from '../../model/user.ts';
import { emitEvent } from '../../lib/activity/events.ts';
import { deliverTick, startWebhookDeliverer } from '../../lib/webhooks/deliver.ts';
import { SecretBox } from '../../lib/auth/secretbox.ts';
import { repoPathFor, type Services } from '../../lib/http/services.ts';
import { secretKey } from '../../server.ts';
import { cloneUrl, commitFiles, mustGit, workDir } from '../helpers/git-cli.ts';
import { newOrg, newRepo, setup, valid, type Env } from './repo-setup.ts';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let env: Env;
let services: Services;
let receiver: http.Server;
let hookUrl: string;
let received: Received[] = [];
let status = 200;
const SECRET = 's3cret';

test.before(async () => {
  env = await setup({ WEBHOOK__ALLOWED_HOST_LIST: 'loopback' });
  services = { log: pino({ level: 'silent' }), secrets: new SecretBox(secretKey(env.srv.config)), repoPath: repoPathFor(env.srv.config) };
  receiver = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => {
      body += d;
    });
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(status, { 'content-type': 'text/plain', 'x-answer': 'yes' });
      res.end(`got it ${received.length}`);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
test.after(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await env.close();
});

const root = () => env.db.db.orm.em;
const tick = (cfg = env.srv.config) => deliverTick(root(), services, cfg);
/** Delivers what is queued and returns what arrived, clearing the inbox. */
async function deliver(): Promise<Received[]> {
  received = [];
  await tick();
  const got = received;
  received = [];
  return got;
}
const json = (r: Received) => JSON.parse(r.body) as Record<string, any>;
const ofType = (rs: Received[], t: string) => rs.filter((r) => r.headers['x-forgejo-event-type'] === t);

async function repoWithHook(
  events: string[],
  extra: Record<string, unknown> = {},
  repoBody: Record<string, unknown> = { auto_init: true },
) {
  const repo = await newRepo(env, env.alice, repoBody);
  const hook = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/hooks`, {
    type: 'forgejo',
    config: { url: hookUrl, content_type: 'json', secret: SECRET },
    events,
    active: true,
    ...extra,
  });
  assert.is(hook.status, 201, hook.text);
  await deliver(); // nothing from before the hook
  return { repo, hook: hook.json as { id: number } };
}

/** forgejo-facts 11.1 headers, with the signatures checked against the secret. */
function checkHeaders(r: Received, event: string, type: string, secret = SECRET) {
  assert.is(r.method, 'POST');
  assert.is(r.url, '/hook');
  assert.is(r.headers['content-type'], 'application/json');
  const id = r.headers['x-forgejo-delivery'];
  assert.match(String(id), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  for (const n of ['gitea', 'gogs', 'github']) assert.is(r.headers[`x-${n}-delivery`], id);
  for (const n of ['forgejo', 'gitea', 'gogs', 'github']) {
    assert.is(r.headers[`x-${n}-event`], event);
    assert.is(r.headers[`x-${n}-event-type`], type);
  }
  const sha256 = createHmac('sha256', secret).update(r.body).digest('hex');
  const sha1 = createHmac('sha1', secret).update(r.body).digest('hex');
  for (const n of ['forgejo', 'gitea', 'gogs']) assert.is(r.headers[`x-${n}-signature`], sha256);
  assert.is(r.headers['x-hub-signature'], `sha1=${sha1}`);
  assert.is(r.headers['x-hub-signature-256'], `sha256=${sha256}`);
  // JSON indented with two spaces.
  assert.ok(r.body.startsWith('{\n  "'), r.body.slice(0, 40));
}

test('a push over git HTTP delivers a push payload with the commits, signed with the secret', async () => {
  const { repo } = await repoWithHook(['push']);
  const dir = workDir();
  await mustGit(null, 'clone', '-q', cloneUrl(env.srv.url, env.alice.name, repo.name, [env.alice.name, env.alice.password]), dir);
  const before = await mustGit(dir, 'rev-parse', 'HEAD');
  await commitFiles(dir, { 'a.txt': 'a\n' }, 'first pushed');
  await commitFiles(dir, { 'b.txt': 'b\n', 'README.md': 'changed\n' }, 'second pushed');
  const after = await mustGit(dir, 'rev-parse', 'HEAD');
  await mustGit(dir, 'push', '-q', 'origin', 'HEAD:main');
  fs.rmSync(dir, { recursive: true, force: true });
  const got = await deliver();
  assert.is(got.length, 1, JSON.stringify(got.map((g) => g.headers['x-forgejo-event-type'])));
  checkHeaders(got[0], 'push', 'push');
  const p = json(got[0]);
  assert.is(p.ref, 'refs/heads/main');
  assert.is(p.before, before);
  assert.is(p.after, after);
  assert.is(p.total_commits, 2);
  assert.equal(
    p.commits.map((c: { message: string }) => c.message.trim()),
    ['second pushed', 'first pushed'],
  );
  assert.equal(p.commits[0].added, ['b.txt']);
  assert.equal(p.commits[0].modified, ['README.md']);
  assert.is(p.head_commit.id, after);
  assert.is(p.commits[0].url, `${env.srv.url}/${repo.full_name}/commit/${after}`);
  valid('PayloadCommit', p.head_commit);
  valid('Repository', p.repository);
  assert.is(p.repository.full_name, repo.full_name);
  assert.is(p.pusher.login, env.alice.name);
  assert.is(p.sender.login, env.alice.name);
  assert.is(p.compare_url, `${env.srv.url}/${repo.full_name}/compare/${before}...${after}`);
});

test('contents API writes deliver push (and create for a new branch); branch_filter limits push, create and delete', async () => {
  const { repo } = await repoWithHook(['push', 'create', 'delete']);
  const filtered = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/hooks`, {
    type: 'forgejo',
    config: { url: `${hookUrl}?filtered`, content_type: 'json' },
    events: ['push', 'create', 'delete'],
    branch_filter: 'release/*',
    active: true,
  });
  assert.is(filtered.status, 201);
  const w = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/contents/docs/new.md`, {
    content: Buffer.from('hi').toString('base64'),
    message: 'add docs',
  });
  assert.is(w.status, 201, w.text);
  let got = await deliver();
  assert.is(got.length, 1);
  checkHeaders(got[0], 'push', 'push');
  const p = json(got[0]);
  assert.is(p.after, w.json.commit.sha);
  assert.equal(p.commits[0].added, ['docs/new.md']);
  assert.is(p.commits[0].message.trim(), 'add docs');

  const b = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/branches`, { new_branch_name: 'release/1.0' });
  assert.is(b.status, 201, b.text);
  got = await deliver();
  // Both hooks: create then push each (the filter passes release/1.0).
  assert.is(ofType(got, 'create').length, 2);
  assert.is(ofType(got, 'push').length, 2);
  const create = json(ofType(got, 'create')[0]);
  assert.is(create.ref, 'refs/heads/release/1.0');
  assert.is(create.ref_type, 'branch');
  assert.is(create.sha, w.json.commit.sha);
  assert.ok(got.some((r) => r.url === '/hook?filtered'));
  // No secret: the signature headers are there, empty.
  const unsigned = got.find((r) => r.url === '/hook?filtered')!;
  assert.is(unsigned.headers['x-forgejo-signature'], '');
  assert.is(unsigned.headers['x-hub-signature'], 'sha1=');

  const del = await env.as(env.alice, 'DELETE', `/repos/${repo.full_name}/branches/release/1.0`);
  assert.is(del.status, 204, del.text);
  got = await deliver();
  assert.is(got.length, 2);
  const d = json(got[0]);
  assert.is(got[0].headers['x-forgejo-event'], 'delete');
  assert.is(d.ref, 'refs/heads/release/1.0');
  assert.is(d.ref_type, 'branch');
  assert.is(d.pusher_type, 'user');

  // main does not pass release/*: only the unfiltered hook hears of it.
  await env.as(env.alice, 'POST', `/repos/${repo.full_name}/contents/x.md`, { content: Buffer.from('x').toString('base64') });
  got = await deliver();
  assert.is(got.length, 1);
  assert.is(got[0].url, '/hook');
});

test('issues: opened and closed; a comment: created; each to subscribed hooks only', async () => {
  const { repo } = await repoWithHook(['issues', 'issue_comment']);
  const pushOnly = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/hooks`, {
    type: 'forgejo',
    config: { url: `${hookUrl}?push`, content_type: 'json' },
    events: ['push'],
    active: true,
  });
  assert.is(pushOnly.status, 201);
  const issue = await env.as(env.bob, 'POST', `/repos/${repo.full_name}/issues`, { title: 'Broken thing', body: 'it broke' });
  assert.is(issue.status, 201, issue.text);
  let got = await deliver();
  assert.is(got.length, 1);
  checkHeaders(got[0], 'issues', 'issues');
  let p = json(got[0]);
  assert.is(p.action, 'opened');
  assert.is(p.number, issue.json.number);
  assert.is(p.issue.title, 'Broken thing');
  valid('Issue', p.issue);
  assert.is(p.sender.login, env.bob.name);
  assert.is(p.repository.permissions.admin, true);

  const c = await env.as(env.bob, 'POST', `/repos/${repo.full_name}/issues/${issue.json.number}/comments`, { body: 'more details' });
  assert.is(c.status, 201);
  got = await deliver();
  assert.is(got.length, 1);
  checkHeaders(got[0], 'issue_comment', 'issue_comment');
  p = json(got[0]);
  assert.is(p.action, 'created');
  assert.is(p.comment.body, 'more details');
  assert.is(p.comment.id, c.json.id);
  valid('Comment', p.comment);
  assert.is(p.is_pull, false);

  const closed = await env.as(env.alice, 'PATCH', `/repos/${repo.full_name}/issues/${issue.json.number}`, {
    state: 'closed',
    title: 'Broken thing (fixed)',
  });
  assert.is(closed.status, 201);
  got = await deliver();
  const actions = got.map((r) => json(r).action);
  assert.equal(actions, ['edited', 'closed']);
  assert.equal(json(got[0]).changes, { title: { from: 'Broken thing' } });
  assert.is(json(got[1]).issue.state, 'closed');

  const label = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/labels`, { name: 'bug', color: '#ff0000' });
  await env.as(env.alice, 'POST', `/repos/${repo.full_name}/issues/${issue.json.number}/labels`, { labels: [label.json.id] });
  got = await deliver();
  assert.is(got.length, 1);
  checkHeaders(got[0], 'issues', 'issue_label');
  assert.is(json(got[0]).action, 'label_updated');
});

test('pull requests: opened, then merged (closed with merged=true) with the base branch push', async () => {
  const { repo } = await repoWithHook(['pull_request', 'push']);
  await env.as(env.alice, 'POST', `/repos/${repo.full_name}/branches`, { new_branch_name: 'feature' });
  await env.as(env.alice, 'POST', `/repos/${repo.full_name}/contents/f.txt`, {
    content: Buffer.from('f').toString('base64'),
    branch: 'feature',
  });
  await deliver();
  const pr = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/pulls`, { title: 'Add f', head: 'feature', base: 'main' });
  assert.is(pr.status, 201, pr.text);
  let got = await deliver();
  assert.is(got.length, 1);
  checkHeaders(got[0], 'pull_request', 'pull_request');
  let p = json(got[0]);
  assert.is(p.action, 'opened');
  assert.is(p.number, pr.json.number);
  valid('PullRequest', p.pull_request);
  assert.is(p.pull_request.head.ref, 'feature');
  assert.is(p.requested_reviewer, null);

  let merged = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/pulls/${pr.json.number}/merge`, { Do: 'merge' });
  for (let i = 0; merged.status === 405 && i < 20; i++) {
    await new Promise((r) => setTimeout(r, 200));
    merged = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/pulls/${pr.json.number}/merge`, { Do: 'merge' });
  }
  assert.is(merged.status, 200, merged.text);
  got = await deliver();
  const close = ofType(got, 'pull_request');
  assert.is(close.length, 1);
  p = json(close[0]);
  assert.is(p.action, 'closed');
  assert.is(p.pull_request.merged, true);
  assert.ok(p.pull_request.merge_commit_sha);
  const push = ofType(got, 'push');
  assert.is(push.length, 1);
  assert.is(json(push[0]).ref, 'refs/heads/main');
  assert.is(json(push[0]).after, p.pull_request.merge_commit_sha);
});

test('a published release is delivered; a draft is not', async () => {
  const { repo } = await repoWithHook(['release']);
  const draft = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/releases`, { tag_name: 'v0.9', draft: true });
  assert.is(draft.status, 201);
  assert.is((await deliver()).length, 0);
  const rel = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/releases`, { tag_name: 'v1.0', name: 'One' });
  assert.is(rel.status, 201, rel.text);
  const got = await deliver();
  assert.is(got.length, 1);
  checkHeaders(got[0], 'release', 'release');
  const p = json(got[0]);
  assert.is(p.action, 'published');
  assert.is(p.release.tag_name, 'v1.0');
  valid('Release', p.release);
  const pub = await env.as(env.alice, 'PATCH', `/repos/${repo.full_name}/releases/${draft.json.id}`, { draft: false });
  assert.is(pub.status, 200);
  assert.equal(
    (await deliver()).map((r) => json(r).action),
    ['published'],
  );
});

test('inactive hooks and unsubscribed events queue nothing; the test route always delivers a push payload (204)', async () => {
  const { repo, hook } = await repoWithHook(['issues'], { active: false });
  await env.as(env.alice, 'POST', `/repos/${repo.full_name}/issues`, { title: 'quiet' });
  await env.as(env.alice, 'POST', `/repos/${repo.full_name}/contents/q.txt`, { content: Buffer.from('q').toString('base64') });
  assert.is(await root().fork().count(HookTask, { hookId: hook.id }), 0);
  assert.is((await deliver()).length, 0);

  const t = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/hooks/${hook.id}/tests`);
  assert.is(t.status, 204, t.text);
  const got = await deliver();
  assert.is(got.length, 1);
  checkHeaders(got[0], 'push', 'push');
  const p = json(got[0]);
  const head = (await env.as(env.alice, 'GET', `/repos/${repo.full_name}/branches/main`)).json.commit.id;
  assert.is(p.ref, 'refs/heads/main');
  assert.is(p.before, head);
  assert.is(p.after, head);
  assert.is(p.total_commits, 1);
  assert.is(p.head_commit.id, head);
  assert.is((await env.as(env.alice, 'POST', `/repos/${repo.full_name}/hooks/${hook.id}/tests?ref=nope`)).status, 404);
  assert.is((await env.as(env.bob, 'POST', `/repos/${repo.full_name}/hooks/${hook.id}/tests`)).status, 403);
  assert.is((await env.as(env.alice, 'POST', `/repos/${repo.full_name}/hooks/99999/tests`)).status, 404);
});

test('with DELIVER_ATTEMPTS=1 (Forgejo) each task is sent once: recorded with the answer, never resent, also with three deliverers at once', async () => {
  const { repo, hook } = await repoWithHook(['issues']);
  for (let i = 0; i < 6; i++) await env.as(env.alice, 'POST', `/repos/${repo.full_name}/issues`, { title: `n${i}` });
  received = [];
  status = 500;
  const once = { ...env.srv.config, WEBHOOK: { ...env.srv.config.WEBHOOK, DELIVER_ATTEMPTS: 1, DELIVER_BACKOFF: 0 } };
  await Promise.all([tick(once), tick(once), tick(once)]);
  status = 200;
  assert.is(received.length, 6);
  assert.is(new Set(received.map((r) => r.headers['x-forgejo-delivery'])).size, 6);
  const tasks = await root().fork().find(HookTask, { hookId: hook.id });
  assert.is(tasks.length, 6);
  for (const t of tasks) {
    assert.is(t.isDelivered, true);
    assert.is(t.isSucceed, false);
    assert.is(t.responseInfo?.status, 500);
    assert.match(t.responseInfo?.body ?? '', 'got it');
    assert.is(t.responseInfo?.headers['x-answer'], 'yes');
    assert.is(t.requestInfo?.url, hookUrl);
    assert.is(t.requestInfo?.headers['X-Forgejo-Event'], 'issues');
  }
  // No retries.
  received = [];
  await tick(once);
  assert.is(received.length, 0);
  for (const t of await root().fork().find(HookTask, { hookId: hook.id })) assert.is(t.attempts, 1);
});

test('form hooks post payload=<json>, signed over the JSON; the Authorization header is sent and not recorded', async () => {
  const repo = await newRepo(env, env.alice, { auto_init: true });
  const h = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/hooks`, {
    type: 'gitea',
    config: { url: hookUrl, content_type: 'form', secret: SECRET },
    events: ['create'],
    active: true,
    authorization_header: 'Bearer tok-123',
  });
  assert.is(h.status, 201);
  await env.as(env.alice, 'POST', `/repos/${repo.full_name}/tags`, { tag_name: 'v1' });
  const got = await deliver();
  assert.is(got.length, 1);
  assert.is(got[0].headers['content-type'], 'application/x-www-form-urlencoded');
  assert.is(got[0].headers.authorization, 'Bearer tok-123');
  const form = new URLSearchParams(got[0].body);
  const payload = form.get('payload')!;
  assert.is(got[0].headers['x-gitea-signature'], createHmac('sha256', SECRET).update(payload).digest('hex'));
  const p = JSON.parse(payload);
  // gitea hooks get the short ref in create payloads (forgejo-facts 11.2).
  assert.is(p.ref, 'v1');
  assert.is(p.ref_type, 'tag');
  const task = await root().fork().findOneOrFail(HookTask, { hookId: h.json.id });
  // Forgejo's redaction: the scheme stays, the credential does not.
  assert.is(task.requestInfo?.headers.Authorization, 'Bearer ******');
  assert.is(task.requestInfo?.body, got[0].body);
});

test('organization and system hooks hear of repository events; a refused destination is recorded as failed, not an error', async () => {
  const org = await newOrg(env, env.alice);
  const oh = await env.as(env.alice, 'POST', `/orgs/${org.name}/hooks`, {
    type: 'forgejo',
    config: { url: `${hookUrl}?org`, content_type: 'json' },
    events: ['repository', 'issues'],
    active: true,
  });
  assert.is(oh.status, 201);
  const created = await env.as(env.alice, 'POST', `/orgs/${org.name}/repos`, { name: 'hooked' });
  assert.is(created.status, 201, created.text);
  let got = await deliver();
  assert.is(got.length, 1);
  const p = json(got[0]);
  assert.is(got[0].headers['x-forgejo-event'], 'repository');
  assert.is(p.action, 'created');
  assert.is(p.organization.login, org.name);
  assert.is(p.repository.full_name, `${org.name}/hooked`);
  await env.as(env.alice, 'POST', `/repos/${org.name}/hooked/issues`, { title: 'org issue' });
  got = await deliver();
  assert.is(got.length, 1);
  assert.is(got[0].url, '/hook?org');

  // The default allow list (external hosts only) refuses loopback.
  const sys = await env.as(env.admin, 'POST', '/admin/hooks', {
    type: 'forgejo',
    config: { url: `${hookUrl}?sys`, content_type: 'json', is_system_webhook: 'true' },
    events: ['issues'],
    active: true,
  });
  assert.is(sys.status, 201);
  const repo = await newRepo(env, env.bob);
  const iss = await env.as(env.bob, 'POST', `/repos/${repo.full_name}/issues`, { title: 'system sees this' });
  assert.is(iss.status, 201);
  received = [];
  const strict = { ...env.srv.config, WEBHOOK: { ...env.srv.config.WEBHOOK, ALLOWED_HOST_LIST: '' } };
  await tick(strict);
  assert.is(received.length, 0);
  const task = await root().fork().findOneOrFail(HookTask, { hookId: sys.json.id });
  assert.is(task.isDelivered, true);
  assert.is(task.isSucceed, false);
  assert.match(task.responseInfo?.body ?? '', 'webhook can only call allowed HTTP servers');
  assert.is((await env.as(env.admin, 'DELETE', `/admin/hooks/${sys.json.id}`)).status, 204);
  assert.is(await root().fork().count(HookTask, { hookId: sys.json.id }), 0);
});

test('tasks are written in the transaction of the change: a rolled-back change leaves none', async () => {
  const { repo, hook } = await repoWithHook(['issues']);
  const issue = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/issues`, { title: 'tx' });
  await deliver();
  const em = root().fork();
  const ev = {
    name: 'issues' as const,
    action: 'edited' as const,
    repo: await em.findOneOrFail(Repository, { id: repo.id }),
    sender: await em.findOneOrFail(User, { id: env.alice.id }),
    issue: await em.findOneOrFail(Issue, { repoId: repo.id, index: issue.json.number }),
  };
  const ctx = { config: env.srv.config, services };
  let inside = -1;
  try {
    await em.transactional(async (tem) => {
      await emitEvent(tem, ctx, ev);
      inside = await tem.count(HookTask, { hookId: hook.id, isDelivered: false });
      throw new Error('boom');
    });
  } catch (e) {
    assert.is((e as Error).message, 'boom');
  }
  assert.is(inside, 1);
  assert.is(await root().fork().count(HookTask, { hookId: hook.id, isDelivered: false }), 0);
  await emitEvent(root().fork(), ctx, ev);
  assert.is(await root().fork().count(HookTask, { hookId: hook.id, isDelivered: false }), 1);
  assert.equal(
    (await deliver()).map((r) => json(r).action),
    ['edited'],
  );
});

test('the background deliverer sends soon after a change', async () => {
  const { repo } = await repoWithHook(['issues']);
  const d = startWebhookDeliverer(root(), services, env.srv.config);
  try {
    received = [];
    await env.as(env.alice, 'POST', `/repos/${repo.full_name}/issues`, { title: 'async' });
    for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.is(received.length, 1);
    assert.is(json(received[0]).issue.title, 'async');
  } finally {
    await d.stop();
  }
});

test.run();
