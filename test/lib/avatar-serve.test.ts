// The /avatars/<hash> middleware on a real HTTP server: stored uploads, generated defaults, 404s.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../config.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveAvatars, identicon } from '../../lib/users/avatar-serve.ts';
import { imageInfo, storeAvatar } from '../../lib/users/avatar-store.ts';
import { avatarUrl } from '../../lib/users/api/user.ts';

const dataPath = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-avatar-'));
const cfg = loadConfig({}, { SERVER__APP_DATA_PATH: dataPath });
let server: http.Server;
let base = '';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

test.before(async () => {
  const app = new Koa();
  app.use(serveAvatars(cfg));
  app.use(async (ctx) => {
    ctx.status = 418;
    ctx.body = 'next';
  });
  server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(dataPath, { recursive: true, force: true });
});

test('an uploaded avatar is served as stored, with its image type', async () => {
  const hash = await storeAvatar(cfg, 7, PNG);
  const r = await fetch(`${base}/avatars/${hash}`);
  assert.is(r.status, 200);
  assert.is(r.headers.get('content-type'), 'image/png');
  assert.ok(Buffer.from(await r.arrayBuffer()).equals(PNG));
});

test('the generated default avatar of a user is a real PNG, the same every time', async () => {
  const url = new URL(avatarUrl(cfg, { id: 3, avatar: '', lowerName: 'someone' }));
  const a = Buffer.from(await (await fetch(`${base}${url.pathname}`)).arrayBuffer());
  const info = imageInfo(a);
  assert.is(info?.type, 'png');
  assert.is(info?.width, 290);
  assert.ok(a.equals(identicon(url.pathname.split('/').pop()!)));
});

test('a repository avatar is served from repo-avatars/; unknown or malformed hashes are 404', async () => {
  const hash = 'c'.repeat(64);
  fs.mkdirSync(path.join(dataPath, 'repo-avatars'), { recursive: true });
  fs.writeFileSync(path.join(dataPath, 'repo-avatars', hash), PNG);
  const r = await fetch(`${base}/repo-avatars/${hash}`);
  assert.is(r.status, 200);
  assert.is(r.headers.get('content-type'), 'image/png');
  assert.ok(Buffer.from(await r.arrayBuffer()).equals(PNG));
  assert.is((await fetch(`${base}/repo-avatars/${'d'.repeat(64)}`)).status, 404);
  assert.is((await fetch(`${base}/repo-avatars/${'b'.repeat(32)}`)).status, 404, 'no generated default');
  assert.is((await fetch(`${base}/repo-avatars/%2e%2e%2fsecret_key`)).status, 404);
});

test('unknown hashes are 404 and other paths pass through', async () => {
  assert.is((await fetch(`${base}/avatars/${'a'.repeat(64)}`)).status, 404);
  assert.is((await fetch(`${base}/avatars/%2e%2e%2fsecret_key`)).status, 404);
  assert.is((await fetch(`${base}/api/v1/version`)).status, 418);
  assert.is((await fetch(`${base}/avatars/${'b'.repeat(32)}`, { method: 'POST' })).status, 418);
});

test.run();
