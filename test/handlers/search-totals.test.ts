// Repository lists keep their exact total by `repo_search_version` (lib/repos/search.ts,
// migration RepoSearchVersion). Every change of a table or column their conditions read must change
// X-Total-Count to the true count, counted afresh in SQL from the same condition.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestUser } from '../helpers/fixtures.ts';
import { newOrg, newRepo, setup, uniq, type Env } from './repo-setup.ts';
import { searchCondition, type Caller } from '../../lib/repos/search.ts';
import type { IUser } from '../../model/user.ts';
import type { QueryOf } from '../../model/schemas/query.ts';

let env: Env;
let tag: string;

type Query = Record<string, string | number | boolean>;
const sql = <T>(q: string, params: unknown[] = []): Promise<T[]> => env.db.db.orm.em.fork().getConnection().execute(q, params, 'all');

/** What the search's condition matches now, counted in SQL (no memo). */
async function freshCount(u: TestUser | undefined, query: Query): Promise<number> {
  const caller: Caller = { doer: u ? ({ id: u.id } as IUser) : null, siteAdmin: false, token: null };
  const { where } = searchCondition(caller, query as QueryOf<'RepoSearch'>);
  const [{ n }] = await sql<{ n: number }>(`select count(*)::int as n from repository r where ${where.text}`, [...where.values]);
  return n;
}

/** X-Total-Count of the search, asked twice (the second may use the kept total), checked against a fresh count. */
async function total(u: TestUser | undefined, query: Query): Promise<number> {
  const qs = new URLSearchParams(Object.entries({ ...query, limit: 1 }).map(([k, v]) => [k, String(v)]));
  const fresh = await freshCount(u, query);
  for (let i = 0; i < 2; i++) {
    const r = await env.as(u, 'GET', `/repos/search?${qs}`);
    assert.is(r.status, 200, r.text);
    assert.is(r.headers.get('x-total-count'), String(fresh), `${qs}`);
  }
  return fresh;
}

/** The total before and after `change`, both exact, and different. */
async function changes(u: TestUser | undefined, query: Query, change: () => Promise<unknown>, by: number): Promise<void> {
  const before = await total(u, query);
  await change();
  const after = await total(u, query);
  assert.is(after - before, by, `${JSON.stringify(query)}: ${before} → ${after}`);
}

const ok = async (p: Promise<{ status: number; text: string }>) => {
  const r = await p;
  assert.ok(r.status < 300, `${r.status} ${r.text}`);
  return r;
};

test.before(async () => {
  env = await setup();
  tag = uniq('kt').toLowerCase();
});
test.after(async () => {
  await env.close();
});

test('a kept total is used while the version holds: a change made with the triggers off is not seen (what the other tests rely on)', async () => {
  const { alice } = env;
  await newRepo(env, alice, { name: `${tag}-kept` });
  const q = { q: `${tag}-kept` };
  assert.is(await total(alice, q), 1);
  await sql('alter table repository disable trigger repo_search_version_columns');
  try {
    await sql('update repository set lower_name = ? where lower_name = ?', [`${tag}-gone`, `${tag}-kept`]);
    const r = await env.as(alice, 'GET', `/repos/search?q=${tag}-kept&limit=1`);
    assert.is(r.headers.get('x-total-count'), '1', 'the kept total');
    assert.is(await freshCount(alice, q), 0);
  } finally {
    await sql('alter table repository enable trigger repo_search_version_columns');
  }
  await sql('update repository set lower_name = ? where lower_name = ?', [`${tag}-kept`, `${tag}-gone`]);
  await sql('update repository set lower_name = ? where lower_name = ?', [`${tag}-gone`, `${tag}-kept`]);
  assert.is(await total(alice, q), 0);
});

test('repository: created, made private and public again, renamed, described, archived, template, deleted', async () => {
  const { alice, carol } = env;
  const q = { q: `${tag}-r` };
  let repo = { full_name: '', name: '' };
  await changes(
    carol,
    q,
    async () => {
      repo = await newRepo(env, alice, { name: `${tag}-r1`, description: 'plain' });
    },
    1,
  );
  await changes(carol, q, () => ok(env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { private: true })), -1);
  await changes(undefined, q, () => ok(env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { private: false })), 1);
  await changes(
    carol,
    q,
    async () => {
      repo = ((await ok(env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { name: `${tag}-x1` }))) as never as { json: typeof repo }).json;
    },
    -1,
  );
  await changes(
    carol,
    { q: 'wordinthedescription', includeDesc: true },
    () => ok(env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { description: 'a WordInTheDescription' })),
    1,
  );
  await changes(
    carol,
    { q: `${tag}-x`, archived: true },
    () => ok(env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { archived: true })),
    1,
  );
  await changes(
    carol,
    { q: `${tag}-x`, template: true },
    () => ok(env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { template: true })),
    1,
  );
  await changes(carol, { q: `${tag}-x` }, () => ok(env.as(alice, 'DELETE', `/repos/${repo.full_name}`)), -1);
});

test('collaboration: a collaborator added and removed', async () => {
  const { alice, carol } = env;
  const repo = await newRepo(env, alice, { name: `${tag}-c1`, private: true });
  const q = { q: `${tag}-c` };
  await changes(
    carol,
    q,
    () => ok(env.as(alice, 'PUT', `/repos/${repo.full_name}/collaborators/${carol.name}`, { permission: 'read' })),
    1,
  );
  await changes(carol, { uid: carol.id }, () => ok(env.as(alice, 'DELETE', `/repos/${repo.full_name}/collaborators/${carol.name}`)), -1);
});

test('organizations and teams: membership, team repositories, all repositories, visibility', async () => {
  const { bob, carol } = env;
  const org = await newOrg(env, bob, { visibility: 'public' });
  const priv = (
    (await ok(env.as(bob, 'POST', `/orgs/${org.name}/repos`, { name: `${tag}-o1`, private: true }))) as never as { json: { name: string } }
  ).json;
  await ok(env.as(bob, 'POST', `/orgs/${org.name}/repos`, { name: `${tag}-o2` }));
  const team = (
    (await ok(
      env.as(bob, 'POST', `/orgs/${org.name}/teams`, {
        name: 'readers',
        permission: 'read',
        units: ['repo.code'],
        includes_all_repositories: false,
      }),
    )) as never as { json: { id: number } }
  ).json;
  const q = { q: `${tag}-o` };
  await changes(carol, q, () => ok(env.as(bob, 'PUT', `/teams/${team.id}/members/${carol.name}`)), 0);
  await changes(carol, q, () => ok(env.as(bob, 'PUT', `/teams/${team.id}/repos/${org.name}/${priv.name}`)), 1);
  await changes(carol, { team_id: team.id }, () => ok(env.as(bob, 'DELETE', `/teams/${team.id}/repos/${org.name}/${priv.name}`)), -1);
  await changes(
    carol,
    q,
    () => ok(env.as(bob, 'PATCH', `/teams/${team.id}`, { name: 'readers', permission: 'read', includes_all_repositories: true })),
    1,
  );
  await changes(carol, q, () => ok(env.as(bob, 'DELETE', `/teams/${team.id}/members/${carol.name}`)), -1);
  // The organization's visibility: its public repository is hidden from outsiders, not from members.
  await changes(undefined, q, () => ok(env.as(bob, 'PATCH', `/orgs/${org.name}`, { visibility: 'private' })), -1);
  await changes(carol, q, () => ok(env.as(bob, 'PUT', `/teams/${team.id}/members/${carol.name}`)), 2);
  await changes(carol, q, () => sql('delete from team_user where uid = ? and team_id = ?', [carol.id, team.id]), -1);
  await changes(carol, q, () => sql('delete from org_user where uid = ? and org_id = ?', [carol.id, org.id]), -1);
  await changes(carol, q, () => ok(env.as(bob, 'PUT', `/teams/${team.id}/members/${carol.name}`)), 2);
  // Removed from its last team, a member leaves the organization (Forgejo), so both go.
  await changes(carol, q, () => ok(env.as(bob, 'DELETE', `/teams/${team.id}`)), -2);
});

test('transfer: the new owner', async () => {
  const { alice, bob } = env;
  const org = await newOrg(env, alice, {});
  const repo = await newRepo(env, alice, { name: `${tag}-t1` });
  await changes(
    bob,
    { q: `${tag}-t`, uid: alice.id, exclusive: true },
    () => ok(env.as(alice, 'POST', `/repos/${repo.full_name}/transfer`, { new_owner: org.name })),
    -1,
  );
});

test('owners: renamed, made private, deleted', async () => {
  const { admin, carol } = env;
  const { makeUser } = await import('../helpers/fixtures.ts');
  const dave = await makeUser(env.db, env.srv.api);
  await newRepo(env, dave, { name: `${tag}-d1` });
  await newRepo(env, dave, { name: `${tag}-d2` });
  const newName = uniq('dv');
  await changes(
    carol,
    { q: `${newName}/${tag}-d` },
    () => ok(env.as(admin, 'POST', `/admin/users/${dave.name}/rename`, { new_username: newName })),
    2,
  );
  await changes(undefined, { q: `${tag}-d` }, () => ok(env.as(admin, 'PATCH', `/admin/users/${newName}`, { visibility: 'private' })), -2);
  await changes(carol, { q: `${tag}-d` }, () => ok(env.as(admin, 'PATCH', `/admin/users/${newName}`, { visibility: 'limited' })), 2);
  await changes(carol, { q: `${tag}-d` }, () => ok(env.as(admin, 'DELETE', `/admin/users/${newName}?purge=true`)), -2);
});

test('topics and stars', async () => {
  const { alice, bob, carol } = env;
  const repo = await newRepo(env, alice, { name: `${tag}-s1` });
  const topic = `${tag}-topic`;
  await changes(
    carol,
    { q: topic, topic: true },
    () => ok(env.as(alice, 'PUT', `/repos/${repo.full_name}/topics`, { topics: [topic] })),
    1,
  );
  await changes(carol, { q: topic }, () => ok(env.as(alice, 'DELETE', `/repos/${repo.full_name}/topics/${topic}`)), -1);
  await changes(carol, { starredBy: bob.id }, () => ok(env.as(bob, 'PUT', `/user/starred/${repo.full_name}`)), 1);
  await changes(carol, { starredBy: bob.id }, () => ok(env.as(bob, 'DELETE', `/user/starred/${repo.full_name}`)), -1);
});

test('forks: mode=fork', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice, { name: `${tag}-f1`, auto_init: true });
  await changes(bob, { q: `${tag}-f`, mode: 'fork' }, () => ok(env.as(bob, 'POST', `/repos/${repo.full_name}/forks`, {})), 1);
});

test('GET /users/{username}/repos and /user/repos keep exact totals too', async () => {
  const { alice, carol } = env;
  const count = async (u: TestUser, path: string) => Number((await env.as(u, 'GET', path)).headers.get('x-total-count'));
  const before = await count(carol, `/users/${alice.name}/repos`);
  assert.is(await count(carol, `/users/${alice.name}/repos`), before);
  const repo = await newRepo(env, alice, { name: `${tag}-u1` });
  assert.is(await count(carol, `/users/${alice.name}/repos`), before + 1);
  const mine = await count(carol, '/user/repos');
  await ok(env.as(alice, 'PUT', `/repos/${repo.full_name}/collaborators/${carol.name}`, { permission: 'read' }));
  assert.is(await count(carol, '/user/repos'), mine + 1);
  await ok(env.as(alice, 'PATCH', `/repos/${repo.full_name}`, { private: true }));
  assert.is(await count(env.bob, `/users/${alice.name}/repos`), before);
});

test.run();
