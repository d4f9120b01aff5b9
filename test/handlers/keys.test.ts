// SSH and GPG keys over HTTP: parsing, fingerprints, duplicates, ownership, the GPG verification
// token and real signature checks — every JSON answer checked against its schema.
import { generateKeyPairSync } from 'node:crypto';
import sshpk from 'sshpk';
import * as openpgp from 'openpgp';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call, type Call } from '../helpers/client.ts';
import { makeUser, uniq, type TestUser } from '../helpers/fixtures.ts';
import { GpgKey, PublicKey } from '../../model/keys.ts';
import { valid, validOkList } from '../helpers/schema.ts';

let db: TestDb;
let srv: TestServer;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;

const api = (method: string, p: string, o: Call = {}) => call(srv.api, method, p, o);
const as = (u: TestUser | undefined, method: string, p: string, body?: unknown) => api(method, p, { token: u?.token, body });

/** A fresh ed25519 key as an OpenSSH line, with its OpenSSH fingerprint. */
function sshKey(kind: 'ed25519' | 'rsa2048' | 'rsa3072' = 'ed25519') {
  const pair =
    kind === 'ed25519' ? generateKeyPairSync('ed25519') : generateKeyPairSync('rsa', { modulusLength: kind === 'rsa2048' ? 2048 : 3072 });
  const key = sshpk.parseKey(pair.publicKey.export({ type: 'spki', format: 'pem' }) as string, 'pem');
  const line = key.toString('ssh').split(' ').slice(0, 2).join(' ');
  return { line, fingerprint: key.fingerprint('sha256').toString(), pem: pair.publicKey.export({ type: 'spki', format: 'pem' }) as string };
}

async function pgpKey(email: string) {
  const { privateKey, publicKey } = await openpgp.generateKey({
    type: 'ecc',
    curve: 'curve25519Legacy',
    userIDs: [{ name: 'T', email }],
    format: 'armored',
  });
  const priv = await openpgp.readPrivateKey({ armoredKey: privateKey });
  const keyId = priv.getKeyID().toHex().toUpperCase();
  const sign = async (text: string) =>
    (await openpgp.sign({ message: await openpgp.createMessage({ text }), signingKeys: priv, detached: true })) as string;
  return { publicKey, keyId, sign };
}

test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
  admin = await makeUser(db, srv.api, { admin: true });
  alice = await makeUser(db, srv.api);
  bob = await makeUser(db, srv.api);
});
test.after(async () => {
  await srv.close();
  await db.close();
});

test('POST /user/keys: PublicKey shape with SHA256 fingerprint, key_type, read_only, url and owner', async () => {
  const k = sshKey();
  const r = await as(alice, 'POST', '/user/keys', { title: 'laptop', key: `${k.line} alice@laptop` });
  assert.is(r.status, 201, r.text);
  valid('PublicKey', r.json);
  assert.is(r.json.fingerprint, k.fingerprint);
  assert.match(r.json.fingerprint, /^SHA256:/);
  assert.is(r.json.key, `${k.line} alice@laptop`);
  assert.is(r.json.key_type, 'user');
  assert.not.ok('read_only' in r.json, 'read_only is omitempty in api.PublicKey');
  assert.is(r.json.verified, false);
  assert.is(r.json.title, 'laptop');
  assert.is(r.json.url, `${srv.config.appUrl}api/v1/user/keys/${r.json.id}`);
  assert.is(r.json.user.login, alice.name);
  const got = await as(alice, 'GET', `/user/keys/${r.json.id}`);
  valid('PublicKey', got.json);
  assert.is(got.json.fingerprint, k.fingerprint);
  // Anyone's listing shows the key, without the private parts.
  const theirs = await as(bob, 'GET', `/users/${alice.name}/keys`);
  validOkList('PublicKey', theirs);
  assert.is(theirs.json.length, 1);
  assert.is(theirs.json[0].key_type, undefined);
  assert.is(theirs.json[0].user, undefined);
  assert.is(theirs.headers.get('x-total-count'), '1');
  const mine = await as(alice, 'GET', `/user/keys?fingerprint=${encodeURIComponent(k.fingerprint)}`);
  assert.equal(
    mine.json.map((x: { id: number }) => x.id),
    [r.json.id],
  );
  assert.equal((await as(alice, 'GET', '/user/keys?fingerprint=SHA256:nope')).json, []);
});

test('SSH key formats: PEM and RFC 4716 blocks and option prefixes are accepted and normalised', async () => {
  const pem = sshKey();
  const a = await as(bob, 'POST', '/user/keys', { title: uniq('pem'), key: pem.pem });
  assert.is(a.status, 201, a.text);
  assert.is(a.json.key, pem.line);
  const b64 = sshKey();
  const blob = b64.line.split(' ')[1];
  const ssh2 = `---- BEGIN SSH2 PUBLIC KEY ----\nComment: "x"\n${blob.slice(0, 30)}\n${blob.slice(30)}\n---- END SSH2 PUBLIC KEY ----\n`;
  const b = await as(bob, 'POST', '/user/keys', { title: uniq('ssh2'), key: ssh2 });
  assert.is(b.status, 201, b.text);
  assert.is(b.json.fingerprint, b64.fingerprint);
  const opt = sshKey();
  const c = await as(bob, 'POST', '/user/keys', { title: uniq('opt'), key: `no-pty ${opt.line}` });
  assert.is(c.status, 201, c.text);
  assert.is(c.json.key, opt.line);
  const rsa = sshKey('rsa3072');
  assert.is((await as(bob, 'POST', '/user/keys', { title: uniq('rsa'), key: rsa.line })).status, 201);
});

test('bad SSH keys answer 422 and store nothing: garbage, truncated, mismatched type, private, too short RSA', async () => {
  const em = db.db.orm.em.fork();
  const before = await em.count(PublicKey, { ownerId: bob.id });
  const k = sshKey();
  const cases = [
    'hello world',
    'ssh-ed25519 AAAAbad',
    `ssh-rsa ${k.line.split(' ')[1]}`,
    generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    sshKey('rsa2048').line,
  ];
  for (const key of cases) {
    const r = await as(bob, 'POST', '/user/keys', { title: uniq('bad'), key });
    assert.is(r.status, 422, `${key}: ${r.text}`);
  }
  const short = await as(bob, 'POST', '/user/keys', { title: uniq('short'), key: sshKey('rsa2048').line });
  assert.is(short.json.message, 'Invalid key content: key length is not enough: got 2048, needs 3071');
  assert.is(await em.count(PublicKey, { ownerId: bob.id }), before);
  assert.is((await as(bob, 'POST', '/user/keys', { title: 'x' })).status, 422);
});

test('duplicate keys and titles answer 422, as Forgejo', async () => {
  const k = sshKey();
  assert.is((await as(alice, 'POST', '/user/keys', { title: 'dup', key: k.line })).status, 201);
  const same = await as(bob, 'POST', '/user/keys', { title: 'other', key: `${k.line} other-comment` });
  assert.is(same.status, 422);
  assert.is(same.json.message, 'Key content has been used as non-deploy key');
  const title = await as(alice, 'POST', '/user/keys', { title: 'dup', key: sshKey().line });
  assert.is(title.status, 422);
  assert.is(title.json.message, 'Key title has been used');
});

test('DELETE /user/keys/{id}: 404 unknown, 403 for another user (key kept), 204 for the owner', async () => {
  const r = await as(alice, 'POST', '/user/keys', { title: uniq('del'), key: sshKey().line });
  const denied = await as(bob, 'DELETE', `/user/keys/${r.json.id}`);
  assert.is(denied.status, 403);
  assert.is(denied.json.message, 'You do not have access to this key');
  const em = db.db.orm.em.fork();
  assert.is(await em.count(PublicKey, { id: r.json.id }), 1);
  assert.is((await as(alice, 'DELETE', '/user/keys/999999')).status, 404);
  assert.is((await as(alice, 'DELETE', `/user/keys/${r.json.id}`)).status, 204);
  assert.is((await as(alice, 'GET', `/user/keys/${r.json.id}`)).status, 404);
});

test('admin adds and removes a key for a user', async () => {
  const u = await makeUser(db, srv.api);
  const k = sshKey();
  const r = await as(admin, 'POST', `/admin/users/${u.name}/keys`, { title: 'by-admin', key: k.line });
  assert.is(r.status, 201, r.text);
  valid('PublicKey', r.json);
  assert.is(r.json.user.login, u.name);
  assert.equal(
    (await as(u, 'GET', '/user/keys')).json.map((x: { id: number }) => x.id),
    [r.json.id],
  );
  assert.is((await as(u, 'POST', `/admin/users/${u.name}/keys`, { title: 'x', key: sshKey().line })).status, 403);
  assert.is((await as(admin, 'DELETE', `/admin/users/${u.name}/keys/${r.json.id}`)).status, 204);
  assert.equal((await as(u, 'GET', '/user/keys')).json, []);
});

test('GPG: a key whose identity matches an activated address is added unverified, with subkeys', async () => {
  const k = await pgpKey(`${alice.name}@example.com`);
  const r = await as(alice, 'POST', '/user/gpg_keys', { armored_public_key: k.publicKey });
  assert.is(r.status, 201, r.text);
  valid('GPGKey', r.json);
  assert.is(r.json.key_id, k.keyId);
  assert.is(r.json.primary_key_id, '');
  assert.is(r.json.verified, false);
  assert.equal(r.json.emails, [{ email: `${alice.name}@example.com`, verified: true }]);
  assert.is(r.json.can_sign, true);
  assert.is(r.json.subkeys.length, 1);
  assert.is(r.json.subkeys[0].primary_key_id, k.keyId);
  assert.is(r.json.subkeys[0].can_encrypt_comms, true);
  assert.is(r.json.subkeys[0].emails, null);
  assert.is(r.json.expires_at, '0001-01-01T00:00:00Z');
  const list = await as(bob, 'GET', `/users/${alice.name}/gpg_keys`);
  validOkList('GPGKey', list);
  assert.equal(
    list.json.map((x: { key_id: string }) => x.key_id),
    [k.keyId],
  );
  assert.is(list.headers.get('x-total-count'), '1');
  const one = await as(alice, 'GET', `/user/gpg_keys/${r.json.id}`);
  valid('GPGKey', one.json);
  assert.is((await as(bob, 'GET', `/user/gpg_keys/${r.json.id}`)).status, 404);
  const again = await as(alice, 'POST', '/user/gpg_keys', { armored_public_key: k.publicKey });
  assert.is(again.status, 422);
  assert.is(again.json.message, 'A key with the same id already exists');
});

test('GPG: unknown identity needs a signature of the token; a real signature adds it verified', async () => {
  const u = await makeUser(db, srv.api);
  const k = await pgpKey('someone-else@elsewhere.example');
  const tokenRes = await as(u, 'GET', '/user/gpg_key_token');
  assert.is(tokenRes.status, 200);
  assert.ok(tokenRes.headers.get('content-type')?.startsWith('text/plain'));
  const token = tokenRes.text;
  assert.match(token, /^[0-9a-f]{64}$/);
  const noMail = await as(u, 'POST', '/user/gpg_keys', { armored_public_key: k.publicKey });
  assert.is(noMail.status, 404);
  assert.ok(noMail.json.message.endsWith(token));
  const other = await pgpKey('x@y.example');
  const wrongSigner = await as(u, 'POST', '/user/gpg_keys', {
    armored_public_key: k.publicKey,
    armored_signature: await other.sign(token),
  });
  assert.is(wrongSigner.status, 422);
  const wrongText = await as(u, 'POST', '/user/gpg_keys', {
    armored_public_key: k.publicKey,
    armored_signature: await k.sign('not the token'),
  });
  assert.is(wrongText.status, 422);
  assert.is(await db.db.orm.em.fork().count(GpgKey, { ownerId: u.id }), 0);
  const ok = await as(u, 'POST', '/user/gpg_keys', { armored_public_key: k.publicKey, armored_signature: await k.sign(token) });
  assert.is(ok.status, 201, ok.text);
  valid('GPGKey', ok.json);
  assert.is(ok.json.verified, true);
  assert.equal(ok.json.emails, []);
});

test('GPG: POST /user/gpg_key_verify checks a real signature of the token', async () => {
  const u = await makeUser(db, srv.api);
  const k = await pgpKey(`${u.name}@example.com`);
  const added = await as(u, 'POST', '/user/gpg_keys', { armored_public_key: k.publicKey });
  assert.is(added.json.verified, false);
  const token = (await as(u, 'GET', '/user/gpg_key_token')).text;
  const bad = await as(u, 'POST', '/user/gpg_key_verify', { key_id: k.keyId, armored_signature: await k.sign('other text') });
  assert.is(bad.status, 422);
  assert.ok(bad.json.message.startsWith('The provided GPG key, signature and token do not match'));
  assert.is((await as(u, 'GET', `/user/gpg_keys/${added.json.id}`)).json.verified, false);
  assert.is(
    (await as(u, 'POST', '/user/gpg_key_verify', { key_id: 'ABCDEF0123456789', armored_signature: await k.sign(token) })).status,
    404,
  );
  const ok = await as(u, 'POST', '/user/gpg_key_verify', { key_id: k.keyId, armored_signature: await k.sign(token) });
  assert.is(ok.status, 200, ok.text);
  valid('GPGKey', ok.json);
  assert.is(ok.json.verified, true);
  assert.is((await as(u, 'GET', `/user/gpg_keys/${added.json.id}`)).json.verified, true);
});

test('GPG: garbage is 422; delete removes the key and its subkeys', async () => {
  const bad = await as(alice, 'POST', '/user/gpg_keys', { armored_public_key: 'not a key' });
  assert.is(bad.status, 422);
  assert.ok(bad.json.message.startsWith('failed to parse gpg key'));
  const u = await makeUser(db, srv.api);
  const k = await pgpKey(`${u.name}@example.com`);
  const added = await as(u, 'POST', '/user/gpg_keys', { armored_public_key: k.publicKey });
  assert.is((await as(alice, 'DELETE', `/user/gpg_keys/${added.json.id}`)).status, 404);
  assert.is((await as(u, 'DELETE', `/user/gpg_keys/${added.json.id}`)).status, 204);
  assert.equal((await as(u, 'GET', '/user/gpg_keys')).json, []);
  assert.is(await db.db.orm.em.fork().count(GpgKey, { ownerId: u.id }), 0);
  // The same key can be added again once deleted.
  assert.is((await as(u, 'POST', '/user/gpg_keys', { armored_public_key: k.publicKey })).status, 201);
});

test.run();
