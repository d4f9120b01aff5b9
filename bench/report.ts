// One run's results as Markdown: the tables the issue asks for, then the targets with PASS/FAIL.
import { ceilingRps, ratio, type CeilingRun, type RunResult } from './results.ts';
import type { LoadResult } from './load-gen.ts';

const int = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en') : '–');
const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(x < 10 ? 2 : 1) : '–');
const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : '–');
const times = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '–');
const failures = (l: LoadResult) => l.non2xx + l.errors + l.timeouts;

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function loadRow(label: string, c64: LoadResult, c1: LoadResult, vsA: string, vsB: string): string {
  return row([label, int(c64.rps), ms(c64.p50), ms(c64.p99), int(c1.rps), ms(c1.p50), vsA, vsB, int(failures(c64) + failures(c1))]);
}

function ceilingRows(name: string, runs: CeilingRun[]): string[] {
  return runs.map((c) => loadRow(`ceiling ${name} (${c.when})`, c.c64, c.c1, '', ''));
}

export function markdown(r: RunResult): string {
  const o = r.options;
  const lines: string[] = [];
  lines.push(`# cairn bench ${r.startedAt}${o.quick ? ' (--quick: short windows, a smoke run)' : ''}`, '');
  lines.push(
    `- database: ${o.db === 'postgres' ? 'PostgreSQL' : 'embedded PGlite'}; cairn at ${r.machine.commit}; node ${r.machine.node}; ${r.machine.git}; ${r.machine.cpus} CPUs`,
  );
  lines.push(
    `- kept answers (lib/http/answer-cache.ts): ${o.kept === false ? 'off (--no-kept): every read does its own work' : 'on, as by default: the rows marked cached answer repeated reads from a kept answer while the database shows no change'}`,
  );
  lines.push(`- machine load before: \`${r.machine.uptimeBefore}\``);
  lines.push(`- machine load after: \`${r.machine.uptimeAfter}\``);
  lines.push(`- load: autocannon in its own process, keep-alive, ${o.warmup} s warm-up discarded, ${o.window} s windows, loopback`);
  lines.push(
    `- data: ${r.data.commits.toLocaleString('en')} commits; ${r.data.issues.toLocaleString('en')} issues (and ${r.data.issuesSmall} in another repository); ${r.data.repos.toLocaleString('en')} repositories for the routes (${r.data.reposSmall} and ${r.data.reposLarge.toLocaleString('en')} for the list check); repository object ${r.data.repoBodyBytes.toLocaleString('en')} bytes`,
  );
  const copied = Object.entries(r.data.copied)
    .map(([t, n]) => `${t} ${n.toLocaleString('en')}`)
    .join(', ');
  if (copied) lines.push(`- rows copied by SQL from API-made ones: ${copied}`);
  lines.push('');

  lines.push('## Routes', '');
  lines.push(row(['route', 'req/s @64', 'p50 @64 ms', 'p99 @64 ms', 'req/s @1', 'p50 @1 ms', 'vs A', 'vs B', 'non-2xx/errors']));
  lines.push(row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
  lines.push(...ceilingRows('A', r.ceilings.A), ...ceilingRows('B', r.ceilings.B));
  if (r.ceilings.A.length && r.ceilings.B.length) {
    lines.push(row(['ceiling B / A', '', '', '', '', '', pct(ceilingRps(r.ceilings.B) / ceilingRps(r.ceilings.A)), '', '']));
  }
  for (const x of r.routes) lines.push(loadRow(x.label, x.c64, x.c1, pct(ratio(x, r.ceilings.A)), pct(ratio(x, r.ceilings.B))));
  lines.push(
    '',
    'A: Koa 3 + @koa/router, the same repository object, static. B: A plus one primary-key `SELECT` with `pg` (pool 10) per request. "vs": req/s at 64 connections against the mean of the ceiling\'s runs.',
    '',
  );

  const cpuRows: [string, LoadResult][] = [
    ...r.ceilings.A.map((c): [string, LoadResult] => [`ceiling A (${c.when})`, c.c64]),
    ...r.ceilings.B.map((c): [string, LoadResult] => [`ceiling B (${c.when})`, c.c64]),
    ...r.routes.map((x): [string, LoadResult] => [x.label, x.c64]),
  ].filter(([, l]) => l.cpu);
  if (cpuRows.length) {
    lines.push('## CPU per answer at 64 connections (ms, over the measured window)', '');
    lines.push(row(['target', 'server process', 'PostgreSQL', 'load generator', 'sum']));
    lines.push(row(['---', '---:', '---:', '---:', '---:']));
    const f = (x: number) => x.toFixed(3);
    for (const [label, l] of cpuRows) {
      const c = l.cpu!;
      lines.push(row([label, f(c.server), f(c.database), f(c.loader), f(c.server + c.database + c.loader)]));
    }
    lines.push(
      '',
      "From /proc utime + stime of the server, of every `postgres` process and of the load generator, divided by the 2xx answers of the window. Where the sum is near the machine's CPUs divided by req/s, the run was CPU-bound, and the server's share is what cairn's code costs.",
      '',
    );
  }

  if (r.lists.length) {
    lines.push('## Lists as the data grows (p50 at 1 connection)', '');
    lines.push(row(['list', 'rows', 'p50 ms', 'rows', 'p50 ms', 'ratio']));
    lines.push(row(['---', '---:', '---:', '---:', '---:', '---:']));
    for (const l of r.lists)
      lines.push(row([l.list, int(l.small.rows), ms(l.small.p50), int(l.large.rows), ms(l.large.p50), times(l.large.p50 / l.small.p50)]));
    lines.push('');
  }

  if (r.git.clone || r.git.push) {
    lines.push(`## git (median of ${o.gitRuns}, ${r.data.commits.toLocaleString('en')} commits)`, '');
    lines.push(row(['operation', 'over HTTP ms', 'from disk ms', 'ratio']));
    lines.push(row(['---', '---:', '---:', '---:']));
    if (r.git.clone)
      lines.push(
        row([
          'clone (`--bare`; disk: `--no-local`)',
          int(r.git.clone.httpMedian),
          int(r.git.clone.diskMedian),
          times(r.git.clone.httpMedian / r.git.clone.diskMedian),
        ]),
      );
    if (r.git.push)
      lines.push(
        row([
          'push to an empty repository',
          int(r.git.push.httpMedian),
          int(r.git.push.diskMedian),
          times(r.git.push.httpMedian / r.git.push.diskMedian),
        ]),
      );
    lines.push('');
  }

  lines.push('## Process', '');
  lines.push(row(['measure', 'value']));
  lines.push(row(['---', '---:']));
  lines.push(row(['start to first 200 of /api/v1/version, empty database (migrations)', `${int(r.startup.freshMs)} ms`]));
  if (r.startup.withDataMs !== null) lines.push(row(['start to first 200, seeded database', `${int(r.startup.withDataMs)} ms`]));
  if (r.memory.idle) lines.push(row(['RSS idle (after start)', `${r.memory.idle.rss.toFixed(0)} MB`]));
  if (r.memory.afterLoad)
    lines.push(row(['RSS after load (peak)', `${r.memory.afterLoad.rss.toFixed(0)} MB (${r.memory.afterLoad.peak.toFixed(0)} MB)`]));
  lines.push('');

  lines.push('## Targets', '');
  lines.push(row(['target', 'measured', 'limit', 'result']));
  lines.push(row(['---', '---:', '---', '---']));
  for (const t of r.targets) lines.push(row([t.target, t.measured, t.limit, t.pass === null ? '–' : t.pass ? 'PASS' : 'FAIL']));
  lines.push('');
  return lines.join('\n');
}
