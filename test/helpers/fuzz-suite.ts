// One uvu suite over a slice of the route table: a fresh world, then every row's fixed and random
// probes, one test per row (its failures listed together, with the seed that replays them).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RouteSpec } from '../../table/route-spec.ts';
import { fuzzWorld, type FuzzWorld } from './fuzz-fixtures.ts';
import { fixedProbes, ordered, randomProbes, rowSeed, runProbe, SEED, type Failure } from './fuzz.ts';

export function fuzzSuite(name: string, rows: readonly RouteSpec[]): void {
  const t = suite(name);
  let w: FuzzWorld;
  t.before(async () => {
    w = await fuzzWorld();
  });
  t.after(async () => {
    await w?.close();
  });
  for (const row of ordered(rows)) {
    t(`${row.method} ${row.path}`, async () => {
      const failures: Failure[] = [];
      for (const p of [...fixedProbes(w, row), ...randomProbes(w, row, rowSeed(row))]) {
        const f = await runProbe(w, row, p);
        if (f) failures.push(f);
      }
      assert.equal(
        failures.map((f) => `${f.status} ${f.probe} → ${f.text}`),
        [],
        `FUZZ_SEED=${SEED}`,
      );
    });
  }
  t.run();
}
