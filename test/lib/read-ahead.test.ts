// lib/http/read-ahead.ts: a request's read-ahead, typed slots that hold one value each.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ReadAhead, Slot } from '../../lib/http/read-ahead.ts';

const ISSUE = new Slot<{ repoId: number; index: number }>('issue');
const STARS = new Slot<number>('stars');

test('take gives the kept value once; peek leaves it', () => {
  const ahead = new ReadAhead();
  ahead.keep(STARS, 3);
  assert.is(ahead.peek(STARS), 3);
  assert.is(ahead.take(STARS), 3);
  assert.is(ahead.take(STARS), undefined);
});

test('take with a test gives only a matching value and leaves another in place', () => {
  const ahead = new ReadAhead();
  ahead.keep(ISSUE, { repoId: 1, index: 7 });
  assert.is(
    ahead.take(ISSUE, (k) => k.repoId === 1 && k.index === 8),
    undefined,
  );
  assert.equal(
    ahead.take(ISSUE, (k) => k.repoId === 1 && k.index === 7),
    { repoId: 1, index: 7 },
  );
  assert.is(ahead.peek(ISSUE), undefined);
});

test('slots and requests are apart: one request never sees what another kept', () => {
  const a = new ReadAhead();
  const b = new ReadAhead();
  a.keep(STARS, 1);
  assert.is(b.peek(STARS), undefined);
  assert.is(a.peek(ISSUE), undefined);
});

test.run();
