// TOK (spec, guard table): caller is signed in by any method, or by an actions task token; else 401
// `token is required` (forgejo-facts 1.2).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TOK } from '../../guards/tok.ts';
import { fakeUser, table, token } from './state.ts';

const alice = fakeUser();

table(TOK, [
  { name: 'anonymous', given: () => ({}), want: { status: 401, message: 'token is required' } },
  {
    name: 'anonymous even with a sudo-looking header',
    given: () => ({ headers: { sudo: 'admin' } }),
    want: { status: 401, message: 'token is required' },
  },
  { name: 'basic password', given: () => ({ doer: alice, method: 'basic' }), want: null },
  { name: 'API token', given: () => ({ doer: alice, token: token('read:user') }), want: null },
  { name: 'public-only token', given: () => ({ doer: alice, token: token('public-only,read:user') }), want: null },
  { name: 'repo-specific token', given: () => ({ doer: alice, token: token('read:repository', [1]) }), want: null },
  { name: 'reverse-proxy identity', given: () => ({ doer: alice, method: 'reverse-proxy' }), want: null },
  { name: 'actions task token', given: () => ({ doer: fakeUser({ name: 'forgejo-actions' }), method: 'actions' }), want: null },
]);

test('TOK: a guard that needs nothing and provides the caller (doer) to signedIn handlers', () => {
  assert.is(TOK.name, 'TOK');
  assert.is(TOK.kind, 'guard');
  assert.equal([...TOK.needs], []);
  assert.equal([...TOK.provides], ['doer']);
});

test.run();
