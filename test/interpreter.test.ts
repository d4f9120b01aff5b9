// The interpreter's start-up checks and matching order (STYLE.md, "The bootstrapper").
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Context } from 'koa';
import {
  compareSpecificity,
  routerPath,
  validateTable,
  TableError,
  bindRoute,
  runRoute,
  scopeCheck,
  type BoundRoute,
  type RunHooks,
} from '../interpreter.ts';
import { network, transactionOf, type Handler } from '../lib/http/handler.ts';
import { routes } from '../routes.table.ts';
import type { RouteSpec } from '../table/route-spec.ts';
import { ADM, BODY, REPO_CTX, SELF, TOK, USER } from '../guards/index.ts';
import { loadConfig } from '../config.ts';
import { parseScopes } from '../lib/auth/scopes.ts';
import type { RequestState } from '../guards/types.ts';
import { ReadAhead } from '../lib/http/read-ahead.ts';

const row = (over: Partial<RouteSpec>): RouteSpec => ({
  method: 'GET',
  path: '/version',
  body: null,
  scope: [],
  chain: [],
  handler: 'misc.version',
  ...over,
});
const rejects = (table: RouteSpec[], text: string) => {
  try {
    validateTable(table);
  } catch (e) {
    assert.instance(e, TableError);
    assert.ok((e as Error).message.includes(text), (e as Error).message);
    return;
  }
  assert.unreachable(`table accepted; expected: ${text}`);
};

test('the real table passes the start-up check', () => {
  validateTable(routes);
});

test('a duplicate method and path stops the start', () => rejects([row({}), row({})], 'duplicate route GET /version'));

test('two patterns that can match one URL with no winner stop the start', () =>
  rejects([row({ path: '/a/{x}' }), row({ path: '/a/{y}', handler: 'users.get' })], 'ambiguous routes'));

test('an unknown handler key stops the start', () =>
  rejects([row({ handler: 'nope.nothing' as RouteSpec['handler'] })], 'unknown handler nope.nothing'));

test('a handler that needs the caller (signedIn) on a row without TOK stops the start', () => {
  const mine = { path: '/user/followers', query: 'Paged', handler: 'follows.listMyFollowers' } as const;
  rejects([row({ ...mine, chain: [] })], 'handler follows.listMyFollowers needs doer');
  validateTable([row({ ...mine, chain: [TOK] })]);
});

test('an unknown body schema stops the start', () =>
  rejects([row({ method: 'POST', body: 'NoSuchOption' as RouteSpec['body'], chain: [BODY] })], 'unknown body schema NoSuchOption'));

test('a body without BODY, or BODY without a body, stops the start', () => {
  rejects([row({ method: 'POST', body: 'CreateRepoOption' })], 'without a BODY step');
  rejects([row({ method: 'POST', chain: [BODY] })], 'BODY step without a body');
});

test('a step whose needs no earlier step provides stops the start', () => {
  rejects([row({ chain: [ADM()] })], 'ADM needs repo');
  rejects([row({ chain: [SELF, USER] })], 'SELF needs user');
  validateTable([row({ chain: [...REPO_CTX, TOK, ADM()] }), row({ path: '/x/{username}', chain: [USER, SELF] })]);
});

test('a kept answer (cached) on anything but a GET stops the start', () => {
  rejects([row({ method: 'DELETE', cached: true })], "only a GET's answer may be kept");
  validateTable([row({ cached: true })]);
});

test('guard constructors check their arguments when the table is built', () => {
  assert.throws(() => ADM('nonsense'), /unknown unit/);
});

test('paths convert to router syntax; static beats parameter beats tail, whatever the row order', () => {
  assert.is(routerPath('/repos/{username}/{reponame}/contents/*'), '/repos/:username/:reponame/contents/*path');
  assert.is(routerPath('/activitypub/user-id/{user-id}'), '/activitypub/user-id/:"user-id"');
  assert.is(
    routerPath('/repos/{username}/{reponame}/git/commits/{sha}.{diffType}'),
    '/repos/:username/:reponame/git/commits/:sha.:diffType',
  );
  const paths = ['/r/{ball_type}/*', '/r/{x}', '/r/raw/*', '/r/pulls', '/r/{a}.{b}'];
  const sorted = [...paths].sort(compareSpecificity);
  assert.equal(sorted, ['/r/pulls', '/r/raw/*', '/r/{a}.{b}', '/r/{x}', '/r/{ball_type}/*']);
});

test("scope check: at least one category at the method's level; none needed without categories", () => {
  const cfg = loadConfig({});
  const state = (method: string, scope: string): RequestState =>
    ({
      config: cfg,
      method,
      auth: {
        doer: null,
        method: 'token',
        sudoer: null,
        token: { id: 1, scopes: parseScopes(scope), raw: scope, publicOnly: false, repoIds: null },
      },
    }) as unknown as RequestState;
  const r = row({ scope: ['user', 'organization'] });
  assert.is(scopeCheck(state('GET', 'read:organization'), r), null);
  assert.is(scopeCheck(state('POST', 'read:organization'), r)?.status, 403);
  assert.is(
    (scopeCheck(state('POST', 'read:organization'), r) as { message: string }).message,
    'token does not have at least one of required scope(s): [write:user write:organization]',
  );
  assert.is(scopeCheck(state('DELETE', 'write:user'), r), null);
  assert.is(scopeCheck(state('GET', 'read:misc'), row({})), null);
});

test("BODY is bound to the row's schema and reports Forgejo's 422 message", async () => {
  const bound = bindRoute(routes.find((r) => r.method === 'POST' && r.path === '/user/repos')!);
  const body = bound.steps.find((s) => s.name === 'BODY')!;
  const s = { readBody: async () => ({ value: { name: 5 } }) } as unknown as RequestState;
  const out = await body.run(s);
  assert.is(out && 'message' in out ? out.status : 0, 422);
  const ok = { readBody: async () => ({ value: { name: 'fine' } }) } as unknown as RequestState;
  assert.is(await body.run(ok), null);
  assert.equal(ok.body, { name: 'fine' });
});

test('a network handler runs outside any transaction and writes in the short ones c.transaction opens; other writes run in one', async () => {
  const log: string[] = [];
  const hooks: RunHooks = {
    makeState: () => ({
      config: loadConfig({}),
      services: {} as RequestState['services'],
      em: {} as RequestState['em'],
      ahead: new ReadAhead(),
      method: 'POST',
      path: '/x',
      params: {},
      query: new URLSearchParams(),
      headers: {},
      auth: { doer: null, method: null, token: null, sudoer: null },
      readBody: async () => ({ value: undefined }),
    }),
    respond: (_ctx, _s, outcome) => {
      log.push(`refused ${outcome.status}`);
    },
    render: (_ctx, _s, reply) => {
      log.push(`render ${reply.status}`);
    },
    transactional: async (s, fn) => {
      log.push('begin');
      const out = await fn(s);
      log.push('commit');
      return out;
    },
  };
  const remote = network(async (c) => {
    log.push(`call ${c.transaction ? 'with' : 'without'} transactions to open`);
    await transactionOf(c)(async () => {
      log.push('write');
    });
    log.push('call again');
    return { status: 201 };
  });
  const local: Handler<unknown> = async (c) => {
    log.push(`write ${c.transaction ? 'with' : 'without'} transactions to open`);
    return { status: 200 };
  };
  const route = (handler: Handler<unknown>): BoundRoute => ({ spec: row({ method: 'POST' }), steps: [], reads: [], query: null, handler });
  await runRoute({} as Context, route(remote), hooks);
  assert.equal(log, ['call with transactions to open', 'begin', 'write', 'commit', 'call again', 'render 201']);
  log.length = 0;
  await runRoute({} as Context, route(local), hooks);
  assert.equal(log, ['begin', 'write without transactions to open', 'commit', 'render 200']);
  assert.throws(() => transactionOf({}), /without being declared network/);
});

test.run();
