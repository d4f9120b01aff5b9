// A body over [api] MAX_BODY_SIZE is 413 in Forgejo's error shape; a body
// is read only when the row's chain reaches BODY, so a caller turned away before (here: anonymous on
// a TOK route) is answered without the body being waited for, and the connection is closed rather
// than drained when much of it is still to come.
import http from 'node:http';
import net from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Repository } from '../../model/repo.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { call } from '../helpers/client.ts';
import { makeUser, uniq, type TestUser } from '../helpers/fixtures.ts';
import { setup, valid, type Env } from '../handlers/repo-setup.ts';

let env: Env;
let small: TestServer;
let user: TestUser;
const MiB = 1024 * 1024;

test.before(async () => {
  env = await setup();
  small = await startServer(env.db, { API__MAX_BODY_SIZE: '1' });
  user = await makeUser(env.db, small.api);
});
test.after(async () => {
  await small.close();
  await env.close();
});

test('a JSON, text or form body over [api] MAX_BODY_SIZE is 413 in the error shape; nothing is created', async () => {
  const name = uniq('big');
  const json = JSON.stringify({ name, description: 'x'.repeat(2 * MiB) });
  const cases: [string, string, string][] = [
    ['/user/repos', 'application/json', json],
    ['/markdown/raw', 'text/plain', 'x'.repeat(2 * MiB)],
    ['/user/repos', 'application/x-www-form-urlencoded', `name=${name}&description=${'x'.repeat(2 * MiB)}`],
  ];
  for (const [path, type, body] of cases) {
    const r = await call(small.api, 'POST', path, { token: user.token, body, headers: { 'Content-Type': type } });
    assert.is(r.status, 413, `${type}: ${r.text.slice(0, 200)}`);
    valid('APIError', r.json);
    assert.is(r.json.message, 'request entity too large');
  }
  assert.is(await env.db.db.orm.em.fork().count(Repository, { lowerName: name.toLowerCase() }), 0);
  const fits = await call(small.api, 'POST', '/user/repos', { token: user.token, body: { name, description: 'x'.repeat(1000) } });
  assert.is(fits.status, 201, fits.text);
});

/** Sends the head of a request and `sent` bytes of a body declared `length` long; resolves with the answer. */
function partialPost(
  base: string,
  path: string,
  length: number,
  sent: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${path}`,
      { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': String(length), ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('no answer while the body was still to come')));
    req.write(Buffer.alloc(sent, 0x20));
    // The rest of the body is never sent: an answer proves that nobody waited for it.
  });
}

test('anonymous on a TOK route: 401 before the body arrives, and the connection is closed', async () => {
  const r = await partialPost(env.srv.api, '/user/repos', 15 * MiB, 64 * 1024);
  assert.is(r.status, 401, r.text);
  assert.is(r.headers.connection, 'close');
  assert.is(JSON.parse(r.text).message, 'token is required');
});

test('bad credentials and unknown routes answer without waiting for the body', async () => {
  const bad = await partialPost(env.srv.api, '/user/repos', 15 * MiB, 1024, {
    Authorization: 'token 0123456789abcdef0123456789abcdef01234567',
  });
  assert.is(bad.status, 401, bad.text);
  const missing = await partialPost(env.srv.api, `/repos/${uniq('nobody')}/x/issues`, 15 * MiB, 1024, {
    Authorization: `token ${env.alice.token}`,
  });
  assert.is(missing.status, 404, missing.text);
  const over = await partialPost(small.api, '/user/repos', 15 * MiB, 1024, { Authorization: `token ${user.token}` });
  assert.is(over.status, 413, 'a declared length over the cap is refused before reading');
  assert.is(over.headers.connection, 'close');
});

test('a small unread body keeps the connection: the next request on it is answered', async () => {
  const sock = net.connect(Number(new URL(env.srv.url).port), '127.0.0.1');
  await new Promise<void>((resolve) => sock.once('connect', () => resolve()));
  let got = '';
  sock.setEncoding('utf8');
  sock.on('data', (d: string) => {
    got += d;
  });
  const body = JSON.stringify({ name: 'x' });
  const head = (path: string) =>
    `POST /api/v1${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  sock.write(head('/user/repos') + head('/user/repos'));
  for (let i = 0; i < 100 && (got.match(/HTTP\/1\.1 401/g) ?? []).length < 2; i++) await new Promise((r) => setTimeout(r, 20));
  sock.destroy();
  assert.is((got.match(/HTTP\/1\.1 401/g) ?? []).length, 2, got);
  assert.not.match(got, /Connection: close/i);
});

test.run();
