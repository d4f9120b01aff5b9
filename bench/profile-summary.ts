// Summarises a V8 .cpuprofile (`node --cpu-prof`) by self time: the top functions with url:line, and
// the total per package (node_modules/<pkg>), per project file, and per V8 pseudo-node (garbage
// collector, program). Shares are of the non-idle samples, so a half-idle process reads the same.
//
//   npx tsx bench/profile-summary.ts <file.cpuprofile> [--skip-ms N] [--top 15]
//
// --skip-ms leaves out the samples of the first N ms after the profile started (the server's start).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** Where a frame's code comes from: a package, a project file, Node's own code, or V8. */
export function owner(url: string, functionName: string, root = ROOT): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node (internals)';
  const file = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  const nm = file.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = file.slice(nm + '/node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  return file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file;
}

function where(f: CallFrame, root: string): string {
  if (!f.url) return '';
  const file = f.url.startsWith('file://') ? decodeURIComponent(new URL(f.url).pathname) : f.url;
  const shown = file.includes('/node_modules/')
    ? file.slice(file.lastIndexOf('/node_modules/') + 1)
    : file.startsWith(`${root}/`)
      ? file.slice(root.length + 1)
      : file;
  return `${shown}:${f.lineNumber + 1}`;
}

export interface Summary {
  totalMs: number;
  busyMs: number;
  top: { name: string; at: string; ms: number; share: number }[];
  byOwner: { owner: string; ms: number; share: number }[];
}

export function summarise(p: CpuProfile, opts: { skipMs?: number; top?: number; root?: string } = {}): Summary {
  const root = opts.root ?? ROOT;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  // timeDeltas[i] is the time before sample i; the time a sample stands for is the gap to the next.
  let t = 0;
  const skipUs = (opts.skipMs ?? 0) * 1000;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i];
    const dur = p.timeDeltas[i + 1] ?? 0;
    if (t < skipUs) continue;
    selfUs.set(p.samples[i], (selfUs.get(p.samples[i]) ?? 0) + dur);
  }
  const fns = new Map<string, { name: string; at: string; us: number }>();
  const owners = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const f = byId.get(id)!.callFrame;
    total += us;
    if (f.functionName === '(idle)') {
      idle += us;
      continue;
    }
    const at = where(f, root);
    const key = `${f.functionName}@${at}`;
    const e = fns.get(key) ?? { name: f.functionName || '(anonymous)', at, us: 0 };
    e.us += us;
    fns.set(key, e);
    const o = owner(f.url, f.functionName, root);
    owners.set(o, (owners.get(o) ?? 0) + us);
  }
  const busy = total - idle;
  return {
    totalMs: total / 1000,
    busyMs: busy / 1000,
    top: [...fns.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, opts.top ?? 15)
      .map((e) => ({ name: e.name, at: e.at, ms: e.us / 1000, share: e.us / busy })),
    byOwner: [...owners.entries()].sort((a, b) => b[1] - a[1]).map(([o, us]) => ({ owner: o, ms: us / 1000, share: us / busy })),
  };
}

export function summaryMarkdown(s: Summary, maxOwners = 25): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const lines = [
    `Profile: ${(s.totalMs / 1000).toFixed(1)} s sampled, ${(s.busyMs / 1000).toFixed(1)} s not idle; shares are of the time not idle.`,
    '',
    `### Top ${s.top.length} functions by self time`,
    '',
    '| # | function | where | self ms | share |',
    '|---:|---|---|---:|---:|',
    ...s.top.map((e, i) => `| ${i + 1} | \`${e.name}\` | ${e.at} | ${e.ms.toFixed(0)} | ${pct(e.share)} |`),
    '',
    '### Self time by package or project file',
    '',
    '| package / file | self ms | share |',
    '|---|---:|---:|',
    ...s.byOwner.slice(0, maxOwners).map((e) => `| ${e.owner} | ${e.ms.toFixed(0)} | ${pct(e.share)} |`),
  ];
  const rest = s.byOwner.slice(maxOwners);
  if (rest.length)
    lines.push(
      `| (${rest.length} more) | ${rest.reduce((a, e) => a + e.ms, 0).toFixed(0)} | ${pct(rest.reduce((a, e) => a + e.share, 0))} |`,
    );
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { 'skip-ms': { type: 'string' }, top: { type: 'string' } },
  });
  if (positionals.length !== 1) {
    console.error('usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [--skip-ms N] [--top 15]');
    process.exit(2);
  }
  const profile = JSON.parse(fs.readFileSync(positionals[0], 'utf8')) as CpuProfile;
  process.stdout.write(summaryMarkdown(summarise(profile, { skipMs: Number(values['skip-ms'] ?? 0), top: Number(values.top ?? 15) })));
}
