// PACKAGE, the package loader: `{type}/{name}/{version}` under the package owner. No package registry is
// stored yet, so a named version is unknown (404); routes that name no version (owner listing, link,
// unlink) pass through so their TOK/PKGWRITE guards answer first.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE } from '../../guards/package.ts';
import { fakeUser, table } from './state.ts';

const missing = { status: 404, message: "The target couldn't be found.", errors: [] };
const owner = fakeUser();

table(PACKAGE, [
  { name: 'a named package', given: () => ({ doer: owner, contextUser: owner, params: { type: 'npm', name: 'left-pad', version: '1.0.0' } }), want: missing },
  { name: 'type and name without version (link, unlink)', given: () => ({ contextUser: owner, params: { type: 'generic', name: 'x' } }), want: null },
  { name: 'no package named (owner listing)', given: () => ({ contextUser: owner, params: {} }), want: null },
]);

test('PACKAGE: needs the owner, provides the package', () => {
  assert.equal([...PACKAGE.needs], ['user']);
  assert.equal([...PACKAGE.provides], ['package']);
});

test.run();
