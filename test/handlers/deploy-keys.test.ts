// Deploy keys of a repository: repository admins manage them; shapes follow Forgejo's DeployKey.
import { generateKeyPairSync } from 'node:crypto';
import sshpk from 'sshpk';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call } from '../helpers/client.ts';
import { makeRepo, makeUser, type TestUser } from '../helpers/fixtures.ts';
import { ApiSchemas } from '../../model/schemas/index.ts';
import { validateResponse } from '../../model/schemas/validate.ts';

let db: TestDb;
let srv: TestServer;
let alice: TestUser;
let bob: TestUser;
const sshKey = () =>
  sshpk.parseKey(generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }), 'pem').toString('ssh');

test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
  alice = await makeUser(db, srv.api);
  bob = await makeUser(db, srv.api);
  await makeRepo(srv.api, alice, { name: 'app' });
});
test.after(async () => {
  await srv.close();
  await db.close();
});

test('add, list, get and delete a deploy key', async () => {
  const key = sshKey();
  const created = await call(srv.api, 'POST', `/repos/${alice.name}/app/keys`, {
    token: alice.token,
    body: { title: 'ci', key, read_only: true },
  });
  assert.is(created.status, 201);
  assert.ok(validateResponse(ApiSchemas.DeployKey, created.json).ok);
  assert.is(created.json.read_only, true);
  assert.match(created.json.fingerprint, /^SHA256:/);
  assert.is(created.json.repository.full_name, `${alice.name}/app`);
  const list = await call(srv.api, 'GET', `/repos/${alice.name}/app/keys`, { token: alice.token });
  assert.is(list.json.length, 1);
  assert.is(list.headers.get('x-total-count'), '1');
  assert.is((await call(srv.api, 'GET', `/repos/${alice.name}/app/keys/${created.json.id}`, { token: alice.token })).json.title, 'ci');
  const again = await call(srv.api, 'POST', `/repos/${alice.name}/app/keys`, { token: alice.token, body: { title: 'other', key } });
  assert.is(again.status, 422);
  assert.is((await call(srv.api, 'DELETE', `/repos/${alice.name}/app/keys/${created.json.id}`, { token: alice.token })).status, 204);
  assert.is((await call(srv.api, 'GET', `/repos/${alice.name}/app/keys/${created.json.id}`, { token: alice.token })).status, 404);
});

test('bad keys are 422 and nothing is stored; non-admins get 403', async () => {
  const bad = await call(srv.api, 'POST', `/repos/${alice.name}/app/keys`, {
    token: alice.token,
    body: { title: 'bad', key: 'ssh-ed25519 AAAAnotakey' },
  });
  assert.is(bad.status, 422);
  const missing = await call(srv.api, 'POST', `/repos/${alice.name}/app/keys`, { token: alice.token, body: { title: 'x' } });
  assert.is(missing.json.message, '[Key]: Required');
  const outsider = await call(srv.api, 'POST', `/repos/${alice.name}/app/keys`, { token: bob.token, body: { title: 'x', key: sshKey() } });
  assert.is(outsider.status, 403);
  assert.is((await call(srv.api, 'GET', `/repos/${alice.name}/app/keys`, { token: alice.token })).json.length, 0);
});

test.run();
