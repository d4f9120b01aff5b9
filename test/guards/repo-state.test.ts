// IS_FORK (400 `The Repo must be a fork`), IS_MIRROR(status) (`Repository is not a mirror`, 422 for
// convert, 400 for mirror-sync) and IS_TEMPLATE (422 `this is not a template repo`).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IS_FORK, IS_MIRROR, IS_TEMPLATE } from '../../guards/repo-state.ts';
import { Mode } from '../../lib/auth/perm.ts';
import { fakeUser, loadedRepo, loose, permAll, table } from './state.ts';

const alice = fakeUser();
const with_ = (repo: Record<string, boolean>) => () => ({ doer: alice, repo: loadedRepo(permAll(Mode.owner), { repo }) });

table(IS_FORK, [
  { name: 'a fork', given: with_({ isFork: true }), want: null },
  { name: 'not a fork', given: with_({ isFork: false }), want: { status: 400, message: 'The Repo must be a fork' } },
]);
table(IS_MIRROR(422), [
  { name: 'a mirror', given: with_({ isMirror: true }), want: null },
  { name: 'not a mirror', given: with_({ isMirror: false }), want: { status: 422, message: 'Repository is not a mirror' } },
]);
table(IS_MIRROR(400), [
  { name: 'not a mirror (mirror-sync)', given: with_({ isMirror: false }), want: { status: 400, message: 'Repository is not a mirror' } },
]);
table(IS_TEMPLATE, [
  { name: 'a template', given: with_({ isTemplate: true }), want: null },
  { name: 'not a template', given: with_({ isTemplate: false }), want: { status: 422, message: 'this is not a template repo' } },
]);

test('IS_MIRROR: names carry the status; other statuses are refused at construction', () => {
  assert.is(IS_MIRROR(422).name, 'IS_MIRROR(422)');
  assert.throws(() => loose(IS_MIRROR as (s: 400 | 422) => ReturnType<typeof IS_MIRROR>)('404'), /IS_MIRROR: status must be 400 or 422/);
});

test.run();
