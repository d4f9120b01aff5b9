// An allowed remote must not hand cairn on to a host the allow and block lists
// refuse. `localhost` is allowed and `127.0.0.1` is not (both are this machine, told apart by name);
// the allowed server answers every request with a redirect to the refused one, which records what
// reaches it. Every outgoing connection is tried: migrations (git and the API probe), pull and push
// mirror syncs, federation actor fetches and webhook deliveries.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Repository } from '../../model/repo.ts';
import { deliverTick } from '../../lib/webhooks/deliver.ts';
import { SecretBox } from '../../lib/auth/secretbox.ts';
import { repoPathFor } from '../../lib/http/services.ts';
import { secretKey } from '../../server.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { call } from '../helpers/client.ts';
import { gitDir, newRepo, setup, uniq, type Env } from './repo-setup.ts';

interface Recorder {
  port: number;
  seen: string[];
  server: http.Server;
}

async function listen(handler: http.RequestListener): Promise<{ port: number; server: http.Server }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

let env: Env;
let local: TestServer;
let scratch: string;
let refused: Recorder;
let allowed: Recorder;

test.before(async () => {
  const lists = {
    MIGRATIONS__ALLOWED_DOMAINS: 'localhost',
    MIGRATIONS__ALLOW_LOCALNETWORKS: 'false',
    WEBHOOK__ALLOWED_HOST_LIST: 'localhost',
    FEDERATION__ENABLED: 'true',
  };
  env = await setup(lists);
  // Only for making a pull mirror of a local repository; the tests call env.srv.
  local = await startServer(env.db, { MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-redirect-'));
  const refusedSeen: string[] = [];
  const r = await listen((req, res) => {
    refusedSeen.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(404).end();
  });
  refused = { ...r, seen: refusedSeen };
  const allowedSeen: string[] = [];
  const a = await listen((req, res) => {
    allowedSeen.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(302, { Location: `http://127.0.0.1:${refused.port}${req.url}` }).end();
  });
  allowed = { ...a, seen: allowedSeen };
});
test.after(async () => {
  for (const s of [refused.server, allowed.server]) await new Promise<void>((resolve) => s.close(() => resolve()));
  await local.close();
  await env.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const viaAllowed = (p: string) => `http://localhost:${allowed.port}${p}`;

/** Runs `fn`, then asserts that the allowed host was asked and the refused one never. */
async function onlyAllowedContacted(what: string, fn: () => Promise<void>): Promise<void> {
  allowed.seen.length = 0;
  refused.seen.length = 0;
  await fn();
  assert.ok(allowed.seen.length > 0, `${what}: the allowed host was asked`);
  assert.equal(refused.seen, [], `${what}: the refused host was reached through a redirect`);
}

test('the lists tell the two names apart: 127.0.0.1 itself is refused', async () => {
  const r = await env.as(env.alice, 'POST', '/repos/migrate', {
    clone_addr: `http://127.0.0.1:${refused.port}/o/src.git`,
    repo_name: uniq('m'),
  });
  assert.is(r.status, 422, r.text);
  assert.equal(refused.seen, []);
});

test('migrate (git): a redirect to a refused host is not followed; 422 and nothing is written', async () => {
  for (const service of ['git', 'gitea']) {
    const name = uniq('mig');
    await onlyAllowedContacted(`migrate, service ${service}`, async () => {
      const r = await env.as(env.alice, 'POST', '/repos/migrate', { clone_addr: viaAllowed('/o/src.git'), repo_name: name, service });
      assert.is(r.status, 422, r.text);
    });
    assert.is(await env.db.db.orm.em.fork().count(Repository, { lowerName: name.toLowerCase() }), 0);
  }
});

test('pull mirror sync: the origin redirecting to a refused host is not followed; the error is kept', async () => {
  const src = path.join(scratch, `${uniq('src')}.git`);
  execFileSync('git', ['init', '--bare', '--quiet', '--initial-branch=main', src]);
  const name = uniq('mirror');
  const made = await call(local.api, 'POST', '/repos/migrate', {
    token: env.alice.token,
    body: { clone_addr: `file://${src}`, repo_name: name, mirror: true },
  });
  assert.is(made.status, 201, made.text);
  execFileSync('git', ['--git-dir', gitDir(env, env.alice.name, name), 'config', 'remote.origin.url', viaAllowed('/o/src.git')]);
  await onlyAllowedContacted('mirror-sync', async () => {
    const r = await env.as(env.alice, 'POST', `/repos/${env.alice.name}/${name}/mirror-sync`);
    assert.is(r.status, 200, r.text);
  });
});

test('push mirror sync: a redirect to a refused host is not followed; the sync reports the failure', async () => {
  const repo = await newRepo(env, env.alice, { auto_init: true });
  const created = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/push_mirrors`, {
    remote_address: viaAllowed('/o/target.git'),
    interval: '8h',
  });
  assert.is(created.status, 200, created.text);
  await onlyAllowedContacted('push_mirrors-sync', async () => {
    const r = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/push_mirrors-sync`);
    assert.is(r.status, 500, r.text);
  });
  const pm = await env.as(env.alice, 'GET', `/repos/${repo.full_name}/push_mirrors/${created.json.remote_name}`);
  assert.match(pm.json.last_error, /302|redirect/i);
});

test('federation: an actor address redirecting to a refused host is not followed', async () => {
  await onlyAllowedContacted('activitypub follow', async () => {
    const r = await env.as(env.alice, 'POST', '/user/activitypub/follow', { target: viaAllowed('/users/someone') });
    assert.ok(r.status >= 400 && r.status < 500, r.text);
  });
});

test('webhook delivery: a redirect to a refused host is not followed; the answer is recorded', async () => {
  const repo = await newRepo(env, env.alice, { auto_init: true });
  const hook = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/hooks`, {
    type: 'forgejo',
    config: { url: viaAllowed('/hook'), content_type: 'json' },
    events: ['push'],
    active: true,
  });
  assert.is(hook.status, 201, hook.text);
  const services = {
    log: pino({ level: 'silent' }),
    secrets: new SecretBox(secretKey(env.srv.config)),
    repoPath: repoPathFor(env.srv.config),
  };
  await deliverTick(env.db.db.orm.em, services, env.srv.config);
  assert.is((await env.as(env.alice, 'POST', `/repos/${repo.full_name}/hooks/${hook.json.id}/tests`)).status, 204);
  await onlyAllowedContacted('webhook', async () => {
    await deliverTick(env.db.db.orm.em, services, env.srv.config);
  });
  const tasks = await env.as(env.alice, 'GET', `/repos/${repo.full_name}/hooks/${hook.json.id}`);
  assert.is(tasks.status, 200);
});

test.run();
