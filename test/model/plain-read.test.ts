// Reads that change nothing take the caller and the addressed repository as plain objects
// (model/raw.ts): each must hold what the managed entity holds, property for property, or a GET would answer
// differently from a write that reads the same rows.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call } from '../helpers/client.ts';
import { makeRepo, makeUser, type TestUser } from '../helpers/fixtures.ts';
import { findRepoByName } from '../../lib/repos/repos.ts';
import { findToken } from '../../lib/auth/tokens.ts';
import { Repository } from '../../model/repo.ts';
import { User } from '../../model/user.ts';
import { managedOf } from '../../model/raw.ts';

let db: TestDb;
let srv: TestServer;
let owner: TestUser;

test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
  owner = await makeUser(db, srv.api);
  await makeRepo(srv.api, owner, { name: 'plain', auto_init: true, description: 'd' });
  // Values of every kind a column holds: JSON (topics), a nullable date (archived), a bigint (size).
  const r = await call(srv.api, 'PUT', `/repos/${owner.name}/plain/topics`, { token: owner.token, body: { topics: ['a', 'b'] } });
  assert.is(r.status, 204, r.text);
  const e = await call(srv.api, 'PATCH', `/repos/${owner.name}/plain`, {
    token: owner.token,
    body: { archived: true, website: 'https://example.com' },
  });
  assert.is(e.status, 200, e.text);
});
test.after(async () => {
  await srv.close();
  await db.close();
});

/** Every persisted property of the entity, as the plain object and the entity `em.findOne` gives hold it. */
function sameProperties(className: 'User' | 'Repository', plain: object, managed: object) {
  const meta = db.db.orm.em.getMetadata().get(className);
  for (const p of meta.props) {
    if (p.persist === false) continue;
    const a = (plain as Record<string, unknown>)[p.name];
    const b = (managed as Record<string, unknown>)[p.name];
    assert.equal(a, b, `${meta.className}.${p.name}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    assert.is(a?.constructor, b?.constructor, `${meta.className}.${p.name}: type`);
  }
}

test('a repository and its owner read plain hold what the managed entities hold', async () => {
  const plain = await findRepoByName(db.db.orm.em.fork(), owner.name, 'plain', { plain: true });
  const managed = await findRepoByName(db.db.orm.em.fork(), owner.name, 'plain');
  assert.ok(plain.repo && managed.repo && plain.owner && managed.owner);
  const repo = await db.db.orm.em.fork().findOneOrFail(Repository, { id: plain.repo.id });
  assert.ok(repo.archivedAt instanceof Date && repo.topics.length === 2);
  for (const found of [plain, managed]) {
    sameProperties('Repository', found.repo!, repo);
    sameProperties('User', found.owner!, await db.db.orm.em.fork().findOneOrFail(User, { id: repo.ownerId }));
  }
  assert.equal(plain.units, managed.units);
  assert.is(plain.transferPending, managed.transferPending);
});

test('the user of a token read plain holds what the managed entity holds', async () => {
  const plain = await findToken(db.db.orm.em.fork(), owner.token, { plain: true });
  const managed = await findToken(db.db.orm.em.fork(), owner.token);
  assert.ok(plain.user && managed.user);
  const user = await db.db.orm.em.fork().findOneOrFail(User, { id: plain.user.id });
  sameProperties('User', plain.user, user);
  sameProperties('User', managed.user, user);
});

test('managedOf gives back a managed entity, and refuses a plain row (a change to it would never be written)', async () => {
  const em = db.db.orm.em.fork();
  const managed = await findRepoByName(em, owner.name, 'plain');
  assert.is(managedOf(em, Repository, managed.repo!), managed.repo);
  const plain = await findRepoByName(em, owner.name, 'plain', { plain: true });
  assert.is.not(plain.repo, managed.repo);
  assert.throws(() => managedOf(em, Repository, plain.repo!), /plain row/);
  assert.throws(() => managedOf(db.db.orm.em.fork(), User, plain.owner!), /plain row/);
});

test('a GET answers the repository and the caller as a PATCH that changes nothing does', async () => {
  const get = await call(srv.api, 'GET', `/repos/${owner.name}/plain`, { token: owner.token });
  const patch = await call(srv.api, 'PATCH', `/repos/${owner.name}/plain`, { token: owner.token, body: {} });
  assert.is(get.status, 200);
  assert.is(patch.status, 200);
  // A PATCH may move the update time (to the second in the answer) between the two answers.
  const { updated_at: _g, ...got } = get.json;
  const { updated_at: _p, ...patched } = patch.json;
  assert.equal(got, patched);
  const anon = await call(srv.api, 'GET', `/repos/${owner.name}/plain`);
  assert.is(anon.status, 200);
});

test.run();
