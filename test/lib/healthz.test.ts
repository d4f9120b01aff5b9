// GET /api/healthz as Forgejo answers it (lib/runtime/healthz.ts): 200 with every check passing while the
// database answers, 500 with database:ping failing when it does not (closed, or silent past the
// ping's limit), back to 200 when it answers again; no authentication, never kept, never rate limited.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { loadConfig } from '../../config.ts';
import { migrate, openDatabase, type DbHandle } from '../../model/db.ts';
import { call } from '../helpers/client.ts';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';

let t: TestDb;
test.before(async () => {
  t = await openTestDb();
});
test.after(async () => {
  await t.close();
});

const RFC3339_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const healthz = (srv: TestServer, headers: Record<string, string> = {}) => call(srv.url, 'GET', '/api/healthz', { headers });

function assertShape(r: Awaited<ReturnType<typeof healthz>>, status: 'pass' | 'fail', checks: string[]) {
  assert.is(r.headers.get('content-type'), 'application/health+json');
  assert.is(r.headers.get('cache-control'), 'no-store');
  assert.is(r.json.status, status);
  assert.is(r.json.description, 'cairn');
  assert.equal(Object.keys(r.json.checks).sort(), checks);
  for (const list of Object.values(r.json.checks) as { status: string; time: string }[][]) {
    assert.is(list.length, 1);
    assert.match(list[0]!.time, RFC3339_SECONDS);
    assert.equal(Object.keys(list[0]!).sort(), ['status', 'time']);
  }
  // Go's MarshalIndent with two spaces.
  assert.ok(r.text.startsWith('{\n  "status": '), r.text);
}

test("the database answers: 200, every check passes, in Forgejo's shape", async () => {
  const srv = await startServer(t);
  try {
    const r = await healthz(srv);
    assert.is(r.status, 200, r.text);
    assertShape(r, 'pass', ['cache:ping', 'database:ping']);
    assert.equal(r.json.checks['database:ping'][0].status, 'pass');
    const head = await call(srv.url, 'HEAD', '/api/healthz');
    assert.is(head.status, 200);
    const off = await startServer(t, { CACHE__ANSWERS: 'false', DEFAULT__APP_NAME: 'Forge of Tests' });
    try {
      const r2 = await healthz(off);
      assertShape({ ...r2, json: { ...r2.json, description: 'cairn' } }, 'pass', ['database:ping']);
      assert.is(r2.json.description, 'Forge of Tests', 'description is APP_NAME');
    } finally {
      await off.close();
    }
  } finally {
    await srv.close();
  }
});

test('no sign-in, no 401 for bad credentials, no rate limit, never a kept answer', async () => {
  const srv = await startServer(t, {
    SERVICE__REQUIRE_SIGNIN_VIEW: 'true',
    API_RATE_LIMIT__ENABLED: 'true',
    API_RATE_LIMIT__PER_ADDRESS: '2',
  });
  try {
    assert.is((await call(srv.api, 'GET', '/version')).status, 401, 'the API itself wants sign-in');
    for (let i = 0; i < 6; i++) {
      const r = await healthz(srv, { Authorization: 'token not-a-token' });
      assert.is(r.status, 200, r.text);
      assert.is(r.headers.get('x-ratelimit-limit'), null);
      assert.is(r.headers.get('etag'), null);
    }
  } finally {
    await srv.close();
  }
});

/** A TCP proxy to `target` that can be cut (connections refused), silenced (accepted, never answered) or restored. */
async function proxyTo(target: { host: string; port: number }) {
  let mode: 'open' | 'silent' = 'open';
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const onConnection = (client: net.Socket) => {
    accepted++;
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (mode === 'silent') return;
    const upstream = net.connect(target);
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  };
  let server = net.createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const dropAll = () => {
    for (const s of sockets) s.destroy();
  };
  return {
    port,
    accepted: () => accepted,
    async cut() {
      dropAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async restore(next: 'open' | 'silent' = 'open') {
      mode = next;
      server = net.createServer(onConnection);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    async close() {
      dropAll();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

test('PostgreSQL behind a proxy: cut is 500 at once, silent is 500 within the ping limit with one ping pending, restored is 200', async () => {
  const base = process.env.CAIRN__DATABASE__URL;
  if (!base) return; // the embedded database has no network to lose; see the next test
  const name = `cairn_healthz_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const target = new URL(base);
  const proxy = await proxyTo({ host: target.hostname, port: Number(target.port || 5432) });
  const viaProxy = new URL(base);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  viaProxy.pathname = `/${name}`;
  const dataPath = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-healthz-'));
  const cfg = loadConfig({}, { SERVER__APP_DATA_PATH: dataPath, DATABASE__URL: viaProxy.toString() });
  const db: DbHandle = await openDatabase(cfg);
  await migrate(db.orm);
  const srv = await startServer({ db, dataPath, close: async () => undefined }, { DATABASE__URL: viaProxy.toString() });
  try {
    assert.is((await healthz(srv)).status, 200);

    await proxy.cut();
    let started = Date.now();
    const cut = await healthz(srv);
    assert.is(cut.status, 500, cut.text);
    assertShape(cut, 'fail', ['cache:ping', 'database:ping']);
    assert.is(cut.json.checks['database:ping'][0].status, 'fail');
    assert.is(cut.json.checks['cache:ping'][0].status, 'pass');
    assert.ok(Date.now() - started < 1500, `a refused connection is reported at once (${Date.now() - started} ms)`);

    await proxy.restore('silent');
    const before = proxy.accepted();
    started = Date.now();
    const probes = await Promise.all([healthz(srv), healthz(srv), healthz(srv)]);
    const again = await healthz(srv);
    const took = Date.now() - started;
    for (const r of [...probes, again]) assert.is(r.status, 500, r.text);
    assert.ok(took < 3500, `each probe waits the ping limit at most (${took} ms for two rounds)`);
    assert.ok(proxy.accepted() - before <= 1, `one ping pending for all probes, not one each (${proxy.accepted() - before} connections)`);

    await proxy.cut();
    await proxy.restore('open');
    let back = await healthz(srv);
    for (let i = 0; i < 20 && back.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 250));
      back = await healthz(srv);
    }
    assert.is(back.status, 200, back.text);
    assert.is(back.json.status, 'pass');
  } finally {
    await srv.close();
    await proxy.close();
    await db.close().catch(() => undefined);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    fs.rmSync(dataPath, { recursive: true, force: true });
  }
});

test('the embedded database closed: 500 with database:ping failing', async () => {
  const dataPath = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-healthz-'));
  const cfg = loadConfig({}, { SERVER__APP_DATA_PATH: dataPath });
  const db = await openDatabase(cfg, { memory: true });
  await migrate(db.orm);
  const srv = await startServer({ db, dataPath, close: async () => undefined });
  try {
    assert.is((await healthz(srv)).status, 200);
    await db.close();
    const r = await healthz(srv);
    assert.is(r.status, 500, r.text);
    assertShape(r, 'fail', ['cache:ping', 'database:ping']);
  } finally {
    await srv.close();
    fs.rmSync(dataPath, { recursive: true, force: true });
  }
});

test.run();
