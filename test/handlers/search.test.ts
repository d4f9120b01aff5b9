// Repository listings and search: filters, order, paging, and "Listing and lookup routes return only
// repositories the token can reach, and never private repositories for public-only tokens".
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeToken, type TestUser } from '../helpers/fixtures.ts';
import type { Res } from '../helpers/client.ts';
import { newOrg, newRepo, setup, uniq, valid, validList, type Env } from './repo-setup.ts';

let env: Env;
let tag: string;
const repos: Record<string, { id: number; name: string; full_name: string }> = {};
let org: { id: number; name: string };

const names = (r: Res) => ((r.json.data ?? r.json) as { full_name: string }[]).map((x) => x.full_name);
const search = (u: TestUser | string | undefined, q: string) => env.as(u, 'GET', `/repos/search?${q}`);

test.before(async () => {
  env = await setup();
  const { alice, bob } = env;
  tag = uniq('zz').toLowerCase();
  repos.pub = await newRepo(env, alice, { name: `${tag}-pub`, description: 'Has a Special word' });
  repos.priv = await newRepo(env, alice, { name: `${tag}-priv`, private: true });
  repos.tpl = await newRepo(env, alice, { name: `${tag}-tpl`, template: true });
  repos.bobs = await newRepo(env, bob, { name: `${tag}-bobs` });
  repos.bobpriv = await newRepo(env, bob, { name: `${tag}-bobpriv`, private: true });
  await env.as(bob, 'PUT', `/repos/${repos.bobpriv.full_name}/collaborators/${alice.name}`, { permission: 'read' });
  await env.as(alice, 'PUT', `/repos/${repos.pub.full_name}/topics`, { topics: ['cairn-topic', 'other'] });
  await env.as(alice, 'PATCH', `/repos/${repos.tpl.full_name}`, { archived: true });
  await env.as(bob, 'PUT', `/user/starred/${repos.pub.full_name}`);
  org = await newOrg(env, bob, { visibility: 'private' });
  repos.orgrepo = (await env.as(bob, 'POST', `/orgs/${org.name}/repos`, { name: `${tag}-orgrepo` })).json;
});
test.after(async () => {
  await env.close();
});

test('GET /repos/search: {ok, data} with X-Total-Count and Link; only what the caller can see', async () => {
  const { alice, bob, carol } = env;
  const r = await search(alice, `q=${tag}&limit=2`);
  assert.is(r.status, 200, r.text);
  valid('SearchResults', r.json);
  assert.is(r.json.ok, true);
  assert.is(r.headers.get('x-total-count'), '5');
  assert.ok(r.headers.get('link')?.includes('rel="next"'));
  assert.equal(names(r), [repos.priv.full_name, repos.pub.full_name], 'alphabetical by owner, then name');
  const all = await search(alice, `q=${tag}&limit=50`);
  assert.equal(new Set(names(all)), new Set([repos.pub, repos.priv, repos.tpl, repos.bobs, repos.bobpriv].map((x) => x.full_name)));
  assert.equal(new Set(names(await search(carol, `q=${tag}`))), new Set([repos.pub, repos.tpl, repos.bobs].map((x) => x.full_name)));
  assert.equal(new Set(names(await search(undefined, `q=${tag}`))), new Set([repos.pub, repos.tpl, repos.bobs].map((x) => x.full_name)));
  assert.ok(names(await search(bob, `q=${tag}`)).includes(repos.orgrepo.full_name));
  assert.ok(names(await search(env.admin, `q=${tag}`)).includes(repos.orgrepo.full_name));
  // private=false leaves private ones out even for those who may see them.
  assert.not.ok(names(await search(alice, `q=${tag}&private=false`)).includes(repos.priv.full_name));
});

test('search filters: topic, includeDesc, uid/exclusive, starredBy, is_private, template, archived, mode, sort', async () => {
  const { alice, bob } = env;
  assert.equal(names(await search(alice, 'q=cairn-topic&topic=true')), [repos.pub.full_name]);
  assert.equal(names(await search(alice, 'q=cairn-top&topic=true')), []);
  assert.equal(names(await search(alice, `q=special word&includeDesc=true`)), [repos.pub.full_name]);
  assert.equal(names(await search(alice, `q=special word`)), []);
  const mine = await search(alice, `q=${tag}&uid=${alice.id}`);
  assert.equal(
    new Set(names(mine)),
    new Set([repos.pub, repos.priv, repos.tpl, repos.bobpriv].map((x) => x.full_name)),
    'owned plus collaborative',
  );
  assert.equal(
    new Set(names(await search(alice, `q=${tag}&uid=${alice.id}&exclusive=true`))),
    new Set([repos.pub, repos.priv, repos.tpl].map((x) => x.full_name)),
  );
  assert.equal(names(await search(alice, `q=${tag}&uid=${alice.id}&mode=collaborative`)), [repos.bobpriv.full_name]);
  assert.equal(names(await search(alice, `starredBy=${bob.id}`)), [repos.pub.full_name]);
  assert.equal(
    new Set(names(await search(alice, `q=${tag}&is_private=true`))),
    new Set([repos.priv, repos.bobpriv].map((x) => x.full_name)),
  );
  assert.equal(names(await search(alice, `q=${tag}&template=true`)), [repos.tpl.full_name]);
  assert.equal(names(await search(alice, `q=${tag}&archived=true`)), [repos.tpl.full_name]);
  assert.equal(names(await search(alice, `q=${tag}&mode=fork`)), []);
  const byId = await search(alice, `q=${tag}&uid=${alice.id}&exclusive=true&sort=id&order=desc`);
  assert.equal(
    names(byId),
    [repos.tpl, repos.priv, repos.pub].map((x) => x.full_name),
  );
  assert.equal(names(await search(alice, `q=${alice.name}/${tag}-pr`)), [repos.priv.full_name]);
  for (const bad of ['mode=weird', 'sort=weird', 'sort=id&order=sideways']) {
    const r = await search(alice, bad);
    assert.is(r.status, 422, bad);
  }
});

test('token kinds: public-only tokens never see private repositories; repo-specific ones only theirs (spec, token kinds)', async () => {
  const { alice } = env;
  const publicOnly = await makeToken(env.srv.api, alice, ['public-only', 'read:repository', 'read:user']);
  const specific = await makeToken(env.srv.api, alice, ['read:repository'], {
    repositories: [{ owner: alice.name, name: repos.priv.name }],
  });
  const po = names(await search(publicOnly, `q=${tag}`));
  assert.equal(new Set(po), new Set([repos.pub, repos.tpl, repos.bobs].map((x) => x.full_name)));
  const sp = names(await search(specific, `q=${tag}`));
  assert.equal(sp, [repos.priv.full_name]);
  assert.equal(names(await search(specific, `q=${tag}&private=false`)), [], 'not even public ones outside its list');
  assert.equal(names(await env.as(specific, 'GET', `/users/${env.bob.name}/repos`)), []);
  const mine = await env.as(publicOnly, 'GET', '/user/repos?limit=50');
  assert.is(mine.status, 200, mine.text);
  assert.not.ok(names(mine).includes(repos.priv.full_name));
  assert.not.ok(names(mine).includes(repos.bobpriv.full_name));
  assert.not.ok(names(await env.as(specific, 'GET', '/user/repos?limit=50')).includes(repos.bobpriv.full_name));
  assert.not.ok(names(await env.as(publicOnly, 'GET', `/users/${alice.name}/repos`)).includes(repos.priv.full_name));
});

test('GET /user/repos: owned and collaborative repositories, order_by', async () => {
  const { alice } = env;
  const r = await env.as(alice, 'GET', '/user/repos?limit=50');
  assert.is(r.status, 200, r.text);
  validList('Repository', r);
  const n = names(r);
  for (const k of ['pub', 'priv', 'tpl', 'bobpriv']) assert.ok(n.includes(repos[k].full_name), k);
  assert.not.ok(n.includes(repos.bobs.full_name));
  assert.is(r.headers.get('x-total-count'), String(n.length));
  const newest = names(await env.as(alice, 'GET', '/user/repos?order_by=newest&limit=1'));
  assert.equal(newest, [repos.bobpriv.full_name]);
  assert.is((await env.as(alice, 'GET', '/user/repos?order_by=weird')).status, 422);
  assert.is((await env.api('GET', '/user/repos')).status, 401);
});

test('GET /users/{username}/repos and GET /orgs/{org}/repos: owned ones the caller can reach, by id', async () => {
  const { alice, bob, carol } = env;
  const own = await env.as(alice, 'GET', `/users/${alice.name}/repos?limit=50`);
  validList('Repository', own);
  assert.ok(names(own).includes(repos.priv.full_name));
  assert.not.ok(names(own).includes(repos.bobpriv.full_name));
  const seen = names(await env.as(carol, 'GET', `/users/${alice.name}/repos?limit=50`));
  assert.not.ok(seen.includes(repos.priv.full_name));
  assert.ok(seen.includes(repos.pub.full_name));
  assert.ok(names(await env.as(alice, 'GET', `/users/${bob.name}/repos`)).includes(repos.bobpriv.full_name), 'collaborator sees it');
  const o = await env.as(bob, 'GET', `/orgs/${org.name}/repos`);
  assert.is(o.status, 200, o.text);
  validList('Repository', o);
  assert.equal(names(o), [repos.orgrepo.full_name]);
  assert.is((await env.as(carol, 'GET', `/orgs/${org.name}/repos`)).status, 404, 'a private organization is unknown to outsiders');
});

test.run();
