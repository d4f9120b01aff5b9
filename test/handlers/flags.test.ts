// Repository flags ([repository] ENABLE_FLAGS; Forgejo's routers/api/v1/repo/flags.go): site admins only,
// names kept as given (1 to 255 characters), the routes absent when the setting is off.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { call } from '../helpers/client.ts';
import { startServer } from '../helpers/server.ts';
import { makeToken } from '../helpers/fixtures.ts';
import { newRepo, setup, type Env } from './repo-setup.ts';

let env: Env;
test.before(async () => {
  env = await setup({ REPOSITORY__ENABLE_FLAGS: 'true' });
});
test.after(async () => {
  await env.close();
});

const flagsOf = async (full: string) => {
  const r = await env.as(env.admin, 'GET', `/repos/${full}/flags`);
  assert.is(r.status, 200, r.text);
  assert.ok(Array.isArray(r.json) && r.json.every((f: unknown) => typeof f === 'string'), r.text);
  assert.is(r.headers.get('x-total-count'), String(r.json.length));
  return r.json as string[];
};

test('admin: add, check, list, remove one, replace all, remove all', async () => {
  const repo = await newRepo(env, env.alice);
  const base = `/repos/${repo.full_name}/flags`;
  assert.equal(await flagsOf(repo.full_name), []);
  assert.is((await env.as(env.admin, 'GET', `${base}/featured`)).status, 404, 'an unset flag is 404');
  assert.is((await env.as(env.admin, 'PUT', `${base}/featured`)).status, 204);
  assert.is((await env.as(env.admin, 'PUT', `${base}/featured`)).status, 204, 'setting a set flag is harmless');
  assert.is((await env.as(env.admin, 'PUT', `${base}/${encodeURIComponent('needs review')}`)).status, 204);
  assert.is((await env.as(env.admin, 'GET', `${base}/featured`)).status, 204);
  assert.equal(await flagsOf(repo.full_name), ['featured', 'needs review']);
  assert.is((await env.as(env.admin, 'DELETE', `${base}/featured`)).status, 204);
  assert.is((await env.as(env.admin, 'DELETE', `${base}/featured`)).status, 204, 'removing an unset flag is no error');
  assert.equal(await flagsOf(repo.full_name), ['needs review']);

  const put = await env.as(env.admin, 'PUT', base, { flags: ['b', 'a', 'b'] });
  assert.is(put.status, 204, put.text);
  assert.equal(await flagsOf(repo.full_name), ['a', 'b'], 'replaced, a repeated name stored once');
  assert.is((await env.as(env.admin, 'PUT', base, { flags: [] })).status, 204);
  assert.equal(await flagsOf(repo.full_name), []);
  await env.as(env.admin, 'PUT', base, { flags: ['x', 'y'] });
  assert.is((await env.as(env.admin, 'DELETE', base)).status, 204);
  assert.equal(await flagsOf(repo.full_name), []);
});

test('flags belong to their repository', async () => {
  const one = await newRepo(env, env.alice);
  const two = await newRepo(env, env.alice);
  await env.as(env.admin, 'PUT', `/repos/${one.full_name}/flags/only-one`);
  assert.equal(await flagsOf(two.full_name), []);
  assert.is((await env.as(env.admin, 'GET', `/repos/${two.full_name}/flags/only-one`)).status, 404);
  await env.as(env.admin, 'DELETE', `/repos/${two.full_name}/flags`);
  assert.equal(await flagsOf(one.full_name), ['only-one']);
});

test('names: empty or over 255 characters is 422 and nothing is written', async () => {
  const repo = await newRepo(env, env.alice);
  const base = `/repos/${repo.full_name}/flags`;
  await env.as(env.admin, 'PUT', `${base}/kept`);
  for (const flags of [[''], ['ok', 'x'.repeat(256)]]) {
    const r = await env.as(env.admin, 'PUT', base, { flags });
    assert.is(r.status, 422, r.text);
  }
  assert.is((await env.as(env.admin, 'PUT', `${base}/${'y'.repeat(256)}`)).status, 422);
  assert.equal(await flagsOf(repo.full_name), ['kept'], 'the failed replacements removed nothing');
  assert.is((await env.as(env.admin, 'PUT', `${base}/${'z'.repeat(255)}`)).status, 204, '255 characters fit');
  assert.is((await env.as(env.admin, 'PUT', base, { flags: 'nope' })).status, 422, 'flags must be a list');
});

test('SA: the owner, other users and anonymous callers are refused; the flags stay', async () => {
  const repo = await newRepo(env, env.alice);
  const base = `/repos/${repo.full_name}/flags`;
  await env.as(env.admin, 'PUT', `${base}/kept`);
  for (const [method, path, body] of [
    ['GET', base],
    ['PUT', base, { flags: [] }],
    ['DELETE', base],
    ['GET', `${base}/kept`],
    ['PUT', `${base}/new`],
    ['DELETE', `${base}/kept`],
  ] as [string, string, unknown?][]) {
    assert.is((await env.as(env.alice, method, path, body)).status, 403, `owner ${method} ${path}`);
    assert.is((await env.as(env.bob, method, path, body)).status, 403, `other ${method} ${path}`);
    assert.is((await env.as(undefined, method, path, body)).status, 401, `anonymous ${method} ${path}`);
  }
  assert.equal(await flagsOf(repo.full_name), ['kept']);
  // An admin's read-only token may read but not write (scope admin or repository, write for PUT).
  const readOnly = await makeToken(env.srv.api, env.admin, ['read:admin', 'read:repository']);
  assert.is((await env.as(readOnly, 'GET', base)).status, 200);
  assert.is((await env.as(readOnly, 'PUT', `${base}/new`)).status, 403);
  assert.is((await env.as(env.admin, 'GET', `/repos/${env.alice.name}/nosuch/flags`)).status, 404);
});

test('[repository] ENABLE_FLAGS off: the routes do not exist', async () => {
  const repo = await newRepo(env, env.alice);
  const off = await startServer(env.db, {});
  try {
    for (const [method, path] of [
      ['GET', ''],
      ['PUT', ''],
      ['DELETE', ''],
      ['GET', '/a'],
      ['PUT', '/a'],
      ['DELETE', '/a'],
    ]) {
      const r = await call(off.api, method, `/repos/${repo.full_name}/flags${path}`, {
        token: env.admin.token,
        body: method === 'PUT' && !path ? { flags: ['a'] } : undefined,
      });
      assert.is(r.status, 404, `${method} ${path}`);
    }
  } finally {
    await off.close();
  }
  assert.equal(await flagsOf(repo.full_name), []);
});

test.run();
