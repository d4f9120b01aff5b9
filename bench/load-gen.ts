// The load generator, in its own process so it never shares an event loop with what it measures:
// `node --import tsx bench/load-gen.ts '<LoadSpec as JSON>'` prints one LoadResult as JSON.
//
// autocannon drives the connections (keep-alive, closed loop: each connection sends its next request
// when the answer is read). Its own histogram keeps whole milliseconds, too coarse for p50s of a few
// ms and for "within 1.5x"; the latency of every 2xx answer is therefore kept here as autocannon
// reports it (a float, from hrtime) and the percentiles are exact.
import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
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
}

function run(spec: LoadSpec, seconds: number, onResponse?: (status: number, ms: number) => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon({
      url: spec.url,
      method: spec.method,
      headers: spec.headers,
      body: spec.body,
      connections: spec.connections,
      duration: seconds,
    }, (err, result) => (err ? reject(err) : resolve(result)));
    if (onResponse) instance.on('response', (_client, status, _bytes, ms) => onResponse(status, ms));
  });
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: Float64Array, q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((q / 100) * sorted.length) - 1)] : NaN);

export async function measure(spec: LoadSpec): Promise<LoadResult> {
  if (spec.warmupSeconds > 0) await run(spec, spec.warmupSeconds);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const result = await run(spec, spec.seconds, (status, ms) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status >= 200 && status < 300) latencies.push(ms);
  });
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
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const spec = JSON.parse(process.argv[2] ?? '') as LoadSpec;
  process.stdout.write(`${JSON.stringify(await measure(spec))}\n`);
}
