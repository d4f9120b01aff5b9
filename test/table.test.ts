// Table-driven tests: walk every row of routes.table.ts against a real server and check the
// permission outcomes the spec fixes (guard table, scope checks, token kinds, path resolution rule 6).
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { routes } from '../routes.table.ts';
import type { RouteSpec } from '../table/route-spec.ts';
import { FLAGS } from '../table/route-spec.ts';
import { isImplemented } from '../interpreter.ts';
import { BodySchemas, type BodySchemaName } from '../model/schemas/index.ts';
import { compileBody } from '../model/schemas/validate.ts';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { openTestDb, startServer, type TestDb, type TestServer } from './helpers/server.ts';
import { call, type Res } from './helpers/client.ts';
import { makeRepo, makeToken, makeUser, type TestUser } from './helpers/fixtures.ts';

let db: TestDb;
let srv: TestServer;
let alice: TestUser; // owns public, private and archived repositories
let bob: TestUser; // an outsider
let admin: TestUser;
const ctx = { org: '', teamId: 0, aliceId: 0, pubId: 0 };
const rows = routes as readonly RouteSpec[];
const names = (r: RouteSpec) => r.chain.map((s) => s.name);
const has = (r: RouteSpec, step: string) => names(r).includes(step);
const mounted = (r: RouteSpec) => !r.flag || FLAGS[r.flag](srv.config);

/** The spec path with every parameter filled from the fixtures. */
function url(r: RouteSpec, repo = 'pub'): string {
  const params: Record<string, string> = {
    username: alice.name,
    reponame: repo,
    org: ctx.org,
    teamid: String(ctx.teamId),
    'user-id': String(ctx.aliceId),
    'repository-id': String(ctx.pubId),
    collaborator: bob.name,
    target: bob.name,
    ball_type: 'tarball',
    diffType: 'diff',
  };
  return r.path.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(params[n] ?? '1')).replace(/\*$/, 'README.md');
}

/** An example value for a schema: required properties only, the first candidate that validates. */
function example(schema: TSchema): unknown {
  const sc = schema as TSchema & {
    type?: string;
    properties?: Record<string, TSchema>;
    required?: string[];
    items?: TSchema;
    anyOf?: TSchema[];
  };
  const check = Compile(schema);
  if (sc.anyOf) return example(sc.anyOf.find((x) => (x as { type?: string }).type !== 'null') ?? sc.anyOf[0]);
  if (sc.type === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of sc.required ?? []) out[key] = example(sc.properties![key]);
    return out;
  }
  if (sc.type === 'array') return [example(sc.items!)];
  const candidates: unknown[] =
    sc.type === 'integer' || sc.type === 'number'
      ? [1]
      : sc.type === 'boolean'
        ? [true]
        : ['const' in sc ? sc.const : 'main', 'main', '#ffffff', 'a@example.com', 'https://example.com', 'eA=='];
  return candidates.find((c) => check.Check(c)) ?? candidates[0];
}

/** A body that passes the row's schema, so guards after BODY can be reached. */
function validBody(r: RouteSpec): unknown {
  if (r.body === null || r.body === 'multipart') return undefined;
  if (r.body === 'text') return 'text';
  const body = example(BodySchemas[r.body as BodySchemaName]);
  const ok = compileBody(BodySchemas[r.body as BodySchemaName])(body);
  if (!ok.ok) throw new Error(`no example body for ${r.body}: ${ok.message}`);
  return body;
}

const send = (r: RouteSpec, o: { token?: string; path?: string; body?: unknown } = {}): Promise<Res> =>
  call(srv.api, r.method, o.path ?? url(r), {
    token: o.token,
    body: o.body ?? (r.body !== null && r.body !== 'multipart' ? validBody(r) : undefined),
  });

/** Rows where no loader outside the fixtures' reach (comments, packages) stands before `step`. */
const reachable = (r: RouteSpec, step: string) => {
  const before = names(r).slice(0, names(r).indexOf(step));
  return !before.some((n) => n === 'COMMENT' || n === 'PACKAGE' || n === 'SIG');
};

test.before(async () => {
  db = await openTestDb();
  srv = await startServer(db);
  admin = await makeUser(db, srv.api, { admin: true });
  alice = await makeUser(db, srv.api);
  bob = await makeUser(db, srv.api);
  const me = await call(srv.api, 'GET', '/user', { token: alice.token });
  ctx.aliceId = me.json.id;
  ctx.pubId = (await makeRepo(srv.api, alice, { name: 'pub', auto_init: true })).id;
  await makeRepo(srv.api, alice, { name: 'priv', private: true, auto_init: true });
  await makeRepo(srv.api, alice, { name: 'arch', auto_init: true });
  const arch = await call(srv.api, 'PATCH', `/repos/${alice.name}/arch`, { token: alice.token, body: { archived: true } });
  assert.is(arch.status, 200);
  const org = await call(srv.api, 'POST', '/orgs', { token: alice.token, body: { username: `org${alice.name}` } });
  assert.is(org.status, 201);
  ctx.org = org.json.name;
  // The Owners team exists from creation; its id is the smallest team id of the org.
  const teams = await db.db.orm.em
    .fork()
    .getConnection()
    .execute<{ id: number }[]>('select id from team where org_id = ? order by id', [org.json.id]);
  ctx.teamId = teams[0].id;
});

test.after(async () => {
  await srv.close();
  await db.close();
});

test('the table holds the 511 operations of the spec, each once', () => {
  assert.is(rows.length, 511);
  assert.is(new Set(rows.map((r) => `${r.method} ${r.path}`)).size, 511);
});

test('spec, TOK: every TOK route answers 401 to an anonymous caller in a context that exists', async () => {
  const failures: string[] = [];
  for (const r of rows.filter((r) => has(r, 'TOK') && mounted(r) && reachable(r, 'TOK'))) {
    // Steps before TOK that an anonymous caller fails on their own decide first (e.g. SELF, ADM).
    const before = r.chain.slice(
      0,
      r.chain.findIndex((s) => s.name === 'TOK'),
    );
    if (before.some((s) => s.kind === 'guard' || s.kind === 'body')) continue;
    const res = await send(r);
    if (res.status !== 401) failures.push(`${r.method} ${r.path}: ${res.status}`);
    else if (res.json?.message !== 'token is required') failures.push(`${r.method} ${r.path}: message ${res.json?.message}`);
  }
  assert.equal(failures, []);
});

test('spec, SA: every SA route answers 403 to a signed-in non-admin', async () => {
  const failures: string[] = [];
  const checked = rows.filter((r) => has(r, 'SA') && mounted(r));
  assert.ok(checked.length > 30);
  for (const r of checked) {
    const res = await send(r, { token: bob.token });
    if (res.status !== 403 || res.json?.message !== 'user should be the site admin') failures.push(`${r.method} ${r.path}: ${res.status}`);
  }
  assert.equal(failures, []);
});

test("spec, scope checks: a token without any of the route's categories gets 403 before anything else", async () => {
  const token = await makeToken(srv.api, alice, ['write:misc']);
  const failures: string[] = [];
  for (const r of rows.filter((r) => r.scope.length > 0 && mounted(r))) {
    const res = await send(r, { token });
    if (res.status !== 403 || !String(res.json?.message).startsWith('token does not have at least one of required scope(s)'))
      failures.push(`${r.method} ${r.path}: ${res.status}`);
  }
  assert.equal(failures, []);
});

test('spec, scope checks 3: a read-only token gets 403 on every write method', async () => {
  const token = await makeToken(srv.api, alice, [
    'read:activitypub',
    'read:admin',
    'read:issue',
    'read:misc',
    'read:notification',
    'read:organization',
    'read:package',
    'read:repository',
    'read:user',
  ]);
  const failures: string[] = [];
  const writes = rows.filter((r) => r.scope.length > 0 && r.method !== 'GET' && mounted(r));
  for (const r of writes) {
    const res = await send(r, { token });
    const want = `token does not have at least one of required scope(s): [${r.scope.map((c) => `write:${c}`).join(' ')}]`;
    if (res.status !== 403 || res.json?.message !== want) failures.push(`${r.method} ${r.path}: ${res.status} ${res.json?.message}`);
  }
  assert.equal(failures, []);
  // The same token reads.
  assert.is((await call(srv.api, 'GET', `/repos/${alice.name}/pub`, { token })).status, 200);
});

test('spec, path resolution rule 6: a private repository is 404 — never 401 or 403 — to outsiders and public-only tokens', async () => {
  const publicOnly = await makeToken(srv.api, alice, ['public-only', 'all']);
  const failures: string[] = [];
  for (const r of rows.filter((r) => has(r, 'REPO') && mounted(r))) {
    const path = url(r, 'priv');
    for (const [who, token] of [
      ['anonymous', undefined],
      ['outsider', bob.token],
      ['public-only', publicOnly],
    ] as const) {
      // Under /user, TOK guards the whole group before the repository is looked up.
      if (who === 'anonymous' && names(r).indexOf('TOK') >= 0 && names(r).indexOf('TOK') < names(r).indexOf('REPO')) continue;
      const res = await send(r, { token, path });
      if (res.status !== 404) failures.push(`${who} ${r.method} ${r.path}: ${res.status}`);
    }
  }
  assert.equal(failures, []);
  // The owner reaches it.
  assert.is((await call(srv.api, 'GET', `/repos/${alice.name}/priv`, { token: alice.token })).status, 200);
});

test('spec, NA: every NA route answers 423 on an archived repository', async () => {
  const failures: string[] = [];
  const checked = rows.filter((r) => has(r, 'NA') && mounted(r) && reachable(r, 'NA'));
  assert.ok(checked.length > 25);
  for (const r of checked) {
    const res = await send(r, { token: alice.token, path: url(r, 'arch') });
    const want = `is archived`;
    if (res.status !== 423 || !String(res.json?.message).endsWith(want))
      failures.push(`${r.method} ${r.path}: ${res.status} ${res.text.slice(0, 80)}`);
  }
  assert.equal(failures, []);
});

test("spec, Issues and Packages: a row's listed guards answer before the comment or package lookup", async () => {
  // Black-box probe finding: these rows list "NA; TOK" / "TOK; NA" / "TOK; PKGWRITE" without a comment or
  // package assignment, so an unknown comment or package must not hide the 401 or 423.
  const c = `/repos/${alice.name}`;
  const cases: [string, string, string | undefined, number][] = [
    ['PATCH', `${c}/pub/issues/comments/999999`, undefined, 401],
    ['DELETE', `${c}/pub/issues/comments/999999`, undefined, 401],
    ['POST', `${c}/pub/issues/comments/999999/assets`, undefined, 401],
    ['PATCH', `${c}/pub/issues/comments/999999/assets/1`, undefined, 401],
    ['DELETE', `${c}/pub/issues/comments/999999/assets/1`, undefined, 401],
    ['PATCH', `${c}/arch/issues/comments/999999`, alice.token, 423],
    ['POST', `${c}/arch/issues/comments/999999/assets`, alice.token, 423],
    ['PATCH', `${c}/arch/issues/comments/999999/assets/1`, alice.token, 423],
    ['DELETE', `${c}/arch/issues/comments/999999/assets/1`, alice.token, 423],
    ['POST', `/packages/${alice.name}/generic/nosuch/-/link/pub`, undefined, 401],
    ['POST', `/packages/${alice.name}/generic/nosuch/-/unlink`, undefined, 401],
    ['POST', `/packages/${alice.name}/generic/nosuch/-/unlink`, bob.token, 403],
    // Where the lookup is listed (or names a version), the unknown thing is still 404.
    ['GET', `${c}/pub/issues/comments/999999`, alice.token, 404],
    ['DELETE', `/packages/${alice.name}/generic/nosuch/1.0.0`, undefined, 404],
  ];
  const failures: string[] = [];
  for (const [method, path, token, want] of cases) {
    const body = method === 'PATCH' ? (path.includes('assets') ? { name: 'x' } : { body: 'x' }) : undefined;
    const res = await call(srv.api, method, path, { token, body });
    if (res.status !== want) failures.push(`${method} ${path}: ${res.status}, want ${want}`);
  }
  assert.equal(failures, []);
});

test('spec, "What the service does" 3: settings-gated routes do not exist when off, and exist when on', async () => {
  const flagged = rows.filter((r) => r.flag);
  assert.ok(flagged.length > 30);
  const off = await startServer(db, {
    API__ENABLE_SWAGGER: 'false',
    FEDERATION__ENABLED: 'false',
    SERVICE__ENABLE_USER_HEATMAP: 'false',
    QUOTA__ENABLED: 'false',
    REPOSITORY__DISABLE_STARS: 'true',
    REPOSITORY__DISABLE_FORKS: 'true',
    REPOSITORY__ENABLE_FLAGS: 'false',
  });
  const on = await startServer(db, {
    API__ENABLE_SWAGGER: 'true',
    FEDERATION__ENABLED: 'true',
    SERVICE__ENABLE_USER_HEATMAP: 'true',
    QUOTA__ENABLED: 'true',
    REPOSITORY__DISABLE_STARS: 'false',
    REPOSITORY__DISABLE_FORKS: 'false',
    REPOSITORY__ENABLE_FLAGS: 'true',
  });
  // A repository the caller starred, so the star check answers 204 rather than "not starred" (404).
  assert.is((await call(on.api, 'PUT', `/user/starred/${alice.name}/pub`, { token: admin.token })).status, 204);
  const failures: string[] = [];
  // A flag check answers 404 when the flag is not set (Forgejo's HasFlag); test/handlers/flags.test.ts covers it.
  const unsetFlag = (x: RouteSpec) => x.method === 'GET' && x.path === '/repos/{username}/{reponame}/flags/{flag}';
  // A quota rule or group that does not exist answers 404 too (Forgejo); test/handlers/quota.test.ts covers them.
  const missingQuotaRecord = (x: RouteSpec) => /\{quota(rule|group)\}/.test(x.path);
  for (const r of flagged.filter((x) => !(x.method === 'DELETE' && x.path === '/user/starred/{username}/{reponame}') && !unsetFlag(x))) {
    const body = r.body !== null && r.body !== 'multipart' ? validBody(r) : undefined;
    const a = await call(off.api, r.method, url(r), { token: admin.token, body });
    const b = await call(on.api, r.method, url(r), { token: admin.token, body });
    if (a.status !== 404) failures.push(`off ${r.method} ${r.path}: ${a.status}`);
    if (b.status === 404 && !missingQuotaRecord(r)) failures.push(`on ${r.method} ${r.path}: 404 ${b.text.slice(0, 80)}`);
  }
  await off.close();
  await on.close();
  assert.equal(failures, []);
});

test('spec, WH: webhook routes answer 403 when webhooks are disabled', async () => {
  const off = await startServer(db, { SECURITY__DISABLE_WEBHOOKS: 'true' });
  const failures: string[] = [];
  for (const r of rows.filter((r) => has(r, 'WH'))) {
    const res = await call(off.api, r.method, url(r), { token: admin.token, body: r.body ? validBody(r) : undefined });
    if (res.status !== 403 || res.json?.message !== 'webhooks disabled by administrator')
      failures.push(`${r.method} ${r.path}: ${res.status}`);
  }
  await off.close();
  assert.equal(failures, []);
});

test('spec, attachments gate: issue attachment routes answer 404 when attachments are disabled', async () => {
  const off = await startServer(db, { ATTACHMENT__ENABLED: 'false' });
  for (const r of rows.filter((r) => has(r, 'ATTACHMENTS_GATE') && !has(r, 'COMMENT'))) {
    const res = await call(off.api, r.method, url(r), { token: alice.token });
    assert.is(res.status, 404, `${r.method} ${r.path}`);
  }
  await off.close();
});

test('spec, "What the service does" 5: every actions route of a repository answers 404 when its actions unit is off', async () => {
  await makeRepo(srv.api, alice, { name: 'noactions' });
  const off = await call(srv.api, 'PATCH', `/repos/${alice.name}/noactions`, { token: alice.token, body: { has_actions: false } });
  assert.is(off.status, 200);
  assert.is(off.json.has_actions, false);
  const actionRows = rows.filter((r) => r.path.startsWith('/repos/{username}/{reponame}/actions'));
  assert.is(actionRows.length, 27);
  for (const r of actionRows) {
    const res = await send(r, { token: alice.token, path: url(r, 'noactions') });
    assert.is(res.status, 404, `${r.method} ${r.path}`);
  }
});

test('rows without a handler run their guards, then answer 501 with a JSON message', async () => {
  // Any GET row of a repository guarded only by REPO and RR(code) whose handler is still pending.
  const r = rows.find(
    (x) => x.method === 'GET' && !isImplemented(x.handler) && names(x).join(' ') === 'REPO PUBLIC_ONLY(repository) RR(code)',
  );
  if (!r) return; // every such row has a handler now

  const res = await send(r, { token: alice.token });
  assert.is(res.status, 501);
  assert.is(res.json.message, 'not implemented: this route has no handler yet');
  // ... and their guards still run first.
  assert.is((await send(r, { path: url(r, 'priv') })).status, 404);
});

test('a handler key names its file: the prefix of `labels.list` is handlers/labels.ts, whose map holds `list`', async () => {
  const dir = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'handlers');
  const index = fs.readFileSync(path.join(dir, 'index.ts'), 'utf8');
  const camel = (file: string) => file.replace(/-(\w)/g, (_, ch: string) => ch.toUpperCase());
  const imported = new Map([...index.matchAll(/^import \{ handlers as (\w+) \} from '\.\/([\w-]+)\.ts';$/gm)].map((m) => [m[1]!, m[2]!]));
  const families = [...index.matchAll(/\.\.\.family\('(\w+)', (\w+)\)/g)];
  assert.ok(families.length > 50, 'the registry merges the families');
  for (const [, prefix, alias] of families) {
    assert.is(alias, prefix, `family ${prefix} is registered under its own name`);
    assert.is(camel(imported.get(alias!) ?? ''), prefix, `family ${prefix} comes from handlers/<its name>.ts`);
  }
  const { handlers, PENDING } = await import('../handlers/index.ts');
  for (const key of [...Object.keys(handlers), ...PENDING]) {
    const file = key.split('.')[0]!.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`);
    assert.ok(fs.existsSync(path.join(dir, `${file}.ts`)), `${key}: handlers/${file}.ts exists`);
  }
});

test.run();
