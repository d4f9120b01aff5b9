// Swagger UI at /api/swagger (Forgejo's path): swagger-ui-dist's files served by
// cairn itself from a fixed list, and the UI driven in a real browser (Debian's chromium through
// playwright-core): it lists the operations, "Try it out" on GET /version answers 200, and a token
// given to "Authorize" is sent.
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chromium, type Browser, type Page } from 'playwright-core';
import { openTestDb, startServer, type TestDb, type TestServer } from '../helpers/server.ts';
import { call } from '../helpers/client.ts';
import { makeUser, type TestUser } from '../helpers/fixtures.ts';
import { requireTools } from '../helpers/tools.ts';

requireTools('chromium');

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TIMEOUT = 30_000;

let db: TestDb;
let srv: TestServer;
let user: TestUser;
let browser: Browser | null = null;
test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
  user = await makeUser(db, srv.api);
});
test.after(async () => {
  await browser?.close();
  await srv.close();
  await db.close();
});

/** A second server with other settings, closed even when an assertion fails (or the process would not end). */
async function withServer(overrides: Record<string, string>, fn: (s: TestServer) => Promise<void>): Promise<void> {
  const s = await startServer(db, overrides);
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

/** A GET whose path is sent exactly as written (fetch would resolve `..` before sending). */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path, headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The asset URLs the page loads (stylesheet, icons, script), in page order. */
function assetUrls(html: string): string[] {
  return [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]).filter((u) => u.includes('/api/swagger/ui/'));
}

const TYPES: Record<string, string> = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8', png: 'image/png' };

test('GET /api/swagger is an HTML page that loads Swagger UI from this server, over /swagger.v1.json', async () => {
  const page = await call(srv.url, 'GET', '/api/swagger');
  assert.is(page.status, 200);
  assert.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.ok(page.text.includes('"/swagger.v1.json"'));
  const assets = assetUrls(page.text);
  assert.equal(assets.map((a) => a.split('/').pop()).sort(), [
    'favicon-16x16.png',
    'favicon-32x32.png',
    'swagger-ui-bundle.js',
    'swagger-ui.css',
  ]);
  assert.not.match(page.text, /https?:\/\//, 'nothing is loaded from another site');
});

test('each asset answers 200 with its content type and a year of caching; HEAD too', async () => {
  const assets = assetUrls((await call(srv.url, 'GET', '/api/swagger')).text);
  for (const a of assets) {
    const r = await rawGet(srv.url, a);
    assert.is(r.status, 200, a);
    assert.is(r.headers['content-type'], TYPES[a.split('.').pop()!], a);
    assert.is(r.headers['cache-control'], 'public, max-age=31536000, immutable', a);
    assert.ok(r.body.length > 500, a);
    const head = await rawGet(srv.url, a, {}, 'HEAD');
    assert.is(head.status, 200, a);
    assert.is(head.headers['content-length'], String(r.body.length), a);
  }
  const bundle = assets.find((a) => a.endsWith('/swagger-ui-bundle.js'))!;
  const plain = await rawGet(srv.url, bundle);
  assert.ok(plain.body.toString('utf8').includes('SwaggerUIBundle'));
  const zipped = await rawGet(srv.url, bundle, { 'Accept-Encoding': 'gzip, deflate, br' });
  assert.is(zipped.headers['content-encoding'], 'gzip');
  assert.is(zipped.headers.vary, 'Accept-Encoding');
  assert.ok(zipped.body.length < plain.body.length / 3);
  assert.ok(gunzipSync(zipped.body).equals(plain.body));
});

test('unknown asset names, other versions and `..` paths are 404', async () => {
  const assets = assetUrls((await call(srv.url, 'GET', '/api/swagger')).text);
  const dir = assets[0].slice(0, assets[0].lastIndexOf('/') + 1);
  const paths = [
    `${dir}index.html`,
    `${dir}package.json`,
    `${dir}swagger-ui-bundle.js.map`,
    `${dir}`,
    `${dir}SWAGGER-UI.CSS`,
    `${dir}../package.json`,
    `${dir}..%2fpackage.json`,
    `${dir}%2e%2e/package.json`,
    `${dir}../../../../../../etc/passwd`,
    `${dir}./swagger-ui.css`,
    `${dir}swagger-ui.css/`,
    `/api/swagger/ui/0.0.1/swagger-ui.css`,
    '/api/swagger/ui/swagger-ui.css',
    '/api/swagger/ui/../../package.json',
    '/api/swagger/',
  ];
  for (const p of paths) assert.is((await rawGet(srv.url, p)).status, 404, p);
});

test('with the API description disabled, the page and its assets are 404', async () => {
  const assets = assetUrls((await call(srv.url, 'GET', '/api/swagger')).text);
  assert.is(assets.length, 4);
  await withServer({ API__ENABLE_SWAGGER: 'false' }, async (off) => {
    assert.is((await call(off.url, 'GET', '/api/swagger')).status, 404);
    for (const a of assets) assert.is((await rawGet(off.url, a)).status, 404, a);
  });
});

test('under a ROOT_URL with a sub-path, the page names the description and assets under it', async () => {
  await withServer({ SERVER__ROOT_URL: 'http://cairn.example/sub/' }, async (sub) => {
    const page = await call(sub.url, 'GET', '/api/swagger');
    assert.ok(page.text.includes('data-source="/sub/swagger.v1.json"'));
    const assets = [...page.text.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]);
    assert.is(assets.length, 4);
    for (const a of assets) {
      assert.ok(a.startsWith('/sub/api/swagger/ui/'), a);
      // The proxy in front removes the sub-path, as it does for /api/v1 and /swagger.v1.json.
      assert.is((await rawGet(sub.url, a.slice('/sub'.length))).status, 200, a);
    }
  });
});

async function openUi(): Promise<{ page: Page; foreign: string[] }> {
  browser ??= await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'], timeout: TIMEOUT });
  const context = await browser.newContext();
  context.setDefaultTimeout(TIMEOUT);
  const page = await context.newPage();
  const foreign: string[] = [];
  page.on('request', (req) => {
    if (!req.url().startsWith(srv.url)) foreign.push(req.url());
  });
  await page.goto(`${srv.url}/api/swagger`);
  await page.locator('.opblock-tag-section').first().waitFor();
  return { page, foreign };
}

/** Opens a tag's section (they start collapsed, as Forgejo's do) and returns the operation's block. */
async function operation(page: Page, tag: string, operationId: string) {
  const op = page.locator(`#operations-${tag}-${operationId}`);
  if (!(await op.isVisible())) await page.locator(`#operations-tag-${tag}`).click();
  await op.waitFor();
  return op;
}

/** Expands an operation, presses "Try it out" and "Execute", and returns the live response's status and body. */
async function tryOut(page: Page, tag: string, operationId: string): Promise<{ status: string; body: string }> {
  const op = await operation(page, tag, operationId);
  await op.locator('.opblock-summary-control').click();
  await op.locator('button.try-out__btn').click();
  await op.locator('button.execute').click();
  const live = op.locator('.live-responses-table .response');
  await live.waitFor();
  return {
    status: (await live.locator('.response-col_status').innerText()).trim(),
    body: await live.locator('.response-col_description pre').first().innerText(),
  };
}

const operationsOf = (spec: { paths: Record<string, Record<string, { tags: string[] }>> }) =>
  Object.values(spec.paths).flatMap((m) => Object.values(m));

test('in a browser: the UI lists the operations, and "Try it out" on GET /version shows 200', async () => {
  const { page, foreign } = await openUi();
  const spec = (await call(srv.url, 'GET', '/swagger.v1.json')).json;
  const tags = new Set(operationsOf(spec).flatMap((o) => o.tags));
  assert.is(await page.locator('.opblock-tag-section').count(), tags.size, 'a section per tag');
  const version = await operation(page, 'misc', 'miscVersion');
  const misc = operationsOf(spec).filter((o) => o.tags.includes('misc')).length;
  assert.is(
    await page.locator('#operations-tag-misc').locator('xpath=..').locator('.opblock').count(),
    misc,
    'the misc section lists its operations',
  );
  assert.is(await version.locator('.opblock-summary-path').getAttribute('data-path'), '/version');
  assert.is(await version.locator('.opblock-summary-method').innerText(), 'GET');
  const r = await tryOut(page, 'misc', 'miscVersion');
  assert.is(r.status, '200');
  assert.match(r.body, /"version"/);
  assert.equal(foreign, [], 'the browser asked no other site for anything');
  await page.context().close();
});

/** Fills one security scheme of the "Authorize" dialog, found by its heading. */
async function authorize(page: Page, heading: string, values: string[]): Promise<void> {
  await page.locator('.auth-wrapper button.authorize').click();
  const form = page.locator('.auth-container').filter({ has: page.locator('h4', { hasText: heading }) });
  const inputs = form.locator('input');
  for (const [i, v] of values.entries()) await inputs.nth(i).fill(v);
  await form.locator('button.authorize').click();
  await page.locator('.modal-ux button.close-modal').click();
}

// The dialog heads apiKey schemes with their name, and the basic one with "Basic authorization".
const SCHEMES: [string, () => string[]][] = [
  ['AuthorizationHeaderToken', () => [`token ${user.token}`]],
  ['Basic authorization', () => [user.name, user.password]],
];
for (const [heading, values] of SCHEMES)
  test(`in a browser: ${heading} given to "Authorize" is sent with "Try it out"`, async () => {
    const { page } = await openUi();
    const anonymous = await tryOut(page, 'users', 'usersMe');
    assert.is(anonymous.status, '401');
    await authorize(page, heading, values());
    const op = page.locator('#operations-users-usersMe');
    await op.locator('button.execute').click();
    // The 401 stays on screen until the new answer replaces it.
    await op.locator('.live-responses-table .response .response-col_status', { hasText: /^200$/ }).waitFor();
    const body = await op.locator('.live-responses-table .response-col_description pre').first().innerText();
    assert.is(JSON.parse(body).login, user.name);
    await page.context().close();
  });

test.run();
