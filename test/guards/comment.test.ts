// COMMENT, the comment loader (spec, path resolution, comment paths): an unknown comment is 404.
// Issue comments are not stored yet, so every id is unknown; the rows below hold for any store.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { COMMENT } from '../../guards/comment.ts';
import { Mode } from '../../lib/perm.ts';
import { fakeUser, loadedRepo, permAll, table } from './state.ts';

const missing = { status: 404, message: "The target couldn't be found.", errors: [] };
const owner = fakeUser();

table(COMMENT, [
  { name: 'unknown comment id, owner', given: () => ({ doer: owner, repo: loadedRepo(permAll(Mode.owner), { owner }), params: { id: '999999' } }), want: missing },
  { name: 'not a number', given: () => ({ doer: owner, repo: loadedRepo(permAll(Mode.owner), { owner }), params: { id: 'abc' } }), want: missing },
]);

test('COMMENT: needs the repository, provides the comment', () => {
  assert.equal([...COMMENT.needs], ['repo']);
  assert.equal([...COMMENT.provides], ['comment']);
});

test.run();
