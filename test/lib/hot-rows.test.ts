// Turns on a hot row (lib/hot-rows.ts): at most `turns` transactions of one row at once, the others in
// arrival order, other rows independent, and a failure passes the turn on like a success.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hotRowsInUse, inTurn } from '../../lib/hot-rows.ts';

/** A task the test finishes by hand, recording when it started. */
function tasks(log: string[]) {
  const open = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  const run = (name: string) => () => new Promise<string>((resolve, reject) => {
    log.push(name);
    open.set(name, { resolve: () => resolve(name), reject });
  });
  return { run, finish: (name: string) => open.get(name)!.resolve(), fail: (name: string) => open.get(name)!.reject(new Error(name)) };
}
const turnOfLoop = () => new Promise((r) => setImmediate(r));

test('two at a time per row, the rest in arrival order; another row does not wait', async () => {
  const log: string[] = [];
  const t = tasks(log);
  const done = ['a1', 'a2', 'a3', 'a4'].map((n) => inTurn('repository 1', t.run(n), 2));
  const other = inTurn('repository 2', t.run('b1'), 2);
  await turnOfLoop();
  assert.equal(log, ['a1', 'a2', 'b1']);
  t.finish('a2');
  await turnOfLoop();
  assert.equal(log, ['a1', 'a2', 'b1', 'a3']);
  t.finish('a1');
  t.finish('b1');
  await turnOfLoop();
  assert.equal(log, ['a1', 'a2', 'b1', 'a3', 'a4']);
  t.finish('a3');
  t.finish('a4');
  assert.equal(await Promise.all([...done, other]), ['a1', 'a2', 'a3', 'a4', 'b1']);
  assert.is(hotRowsInUse(), 0, 'rows with nothing running are forgotten');
});

test('a failure is the caller\'s, and passes the turn on', async () => {
  const log: string[] = [];
  const t = tasks(log);
  const first = inTurn('issue 7', t.run('c1'), 1);
  const second = inTurn('issue 7', t.run('c2'), 1);
  await turnOfLoop();
  assert.equal(log, ['c1']);
  t.fail('c1');
  const failed = await first.then(() => null, (e: Error) => e.message);
  assert.is(failed, 'c1');
  await turnOfLoop();
  assert.equal(log, ['c1', 'c2']);
  t.finish('c2');
  assert.is(await second, 'c2');
  assert.is(hotRowsInUse(), 0);
});

test.run();
