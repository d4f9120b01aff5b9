// A database outage answers 503 in bounded time (lib/db/outage.ts, model/db.ts, model/db-clock.ts):
// a cairn whose PostgreSQL is behind a TCP proxy (test/helpers/tcp-proxy.ts) that is stopped (every
// connection closed, new ones refused) or frozen (bytes no longer forwarded, nothing closed: a
// PostgreSQL stopped by SIGSTOP). Every request, a kept answer's included, answers 503 with
// Retry-After in Forgejo's shape within the [database] bounds; the health check answers within its
// own; the log says why once per outage and says when the database answers again. PostgreSQL only.
import { Writable } from 'node:stream';
import pino from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../config.ts';
import { isDatabaseUnavailable } from '../../lib/db/outage.ts';
import { openDatabase, type DbHandle } from '../../model/db.ts';
import { statementPoolOf } from '../../model/statement-pool.ts';
import { createApp, listen, type Running } from '../../server.ts';
import { call, type Res } from '../helpers/client.ts';
import { makeRepo, makeUser, type TestUser } from '../helpers/fixtures.ts';
import { openTestDb, type TestDb } from '../helpers/server.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { gitOverSsh, makeKeyPair, scpUrl, type KeyPair } from '../helpers/ssh.ts';
import { requireTools } from '../helpers/tools.ts';
import { workDir } from '../helpers/git-cli.ts';
import { startSshServer, type RunningSsh } from '../../transports/git-ssh.ts';
import { SecretBox } from '../../lib/auth/secretbox.ts';
import { repoPathFor } from '../../lib/http/services.ts';
import { secretKey } from '../../server.ts';

requireTools('ssh', 'ssh-keygen');

const onPostgres = Boolean(process.env.CAIRN__DATABASE__URL);

// connect 1 s, pool 1 s, statement 1 s (+ pg's 0.5 s): no request may take longer than this.
const BOUND_MS = 3500;

let t: TestDb;
let proxy: TcpProxy;
let db: DbHandle;
let running: Running;
let api: string;
let user: TestUser;
let repo: string;
let ssh: RunningSsh;
let key: KeyPair;
const lines: { level: number; msg: string }[] = [];

test.before(async () => {
  if (!onPostgres) return;
  t = await openTestDb();
  const target = new URL(t.url!);
  proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  const cfg = loadConfig(
    {},
    {
      SERVER__APP_DATA_PATH: t.dataPath,
      DATABASE__URL: proxy.urlFor(t.url!),
      DATABASE__POOL_MAX: '2',
      DATABASE__CONNECT_TIMEOUT: '1s',
      DATABASE__POOL_TIMEOUT: '1s',
      DATABASE__STATEMENT_TIMEOUT: '1s',
    },
  );
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(l) as { level: number; msg: string });
      done();
    },
  });
  const log = pino({ level: 'info' }, sink);
  db = await openDatabase(cfg, { log });
  running = await listen(createApp({ config: cfg, orm: db.orm, log }), '127.0.0.1', 0);
  api = `${running.url}/api/v1`;
  user = await makeUser(t, api);
  repo = `/repos/${user.name}/${(await makeRepo(api, user, { name: 'outage', auto_init: true })).name}`;
  ssh = await startSshServer(
    { config: cfg, orm: db.orm, services: { log, secrets: new SecretBox(secretKey(cfg)), repoPath: repoPathFor(cfg) } },
    0,
    '127.0.0.1',
  );
  key = await makeKeyPair(workDir(), 'outage');
  const added = await call(api, 'POST', '/user/keys', { token: user.token, body: { title: 'outage', key: key.publicKey } });
  assert.is(added.status, 201, added.text);
});

/** `git ls-remote` over SSH, timed. */
const lsRemote = async () => {
  const start = Date.now();
  const r = await gitOverSsh(key, ssh.port, ['ls-remote', scpUrl(user.name, 'outage')]);
  return { ...r, ms: Date.now() - start };
};

test.after(async () => {
  if (!onPostgres) return;
  await proxy.set('open');
  await ssh.close();
  await running.close();
  await db.close();
  await proxy.close();
  await t.close();
});

const timed = async (f: () => Promise<Res>): Promise<Res & { ms: number }> => {
  const start = Date.now();
  const r = await f();
  return { ...r, ms: Date.now() - start };
};

/** A statement on a hot row's lane of the statement pool (a new issue's or comment's write goes there). */
const LANE = { name: 'cairn_test_outage_lane', text: 'select 1 as one', numbered: 'select 1 as one' };
const inLane = () =>
  Promise.race([
    statementPoolOf(db.orm.em.getConnection())!
      .queryInLane<{ one: number }>('repo:1', LANE, [])
      .then(
        (rows) => `answered ${rows[0]!.one}`,
        (e: Error) => (isDatabaseUnavailable(e) ? 'unavailable' : e.message),
      ),
    new Promise<string>((resolve) => setTimeout(() => resolve('no answer'), 2 * BOUND_MS).unref()),
  ]);

/** What every request answers during the outage, asked all at once. */
async function duringOutage() {
  // The kept answer of `GET {R}` is fresh when the outage begins, and the lane's connection is open.
  const [rest, kept, me, created, refs, overSsh, lane] = await Promise.all([
    timed(() => call(running.url, 'GET', '/api/healthz')),
    timed(() => call(api, 'GET', repo, { token: user.token })),
    timed(() => call(api, 'GET', '/user', { token: user.token })),
    timed(() => call(api, 'POST', '/user/repos', { token: user.token, body: { name: `r${Date.now()}` } })),
    timed(() => call(running.url, 'GET', `/${user.name}/outage.git/info/refs?service=git-upload-pack`)),
    lsRemote(),
    timed(async () => ({ text: await inLane() }) as Res),
  ]);
  // A hot write waits no longer than any statement: its lane's connection is dropped.
  assert.is(lane.text, 'unavailable');
  assert.ok(lane.ms < BOUND_MS, `the lane answered in ${lane.ms} ms`);
  // Git over SSH fails, in bounded time, instead of waiting for the database.
  assert.ok(overSsh.code !== 0, `git over ssh: ${overSsh.code} ${overSsh.stdout}`);
  assert.ok(overSsh.ms < BOUND_MS + 3000, `git over ssh answered in ${overSsh.ms} ms`);
  assert.is(rest.status, 500, 'the health check fails');
  assert.is(rest.json.status, 'fail');
  assert.ok(rest.ms < 1500, `the health check answered in ${rest.ms} ms`);
  for (const [what, r] of Object.entries({ kept, me, created, refs })) {
    assert.is(r.status, 503, `${what}: ${r.status} ${r.text}`);
    assert.is(r.headers.get('retry-after'), '5', what);
    assert.equal(Object.keys(r.json).sort(), ['message', 'url'], what);
    assert.match(r.json.message, /database is unavailable/);
    assert.ok(r.ms < BOUND_MS, `${what} answered in ${r.ms} ms`);
  }
  // Asked again while the outage lasts: still 503, still bounded, and nothing more in the log.
  const again = await timed(() => call(api, 'GET', repo, { token: user.token }));
  assert.is(again.status, 503);
  assert.ok(again.ms < BOUND_MS, `again: ${again.ms} ms`);
}

/** The database answers again: so does cairn, within a few tries (connections broken by the outage are replaced). */
async function afterOutage() {
  let r: Res | null = null;
  for (let i = 0; i < 20; i++) {
    r = await call(api, 'GET', repo, { token: user.token });
    if (r.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.is(r?.status, 200, r?.text);
  assert.is((await call(api, 'GET', '/user', { token: user.token })).status, 200);
  assert.is(await inLane(), 'answered 1', 'the lane opens a new connection');
  const listed = await lsRemote();
  assert.is(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /refs\/heads\/main/);
}

const logged = (msg: string) => lines.filter((l) => l.msg === msg).length;

const begun = 'database unavailable: requests answer 503 until it answers again';
const ended = 'database answers again';

test('the bounds are settings: durations, 0 for none, defaults of a few seconds; anything else stops the start', () => {
  assert.equal(loadConfig({}, {}).databaseTimeouts, { connectMs: 5000, acquireMs: 5000, statementMs: 10_000 });
  const set = loadConfig({ CAIRN__DATABASE__CONNECT_TIMEOUT: '250ms', CAIRN__DATABASE__STATEMENT_TIMEOUT: '0' }, {});
  assert.equal(set.databaseTimeouts, { connectMs: 250, acquireMs: 5000, statementMs: 0 });
  assert.throws(() => loadConfig({ CAIRN__DATABASE__POOL_TIMEOUT: 'soon' }, {}), /CAIRN__DATABASE__POOL_TIMEOUT: "soon" is not a duration/);
});

test('what counts as an outage: refused, reset, timed out, PostgreSQL shutting down; not a failed statement', () => {
  assert.ok(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })));
  assert.ok(isDatabaseUnavailable(new Error('Query read timeout')));
  assert.ok(isDatabaseUnavailable(Object.assign(new Error('Knex: Timeout acquiring a connection.'), { name: 'KnexTimeoutError' })));
  assert.ok(isDatabaseUnavailable(new Error('wrapped', { cause: Object.assign(new Error('shutdown'), { code: '57P01' }) })));
  assert.not.ok(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' })));
  assert.not.ok(isDatabaseUnavailable(new Error('something else')));
});

if (onPostgres) {
  test('a stopped database: 503 with Retry-After at once, logged once, and back', async () => {
    // Warm: the kept answer is made.
    assert.is((await call(api, 'GET', repo, { token: user.token })).status, 200);
    assert.is((await call(api, 'GET', repo, { token: user.token })).status, 200);
    assert.is(await inLane(), 'answered 1');
    await proxy.set('stopped');
    await duringOutage();
    assert.is(logged(begun), 1, 'the outage is logged once');
    assert.is(logged(ended), 0);
    await proxy.set('open');
    await afterOutage();
    assert.is(logged(ended), 1, 'its end is logged');
    assert.is(logged(begun), 1);
  });

  test('a frozen database: 503 within the bounds, logged once, and back', async () => {
    assert.is((await call(api, 'GET', repo, { token: user.token })).status, 200);
    assert.is(await inLane(), 'answered 1');
    await proxy.set('frozen');
    await duringOutage();
    assert.is(logged(begun), 2, 'the second outage is logged once');
    await proxy.set('open');
    await afterOutage();
    assert.is(logged(ended), 2);
  });
} else {
  console.log('database-outage: the outages run on PostgreSQL only (CAIRN__DATABASE__URL)');
}

test.run();
