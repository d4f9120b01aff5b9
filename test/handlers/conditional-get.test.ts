// Conditional GETs (lib/http/conditional-get.ts): a strong ETag from the answer's bytes
// and Cache-Control on every JSON GET; If-None-Match that matches answers 304 without a body. Checked
// on a single object, a paged list (its paging headers stay on the 304) and a git-backed read.
import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { call } from '../helpers/client.ts';
import { newRepo, setup, type Env } from './repo-setup.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

const get = (path: string, token: string, headers: Record<string, string> = {}) => call(env.srv.api, 'GET', path, { token, headers });

test('a single object: ETag and Cache-Control; the same tag answers 304 with no body; a change gives a new tag', async () => {
  const repo = await newRepo(env, env.alice, { description: 'one' });
  const path = `/repos/${repo.full_name}`;
  const first = await get(path, env.alice.token);
  assert.is(first.status, 200);
  const etag = first.headers.get('etag')!;
  assert.match(etag, /^"[A-Za-z0-9_-]{22}"$/);
  // The tag is the first 128 bits of the body's SHA-256, base64url: clients' stored tags stay valid.
  assert.is(etag, `"${createHash('sha256').update(first.text).digest('base64url').slice(0, 22)}"`);
  assert.is(first.headers.get('cache-control'), 'max-age=0, private, must-revalidate');
  assert.is((await get(path, env.alice.token)).headers.get('etag'), etag, 'the same bytes, the same tag');

  const again = await get(path, env.alice.token, { 'If-None-Match': etag });
  assert.is(again.status, 304);
  assert.is(again.text, '');
  assert.is(again.headers.get('etag'), etag);
  for (const header of [`W/${etag}`, `"other", ${etag}`, '*']) {
    assert.is((await get(path, env.alice.token, { 'If-None-Match': header })).status, 304, header);
  }
  assert.is((await get(path, env.alice.token, { 'If-None-Match': '"other"' })).status, 200);

  assert.is((await env.as(env.alice, 'PATCH', path, { description: 'two' })).status, 200);
  const changed = await get(path, env.alice.token, { 'If-None-Match': etag });
  assert.is(changed.status, 200);
  assert.is(changed.json.description, 'two');
  assert.is.not(changed.headers.get('etag'), etag);
});

test('a paged list: the 304 keeps X-Total-Count and Link; the tag depends on the page', async () => {
  for (let i = 0; i < 3; i++) await newRepo(env, env.bob);
  const path = `/users/${env.bob.name}/repos?limit=1`;
  const page1 = await get(path, env.bob.token);
  assert.is(page1.status, 200);
  assert.ok(page1.headers.get('link'));
  const etag = page1.headers.get('etag')!;
  const cached = await get(path, env.bob.token, { 'If-None-Match': etag });
  assert.is(cached.status, 304);
  assert.is(cached.headers.get('x-total-count'), page1.headers.get('x-total-count'));
  assert.is(cached.headers.get('link'), page1.headers.get('link'));
  const page2 = await get(`${path}&page=2`, env.bob.token, { 'If-None-Match': etag });
  assert.is(page2.status, 200);
  assert.is.not(page2.headers.get('etag'), etag);
});

test('a git-backed read (contents): 304 until the file changes', async () => {
  const repo = await newRepo(env, env.alice, { auto_init: true });
  const path = `/repos/${repo.full_name}/contents/README.md`;
  const first = await get(path, env.alice.token);
  assert.is(first.status, 200, first.text);
  const etag = first.headers.get('etag')!;
  assert.is((await get(path, env.alice.token, { 'If-None-Match': etag })).status, 304);
  const put = await env.as(env.alice, 'PUT', `/repos/${repo.full_name}/contents/README.md`, {
    content: Buffer.from('new').toString('base64'),
    sha: first.json.sha,
    message: 'edit',
  });
  assert.is(put.status, 200, put.text);
  assert.is((await get(path, env.alice.token, { 'If-None-Match': etag })).status, 200);
});

test('only GETs are conditional: writes and errors carry no ETag', async () => {
  const r = await env.as(env.alice, 'POST', '/user/repos', { name: `etag-${Date.now()}` });
  assert.is(r.status, 201);
  assert.is(r.headers.get('etag'), null);
  const missing = await get('/repos/nobody/nothing', env.alice.token);
  assert.is(missing.status, 404);
  assert.is(missing.headers.get('etag'), null);
});

test.run();
