// Failed authentications are limited per account and address, per address, and per
// account; over a limit the answer is 429 with Retry-After, before a password is even checked, on the
// API and on git over HTTP alike. Valid tokens are never refused, and two servers with their own
// connections to one database share the counters. Clients are told apart by X-Forwarded-For, which
// the server believes from loopback (the default trusted proxies).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import pino from 'pino';
import { loadConfig } from '../../config.ts';
import { openDatabase, type DbHandle } from '../../model/db.ts';
import { createApp, listen, type Running } from '../../server.ts';
import { TOO_MANY } from '../../lib/auth/limits.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { call, type Res } from '../helpers/client.ts';
import { makeRepo, makeUser, uniq, type TestUser } from '../helpers/fixtures.ts';
import { setup, valid, type Env } from '../handlers/repo-setup.ts';

const LIMITS = {
  SECURITY_LOGIN_LIMIT__PER_ACCOUNT_ADDRESS: '3',
  SECURITY_LOGIN_LIMIT__PER_ADDRESS: '6',
  SECURITY_LOGIN_LIMIT__PER_ACCOUNT: '5',
  SECURITY_LOGIN_LIMIT__WINDOW: '60',
};
let env: Env;
let counter = 0;
/** A client address of its own for each call site. */
const newAddress = () => `198.51.100.${++counter}`;

test.before(async () => {
  env = await setup(LIMITS);
});
test.after(async () => {
  await env.close();
});

const from = (address: string, o: Parameters<typeof call>[3] = {}) => ({ ...o, headers: { ...o.headers, 'X-Forwarded-For': address } });
const whoami = (base: string, address: string, o: Parameters<typeof call>[3]) => call(base, 'GET', '/user', from(address, o));

function tooMany(r: Res, what: string) {
  assert.is(r.status, 429, `${what}: ${r.text}`);
  valid('APIError', r.json);
  assert.is(r.json.message, TOO_MANY);
  const wait = Number(r.headers.get('retry-after'));
  assert.ok(wait >= 1 && wait <= 60, `${what}: Retry-After ${r.headers.get('retry-after')}`);
}

async function freshUser(): Promise<TestUser> {
  return makeUser(env.db, env.srv.api);
}

test('wrong passwords: 401 up to the per account and address limit, then 429 before the password is checked', async () => {
  const u = await freshUser();
  const a = newAddress();
  for (let i = 0; i < 3; i++) assert.is((await whoami(env.srv.api, a, { basic: [u.name, 'wrong'] })).status, 401, `attempt ${i + 1}`);
  tooMany(await whoami(env.srv.api, a, { basic: [u.name, 'wrong'] }), 'fourth wrong password');
  tooMany(await whoami(env.srv.api, a, { basic: [u.name, u.password] }), 'the right password from the blocked place');
  assert.is((await whoami(env.srv.api, newAddress(), { basic: [u.name, u.password] })).status, 200, 'from elsewhere the account works');
  assert.is((await whoami(env.srv.api, a, { token: u.token })).status, 200, 'a valid token is never refused');
  assert.is((await whoami(env.srv.api, a, { basic: [u.name, u.token] })).status, 200, 'nor a valid token as Basic password');
});

test('wrong tokens: 401 up to the per-address limit, then 429; a valid token from there still works', async () => {
  const u = await freshUser();
  const a = newAddress();
  const wrong = () => whoami(env.srv.api, a, { token: `${uniq('x').replace(/[^0-9a-f]/g, '')}`.padEnd(40, '0').slice(0, 40) });
  for (let i = 0; i < 6; i++) assert.is((await wrong()).status, 401, `attempt ${i + 1}`);
  tooMany(await wrong(), 'seventh wrong token');
  tooMany(await whoami(env.srv.api, a, { basic: [u.name, u.password] }), 'the address is blocked for passwords');
  assert.is((await whoami(env.srv.api, a, { token: u.token })).status, 200);
  const malformed = await whoami(env.srv.api, newAddress(), { headers: { Authorization: 'Basic !!!' } });
  assert.is(malformed.status, 401, 'a malformed header is no guess and is not counted');
});

test('one account from many addresses: the looser per-account limit stops password logins, not tokens', async () => {
  const u = await freshUser();
  for (let i = 0; i < 5; i++) assert.is((await whoami(env.srv.api, newAddress(), { basic: [u.name, `wrong${i}`] })).status, 401);
  tooMany(await whoami(env.srv.api, newAddress(), { basic: [u.name, u.password] }), 'sixth attempt, new address');
  assert.is((await whoami(env.srv.api, newAddress(), { token: u.token })).status, 200);
});

test('git over HTTP counts the same failures and answers 429 with Retry-After', async () => {
  const u = await freshUser();
  const repo = await makeRepo(env.srv.api, u, { name: uniq('r'), private: true });
  const a = newAddress();
  const refs = (pass: string) =>
    call(env.srv.url, 'GET', `/${u.name}/${repo.name}.git/info/refs?service=git-upload-pack`, from(a, { basic: [u.name, pass] }));
  for (let i = 0; i < 3; i++) assert.is((await refs('wrong')).status, 401);
  const blocked = await refs(u.password);
  assert.is(blocked.status, 429, blocked.text);
  assert.ok(Number(blocked.headers.get('retry-after')) >= 1);
  tooMany(await whoami(env.srv.api, a, { basic: [u.name, u.password] }), 'the API shares the count');
});

test('two servers, each with its own connections to the database, share the counters', async () => {
  const url = String(env.db.db.orm.config.get('clientUrl') ?? '');
  if (!process.env.CAIRN__DATABASE__URL) return; // the embedded database admits one process only
  const cfg = loadConfig({}, { SERVER__APP_DATA_PATH: env.db.dataPath, DATABASE__URL: url, ...LIMITS });
  const second: DbHandle = await openDatabase(cfg);
  const running: Running = await listen(createApp({ config: cfg, orm: second.orm, log: pino({ level: 'silent' }) }), '127.0.0.1', 0);
  try {
    const u = await freshUser();
    const a = newAddress();
    assert.is((await whoami(env.srv.api, a, { basic: [u.name, 'wrong'] })).status, 401);
    assert.is((await whoami(`${running.url}/api/v1`, a, { basic: [u.name, 'wrong'] })).status, 401);
    assert.is((await whoami(env.srv.api, a, { basic: [u.name, 'wrong'] })).status, 401);
    tooMany(await whoami(`${running.url}/api/v1`, a, { basic: [u.name, u.password] }), 'the other server counted');
  } finally {
    await running.close();
    await second.close();
  }
});

test('[security.login_limit] ENABLED=false: never 429', async () => {
  const open: TestServer = await startServer(env.db, { ...LIMITS, SECURITY_LOGIN_LIMIT__ENABLED: 'false' });
  const u = await freshUser();
  const a = newAddress();
  for (let i = 0; i < 8; i++) assert.is((await whoami(open.api, a, { basic: [u.name, 'wrong'] })).status, 401);
  assert.is((await whoami(open.api, a, { basic: [u.name, u.password] })).status, 200);
  await open.close();
});

test.run();
