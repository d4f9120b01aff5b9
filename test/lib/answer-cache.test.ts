// The parts of kept answers that need no server (lib/http/answer-cache.ts, git/changes.ts): the snapshot is
// asked once for everyone waiting, and never answered by a question sent before the caller came; which
// requests may be kept; which git commands announce a change.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Context } from 'koa';
import { answerKey } from '../../lib/http/answer-cache.ts';
import { AskedAfter, embeddedClock } from '../../model/db-clock.ts';
import type { PGlite } from '@electric-sql/pglite';
import { mayChange, subcommandOf } from '../../git/changes.ts';

/** A question source whose answers the test releases one by one; each answer is the question's number. */
function questions() {
  const pending: (() => void)[] = [];
  let sent = 0;
  const ask = () =>
    new Promise<string>((resolve) => {
      const n = ++sent;
      pending.push(() => resolve(String(n)));
    });
  return {
    ask,
    sent: () => sent,
    answer: async () => {
      pending.shift()!();
      await new Promise((r) => setImmediate(r));
    },
  };
}

test('AskedAfter: callers during a question wait for the next one, which is sent once for all of them', async () => {
  const q = questions();
  const watch = new AskedAfter(q.ask);
  const first = watch.after();
  assert.is(q.sent(), 1);
  const later = [watch.after(), watch.after(), watch.after()];
  assert.is(q.sent(), 1, 'nothing more is sent while the first is under way');
  await q.answer();
  assert.is(await first, '1');
  assert.is(q.sent(), 2, 'one question for everyone who came meanwhile');
  await q.answer();
  assert.equal(await Promise.all(later), ['2', '2', '2'], 'never the answer to a question sent before they came');
  const alone = watch.after();
  assert.is(q.sent(), 3);
  await q.answer();
  assert.is(await alone, '3');
});

test('AskedAfter: a failed question fails its callers only; the next caller asks again', async () => {
  let n = 0;
  const watch = new AskedAfter(async () => {
    n++;
    if (n === 1) throw new Error('down');
    return `s${n}`;
  });
  assert.is(
    await watch.after().then(
      () => 'answered',
      (e: Error) => e.message,
    ),
    'down',
  );
  assert.is(await watch.after(), 's2');
});

test('embeddedClock: requests of one turn share one question, asked after all of them; a later one gets its own', async () => {
  let asked = 0;
  const db = { query: async () => ({ rows: [{ s: `x${++asked}` }] }) } as unknown as PGlite;
  const clock = embeddedClock(db);
  const together = await Promise.all([clock.snapshot(), clock.snapshot(), clock.snapshot()]);
  assert.equal(together, ['x1/0', 'x1/0', 'x1/0']);
  assert.is(asked, 1);
  assert.is(await clock.snapshot(), 'x2/0', 'a call after the question was sent waits for another');
  await clock.changed();
  assert.is(await clock.snapshot(), 'x3/1', 'a change announced in the process is part of the text');
  await clock.close();
  assert.is(
    await clock.snapshot().then(
      () => 'answered',
      (e: Error) => e.message,
    ),
    'the database clock is closed',
  );
});

const ctx = (method: string, url: string, headers: Record<string, string> = {}) => ({ method, url, headers }) as unknown as Context;

test('answerKey: GET and HEAD with no credentials or a token are kept, per URL and token; passwords and Sudo are not', () => {
  const a = answerKey(ctx('GET', '/api/v1/user', { authorization: 'token abc' }));
  assert.type(a, 'string');
  assert.is(answerKey(ctx('HEAD', '/api/v1/user', { authorization: 'token abc' })), a, "HEAD shares GET's answer");
  assert.is(answerKey(ctx('GET', '/api/v1/user', { authorization: 'Bearer abc' })) === a, false, 'the header as sent is the key');
  assert.is.not(answerKey(ctx('GET', '/api/v1/user', { authorization: 'token abd' })), a);
  assert.is.not(answerKey(ctx('GET', '/api/v1/user?x=1', { authorization: 'token abc' })), a);
  assert.type(answerKey(ctx('GET', '/api/v1/user')), 'string');
  assert.ok(!answerKey(ctx('GET', '/api/v1/user'))!.includes('abc'));
  assert.is(answerKey(ctx('POST', '/api/v1/user', { authorization: 'token abc' })), null);
  assert.is(answerKey(ctx('GET', '/api/v1/user', { authorization: 'Basic dTpw' })), null);
  assert.is(answerKey(ctx('GET', '/api/v1/user', { authorization: 'token a b' })), null);
  assert.is(answerKey(ctx('GET', '/api/v1/user', { authorization: 'token abc', sudo: 'x' })), null);
});

test('git commands that may move a ref, HEAD or configuration announce a change; reads do not', () => {
  assert.is(subcommandOf(['-c', 'a=b', '-C', '/x', 'update-ref', 'r']), 'update-ref');
  for (const args of [
    ['update-ref', 'refs/heads/x', 'abc'],
    ['receive-pack', '.'],
    ['fetch', 'origin'],
    ['init', '--bare'],
    ['symbolic-ref', 'HEAD', 'refs/heads/y'],
    ['config', 'core.x', 'y'],
    ['tag', 'v1'],
    ['gc'],
  ]) {
    assert.ok(mayChange(args), args.join(' '));
  }
  for (const args of [
    ['cat-file', '--batch'],
    ['rev-parse', 'HEAD'],
    ['log', '-1'],
    ['symbolic-ref', 'HEAD'],
    ['config', '--get', 'core.x'],
    ['merge-tree', '--write-tree', 'a', 'b'],
    ['commit-tree', 't'],
    ['upload-pack', '.'],
  ]) {
    assert.not.ok(mayChange(args), args.join(' '));
  }
});

test.run();
