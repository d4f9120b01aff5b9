// ONE_OF(param, ...values): path parameters the spec restricts to a few words (`ball_type` is one of
// tarball, zipball, bundle; `diffType` is diff or patch). Any other value names no route: 404.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ONE_OF } from '../../guards/one-of.ts';
import { table } from './state.ts';

const missing = { status: 404, message: "The target couldn't be found.", errors: [] };
const ball = ONE_OF('ball_type', 'tarball', 'zipball', 'bundle');

table(ball, [
  { name: 'tarball', given: () => ({ params: { ball_type: 'tarball' } }), want: null },
  { name: 'zipball', given: () => ({ params: { ball_type: 'zipball' } }), want: null },
  { name: 'bundle', given: () => ({ params: { ball_type: 'bundle' } }), want: null },
  { name: 'another word', given: () => ({ params: { ball_type: 'tar' } }), want: missing },
  { name: 'a listed word with a suffix', given: () => ({ params: { ball_type: 'tarball.gz' } }), want: missing },
  { name: 'empty', given: () => ({ params: { ball_type: '' } }), want: missing },
  { name: 'parameter absent', given: () => ({ params: { diffType: 'tarball' } }), want: missing },
]);

table(ONE_OF('diffType', 'diff', 'patch'), [
  { name: 'diff', given: () => ({ params: { diffType: 'diff' } }), want: null },
  { name: 'patch', given: () => ({ params: { diffType: 'patch' } }), want: null },
  { name: 'html', given: () => ({ params: { diffType: 'html' } }), want: missing },
]);

test('ONE_OF: name lists the words', () => {
  assert.is(ball.name, 'ONE_OF(ball_type: tarball|zipball|bundle)');
  assert.is(ball.kind, 'gate');
});

test('ONE_OF: needs a parameter and at least one value at construction', () => {
  assert.throws(() => ONE_OF('p'), /ONE_OF needs a parameter and at least one value/);
  assert.throws(() => ONE_OF('', 'diff'), /ONE_OF needs a parameter/);
});

test.run();
