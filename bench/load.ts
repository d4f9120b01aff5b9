// Runs bench/load-gen.ts in its own process for one target at one number of connections.
import { NODE, childEnv, runToEnd } from './procs.ts';
import type { LoadResult, LoadSpec } from './load-gen.ts';

export type { LoadResult, LoadSpec };

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const out = await runToEnd([NODE, '--import', 'tsx', 'bench/load-gen.ts', JSON.stringify(spec)], {
    env: childEnv({}),
    timeoutMs: (spec.warmupSeconds + spec.seconds + 60) * 1000,
  });
  const line = out.trim().split('\n').pop() ?? '';
  const r = JSON.parse(line) as LoadResult;
  // JSON has no NaN: the percentiles of a window without a 2xx answer come back as null.
  for (const k of ['p50', 'p99', 'mean'] as const) r[k] ??= NaN;
  return r;
}

/** What a target is driven with: a URL, and for writes the method and body. */
export interface Target {
  url: string;
  method: 'GET' | 'POST';
  token: string | null;
  body?: unknown /** The serving process, whose CPU is measured. */;
  pid?: number;
}

export function specOf(t: Target, connections: number, warmupSeconds: number, seconds: number): LoadSpec {
  const headers: Record<string, string> = {};
  if (t.token) headers.Authorization = `token ${t.token}`;
  if (t.body !== undefined) headers['Content-Type'] = 'application/json';
  return {
    url: t.url,
    method: t.method,
    headers,
    body: t.body === undefined ? undefined : JSON.stringify(t.body),
    connections,
    warmupSeconds,
    seconds,
    serverPid: t.pid,
  };
}
