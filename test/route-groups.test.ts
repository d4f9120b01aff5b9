// The mounted table answers every URL with the row one router of every row would pick
// (rows are grouped by method, first segment and length so that a request tests a few dozen, not all).
import http from 'node:http';
import net from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Koa from 'koa';
import Router from '@koa/router';
import { compareSpecificity, mountTable, routerPath, type RunHooks } from '../interpreter.ts';
import { routes } from '../routes.table.ts';
import { loadConfig } from '../config.ts';
import { FLAGS, type RouteSpec } from '../table/route-spec.ts';
import { handlers } from '../handlers/index.ts';

const cfg = loadConfig({});
const app = new Koa();
const picked = Symbol('picked');

/** Hooks that stop at the first step and report the row that would have run. */
const hooks: RunHooks = {
  makeState: (_ctx, route) => {
    throw Object.assign(new Error('picked'), { [picked]: route.spec });
  },
  respond: () => undefined,
  render: () => undefined,
  transactional: (s, fn) => fn(s),
};

/** A request's context, as Koa makes it. */
function contextOf(method: string, url: string) {
  const req = new http.IncomingMessage(new net.Socket());
  req.method = method;
  req.url = url;
  return app.createContext(req, new http.ServerResponse(req));
}

/** The row a middleware runs for `method url`, or null when it passes the request on; `before` sees the context first. */
type Dispatch = ReturnType<Router['routes']>;
async function rowFor(mw: Dispatch, method: string, url: string, before?: (ctx: Koa.Context) => void): Promise<RouteSpec | null> {
  const ctx = contextOf(method, url);
  before?.(ctx);
  try {
    await mw(ctx as Parameters<Dispatch>[0], async () => undefined);
  } catch (e) {
    if (e && typeof e === 'object' && picked in e) return (e as Record<symbol, RouteSpec>)[picked];
    throw e;
  }
  return null;
}

/** One router of every mounted row, in the table's order: what the grouped table must agree with. */
function reference(): Dispatch {
  const router = new Router({ prefix: '/api/v1' });
  const mounted = (routes as readonly RouteSpec[]).filter((r) => !r.flag || FLAGS[r.flag](cfg));
  for (const spec of [...mounted].sort((a, b) => compareSpecificity(a.path, b.path))) {
    router.register(routerPath(spec.path), [spec.method], () => {
      throw Object.assign(new Error('picked'), { [picked]: spec });
    });
  }
  return router.routes();
}

/** URLs a row's path could be asked as, and near misses: parameters filled, a tail of one or two segments, a trailing slash, another case, a segment more or less. */
function urlsOf(path: string): string[] {
  const filled = path.replace(/\{[^}]+\}/g, 'x1').replace(/\/\*$/, '/a/b');
  const one = path.replace(/\{[^}]+\}/g, 'x1').replace(/\/\*$/, '/a');
  const base = `/api/v1${filled}`;
  return [
    base,
    `/api/v1${one}`,
    `${base}/`,
    `${base}//`,
    base.toUpperCase(),
    `/api/v1${filled.toUpperCase()}`,
    `${base}/extra`,
    base.slice(0, base.lastIndexOf('/')),
    `/API/V1${filled}`,
    `/api/v1/${filled.split('/')[1]}`,
  ];
}

test('every URL near every row gets the row one router of all rows would pick', async () => {
  const grouped = mountTable(routes, cfg, hooks).routes();
  const whole = reference();
  let checked = 0;
  for (const url of new Set(
    routes.flatMap((r) => urlsOf(r.path)).concat(['/api/v1', '/api/v1/', '/api/v1//', '/api/v1/nope', '/elsewhere', '/api/v10/version']),
  )) {
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const want = await rowFor(whole, method, url);
      const got = await rowFor(grouped, method, url);
      assert.is(got && `${got.method} ${got.path}`, want && `${want.method} ${want.path}`, `${method} ${url}`);
      checked++;
    }
  }
  assert.ok(checked > 10_000, `${checked} requests compared`);
});

test('a request whose row was asked for before the dispatch (plainContext) runs the same row', async () => {
  const mounted = mountTable(routes, cfg, hooks);
  const whole = reference();
  for (const url of new Set(routes.flatMap((r) => urlsOf(r.path)).concat(['/api/v1', '/api/v1/nope', '/elsewhere']))) {
    for (const method of ['GET', 'POST', 'PATCH', 'DELETE']) {
      const want = await rowFor(whole, method, url);
      const got = await rowFor(mounted.routes(), method, url, (ctx) => mounted.plainContext(ctx));
      assert.is(got && `${got.method} ${got.path}`, want && `${want.method} ${want.path}`, `${method} ${url}`);
    }
  }
});

test('plainContext: GET and HEAD, and the writes whose handler changes none of the caller, repository and owner', () => {
  const mounted = mountTable(routes, cfg, hooks);
  const plain = (method: string, url: string) => mounted.plainContext(contextOf(method, url) as Koa.Context);
  assert.ok(plain('GET', '/api/v1/repos/a/b'));
  assert.ok(plain('HEAD', '/api/v1/repos/a/b'));
  assert.ok(plain('POST', '/api/v1/repos/a/b/issues'));
  assert.ok(plain('POST', '/api/v1/repos/a/b/issues/1/comments'));
  assert.not.ok(plain('PATCH', '/api/v1/repos/a/b/issues/1'));
  assert.not.ok(plain('PATCH', '/api/v1/repos/a/b'));
  assert.not.ok(plain('POST', '/api/v1/repos/a/b/issues/1/labels'));
  assert.not.ok(plain('POST', '/api/v1/nope'));
  // Every other write maps them as managed entities: a new mark is a decision to review.
  const marked = routes
    .filter((r) => r.method !== 'GET' && (handlers as Record<string, { plainContext?: boolean }>)[r.handler]?.plainContext)
    .map((r) => `${r.method} ${r.path}`);
  assert.equal(marked, ['POST /repos/{username}/{reponame}/issues', 'POST /repos/{username}/{reponame}/issues/{index}/comments']);
});

test.run();
