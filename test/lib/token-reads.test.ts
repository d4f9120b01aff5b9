// What the token's statement reads ahead for a request: composed by the interpreter from the matched
// row's declarations (its steps' `ahead`, the row's `ahead`), with the path parameters as the router
// decodes them; no URL is parsed anywhere else.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Context } from 'koa';
import { routes } from '../../routes.table.ts';
import { mountTable, type RunHooks } from '../../interpreter.ts';
import { loadConfig } from '../../config.ts';
import { ReadAhead } from '../../lib/http/read-ahead.ts';

const unused = () => {
  throw new Error('not called');
};
const hooks: RunHooks = { makeState: unused, respond: unused, render: unused, transactional: unused };
const table = mountTable(routes, loadConfig({}), hooks);

/** The shape and values of what `method path` reads ahead, or null. */
function ahead(method: string, path: string): { shape: string; params: readonly unknown[] } | null {
  const composed = table.tokenAhead({ method, path } as Context, new ReadAhead(), method === 'GET');
  return composed && { shape: composed.shape, params: composed.params };
}

test('a row whose chain loads a repository reads it ahead, with the names decoded as the router decodes them', () => {
  assert.equal(ahead('GET', '/api/v1/repos/alice/demo'), { shape: 'repo', params: ['demo', 'alice'] });
  assert.equal(ahead('GET', '/api/v1/repos/Alice/Demo/branches'), { shape: 'repo', params: ['demo', 'alice'] });
  assert.equal(ahead('GET', '/api/v1/repos/al%69ce/demo'), { shape: 'repo', params: ['demo', 'alice'] });
  assert.equal(ahead('GET', '/api/v1/repos/alice/demo/pulls/7'), { shape: 'repo', params: ['demo', 'alice'] });
});

test('rows without such a declaration read nothing ahead; names no stored text can equal are left to the loader', () => {
  assert.is(ahead('GET', '/api/v1/repos/search'), null);
  assert.is(ahead('GET', '/api/v1/version'), null);
  assert.is(ahead('GET', '/api/v1/nowhere/at/all'), null);
  assert.is(ahead('GET', '/api/v1/repos/alice/de%00mo'), null);
  assert.is(ahead('GET', '/repos/alice/demo'), null);
});

test('the ISSUE loader reads the issue inside the repository; a number that is not one reads only the repository', () => {
  assert.equal(ahead('GET', '/api/v1/repos/alice/demo/issues/7'), { shape: 'repo+issue', params: [7, 'demo', 'alice'] });
  assert.equal(ahead('GET', '/api/v1/repos/alice/demo/issues/7/comments'), { shape: 'repo+issue', params: [7, 'demo', 'alice'] });
  assert.equal(ahead('POST', '/api/v1/repos/alice/demo/issues/7/labels'), { shape: 'repo+issue', params: [7, 'demo', 'alice'] });
  assert.equal(ahead('GET', '/api/v1/repos/alice/demo/issues/0'), { shape: 'repo', params: ['demo', 'alice'] });
  assert.equal(ahead('GET', '/api/v1/repos/alice/demo/issues/99999999999'), { shape: 'repo', params: ['demo', 'alice'] });
  assert.equal(ahead('GET', '/api/v1/repos/alice/demo/issues'), { shape: 'repo', params: ['demo', 'alice'] });
});

test("a row's own declaration: a new issue's or comment's early reads, the caller's star count", () => {
  assert.equal(ahead('POST', '/api/v1/repos/alice/demo/issues'), { shape: 'repo+new-issue', params: ['demo', 'alice'] });
  assert.equal(ahead('POST', '/api/v1/repos/alice/demo/issues/'), { shape: 'repo+new-issue', params: ['demo', 'alice'] });
  assert.equal(ahead('POST', '/api/v1/repos/alice/demo/issues/7/comments'), {
    shape: 'repo+issue+new-comment',
    params: [7, 'demo', 'alice'],
  });
  assert.equal(ahead('POST', '/api/v1/repos/alice/demo/pulls'), { shape: 'repo', params: ['demo', 'alice'] });
  assert.equal(ahead('GET', '/api/v1/user'), { shape: 'stars', params: [] });
  assert.equal(ahead('HEAD', '/api/v1/user'), { shape: 'stars', params: [] });
  assert.is(ahead('GET', '/api/v1/user/repos'), null);
});

test.run();
