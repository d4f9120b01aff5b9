import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Lru } from '../../git/lru.ts';

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

test('the least recently used entries go first, by weight', () => {
  const lru = new Lru<string, string>(10, (v) => v.length);
  lru.set('a', 'xxxx');
  lru.set('b', 'xxxx');
  lru.get('a');
  lru.set('c', 'xxxx');
  assert.is(lru.get('b'), undefined);
  assert.is(lru.get('a'), 'xxxx');
  assert.is(lru.get('c'), 'xxxx');
  // Heavier than the whole cache: not kept, and nothing else is pushed out for it.
  lru.set('d', 'x'.repeat(11));
  assert.is(lru.get('d'), undefined);
  assert.is(lru.get('a'), 'xxxx');
  // Replacing a value counts its new weight only.
  lru.set('a', 'x');
  lru.set('e', 'xxxxx');
  assert.equal(
    ['a', 'c', 'e'].map((k) => lru.get(k)),
    ['x', 'xxxx', 'xxxxx'],
  );
});

test('getOr: callers of one key at the same time share one load; undefined and failures are not kept', async () => {
  const lru = new Lru<string, number>(10);
  let loads = 0;
  const load = async () => {
    loads++;
    await new Promise((r) => setTimeout(r, 5));
    return 42;
  };
  assert.equal(await Promise.all([lru.getOr('k', load), lru.getOr('k', load), lru.getOr('k', load)]), [42, 42, 42]);
  assert.is(loads, 1);
  assert.is(await lru.getOr('k', load), 42);
  assert.is(loads, 1);
  assert.is(await lru.getOr('u', async () => undefined), undefined);
  assert.is(await lru.getOr('u', async () => 7), 7);
  assert.instance(
    await failure(
      lru.getOr('f', async () => {
        throw new Error('boom');
      }),
    ),
    Error,
  );
  assert.is(await lru.getOr('f', async () => 8), 8);
});

test('getMany: what is missing is loaded by one call, what is loading is awaited, what is left out is not kept', async () => {
  const lru = new Lru<string, number>(100);
  lru.set('a', 1);
  const calls: string[][] = [];
  const load = async (keys: string[]) => {
    calls.push(keys);
    await new Promise((r) => setTimeout(r, 5));
    return new Map(keys.filter((k) => k !== 'none').map((k) => [k, k.length]));
  };
  const [first, second] = await Promise.all([lru.getMany(['a', 'bb', 'ccc', 'bb', 'none'], load), lru.getMany(['ccc', 'dddd'], load)]);
  assert.equal(first, [1, 2, 3, 2, undefined]);
  assert.equal(second, [3, 4]);
  assert.equal(calls, [['bb', 'ccc', 'none'], ['dddd']]);
  assert.equal(await lru.getMany(['bb', 'none'], load), [2, undefined]);
  assert.equal(calls[2], ['none']);
  const failing = async () => {
    throw new Error('boom');
  };
  assert.instance(await failure(lru.getMany(['x'], failing)), Error);
  assert.equal(await lru.getMany(['x'], load), [1]);
});

test.run();
