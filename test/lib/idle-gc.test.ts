// The collection after load (lib/runtime/idle-gc.ts, memory): one when the server falls quiet after
// the heap grew, none while requests arrive, none for a heap that did not grow.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { GROWTH_BYTES, IdleCollector } from '../../lib/runtime/idle-gc.ts';

function collector(start: number) {
  const state = { heap: start, collected: 0, after: start };
  const c = new IdleCollector({
    heapBytes: () => state.heap,
    collect: () => {
      state.collected++;
      state.heap = state.after;
    },
  });
  return { c, state };
}

test('a quiet look after growth collects once; the next quiet looks do not', () => {
  const { c, state } = collector(GROWTH_BYTES + 1);
  state.after = 10;
  assert.ok(c.look());
  assert.not.ok(c.look());
  assert.not.ok(c.look());
  assert.is(state.collected, 1);
});

test('no collection while requests arrive, one at the first quiet look after them', () => {
  const { c, state } = collector(0);
  state.after = 5;
  for (let i = 0; i < 5; i++) {
    c.request();
    state.heap += GROWTH_BYTES;
    assert.not.ok(c.look());
  }
  assert.ok(c.look());
  assert.is(state.collected, 1);
  // Sporadic requests that grow the heap by less than the threshold cause none.
  c.request();
  state.heap = 5 + GROWTH_BYTES - 1;
  assert.not.ok(c.look());
  assert.not.ok(c.look());
  // Growth past it since the last collection does.
  state.heap = 5 + GROWTH_BYTES;
  assert.ok(c.look());
  assert.is(state.collected, 2);
});

test('a collection that frees nothing raises the floor: no collection again and again', () => {
  const { c, state } = collector(GROWTH_BYTES * 3);
  state.after = GROWTH_BYTES * 3;
  assert.ok(c.look());
  assert.not.ok(c.look());
  assert.is(state.collected, 1);
});

test('the real collector runs without --expose-gc and leaves no global gc', async () => {
  const { collectWhenIdle, lastResortCollect } = await import('../../lib/runtime/idle-gc.ts');
  const http = await import('node:http');
  const server = http.createServer();
  const h = collectWhenIdle(server);
  h.stop();
  let garbage: unknown[] | null = Array.from({ length: 100_000 }, (_, i) => ({ i }));
  assert.is(garbage.length, 100_000);
  garbage = null;
  lastResortCollect()();
  assert.is((globalThis as { gc?: unknown }).gc, undefined);
  assert.is(server.listenerCount('request'), 0);
});

test.run();
