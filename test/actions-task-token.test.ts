// Spec, path resolution rule 4: a request authenticated with an actions task token acts as the
// Actions user, reaches only the task's repository, with write on every enabled unit — or read when
// the task runs for a pull request from a fork.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb, startServer, type TestDb, type TestServer } from './helpers/server.ts';
import { call } from './helpers/client.ts';
import { makeRepo, makeUser, type TestUser } from './helpers/fixtures.ts';
import { ActionTask } from '../model/action-task.ts';
import { hashToken, newSalt, newTokenValue } from '../lib/auth/tokens.ts';

let db: TestDb;
let srv: TestServer;
let alice: TestUser;
let appId = 0;

async function taskToken(repoId: number, isForkPullRequest: boolean, status = 'running'): Promise<string> {
  const value = newTokenValue();
  const salt = newSalt();
  const em = db.db.orm.em.fork();
  em.create(ActionTask, {
    repoId,
    isForkPullRequest,
    status,
    tokenHash: hashToken(value, salt),
    tokenSalt: salt,
    tokenLastEight: value.slice(-8),
  });
  await em.flush();
  return value;
}

test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
  alice = await makeUser(db, srv.api);
  appId = (await makeRepo(srv.api, alice, { name: 'app', private: true, auto_init: true })).id;
  await makeRepo(srv.api, alice, { name: 'other', private: true });
});
test.after(async () => {
  await srv.close();
  await db.close();
});

test('a task token acts as the Actions user on its own repository, with write', async () => {
  const token = await taskToken(appId, false);
  const me = await call(srv.api, 'GET', '/user', { token });
  assert.is(me.json.login, 'forgejo-actions');
  const repo = await call(srv.api, 'GET', `/repos/${alice.name}/app`, { token });
  assert.is(repo.status, 200);
  assert.equal(repo.json.permissions, { admin: false, push: true, pull: true });
  const branch = await call(srv.api, 'POST', `/repos/${alice.name}/app/branches`, { token, body: { new_branch_name: 'from-ci' } });
  assert.is(branch.status, 201);
  // Write is not admin.
  assert.is((await call(srv.api, 'PATCH', `/repos/${alice.name}/app`, { token, body: { description: 'x' } })).status, 403);
});

test('any other repository is 404, even one of the same owner', async () => {
  const token = await taskToken(appId, false);
  assert.is((await call(srv.api, 'GET', `/repos/${alice.name}/other`, { token })).status, 404);
});

test('a task for a fork pull request only reads', async () => {
  const token = await taskToken(appId, true);
  const repo = await call(srv.api, 'GET', `/repos/${alice.name}/app`, { token });
  assert.equal(repo.json.permissions, { admin: false, push: false, pull: true });
  assert.is((await call(srv.api, 'POST', `/repos/${alice.name}/app/branches`, { token, body: { new_branch_name: 'nope' } })).status, 403);
});

test("a finished task's token no longer authenticates", async () => {
  const token = await taskToken(appId, false, 'success');
  assert.is((await call(srv.api, 'GET', `/repos/${alice.name}/app`, { token })).status, 401);
});

test.run();
