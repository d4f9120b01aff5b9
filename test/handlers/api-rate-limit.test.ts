// Visible API rate limits (lib/http/api-limit.ts): off by default; when on, every answer
// carries X-RateLimit-Limit/-Remaining/-Reset, a caller past the budget gets 429 with Retry-After,
// the budget is per signed-in user (all of their tokens) or per client address, and a 304 is free.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { call, type Res } from '../helpers/client.ts';
import { makeToken, makeUser } from '../helpers/fixtures.ts';
import { startServer } from '../helpers/server.ts';
import { setup, type Env } from './repo-setup.ts';

let env: Env;
const WINDOW = 600;
test.before(async () => {
  env = await setup({
    API_RATE_LIMIT__ENABLED: 'true',
    API_RATE_LIMIT__PER_USER: '6',
    API_RATE_LIMIT__PER_ADDRESS: '4',
    API_RATE_LIMIT__WINDOW: String(WINDOW),
  });
});
test.after(async () => {
  await env.close();
});

const remaining = (r: Res) => Number(r.headers.get('x-ratelimit-remaining'));

test("a user's budget: headers on every answer, shared by their tokens, 429 with Retry-After when spent; others unaffected", async () => {
  const u = await makeUser(env.db, env.srv.api);
  const second = await makeToken(env.srv.api, u, ['read:user']);
  const first = await call(env.srv.api, 'GET', '/user', { token: u.token });
  assert.is(first.status, 200);
  assert.is(first.headers.get('x-ratelimit-limit'), '6');
  const reset = Number(first.headers.get('x-ratelimit-reset'));
  assert.ok(reset > Date.now() / 1000 && reset <= Date.now() / 1000 + WINDOW + 1, String(reset));
  let left = remaining(first);
  assert.ok(left >= 1 && left < 6, String(left));
  while (left > 0) {
    const r = await call(env.srv.api, 'GET', '/user', { token: left % 2 ? second : u.token });
    assert.is(r.status, 200);
    assert.is(remaining(r), left - 1, 'both tokens draw on one budget');
    left = remaining(r);
  }
  const refused = await call(env.srv.api, 'GET', '/user', { token: second });
  assert.is(refused.status, 429, refused.text);
  assert.is(refused.json.message, 'API rate limit exceeded, try again later');
  assert.ok(Number(refused.headers.get('retry-after')) >= 1);
  assert.is(remaining(refused), 0);
  const other = await call(env.srv.api, 'GET', '/user', { token: env.bob.token });
  assert.is(other.status, 200, 'another user has a budget of their own');
});

test('a 304 gives its point back', async () => {
  const u = await makeUser(env.db, env.srv.api);
  const a = await call(env.srv.api, 'GET', '/user', { token: u.token });
  const etag = a.headers.get('etag')!;
  const cached = await call(env.srv.api, 'GET', '/user', { token: u.token, headers: { 'If-None-Match': etag } });
  assert.is(cached.status, 304);
  const b = await call(env.srv.api, 'GET', '/user', { token: u.token });
  assert.is(remaining(b), remaining(a) - 1, 'only the two 200s counted');
});

test('anonymous callers: a budget per client address', async () => {
  let r = await call(env.srv.api, 'GET', '/version');
  assert.is(r.headers.get('x-ratelimit-limit'), '4');
  while (r.status === 200 && remaining(r) > 0) r = await call(env.srv.api, 'GET', '/version');
  r = await call(env.srv.api, 'GET', '/version');
  assert.is(r.status, 429);
  assert.is((await call(env.srv.api, 'GET', '/version', { token: env.carol.token })).status, 200, "signed in: the user's budget");
});

test('off by default: no rate-limit headers, no 429', async () => {
  const plain = await startServer(env.db);
  try {
    for (let i = 0; i < 6; i++) {
      const r = await call(plain.api, 'GET', '/version');
      assert.is(r.status, 200);
      assert.is(r.headers.get('x-ratelimit-limit'), null);
    }
  } finally {
    await plain.close();
  }
});

test.run();
