// The API description is generated from the table: it lists every operation, agrees with
// `npm run routes -- --json`, and the swagger routes exist only when enabled.
import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTestDb, startServer, type TestDb, type TestServer } from './helpers/server.ts';
import { call } from './helpers/client.ts';

let db: TestDb;
let srv: TestServer;
test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
});
test.after(async () => {
  await srv.close();
  await db.close();
});

test('GET /swagger.v1.json lists all 511 operations, and `routes --json` agrees', async () => {
  const r = await call(srv.url, 'GET', '/swagger.v1.json');
  assert.is(r.status, 200);
  assert.is(r.json.swagger, '2.0');
  assert.is(r.json.basePath, '/api/v1');
  const ops: string[] = [];
  for (const [p, methods] of Object.entries(r.json.paths as Record<string, Record<string, unknown>>)) {
    for (const m of Object.keys(methods)) ops.push(`${m.toUpperCase()} ${p}`);
  }
  assert.is(ops.length, 511);
  const cli = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', 'cli.ts', 'routes', '--json'], { encoding: 'utf8' })) as {
    method: string;
    path: string;
    implemented: boolean;
  }[];
  // The package registries' rows follow the API's (table/packages.ts); they are not part of API v1.
  const api = cli.filter((x) => !x.path.startsWith('/api/packages/') && !x.path.startsWith('/v2/'));
  assert.is(api.length, 511);
  assert.ok(
    cli.slice(0, 511).every((x) => api.includes(x)),
    'the API rows come first',
  );
  const fromCli = api.map((x) => `${x.method} ${x.path.replace(/\*$/, '{path}')}`).sort();
  assert.equal([...ops].sort(), fromCli);
  // Each row lists its quota checks apart from its guards.
  const merge = (cli as unknown as { method: string; path: string; guards: string[]; quota: string[]; context: string[] }[]).find(
    (x) => x.method === 'POST' && x.path === '/repos/{username}/{reponame}/pulls/{index}/merge',
  )!;
  assert.equal(merge.quota, ['Q(size:git:all, repo)']);
  assert.ok(!merge.guards.some((g) => g.startsWith('Q(')) && !merge.context.some((g) => g.startsWith('Q(')));
  const repoGet = r.json.paths['/repos/{username}/{reponame}'].get;
  assert.equal(repoGet['x-cairn-chain'], ['REPO', 'PUBLIC_ONLY(repository)', 'ARR']);
  assert.ok(r.json.definitions.Repository && r.json.definitions.CreateRepoOption);
  assert.is(r.json.paths['/user/repos'].post.parameters[0].schema.$ref, '#/definitions/CreateRepoOption');
});

test('GET /api/swagger shows the description; /api/v1/swagger redirects there', async () => {
  const page = await call(srv.url, 'GET', '/api/swagger');
  assert.is(page.status, 200);
  assert.ok(page.text.includes('/swagger.v1.json'));
  const redirect = await call(srv.api, 'GET', '/swagger');
  assert.is(redirect.status, 303);
  assert.is(redirect.headers.get('location'), '/api/swagger');
});

test('with the API description disabled, all three are gone', async () => {
  const off = await startServer(db, { API__ENABLE_SWAGGER: 'false' });
  assert.is((await call(off.url, 'GET', '/swagger.v1.json')).status, 404);
  assert.is((await call(off.url, 'GET', '/api/swagger')).status, 404);
  assert.is((await call(off.api, 'GET', '/swagger')).status, 404);
  await off.close();
});

test.run();
