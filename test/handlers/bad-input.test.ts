// Over real HTTP: input that cannot name or be stored as anything answers 404
// (path) or 422 (body, query) in Forgejo's shapes, and nothing is written before the refusal.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRepo, setup, type Env } from './repo-setup.ts';
import { call } from '../helpers/client.ts';
import { Issue } from '../../model/issue.ts';
import { User } from '../../model/user.ts';

let env: Env;
test.before(async () => {
  env = await setup({ QUOTA__ENABLED: 'true' });
});
test.after(async () => {
  await env.close();
});

const em = () => env.db.db.orm.em.fork();
/** A JSON body sent as written: 2^63 and −2^63−1 do not survive JSON.stringify of a double. */
const raw = (u: { token: string }, method: string, path: string, text: string) =>
  call(env.srv.api, method, path, { token: u.token, body: text, headers: { 'Content-Type': 'application/json' } });
const notFoundShape = (r: { status: number; json: any }) => {
  assert.is(r.status, 404);
  assert.equal(r.json, { message: "The target couldn't be found.", url: `${env.srv.config.appUrl}api/swagger`, errors: [] });
};

test('path resolution: a parameter holding NUL names nothing (404), before any lookup', async () => {
  notFoundShape(await env.api('GET', '/users/%00', { token: env.alice.token }));
  notFoundShape(await env.api('GET', '/repos/%00/x'));
  notFoundShape(await env.api('GET', `/repos/${env.alice.name}/a%00b/issues`, { token: env.alice.token }));
  notFoundShape(await env.api('DELETE', `/repos/${env.alice.name}/x/issues/comments/1%00`, { token: env.alice.token }));
});

test('a query value holding NUL is 422 naming the parameter; sudo too', async () => {
  const r = await env.api('GET', '/repos/search?q=a%00b', { token: env.alice.token });
  assert.is(r.status, 422);
  assert.is(r.json.message, '[q]: Invalid');
  const s = await env.api('GET', '/user?sudo=%00', { token: env.admin.token });
  assert.is(s.status, 422);
  assert.is(s.json.message, '[sudo]: Invalid');
});

test('page beyond int64 reads as not given (page 1), and a page beyond any offset is empty', async () => {
  const repo = await newRepo(env, env.alice);
  await env.as(env.alice, 'POST', `/repos/${repo.full_name}/issues`, { title: 'one' });
  const first = await env.api('GET', `/repos/${repo.full_name}/issues?page=99999999999999999999`, { token: env.alice.token });
  assert.is(first.status, 200, first.text);
  assert.is(first.json.length, 1);
  for (const q of ['page=9223372036854775807', 'page=9223372036854775807&limit=99999999999999999999', 'page=2147483648']) {
    const past = await env.api('GET', `/repos/${repo.full_name}/issues?${q}`, { token: env.alice.token });
    assert.is(past.status, 200, past.text);
    assert.equal(past.json, []);
  }
  const search = await env.api('GET', '/repos/issues/search?page=9223372036854775807', { token: env.alice.token });
  assert.is(search.status, 200, search.text);
});

test('request body binding: a lone surrogate in tag_name is 422 and no tag is made', async () => {
  const repo = await newRepo(env, env.alice, { auto_init: true });
  const r = await raw(env.alice, 'POST', `/repos/${repo.full_name}/tags`, '{"tag_name":"\\ud800"}');
  assert.is(r.status, 422, r.text);
  assert.is(r.json.message, '[TagName]: Invalid');
  const tags = await env.api('GET', `/repos/${repo.full_name}/tags`, { token: env.alice.token });
  assert.equal(tags.json, []);
});

test('request body binding: a string beyond its column is 422 [Field]: MaxSize, and nothing changes', async () => {
  const r = await env.as(env.bob, 'PATCH', '/user/settings', { language: 'A'.repeat(300) });
  assert.is(r.status, 422, r.text);
  assert.is(r.json.message, '[Language]: MaxSize');
  const repo = await newRepo(env, env.bob);
  const t = await env.as(env.bob, 'POST', `/repos/${repo.full_name}/issues`, { title: 'T'.repeat(256) });
  assert.is(t.json.message, '[Title]: MaxSize');
  assert.is(await em().count(Issue, { repoId: repo.id }), 0);
});

test('request body binding: integers beyond int64 or their column are 422 [Field]: Range, nothing written', async () => {
  const repo = await newRepo(env, env.carol, { auto_init: true });
  for (const m of ['9223372036854775808', '-9223372036854775809', '4294967296']) {
    const r = await raw(env.carol, 'POST', `/repos/${repo.full_name}/issues`, `{"title":"t","milestone":${m}}`);
    assert.is(r.status, 422, `${m}: ${r.text}`);
    assert.is(r.json.message, '[Milestone]: Range');
  }
  assert.is(await em().count(Issue, { repoId: repo.id }), 0);
  const issue = await env.as(env.carol, 'POST', `/repos/${repo.full_name}/issues`, { title: 't' });
  const e = await raw(env.carol, 'PATCH', `/repos/${repo.full_name}/issues/${issue.json.number}`, '{"milestone":-9223372036854775809}');
  assert.is(e.status, 422, e.text);
  for (const v of ['-9223372036854775809', '9223372036854775808', '2147483648']) {
    const b = await raw(env.carol, 'POST', `/repos/${repo.full_name}/branch_protections`, `{"rule_name":"main","required_approvals":${v}}`);
    assert.is(b.status, 422, `${v}: ${b.text}`);
    assert.is(b.json.message, '[RequiredApprovals]: Range');
  }
  const q = await raw(env.admin, 'POST', '/admin/quota/rules', '{"name":"big","limit":9223372036854775808,"subjects":["size:all"]}');
  assert.is(q.status, 422, q.text);
  assert.is(q.json.message, '[Limit]: Range');
  const before = await em().findOneOrFail(User, { id: env.bob.id });
  const u = await raw(
    env.admin,
    'PATCH',
    `/admin/users/${env.bob.name}`,
    `{"login_name":"${env.bob.name}","source_id":0,"max_repo_creation":9223372036854775808}`,
  );
  assert.is(u.status, 422, u.text);
  assert.is((await em().findOneOrFail(User, { id: env.bob.id })).maxRepoCreation, before.maxRepoCreation);
});

test('request body binding: nesting far beyond any body is 422', async () => {
  const repo = await newRepo(env, env.alice);
  for (const text of [
    `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    `{"title":"t","labels":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
  ]) {
    const r = await raw(env.alice, 'POST', `/repos/${repo.full_name}/issues`, text);
    assert.is(r.status, 422, r.text.slice(0, 200));
  }
});

test('text and multipart bodies: NUL in the text or a file name is 422, and no attachment is kept', async () => {
  const t = await call(env.srv.api, 'POST', '/markdown/raw', {
    token: env.alice.token,
    body: 'a\u0000b',
    headers: { 'Content-Type': 'text/plain' },
  });
  assert.is(t.status, 422, t.text);
  assert.is(t.json.message, '[Body]: Invalid');
  const repo = await newRepo(env, env.alice);
  const issue = await env.as(env.alice, 'POST', `/repos/${repo.full_name}/issues`, { title: 'files' });
  const form = new FormData();
  form.append('attachment', new Blob(['x']), 'a\u0000b.txt');
  const r = await fetch(`${env.srv.api}/repos/${repo.full_name}/issues/${issue.json.number}/assets`, {
    method: 'POST',
    headers: { Authorization: `token ${env.alice.token}` },
    body: form,
  });
  assert.is(r.status, 422, await r.text());
  const list = await env.api('GET', `/repos/${repo.full_name}/issues/${issue.json.number}/assets`, { token: env.alice.token });
  assert.equal(list.json, []);
});

test('Basic credentials whose user name decodes to NUL are a 401, not a lookup', async () => {
  const r = await env.api('GET', '/user', { basic: ['a\u0000b', 'x'] });
  assert.is(r.status, 401, r.text);
});

test.run();
