// Actions secrets and variables at repository, organization and user level (Forgejo's
// routers/api/v1/{repo,org,user}/action.go, services/secrets, services/actions/variables.go).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newOrg, newRepo, setup, uniq, valid, validList, type Env } from './repo-setup.ts';
import { makeUser, type TestUser } from '../helpers/fixtures.ts';
import { SecretBox } from '../../lib/auth/secretbox.ts';
import { secretKey } from '../../server.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

const sql = async <T>(q: string, params: unknown[] = []): Promise<T[]> => env.db.db.orm.em.fork().getConnection().execute(q, params, 'all');

/** The three places secrets and variables live, each with the user allowed to manage it. */
interface Level {
  name: string;
  base: string;
  manager: TestUser;
  ownerId: number;
  repoId: number;
}

async function repoLevel(): Promise<Level> {
  const repo = await newRepo(env, env.alice);
  return { name: 'repo', base: `/repos/${repo.full_name}/actions`, manager: env.alice, ownerId: 0, repoId: repo.id };
}
async function orgLevel(): Promise<Level> {
  const org = await newOrg(env, env.alice);
  return { name: 'org', base: `/orgs/${org.name}/actions`, manager: env.alice, ownerId: org.id, repoId: 0 };
}
const userLevel = (u: TestUser): Level => ({ name: 'user', base: '/user/actions', manager: u, ownerId: u.id, repoId: 0 });

async function levels(): Promise<Level[]> {
  return [await repoLevel(), await orgLevel(), userLevel(env.carol)];
}

/** Every secret row of a scope, ciphertext included. */
const secretRows = (l: Level) =>
  sql<{ name: string; data: string }>('select name, data from action_secret where owner_id = ? and repo_id = ? order by name', [
    l.ownerId,
    l.repoId,
  ]);
const variableRows = (l: Level) =>
  sql<{ name: string; data: string }>('select name, data from action_variable where owner_id = ? and repo_id = ? order by id', [
    l.ownerId,
    l.repoId,
  ]);

test('secrets at every level: PUT creates (201) then replaces (204), names are case-insensitive and stored upper-case, DELETE', async () => {
  for (const l of await levels()) {
    const u = l.manager;
    const created = await env.as(u, 'PUT', `${l.base}/secrets/deploy_Key`, { data: 'first' });
    assert.is(created.status, 201, `${l.name}: ${created.text}`);
    assert.is(created.text, '', 'no body, like Forgejo');
    const replaced = await env.as(u, 'PUT', `${l.base}/secrets/DEPLOY_KEY`, { data: 'second' });
    assert.is(replaced.status, 204, `${l.name}: same name in another case is the same secret`);
    assert.equal(
      (await secretRows(l)).map((r) => r.name),
      ['DEPLOY_KEY'],
    );
    assert.is((await env.as(u, 'PUT', `${l.base}/secrets/api_token`, { data: 'x' })).status, 201);

    if (l.name !== 'user') {
      const listed = await env.as(u, 'GET', `${l.base}/secrets`);
      assert.is(listed.status, 200, listed.text);
      validList('Secret', listed);
      assert.equal(
        listed.json.map((s: { name: string }) => s.name),
        ['API_TOKEN', 'DEPLOY_KEY'],
        'ordered by name',
      );
      for (const s of listed.json) {
        assert.equal(Object.keys(s).sort(), ['created_at', 'name'], 'a secret never carries its value');
        assert.match(s.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      }
    } else {
      assert.is((await env.as(u, 'GET', `${l.base}/secrets`)).status, 404, 'the spec lists no GET /user/actions/secrets');
    }

    assert.is((await env.as(u, 'DELETE', `${l.base}/secrets/deploy_key`)).status, 204);
    const gone = await env.as(u, 'DELETE', `${l.base}/secrets/deploy_key`);
    assert.is(gone.status, 404);
    assert.is(gone.json.message, 'secret was not found [name: DEPLOY_KEY]');
    assert.equal(
      (await secretRows(l)).map((r) => r.name),
      ['API_TOKEN'],
    );
  }
});

test('spec: secrets are never stored in plain text: the row holds a SecretBox ciphertext of the (LF-normalised) value', async () => {
  const l = await repoLevel();
  const value = 'hunter2-\u00e9t\u00e9\r\nline two';
  assert.is((await env.as(l.manager, 'PUT', `${l.base}/secrets/DB_PASSWORD`, { data: value })).status, 201);
  const [row] = await secretRows(l);
  assert.ok(row, 'the secret has a row');
  assert.not.ok(row.data.includes('hunter2'), 'the value is not in the row');
  assert.not.ok(row.data.includes(Buffer.from('hunter2').toString('base64').slice(0, 8)), 'nor merely base64-encoded');
  assert.match(row.data, /^v1\./);
  // It is the value, encrypted with the instance key, line endings normalised like Forgejo.
  assert.is(new SecretBox(secretKey(env.srv.config)).open(row.data), 'hunter2-\u00e9t\u00e9\nline two');
  // Replacing it re-encrypts with a fresh nonce.
  assert.is((await env.as(l.manager, 'PUT', `${l.base}/secrets/DB_PASSWORD`, { data: value })).status, 204);
  const [again] = await secretRows(l);
  assert.is.not(again.data, row.data);
  // Nothing an API reader gets holds the value.
  const listed = await env.as(l.manager, 'GET', `${l.base}/secrets`);
  assert.not.ok(listed.text.includes('hunter2') || listed.text.includes(row.data));
});

test('secret and variable names: Forgejo rule (letters, digits, _; no leading digit; no FORGEJO_/GITEA_/GITHUB_) → 400', async () => {
  const l = await repoLevel();
  const u = l.manager;
  const bad = ['1ABC', 'FORGEJO_X', 'gitea_token', 'GitHub_Token', 'A-B', 'A%20B', 'X'.repeat(256)];
  for (const name of bad) {
    const s = await env.as(u, 'PUT', `${l.base}/secrets/${name}`, { data: 'v' });
    assert.is(s.status, 400, `${name}: ${s.text}`);
    assert.is(s.json.message, 'invalid secret name');
    const v = await env.as(u, 'POST', `${l.base}/variables/${name}`, { value: 'v' });
    assert.is(v.status, 400, `${name}: ${v.text}`);
    assert.is(v.json.message, 'invalid secret name', 'variables share the secret rule and its message');
    assert.is((await env.as(u, 'DELETE', `${l.base}/secrets/${name}`)).status, 400);
    assert.is((await env.as(u, 'DELETE', `${l.base}/variables/${name}`)).status, 400);
  }
  for (const name of ['_', '_1', 'GITEA', 'MY_GITHUB_TOKEN', 'CI_X', 'X'.repeat(255)]) {
    assert.is((await env.as(u, 'PUT', `${l.base}/secrets/${name}`, { data: 'v' })).status, 201, name);
  }
  // CI is a legal secret name but not a legal variable name.
  assert.is((await env.as(u, 'PUT', `${l.base}/secrets/ci`, { data: 'v' })).status, 201);
  const ci = await env.as(u, 'POST', `${l.base}/variables/ci`, { value: 'v' });
  assert.is(ci.status, 400);
  assert.is(ci.json.message, 'env name cannot be ci');
  assert.equal(await variableRows(l), [], 'no variable was written by a refused request');
});

test('bodies: data / value are required and may not be empty (422 as Forgejo binding)', async () => {
  const l = await repoLevel();
  const u = l.manager;
  const noData = await env.as(u, 'PUT', `${l.base}/secrets/S`, {});
  assert.is(noData.status, 422);
  assert.is(noData.json.message, '[Data]: Required');
  assert.is((await env.as(u, 'PUT', `${l.base}/secrets/S`, { data: '' })).status, 422);
  const noValue = await env.as(u, 'POST', `${l.base}/variables/V`, { value: '' });
  assert.is(noValue.status, 422);
  assert.is(noValue.json.message, '[Value]: Required');
  assert.is((await env.as(u, 'POST', `${l.base}/variables/V`, { value: 'x' })).status, 204);
  assert.is((await env.as(u, 'PUT', `${l.base}/variables/V`, { name: 'W' })).status, 422);
  assert.equal(await secretRows(l), []);
  assert.equal(await variableRows(l), [{ name: 'V', data: 'x' }], 'the refused update changed nothing');
});

test('variables at every level: create (204), 409 on an existing name in any case, get, update with rename, delete', async () => {
  for (const l of await levels()) {
    const u = l.manager;
    const created = await env.as(u, 'POST', `${l.base}/variables/build_Mode`, { value: 'release\r\nfast' });
    assert.is(created.status, 204, `${l.name}: Forgejo answers 204 (${created.text})`);
    const dup = await env.as(u, 'POST', `${l.base}/variables/BUILD_mode`, { value: 'other' });
    assert.is(dup.status, 409, `${l.name}: ${dup.text}`);
    assert.is(dup.json.message, 'variable name BUILD_mode already exists');

    const got = await env.as(u, 'GET', `${l.base}/variables/build_mode`);
    assert.is(got.status, 200, got.text);
    valid('ActionVariable', got.json);
    assert.equal(got.json, { owner_id: l.ownerId, repo_id: l.repoId, name: 'BUILD_MODE', data: 'release\nfast' });

    // Without a name the variable keeps its own; with one it is renamed (upper-cased).
    assert.is((await env.as(u, 'PUT', `${l.base}/variables/BUILD_MODE`, { value: 'debug' })).status, 204);
    assert.is((await env.as(u, 'PUT', `${l.base}/variables/build_mode`, { name: 'profile', value: 'dev' })).status, 204);
    assert.is((await env.as(u, 'GET', `${l.base}/variables/BUILD_MODE`)).status, 404);
    const renamed = await env.as(u, 'GET', `${l.base}/variables/PROFILE`);
    assert.equal(renamed.json, { owner_id: l.ownerId, repo_id: l.repoId, name: 'PROFILE', data: 'dev' });

    const missing = await env.as(u, 'PUT', `${l.base}/variables/NOPE`, { value: 'x' });
    assert.is(missing.status, 404);
    assert.is(missing.json.message, 'variable not found');
    const badRename = await env.as(u, 'PUT', `${l.base}/variables/PROFILE`, { name: 'GITEA_X', value: 'x' });
    assert.is(badRename.status, 400);

    // Renaming onto another variable's name is refused and changes nothing.
    assert.is((await env.as(u, 'POST', `${l.base}/variables/OTHER`, { value: 'o' })).status, 204);
    const clash = await env.as(u, 'PUT', `${l.base}/variables/other`, { name: 'Profile', value: 'changed' });
    assert.is(clash.status, 409, clash.text);
    assert.equal(await variableRows(l), [
      { name: 'PROFILE', data: 'dev' },
      { name: 'OTHER', data: 'o' },
    ]);

    assert.is((await env.as(u, 'DELETE', `${l.base}/variables/profile`)).status, 204);
    const gone = await env.as(u, 'DELETE', `${l.base}/variables/profile`);
    assert.is(gone.status, 404);
    assert.is((await env.as(u, 'GET', `${l.base}/variables/profile`)).json.message, 'variable not found');
    assert.equal(
      (await variableRows(l)).map((r) => r.name),
      ['OTHER'],
    );
  }
});

test('lists page with X-Total-Count and Link; scopes do not leak into each other', async () => {
  const repoL = await repoLevel();
  const userL = userLevel(env.bob);
  for (const l of [repoL, userL]) {
    for (const n of ['A', 'B', 'C']) {
      assert.is((await env.as(l.manager, 'POST', `${l.base}/variables/${n}`, { value: n.toLowerCase() })).status, 204);
    }
  }
  for (const n of ['S3', 'S1', 'S2']) assert.is((await env.as(env.alice, 'PUT', `${repoL.base}/secrets/${n}`, { data: 'v' })).status, 201);

  const p1 = await env.as(env.alice, 'GET', `${repoL.base}/variables?limit=2`);
  assert.is(p1.status, 200);
  validList('ActionVariable', p1);
  assert.is(p1.headers.get('x-total-count'), '3');
  assert.equal(
    p1.json.map((v: { name: string }) => v.name),
    ['A', 'B'],
  );
  assert.match(p1.headers.get('link') ?? '', /page=2>; rel="next"/);
  const p2 = await env.as(env.alice, 'GET', `${repoL.base}/variables?limit=2&page=2`);
  assert.equal(p2.json, [{ owner_id: 0, repo_id: repoL.repoId, name: 'C', data: 'c' }]);

  const s2 = await env.as(env.alice, 'GET', `${repoL.base}/secrets?limit=2&page=2`);
  validList('Secret', s2);
  assert.is(s2.headers.get('x-total-count'), '3');
  assert.equal(
    s2.json.map((s: { name: string }) => s.name),
    ['S3'],
  );

  // bob's user variables are his alone; alice sees none of them at /user.
  const mine = await env.as(env.bob, 'GET', '/user/actions/variables');
  assert.equal(
    mine.json.map((v: { owner_id: number; repo_id: number }) => [v.owner_id, v.repo_id]),
    [
      [env.bob.id, 0],
      [env.bob.id, 0],
      [env.bob.id, 0],
    ],
  );
  const alices = await env.as(env.alice, 'GET', '/user/actions/variables');
  assert.is(alices.status, 200);
  assert.not.ok(alices.json.some((v: { owner_id: number }) => v.owner_id === env.bob.id));
  assert.is((await env.as(env.alice, 'GET', '/user/actions/variables/A')).status, 404);
});

test('repository level: OWN(actions): owner and site admin only; collaborator admin 403; private 404; anonymous 401', async () => {
  const { alice, bob, admin } = env;
  const pub = await newRepo(env, alice);
  const base = `/repos/${pub.full_name}/actions`;
  assert.is((await env.as(alice, 'PUT', `${base}/secrets/S`, { data: 'v' })).status, 201);
  assert.is((await env.as(alice, 'POST', `${base}/variables/V`, { value: 'v' })).status, 204);
  assert.is((await env.as(alice, 'PUT', `/repos/${pub.full_name}/collaborators/${bob.name}`, { permission: 'admin' })).status, 204);

  const calls: [string, string, unknown?][] = [
    ['GET', `${base}/secrets`],
    ['PUT', `${base}/secrets/S`, { data: 'stolen' }],
    ['DELETE', `${base}/secrets/S`],
    ['GET', `${base}/variables`],
    ['GET', `${base}/variables/V`],
    ['POST', `${base}/variables/W`, { value: 'x' }],
    ['PUT', `${base}/variables/V`, { value: 'x' }],
    ['DELETE', `${base}/variables/V`],
  ];
  for (const [m, p, b] of calls) {
    const r = await env.as(bob, m, p, b);
    assert.is(r.status, 403, `${m} ${p}: ${r.text}`);
    assert.is(r.json.message, 'user should be the owner of the repo');
    assert.is((await env.as(undefined, m, p, b)).status, 401, `${m} ${p} anonymous`);
  }
  const [row] = await sql<{ data: string }>('select data from action_secret where repo_id = ?', [pub.id]);
  assert.is(new SecretBox(secretKey(env.srv.config)).open(row.data), 'v', 'the denied PUT changed nothing');
  assert.equal(await sql('select name, data from action_variable where repo_id = ?', [pub.id]), [{ name: 'V', data: 'v' }]);

  const got = await env.as(admin, 'GET', `${base}/variables/V`);
  assert.is(got.status, 200, 'a site admin passes OWN');
  assert.is((await env.as(admin, 'PUT', `${base}/secrets/FROM_ADMIN`, { data: 'a' })).status, 201);

  const priv = await newRepo(env, alice, { private: true });
  const r = await env.as(env.carol, 'GET', `/repos/${priv.full_name}/actions/secrets`);
  assert.is(r.status, 404, 'a private repository stays hidden');
});

test('organization level: ONA: owners and site admin; members and others 403; private organization hidden', async () => {
  const { alice, bob, carol, admin } = env;
  const org = await newOrg(env, alice);
  const base = `/orgs/${org.name}/actions`;
  const team = await env.as(alice, 'POST', `/orgs/${org.name}/teams`, { name: 'devs', permission: 'write', units: ['repo.code'] });
  assert.is(team.status, 201, team.text);
  assert.is((await env.as(alice, 'PUT', `/teams/${team.json.id}/members/${bob.name}`)).status, 204);
  assert.is((await env.as(alice, 'POST', `${base}/variables/V`, { value: 'v' })).status, 204);

  for (const u of [bob, carol]) {
    for (const [m, p, b] of [
      ['GET', `${base}/secrets`],
      ['PUT', `${base}/secrets/S`, { data: 'x' }],
      ['GET', `${base}/variables/V`],
      ['DELETE', `${base}/variables/V`],
    ] as const) {
      const r = await env.as(u, m, p, b);
      assert.is(r.status, 403, `${u.name} ${m} ${p}: ${r.text}`);
      assert.is(r.json.message, 'Must be an organization owner');
    }
  }
  assert.is((await env.as(undefined, 'GET', `${base}/variables`)).status, 401);
  assert.is((await env.as(admin, 'GET', `${base}/variables/V`)).status, 200);
  assert.equal(await sql('select name from action_variable where owner_id = ?', [org.id]), [{ name: 'V' }]);
  assert.equal(await sql('select name from action_secret where owner_id = ?', [org.id]), []);

  const priv = await newOrg(env, alice, { visibility: 'private' });
  assert.is((await env.as(carol, 'GET', `/orgs/${priv.name}/actions/variables`)).status, 404);
  assert.is((await env.as(carol, 'GET', `/orgs/${uniq('nobody')}/actions/secrets`)).status, 404);
});

test('user level needs a token; actions unit disabled → 404 on the repository routes', async () => {
  assert.is((await env.as(undefined, 'PUT', '/user/actions/secrets/S', { data: 'x' })).status, 401);
  assert.is((await env.as(undefined, 'GET', '/user/actions/variables')).status, 401);

  const l = await repoLevel();
  assert.is((await env.as(l.manager, 'PUT', `${l.base}/secrets/S`, { data: 'x' })).status, 201);
  const off = await env.as(l.manager, 'PATCH', `/repos/${l.base.split('/').slice(2, 4).join('/')}`, { has_actions: false });
  assert.is(off.status, 200, off.text);
  for (const [m, p, b] of [
    ['GET', `${l.base}/secrets`],
    ['PUT', `${l.base}/secrets/S`, { data: 'y' }],
    ['GET', `${l.base}/variables`],
    ['POST', `${l.base}/variables/V`, { value: 'v' }],
  ] as const) {
    const r = await env.as(env.admin, m, p, b);
    assert.is(r.status, 404, `${m} ${p}: ${r.text}`);
  }
  assert.equal(
    (await secretRows(l)).map((r) => r.name),
    ['S'],
  );
  assert.equal(await variableRows(l), []);
});

test('deleting a repository, an organization or a user drops its secrets and variables', async () => {
  const { alice } = env;
  const dave = await makeUser(env.db, env.srv.api);
  assert.is((await env.as(dave, 'PUT', '/user/actions/secrets/S', { data: 'x' })).status, 201);
  assert.is((await env.as(dave, 'POST', '/user/actions/variables/V', { value: 'x' })).status, 204);
  assert.is((await env.as(env.admin, 'DELETE', `/admin/users/${dave.name}`)).status, 204);
  const repo = await newRepo(env, alice);
  const org = await newOrg(env, alice);
  assert.is((await env.as(alice, 'PUT', `/repos/${repo.full_name}/actions/secrets/S`, { data: 'x' })).status, 201);
  assert.is((await env.as(alice, 'POST', `/repos/${repo.full_name}/actions/variables/V`, { value: 'x' })).status, 204);
  assert.is((await env.as(alice, 'PUT', `/orgs/${org.name}/actions/secrets/S`, { data: 'x' })).status, 201);
  assert.is((await env.as(alice, 'POST', `/orgs/${org.name}/actions/variables/V`, { value: 'x' })).status, 204);
  assert.is((await env.as(alice, 'DELETE', `/repos/${repo.full_name}`)).status, 204);
  assert.is((await env.as(alice, 'DELETE', `/orgs/${org.name}`)).status, 204);
  for (const t of ['action_secret', 'action_variable']) {
    assert.equal(await sql(`select id from ${t} where repo_id = ? or owner_id in (?, ?)`, [repo.id, org.id, dave.id]), [], t);
  }
});

test.run();
