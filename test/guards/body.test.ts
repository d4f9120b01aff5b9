// BODY (spec, request body binding) only marks its place in a chain; the interpreter replaces it with
// a step bound to the row's body type. Run unbound it must fail loudly, never pass a body through.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BODY } from '../../guards/body.ts';
import { state } from './state.ts';

test('BODY: provides the body and needs nothing', () => {
  assert.is(BODY.name, 'BODY');
  assert.is(BODY.kind, 'body');
  assert.equal([...BODY.needs], []);
  assert.equal([...BODY.provides], ['body']);
});

test('BODY: throws when run without being bound to a row', async () => {
  let err: unknown;
  try {
    await BODY.run(state({ body: { name: 'x' } }));
  } catch (e) {
    err = e;
  }
  assert.instance(err, Error);
  assert.match(String(err), /BODY must be bound to its row by the interpreter/);
});

test('BODY: leaves the state untouched when it throws', async () => {
  const s = state({ body: undefined });
  await Promise.resolve()
    .then(() => BODY.run(s))
    .catch(() => undefined);
  assert.is(s.body, undefined);
});

test.run();
