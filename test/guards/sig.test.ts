// SIG (spec, guard table: "ActivityPub HTTP signature verified"; Forgejo's ReqHTTPSignature). A request
// passes only with a draft-cavage signature covering (request-target), host, date (and digest, which
// must match the body, when there is one), made by the key its keyId names. Unknown keys are fetched
// from their actor within the [migrations] allow list and cached. Unsigned: 401; anything that does
// not verify: 403 (Forgejo answers 400; the spec fixes no status).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SIG } from '../../guards/sig.ts';
import type { RequestState } from '../../guards/types.ts';
import { FederatedUser, FederationHost, REMOTE_USER_TYPE } from '../../model/federation.ts';
import { User } from '../../model/user.ts';
import { fakeUser, state, type Given } from './state.ts';
import { openGuardDb, type GuardDb } from './db.ts';
import { newKeys, signedHeaders, startRemote, type RemoteKeys, type RemoteServer } from '../helpers/ap-remote.ts';

const HOST = 'cairn.test';
const PATH = '/activitypub/user-id/1/inbox';
const URL_ = `http://${HOST}/api/v1${PATH}`;
const LOCAL = { MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' };

let db: GuardDb;
let remote: RemoteServer;
let aliceKeys: RemoteKeys;
let alice: { id: string; keyId: string };
test.before(async () => {
  db = await openGuardDb();
  remote = await startRemote();
  aliceKeys = newKeys();
  alice = remote.actor('alice', aliceKeys);
});
test.after(async () => {
  await remote.close();
  await db.close();
});

/** The state of a request to PATH with these headers (and body text), through the real database. */
function request(headers: Record<string, string>, o: { body?: string; given?: Given; db?: boolean } = {}): RequestState {
  const s = state({
    httpMethod: o.body === undefined ? 'GET' : 'POST',
    path: PATH,
    headers,
    em: o.db === false ? undefined : db.em(),
    config: LOCAL,
    ...o.given,
  });
  const withLength = o.body === undefined ? s.headers : { ...s.headers, 'content-length': String(Buffer.byteLength(o.body)) };
  return { ...s, headers: withLength, requestUri: `/api/v1${PATH}`, readBody: async () => ({ value: undefined, text: o.body }) };
}
const sign = (keys: RemoteKeys, keyId: string, extra: Partial<Parameters<typeof signedHeaders>[0]> = {}) =>
  signedHeaders({ keyId, privateKeyPem: keys.privateKeyPem, method: 'GET', url: URL_, ...extra });

async function outcome(s: RequestState) {
  return SIG.run(s);
}
const refused = (out: Awaited<ReturnType<typeof outcome>>, status: number, what: string) => {
  assert.ok(out, `${what}: expected ${status}, the step passed`);
  assert.is(out.status, status, `${what}: ${JSON.stringify(out)}`);
};

test('SIG: no signature is 401 for anyone, without touching the database', async () => {
  for (const doer of [null, fakeUser(), fakeUser({ isAdmin: true })])
    refused(await outcome(request({}, { db: false, given: { doer } })), 401, `doer ${doer?.name}`);
});

test('SIG: signatures refused before any key is looked up (403, no database, no fetch)', async () => {
  const good = sign(aliceKeys, alice.keyId);
  const body = '{"type":"Like"}';
  const cases: [string, Record<string, string>, string?][] = [
    ['malformed header', { ...good, signature: 'not a signature' }],
    ['unsupported algorithm', sign(aliceKeys, alice.keyId, { algorithm: 'hmac-sha256' })],
    ['(request-target) not covered', sign(aliceKeys, alice.keyId, { headers: ['host', 'date'] })],
    ['date not covered', sign(aliceKeys, alice.keyId, { headers: ['(request-target)', 'host'] })],
    ['date 13 hours old', sign(aliceKeys, alice.keyId, { date: new Date(Date.now() - 13 * 3600e3) })],
    ['body without a digest', sign(aliceKeys, alice.keyId, { method: 'POST', headers: ['(request-target)', 'host', 'date'] }), body],
  ];
  const before = remote.seen.length;
  for (const [name, headers, b] of cases) refused(await outcome(request(headers, { db: false, body: b })), 403, name);
  assert.is(remote.seen.length, before, 'no remote fetch');
});

test('SIG: the body is read only once the signature verifies; a Digest of another body is 403', async () => {
  const body = '{"type":"Like"}';
  let reads = 0;
  const counted = (headers: Record<string, string>) => {
    const s = request(headers, { body });
    return {
      ...s,
      readBody: async () => {
        reads++;
        return s.readBody();
      },
    };
  };
  const forged = sign(newKeys(), alice.keyId, { method: 'POST', body });
  refused(await outcome(counted(forged)), 403, 'signed with another key');
  assert.is(reads, 0, 'a signature that does not verify reads no body');
  refused(
    await outcome(counted(sign(aliceKeys, alice.keyId, { method: 'POST', body: '{"type":"Follow"}' }))),
    403,
    'digest of another body',
  );
  assert.is(reads, 1);
  assert.is(await outcome(counted(sign(aliceKeys, alice.keyId, { method: 'POST', body }))), null);
});

test("SIG: a person's valid signature passes; the person and its key are stored", async () => {
  assert.is(await outcome(request(sign(aliceKeys, alice.keyId))), null);
  const em = db.em();
  const fu = await em.findOneOrFail(FederatedUser, { externalId: alice.id });
  assert.is(fu.keyId, alice.keyId);
  assert.is(fu.publicKeyPem, aliceKeys.publicKeyPem);
  assert.is(fu.inboxUrl, `${alice.id}/inbox`);
  const standIn = await em.findOneOrFail(User, { id: fu.userId });
  assert.is(standIn.type, REMOTE_USER_TYPE);
  assert.is(standIn.prohibitLogin, true);
  assert.match(standIn.name, /^alice-127\.0\.0\.1-\d+$/);
  // cairn fetched the actor with a signed GET by its instance actor.
  const fetched = remote.seen.find((r) => r.path === '/users/alice');
  assert.ok(fetched?.headers.signature?.includes('/api/v1/activitypub/actor#main-key'), JSON.stringify(fetched?.headers));
});

test('SIG: a POST whose digest matches its body passes', async () => {
  const body = JSON.stringify({ type: 'Like', actor: alice.id });
  assert.is(await outcome(request(sign(aliceKeys, alice.keyId, { method: 'POST', body }), { body })), null);
});

test('SIG: a cached key verifies without asking the remote again', async () => {
  await outcome(request(sign(aliceKeys, alice.keyId)));
  const before = remote.seen.length;
  assert.is(await outcome(request(sign(aliceKeys, alice.keyId))), null);
  assert.is(remote.seen.length, before);
});

test('SIG: forged signatures are 403', async () => {
  const other = newKeys();
  refused(await outcome(request(sign(other, alice.keyId))), 403, "signed with another key under alice's keyId");
  refused(
    await outcome(request(sign(aliceKeys, alice.keyId, { url: `http://${HOST}/api/v1/activitypub/user-id/2/inbox` }))),
    403,
    'signed for another path',
  );
  refused(await outcome(request({ ...sign(aliceKeys, alice.keyId), host: 'elsewhere.test' })), 403, 'signed for another host');
  refused(await outcome(request(sign(aliceKeys, `${remote.base}/users/nobody#main-key`))), 403, 'keyId of an actor that does not exist');
  refused(await outcome(request(sign(aliceKeys, 'not a url'))), 403, 'keyId that is no URL');
});

test('SIG: a rotated key is read again from the actor', async () => {
  const keys = newKeys();
  const carol = remote.actor('carol', keys);
  assert.is(await outcome(request(sign(keys, carol.keyId))), null);
  const rotated = newKeys();
  remote.actor('carol', rotated);
  assert.is(await outcome(request(sign(rotated, carol.keyId))), null);
  assert.is((await db.em().findOneOrFail(FederatedUser, { externalId: carol.id })).publicKeyPem, rotated.publicKeyPem);
  refused(await outcome(request(sign(keys, carol.keyId))), 403, 'the old key no longer verifies');
});

test('SIG: an instance actor (Application) may sign; its key is kept on its host', async () => {
  const keys = newKeys();
  const inst = remote.actor('instance', keys, 'Application');
  assert.is(await outcome(request(sign(keys, inst.keyId))), null);
  const host = await db.em().findOneOrFail(FederationHost, { keyId: inst.keyId });
  assert.is(host.publicKeyPem, keys.publicKeyPem);
});

test('SIG: a keyId on a host the migration allow list refuses is 403 and is not fetched', async () => {
  const keys = newKeys();
  const dave = remote.actor('dave', keys);
  const before = remote.seen.length;
  refused(await outcome(request(sign(keys, dave.keyId), { given: { config: {} } })), 403, 'loopback without ALLOW_LOCALNETWORKS');
  refused(
    await outcome(request(sign(keys, dave.keyId), { given: { config: { ...LOCAL, MIGRATIONS__BLOCKED_DOMAINS: '127.0.0.1' } } })),
    403,
    'blocked host',
  );
  assert.is(remote.seen.length, before);
  assert.is(await db.em().count(FederatedUser, { externalId: dave.id }), 0);
});

test.run();
