// Two held instances measured in alternated windows: `npm run bench:alternate -- <a> <b> [--only name,...]
// [--rounds N] [--connections N]`, where <a> and <b> are files holding the JSON line `npm run bench --
// --hold` prints (each instance seeded the same way, by its own checkout, and left running). Each route
// is loaded in the order a, b, b, a per round, so both meet the same drift of a noisy machine; the
// windows, then the means of each side (req/s, and CPU per answer of the server and of PostgreSQL), go
// to stdout. The instances' routes change as a full run's do: POSTs add rows to both alike.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { type LoadResult, runLoad, specOf } from './load.ts';
import { ROUTE_NAMES, type RouteName } from './options.ts';

interface Held {
  pid: number;
  /** Each route's request as the bench sends it (`token` null: anonymous). */
  targets: Record<string, { method: 'GET' | 'POST'; url: string; body?: unknown; token: string | null }>;
}

interface Means {
  rps: number;
  server: number;
  database: number;
}

/** The JSON line `--hold` printed, from a file that may hold the run's other output too. */
function held(file: string): Held {
  const line = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('{'));
  if (!line) throw new Error(`${file}: no JSON line of npm run bench -- --hold`);
  return JSON.parse(line) as Held;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      only: { type: 'string' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '64' },
      warmup: { type: 'string', default: '2' },
      window: { type: 'string', default: '6' },
    },
  });
  if (positionals.length !== 2) {
    console.error(
      'usage: npm run bench:alternate -- <held a> <held b> [--only name,...] [--rounds N] [--connections N] [--warmup s] [--window s]',
    );
    process.exit(2);
  }
  const sides = positionals.map(held) as [Held, Held];
  const routes = (values.only?.split(',') ?? [...ROUTE_NAMES]) as RouteName[];
  for (const r of routes) if (!ROUTE_NAMES.includes(r)) throw new Error(`unknown route ${r}`);
  const rounds = Number(values.rounds);
  const connections = Number(values.connections);
  const warmup = Number(values.warmup);
  const window = Number(values.window);
  const rows: string[] = [];
  for (const route of routes) {
    const got: [LoadResult[], LoadResult[]] = [[], []];
    for (let round = 0; round < rounds; round++) {
      for (const side of [0, 1, 1, 0] as const) {
        const h = sides[side];
        const t = h.targets[route];
        if (!t) throw new Error(`${positionals[side]}: no target ${route}`);
        const r = await runLoad(specOf({ ...t, pid: h.pid }, connections, warmup, window));
        if (r.non2xx || r.errors) throw new Error(`${route} on ${positionals[side]}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
        got[side].push(r);
        console.log(
          `${route} ${'ab'[side]} ${r.rps.toFixed(0)} req/s, CPU ms per answer: server ${r.cpu?.server.toFixed(3)}, database ${r.cpu?.database.toFixed(3)}`,
        );
      }
    }
    const [a, b] = got.map(
      (rs): Means => ({
        rps: mean(rs.map((r) => r.rps)),
        server: mean(rs.map((r) => r.cpu?.server ?? NaN)),
        database: mean(rs.map((r) => r.cpu?.database ?? NaN)),
      }),
    ) as [Means, Means];
    rows.push(
      `| ${route} | ${a.rps.toFixed(0)} | ${b.rps.toFixed(0)} | ${((a.rps / b.rps - 1) * 100).toFixed(1)} % | ${a.server.toFixed(3)} / ${b.server.toFixed(3)} | ${a.database.toFixed(3)} / ${b.database.toFixed(3)} |`,
    );
  }
  console.log(
    [
      '',
      `Means of ${rounds * 2} windows each (${connections} connections, ${warmup} s + ${window} s), a = ${positionals[0]}, b = ${positionals[1]}:`,
      '',
      '| route | a req/s | b req/s | a against b | server CPU ms, a / b | PostgreSQL CPU ms, a / b |',
      '|---|---:|---:|---:|---:|---:|',
      ...rows,
    ].join('\n'),
  );
}

await main();
