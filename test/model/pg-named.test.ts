// model/raw.ts's NamedStatement re-implements the part of pg's Query.prepare that runs for a statement
// already parsed on its connection, minus the Describe, and fills the result's description from the
// first execution (issue 10). It builds on pg's internals, so these tests hold it against pg's own
// Query on a recording protocol connection: when an update of pg changes what prepare sends or what a
// RowDescription leaves on the query, they fail here instead of in production.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { NamedStatement } from '../../model/raw.ts';

type Call = [method: string, ...args: unknown[]];

/** A protocol connection that records what a query sends (pg's Connection, as Query.prepare uses it). */
function recorder() {
  const calls: Call[] = [];
  const record = (method: string) => (arg?: unknown) => {
    // The value mapper is pg's own function: compare it by identity, not by serialising it.
    calls.push(arg === undefined ? [method] : [method, arg]);
  };
  return {
    calls,
    parsedStatements: {} as Record<string, string>,
    submittedNamedStatements: {} as Record<string, string>,
    parse: record('parse'),
    // pg's serializer maps every value while it writes Bind: a value that cannot be sent throws there.
    bind: (arg: { values: unknown[]; valueMapper: (v: unknown, i: number) => unknown }) => {
      arg.values.forEach((v, i) => arg.valueMapper(v, i));
      record('bind')(arg);
    },
    describe: record('describe'),
    execute: record('execute'),
    sync: record('sync'),
    flush: record('flush'),
    close: record('close'),
  };
}
type Wire = ReturnType<typeof recorder>;

const TEXT = 'select $1::int as n, $2::text as t';
const NAME = 'cairn_test_1';
const FIELDS = [
  { name: 'n', tableID: 0, columnID: 0, dataTypeID: 23, dataTypeSize: 4, dataTypeModifier: -1, format: 'text' },
  { name: 't', tableID: 0, columnID: 0, dataTypeID: 25, dataTypeSize: -1, dataTypeModifier: -1, format: 'text' },
];

interface Probe {
  prepare(wire: Wire): void;
  handleRowDescription(msg: unknown): void;
  [key: string]: unknown;
}
const noop = () => {};
/** pg's own Query for the same named statement, made as NamedStatement makes its base. */
function pgQuery(values: unknown[], callback: (err: Error | null) => void = noop): Probe {
  const q = new (pg.Query as unknown as new (text: string, values: unknown[], cb: unknown) => Probe)(TEXT, values, callback);
  q.name = NAME;
  return q;
}
const ours = (values: unknown[], callback: (err: Error | null) => void = noop) =>
  new NamedStatement(NAME, TEXT, values, callback) as unknown as Probe;

/** A query's state after prepare: every own property but the ones that hold functions or the event machinery. */
function stateOf(q: Probe): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(q)) {
    if (k.startsWith('_events') || k === '_eventsCount' || k === '_maxListeners' || k === 'wire' || k === 'callback') continue;
    // pg stores the callback itself as the flag; what counts is that rows are kept.
    if (k === '_accumulateRows') out[k] = Boolean(v);
    else if (k === '_results' && v === q._result) out[k] = 'the result';
    else if (k === '_result') out[k] = resultState(v as Record<string, unknown>);
    else if (typeof v !== 'function') out[k] = v;
  }
  return out;
}
function resultState(r: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r))
    out[k] = k === '_parsers' ? (v as unknown[] | undefined)?.map((f) => (f as { name: string }).name) : v;
  return out;
}

/** The first execution on a connection, then a RowDescription, as pg's Client drives a query. */
function firstRun(q: Probe, wire: Wire) {
  q.prepare(wire);
  q.handleRowDescription({ fields: FIELDS });
  wire.parsedStatements[NAME] = TEXT; // pg's Client marks it on ParseComplete
}

test('a first execution sends what pg sends: Parse, Bind, Describe, Execute, Sync', () => {
  const a = recorder();
  const b = recorder();
  firstRun(pgQuery([1, 'x']), a);
  firstRun(ours([1, 'x']), b);
  assert.equal(b.calls, a.calls);
  assert.equal(
    b.calls.map((c) => c[0]),
    ['parse', 'bind', 'describe', 'execute', 'sync'],
  );
});

test('a later execution on the connection sends what pg sends, without the Describe, and ends in the same state', () => {
  const a = recorder();
  const b = recorder();
  firstRun(pgQuery([1, 'x']), a);
  firstRun(ours([1, 'x']), b);
  a.calls.length = 0;
  b.calls.length = 0;

  const theirs = pgQuery([2, 'y']);
  theirs.prepare(a);
  theirs.handleRowDescription({ fields: FIELDS });
  const mine = ours([2, 'y']);
  mine.prepare(b);

  assert.equal(
    b.calls,
    a.calls.filter((c) => c[0] !== 'describe'),
  );
  assert.ok(
    a.calls.some((c) => c[0] === 'describe'),
    'pg itself describes every execution',
  );
  // What pg's RowDescription handling leaves on the query and its result, the kept description gives.
  assert.equal(stateOf(mine), stateOf(theirs));
});

test('another connection describes again', () => {
  const first = recorder();
  firstRun(ours([1, 'x']), first);
  const second = recorder();
  second.parsedStatements[NAME] = TEXT; // parsed there by a plain query, but never described by one of ours
  ours([3, 'z']).prepare(second);
  assert.ok(second.calls.some((c) => c[0] === 'describe'));
});

test('a value that cannot be sent fails the query as pg fails it: Close, Sync, the error to the callback', () => {
  const bad = {
    toPostgres: () => {
      throw new Error('no');
    },
  };
  for (const make of [pgQuery, ours]) {
    const wire = recorder();
    firstRun(make([1, 'x']), wire);
    wire.calls.length = 0;
    let failed: Error | null = null;
    make([bad, 'x'], (err) => {
      failed = err;
    }).prepare(wire);
    assert.equal(
      wire.calls.map((c) => c[0]),
      ['close', 'sync'],
    );
    assert.is((failed as Error | null)?.message, 'no');
  }
});

test.run();
