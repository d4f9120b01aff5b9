// The load generator, in its own process so it never shares an event loop with what it measures:
// `node --import tsx bench/load-gen.ts '<LoadSpec as JSON>'` prints one LoadResult as JSON.
//
// autocannon drives the connections (keep-alive, closed loop: each connection sends its next request
// when the answer is read). Its own histogram keeps whole milliseconds, too coarse for p50s of a few
// ms and for "within 1.5x"; the latency of every 2xx answer is therefore kept here as autocannon
// reports it (a float, from hrtime) and the percentiles are exact.
import fs from 'node:fs';
import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** The server's process: its CPU over the measured window is reported per answer (Linux /proc). */
  serverPid?: number;
}

/** CPU milliseconds per 2xx answer over the measured window, by process (Linux; null elsewhere). */
export interface CpuPerAnswer {
  /** The server under load. */
  server: number;
  /** Every `postgres` process of the machine (the bench's database server is the local one). */
  database: number;
  /** This load generator. */
  loader: number;
}

export interface LoadResult {
  connections: number;
  seconds: number;
  ok: number;
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
  cpu: CpuPerAnswer | null;
}

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

/** utime + stime of a process in ms, from /proc/<pid>/stat (fields 14 and 15, after the command's parentheses). */
function cpuMsOf(pid: number | string): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return 0; // gone meanwhile
  }
}

/**
 * CPU ms of the server: its process and its children of the same name (worker processes,
 * lib/runtime/workers.ts; not its git children). A worker gone meanwhile counts as 0 after.
 */
function serverCpuMs(pid: number): number {
  const comm = (p: string) => fs.readFileSync(`/proc/${p}/comm`, 'utf8').trim();
  let ms = cpuMsOf(pid);
  try {
    const name = comm(String(pid));
    for (const p of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(p)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid === pid && comm(p) === name) ms += cpuMsOf(p);
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    // the server is gone
  }
  return ms;
}

/** CPU ms of every process named `postgres`, by pid (backends come and go; a gone one counts as 0 after). */
function databaseCpu(): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    out.set(pid, cpuMsOf(pid));
  }
  return out;
}

interface CpuMark {
  server: number;
  database: Map<string, number>;
  loader: number;
}

function cpuMark(serverPid: number): CpuMark {
  const own = process.cpuUsage();
  return { server: serverCpuMs(serverPid), database: databaseCpu(), loader: (own.user + own.system) / 1000 };
}

function cpuSince(start: CpuMark, end: CpuMark, answers: number): CpuPerAnswer {
  let database = 0;
  for (const [pid, ms] of end.database) database += ms - (start.database.get(pid) ?? 0);
  return { server: (end.server - start.server) / answers, database: database / answers, loader: (end.loader - start.loader) / answers };
}

function run(spec: LoadSpec, seconds: number, onResponse?: (status: number, ms: number) => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        method: spec.method,
        headers: spec.headers,
        body: spec.body,
        connections: spec.connections,
        duration: seconds,
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    if (onResponse) instance.on('response', (_client, status, _bytes, ms) => onResponse(status, ms));
  });
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: Float64Array, q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((q / 100) * sorted.length) - 1)] : NaN;

export async function measure(spec: LoadSpec): Promise<LoadResult> {
  if (spec.warmupSeconds > 0) await run(spec, spec.warmupSeconds);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const watch = spec.serverPid !== undefined && fs.existsSync('/proc/self/stat');
  const before = watch ? cpuMark(spec.serverPid!) : null;
  const result = await run(spec, spec.seconds, (status, ms) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const cpu = before && latencies.length ? cpuSince(before, cpuMark(spec.serverPid!), latencies.length) : null;
  const sorted = Float64Array.from(latencies).sort();
  const sum = latencies.reduce((a, b) => a + b, 0);
  return {
    connections: spec.connections,
    seconds: result.duration,
    ok: latencies.length,
    rps: latencies.length / result.duration,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: latencies.length ? sum / latencies.length : NaN,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses,
    cpu,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const spec = JSON.parse(process.argv[2] ?? '') as LoadSpec;
  process.stdout.write(`${JSON.stringify(await measure(spec))}\n`);
}
