// Repository topics and topic search (Forgejo's topic rules: lower case, ^[a-z0-9][-.a-z0-9]*$,
// at most 35 characters, at most 25 per repository).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRepo, setup, uniq, valid, type Env } from './repo-setup.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

test('PUT {R}/topics replaces them (lower-cased, deduplicated); GET lists them by name; Repository.topics follows', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const path = `/repos/${repo.full_name}/topics`;
  const r = await env.as(alice, 'PUT', path, { topics: ['Zeta', 'alpha', 'zeta', ' beta.x ', ''] });
  assert.is(r.status, 204, r.text);
  const list = await env.as(alice, 'GET', path);
  assert.is(list.status, 200);
  valid('TopicName', list.json);
  assert.equal(list.json.topics, ['alpha', 'beta.x', 'zeta']);
  assert.is(list.headers.get('x-total-count'), '3');
  assert.equal([...(await env.as(alice, 'GET', `/repos/${repo.full_name}`)).json.topics].sort(), ['alpha', 'beta.x', 'zeta']);
  assert.is((await env.as(alice, 'PUT', path, { topics: ['alpha'] })).status, 204);
  assert.equal((await env.as(alice, 'GET', path)).json.topics, ['alpha']);
});

test('invalid names answer 422 with invalidTopics; too many answer 422; nothing changes', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const path = `/repos/${repo.full_name}/topics`;
  await env.as(alice, 'PUT', path, { topics: ['keep'] });
  const bad = await env.as(alice, 'PUT', path, { topics: ['ok', '-dash', 'has space', 'x'.repeat(36)] });
  assert.is(bad.status, 422);
  valid('APIInvalidTopicsError', bad.json);
  assert.equal(bad.json.invalidTopics, ['-dash', 'has space', 'x'.repeat(36)]);
  assert.is(bad.json.message, 'Topic names are invalid');
  const many = await env.as(alice, 'PUT', path, { topics: Array.from({ length: 26 }, (_, i) => `t${i}`) });
  assert.is(many.status, 422);
  assert.is(many.json.message, 'Exceeding maximum number of topics per repo');
  assert.equal((await env.as(alice, 'GET', path)).json.topics, ['keep']);
  const single = await env.as(alice, 'PUT', `${path}/Bad_Name`);
  assert.is(single.status, 422);
  assert.equal(single.json.invalidTopics, ['bad_name']);
  assert.is((await env.as(alice, 'PUT', path, { topics: 'x' })).status, 422);
});

test('PUT/DELETE {R}/topics/{topic}: add (at most 25), remove, 404 for one the repository does not carry', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const path = `/repos/${repo.full_name}/topics`;
  assert.is((await env.as(alice, 'PUT', `${path}/Go`)).status, 204);
  assert.is((await env.as(alice, 'PUT', `${path}/go`)).status, 204);
  assert.equal((await env.as(alice, 'GET', path)).json.topics, ['go']);
  assert.is((await env.as(alice, 'DELETE', `${path}/go`)).status, 204);
  assert.is((await env.as(alice, 'DELETE', `${path}/go`)).status, 404);
  await env.as(alice, 'PUT', path, { topics: Array.from({ length: 25 }, (_, i) => `n${i}`) });
  const full = await env.as(alice, 'PUT', `${path}/one-more`);
  assert.is(full.status, 422);
  assert.is(full.json.message, 'Exceeding maximum allowed topics per repo.');
});

test('topic writes need repository admin rights; reading needs access', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice);
  const priv = await newRepo(env, alice, { private: true });
  const path = `/repos/${repo.full_name}/topics`;
  await env.as(alice, 'PUT', `/repos/${repo.full_name}/collaborators/${bob.name}`, { permission: 'write' });
  assert.is((await env.as(bob, 'PUT', path, { topics: ['x'] })).status, 403);
  assert.is((await env.as(bob, 'PUT', `${path}/x`)).status, 403);
  assert.equal((await env.as(bob, 'GET', path)).json.topics, []);
  assert.is((await env.as(bob, 'GET', `/repos/${priv.full_name}/topics`)).status, 404);
});

test('GET /topics/search: matching topics, most used first, with repo_count', async () => {
  const { alice, bob } = env;
  const word = uniq('tp').toLowerCase();
  const a = await newRepo(env, alice);
  const b = await newRepo(env, bob);
  await env.as(alice, 'PUT', `/repos/${a.full_name}/topics`, { topics: [`${word}-common`, `${word}-rare`] });
  await env.as(bob, 'PUT', `/repos/${b.full_name}/topics`, { topics: [`${word}-common`] });
  const r = await env.as(alice, 'GET', `/topics/search?q=${word}`);
  assert.is(r.status, 200, r.text);
  for (const t of r.json.topics) valid('TopicResponse', t);
  assert.equal(
    r.json.topics.map((t: { topic_name: string; repo_count: number }) => [t.topic_name, t.repo_count]),
    [
      [`${word}-common`, 2],
      [`${word}-rare`, 1],
    ],
  );
  assert.is(r.headers.get('x-total-count'), '2');
  await env.as(bob, 'DELETE', `/repos/${b.full_name}`);
  const after = await env.as(alice, 'GET', `/topics/search?q=${word}-common`);
  assert.is(after.json.topics[0].repo_count, 1, 'a deleted repository no longer counts');
});

test.run();
