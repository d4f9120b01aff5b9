// Statement texts made once (model/raw.ts textOf): a text built from the same parts is the one made
// the first time, so its named statement is found without copying and hashing a fresh string.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { textOf } from '../../model/raw.ts';

test('textOf: made once per combination of parts, in their order', () => {
  let made = 0;
  const make = (parts: string[]) => textOf(parts, () => `${++made}:${parts.join('|')}`);
  assert.is(make(['update', 'a', '+']), '1:update|a|+');
  assert.is(make(['update', 'a', '+']), '1:update|a|+', 'the same parts: the first text, not made again');
  assert.is(make(['update', 'a']), '2:update|a', 'a prefix of other parts is a combination of its own');
  assert.is(make(['a', 'update', '+']), '3:a|update|+', 'the order counts');
  assert.is(make(['update', 'a', '+']), '1:update|a|+');
  assert.is(made, 3);
});

test.run();
