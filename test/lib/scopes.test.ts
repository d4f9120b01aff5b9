// A token's stored scope list is parsed once per text (lib/auth/scopes.ts, parseStoredScopes): the
// answer must be parseScopes's, an unknown item must still read as no scopes, and equal texts share one answer.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseScopes, parseStoredScopes } from '../../lib/auth/scopes.ts';

test('parseStoredScopes answers what parseScopes answers', () => {
  for (const raw of ['', 'all', 'public-only,read:user', 'write:repository,read:issue,read:repository', ' read:user , sudo ,write:admin']) {
    assert.equal(parseStoredScopes(raw), parseScopes(raw), raw);
  }
});

test('an unknown item is no scopes (null), again on the second read', () => {
  assert.throws(() => parseScopes('write:everything'));
  assert.is(parseStoredScopes('write:everything'), null);
  assert.is(parseStoredScopes('write:everything'), null);
});

test('equal texts share one answer; other texts do not', () => {
  const a = parseStoredScopes('read:user,write:issue');
  assert.is(parseStoredScopes('read:user,write:issue'), a);
  assert.is.not(parseStoredScopes('read:user'), a);
});

test.run();
