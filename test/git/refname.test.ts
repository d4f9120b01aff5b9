import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runGit } from '../../git/exec.ts';
import { isValidBranchName, isValidRefName, isValidTagName } from '../../git/refname.ts';

// [name, valid per `git check-ref-format --allow-onelevel`]
const CASES: [string, boolean][] = [
  ['main', true],
  ['feature/x', true],
  ['a/b/c', true],
  ['v1.0.0', true],
  ['HEAD', true],
  ['é-ü', true],
  ['with-dash', true],
  ['a@b', true],
  ['a{b}', true],
  ['', false],
  ['@', false],
  ['a b', false],
  ['a~b', false],
  ['a^b', false],
  ['a:b', false],
  ['a?b', false],
  ['a*b', false],
  ['a[b', false],
  ['a\\b', false],
  ['a\tb', false],
  ['a\x7fb', false],
  ['a..b', false],
  ['a@{b', false],
  ['a.lock', false],
  ['a/b.lock', false],
  ['a.lock/b', false],
  ['.a', false],
  ['a/.b', false],
  ['a.', false],
  ['a/', false],
  ['/a', false],
  ['a//b', false],
  ['a/./b', false],
  ['a/../b', false],
  ['.', false],
  ['a.b', true],
  ['a/b.c', true],
  ['lock', true],
  ['x.lockx', true],
];

test('isValidRefName agrees with the table', () => {
  for (const [name, valid] of CASES) assert.is(isValidRefName(name), valid, JSON.stringify(name));
});

test('the table agrees with git check-ref-format', async () => {
  for (const [name, valid] of CASES) {
    if (name === '') continue; // git prints usage for an empty argument
    const { code } = await runGit(null, ['check-ref-format', '--allow-onelevel', name], { okCodes: [0, 1] });
    assert.is(code === 0, valid, JSON.stringify(name));
  }
});

test('branch and tag names refuse a leading dash; branches refuse HEAD', () => {
  assert.ok(isValidRefName('-x'));
  assert.not.ok(isValidBranchName('-x'));
  assert.not.ok(isValidTagName('-x'));
  assert.not.ok(isValidBranchName('HEAD'));
  assert.ok(isValidTagName('HEAD'));
  assert.ok(isValidBranchName('feature/x'));
});

test.run();
