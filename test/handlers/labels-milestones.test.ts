// Repository labels and milestones (Forgejo's routers/api/v1/repo/{label,milestone}.go).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRepo, setup, type Env } from './repo-setup.ts';
import { valid, validOkList } from '../helpers/schema.ts';

let env: Env;
test.before(async () => {
  env = await setup();
});
test.after(async () => {
  await env.close();
});

test('labels: create (colour normalised, no # on the wire), get by id and name, list with paging, edit, delete', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const base = `/repos/${repo.full_name}/labels`;
  const a = await env.as(alice, 'POST', base, { name: 'bug', color: '#F00', description: 'broken', exclusive: true });
  assert.is(a.status, 201, a.text);
  valid('Label', a.json);
  assert.equal(
    { ...a.json, id: 0 },
    {
      id: 0,
      name: 'bug',
      exclusive: true,
      is_archived: false,
      color: 'FF0000',
      description: 'broken',
      url: `${env.srv.api}${base}/${a.json.id}`,
    },
  );
  const dup = await env.as(alice, 'POST', base, { name: 'bug', color: 'abcdef' });
  assert.is(dup.status, 201, 'repository labels may share a name');
  assert.is(dup.json.color, 'abcdef');
  await env.as(alice, 'POST', base, { name: 'aaa', color: '123456' });

  const got = await env.as(alice, 'GET', `${base}/${a.json.id}`);
  assert.is(got.status, 200);
  valid('Label', got.json);
  assert.equal(got.json, a.json);
  assert.is((await env.as(alice, 'GET', `${base}/aaa`)).json.name, 'aaa');

  const page = await env.as(alice, 'GET', `${base}?limit=2&page=1`);
  validOkList('Label', page);
  assert.equal(
    page.json.map((l: any) => l.name),
    ['aaa', 'bug'],
  );
  assert.is(page.headers.get('x-total-count'), '3');
  assert.match(page.headers.get('link') ?? '', 'rel="next"');

  const ed = await env.as(alice, 'PATCH', `${base}/${a.json.id}`, { name: 'defect', color: '00aabb', is_archived: true });
  assert.is(ed.status, 200, ed.text);
  valid('Label', ed.json);
  assert.equal(
    [ed.json.name, ed.json.color, ed.json.is_archived, ed.json.description, ed.json.exclusive],
    ['defect', '00aabb', true, 'broken', true],
  );
  assert.is((await env.as(alice, 'GET', `${base}/${a.json.id}`)).json.name, 'defect');

  assert.is((await env.as(alice, 'DELETE', `${base}/${a.json.id}`)).status, 204);
  assert.is((await env.as(alice, 'GET', `${base}/${a.json.id}`)).status, 404);
  assert.is((await env.as(alice, 'GET', base)).headers.get('x-total-count'), '2');
});

test('labels: 422 on a bad colour or a missing/empty name; nothing is written', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const base = `/repos/${repo.full_name}/labels`;
  for (const body of [
    { name: 'x', color: 'zzzzzz' },
    { name: 'x', color: '#12345' },
    { color: '#123456' },
    { name: '', color: '#123456' },
    { name: '  ', color: '#123456' },
  ]) {
    const r = await env.as(alice, 'POST', base, body);
    assert.is(r.status, 422, JSON.stringify(body) + r.text);
  }
  assert.is((await env.as(alice, 'GET', base)).headers.get('x-total-count'), '0');
  const ok = await env.as(alice, 'POST', base, { name: 'keep', color: '111111' });
  assert.is((await env.as(alice, 'PATCH', `${base}/${ok.json.id}`, { color: 'nothex' })).status, 422);
  assert.is((await env.as(alice, 'PATCH', `${base}/${ok.json.id}`, { name: '' })).status, 422);
  const after = await env.as(alice, 'GET', `${base}/${ok.json.id}`);
  assert.equal([after.json.name, after.json.color], ['keep', '111111']);
});

test("labels: another repository's label id is 404 for GET/PATCH; DELETE answers 204 and leaves it", async () => {
  const { alice } = env;
  const mine = await newRepo(env, alice);
  const other = await newRepo(env, alice);
  const foreign = await env.as(alice, 'POST', `/repos/${other.full_name}/labels`, { name: 'theirs', color: '222222' });
  const path = `/repos/${mine.full_name}/labels/${foreign.json.id}`;
  assert.is((await env.as(alice, 'GET', path)).status, 404);
  assert.is((await env.as(alice, 'PATCH', path, { name: 'stolen' })).status, 404);
  assert.is((await env.as(alice, 'GET', `/repos/${mine.full_name}/labels/999999`)).status, 404);
  assert.is((await env.as(alice, 'PATCH', `/repos/${mine.full_name}/labels/theirs`, { name: 'x' })).status, 404);
  assert.is((await env.as(alice, 'DELETE', path)).status, 204);
  const still = await env.as(alice, 'GET', `/repos/${other.full_name}/labels/${foreign.json.id}`);
  assert.is(still.status, 200);
  assert.is(still.json.name, 'theirs');
});

test('milestones: create (open and closed), Forgejo shape, list by state and name, get by id and name', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const base = `/repos/${repo.full_name}/milestones`;
  const v1 = await env.as(alice, 'POST', base, { title: 'v1.0', description: 'first', due_on: '2030-01-02T03:04:05Z' });
  assert.is(v1.status, 201, v1.text);
  valid('Milestone', v1.json);
  assert.equal(
    [v1.json.title, v1.json.description, v1.json.state, v1.json.open_issues, v1.json.closed_issues, v1.json.due_on, v1.json.closed_at],
    ['v1.0', 'first', 'open', 0, 0, '2030-01-02T03:04:05Z', null],
  );
  assert.match(v1.json.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  const v2 = await env.as(alice, 'POST', base, { title: 'V2-later' });
  assert.is(v2.json.due_on, null);
  const old = await env.as(alice, 'POST', base, { title: 'v0.9', state: 'closed' });
  valid('Milestone', old.json);
  assert.is(old.json.state, 'closed');
  assert.type(old.json.closed_at, 'string');

  const open = await env.as(alice, 'GET', base);
  validOkList('Milestone', open);
  assert.equal(
    open.json.map((m: any) => m.title),
    ['v1.0', 'V2-later'],
  );
  assert.is(open.headers.get('x-total-count'), '2');
  assert.equal(
    (await env.as(alice, 'GET', `${base}?state=closed`)).json.map((m: any) => m.title),
    ['v0.9'],
  );
  const all = await env.as(alice, 'GET', `${base}?state=all&limit=2`);
  assert.is(all.headers.get('x-total-count'), '3');
  assert.is(all.json.length, 2);
  assert.match(all.headers.get('link') ?? '', 'rel="next"');
  assert.equal(
    (await env.as(alice, 'GET', `${base}?state=all&name=v2`)).json.map((m: any) => m.title),
    ['V2-later'],
  );
  assert.equal((await env.as(alice, 'GET', `${base}?name=%25`)).json, []);

  const byId = await env.as(alice, 'GET', `${base}/${v1.json.id}`);
  assert.is(byId.status, 200);
  valid('Milestone', byId.json);
  assert.equal(byId.json, v1.json);
  assert.is((await env.as(alice, 'GET', `${base}/V2-later`)).json.id, v2.json.id);
  assert.is((await env.as(alice, 'GET', `${base}/nope`)).status, 404);
});

test('milestones: PATCH closes and reopens (closed_at), edits fields; DELETE by name; 422 on missing title', async () => {
  const { alice } = env;
  const repo = await newRepo(env, alice);
  const base = `/repos/${repo.full_name}/milestones`;
  const m = await env.as(alice, 'POST', base, { title: 'm1' });
  const closed = await env.as(alice, 'PATCH', `${base}/${m.json.id}`, {
    state: 'closed',
    title: 'm1-final',
    due_on: '2031-05-06T00:00:00Z',
  });
  assert.is(closed.status, 200, closed.text);
  valid('Milestone', closed.json);
  assert.equal(
    [closed.json.state, closed.json.title, closed.json.due_on, closed.json.description],
    ['closed', 'm1-final', '2031-05-06T00:00:00Z', ''],
  );
  assert.type(closed.json.closed_at, 'string');
  const reopened = await env.as(alice, 'PATCH', `${base}/m1-final`, { state: 'open', title: '' });
  assert.equal([reopened.json.state, reopened.json.closed_at, reopened.json.title], ['open', null, 'm1-final']);

  for (const body of [{}, { title: '' }, { title: 'x', due_on: 'not a date' }]) {
    assert.is((await env.as(alice, 'POST', base, body)).status, 422, JSON.stringify(body));
  }
  assert.is((await env.as(alice, 'GET', `${base}?state=all`)).headers.get('x-total-count'), '1');

  assert.is((await env.as(alice, 'DELETE', `${base}/m1-final`)).status, 204);
  assert.is((await env.as(alice, 'GET', `${base}/${m.json.id}`)).status, 404);
  assert.is((await env.as(alice, 'DELETE', `${base}/${m.json.id}`)).status, 404);
});

test("milestones: another repository's milestone is 404 by id and by name; nothing changes", async () => {
  const { alice } = env;
  const mine = await newRepo(env, alice);
  const other = await newRepo(env, alice);
  const foreign = await env.as(alice, 'POST', `/repos/${other.full_name}/milestones`, { title: 'theirs' });
  for (const id of [foreign.json.id, 'theirs']) {
    const path = `/repos/${mine.full_name}/milestones/${id}`;
    assert.is((await env.as(alice, 'GET', path)).status, 404);
    assert.is((await env.as(alice, 'PATCH', path, { state: 'closed' })).status, 404);
    assert.is((await env.as(alice, 'DELETE', path)).status, 404);
  }
  const still = await env.as(alice, 'GET', `/repos/${other.full_name}/milestones/${foreign.json.id}`);
  assert.equal([still.status, still.json.state], [200, 'open']);
});

test('a reader may list and get but gets 403 on every write; nothing changes', async () => {
  const { alice, bob } = env;
  const repo = await newRepo(env, alice, { private: true });
  assert.is((await env.as(alice, 'PUT', `/repos/${repo.full_name}/collaborators/${bob.name}`, { permission: 'read' })).status, 204);
  const lbl = await env.as(alice, 'POST', `/repos/${repo.full_name}/labels`, { name: 'l', color: '333333' });
  const ms = await env.as(alice, 'POST', `/repos/${repo.full_name}/milestones`, { title: 'm' });
  const L = `/repos/${repo.full_name}/labels`;
  const M = `/repos/${repo.full_name}/milestones`;
  validOkList('Label', await env.as(bob, 'GET', L));
  assert.is((await env.as(bob, 'GET', `${M}/${ms.json.id}`)).status, 200);
  const writes: Array<[string, string, unknown]> = [
    ['POST', L, { name: 'n', color: '444444' }],
    ['PATCH', `${L}/${lbl.json.id}`, { name: 'n' }],
    ['DELETE', `${L}/${lbl.json.id}`, undefined],
    ['POST', M, { title: 'n' }],
    ['PATCH', `${M}/${ms.json.id}`, { state: 'closed' }],
    ['DELETE', `${M}/${ms.json.id}`, undefined],
  ];
  for (const [method, path, body] of writes) assert.is((await env.as(bob, method, path, body)).status, 403, `${method} ${path}`);
  assert.equal(
    (await env.as(alice, 'GET', L)).json.map((l: any) => l.name),
    ['l'],
  );
  const m = await env.as(alice, 'GET', `${M}?state=all`);
  assert.equal(
    m.json.map((x: any) => [x.title, x.state]),
    [['m', 'open']],
  );
  assert.is((await env.as(env.carol, 'GET', L)).status, 404);
});

test.run();
