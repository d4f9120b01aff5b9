// The mixed workload's load generators (bench/mixed.ts), each in its own process:
//   node --import tsx bench/mixed-gen.ts read '<MixedReadSpec as JSON>'   prints one MixedReadResult
//   node --import tsx bench/mixed-gen.ts write '<MixedWriteSpec as JSON>' prints one MixedWriteResult
//
// Reads: autocannon's connections (closed loop), each request drawn afresh: the caller (a tenth
// anonymous, else one of the users, Zipf-skewed), the repository (Zipf-skewed over all of them; a
// private one only for a caller who may read it) and the route (`GET {R}`, `GET {R}/issues`,
// `GET /user`, `GET /users/{name}`). The share of reads answered from kept answers is cairn's own
// count (`cairn_kept_answers_total` of GET /metrics) over the measured window.
// Writes: open loop at a fixed rate, whatever the answers' latency: new issues in random public
// repositories, and comments on the issues made before, alternately.
import autocannon from 'autocannon';

export interface MixedRepo {
  name: string;
  private: boolean;
  /** Indexes in `users` of the collaborators (who may read it when private). */
  readers: number[];
}

export interface MixedReadSpec {
  /** The API base, `http://host:port/api/v1`. */
  api: string;
  owner: string;
  repos: MixedRepo[];
  users: { name: string; token: string }[];
  connections: number;
  warmupSeconds: number;
  seconds: number;
}

export interface MixedReadResult {
  ok: number;
  rps: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
  errors: number;
  /** Kept answers sent again over the measured window, per 2xx read (null: no metrics). */
  keptShare: number | null;
}

export interface MixedWriteSpec {
  api: string;
  owner: string;
  token: string;
  /** Public repositories written to. */
  repos: string[];
  perSecond: number;
  seconds: number;
}

export interface MixedWriteResult {
  sent: number;
  ok: number;
  perSecond: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
}

/** Zipf (exponent 1) over n ranks: rank 0 is the most frequent. */
function zipf(n: number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cdf[i] = sum += 1 / (i + 1);
  return () => {
    const u = Math.random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const percentile = (sorted: Float64Array, q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((q / 100) * sorted.length) - 1)]! : Number.NaN;

async function keptHits(api: string): Promise<number | null> {
  const r = await fetch(new URL('/metrics', api)).catch(() => null);
  if (!r || r.status !== 200) return null;
  const m = /^cairn_kept_answers_total\{result="hit"\} (\d+)/m.exec(await r.text());
  return m ? Number(m[1]) : 0;
}

/** One request of the mix: a path and its caller's token (null: anonymous). */
function drawRead(spec: MixedReadSpec, user: () => number, repo: () => number): { path: string; token: string | null } {
  const base = new URL(spec.api).pathname;
  const who = Math.random() < 0.1 ? -1 : user();
  const token = who < 0 ? null : spec.users[who]!.token;
  let r = spec.repos[repo()]!;
  for (let i = 0; r.private && !r.readers.includes(who) && i < 20; i++) r = spec.repos[repo()]!;
  if (r.private && !r.readers.includes(who)) r = spec.repos.find((x) => !x.private)!;
  const R = `${base}/repos/${spec.owner}/${r.name}`;
  const k = Math.random();
  if (k < 0.45) return { path: R, token };
  if (k < 0.7) return { path: `${R}/issues?state=open&limit=10`, token };
  if (k < 0.9 && token) return { path: `${base}/user`, token };
  return { path: `${base}/users/${spec.users[user()]!.name}`, token };
}

function cannon(spec: MixedReadSpec, seconds: number, onResponse?: (status: number, ms: number) => void) {
  const user = zipf(spec.users.length);
  const repo = zipf(spec.repos.length);
  return new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.api,
        connections: spec.connections,
        duration: seconds,
        requests: [
          {
            method: 'GET',
            setupRequest: (req: autocannon.Request) => {
              const { path, token } = drawRead(spec, user, repo);
              return { ...req, method: 'GET', path, headers: token ? { authorization: `token ${token}` } : {} };
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    if (onResponse) instance.on('response', (_client, status, _bytes, ms) => onResponse(status, ms));
  });
}

export async function read(spec: MixedReadSpec): Promise<MixedReadResult> {
  if (spec.warmupSeconds > 0) await cannon(spec, spec.warmupSeconds);
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  const hitsBefore = await keptHits(spec.api);
  const result = await cannon(spec, spec.seconds, (status, ms) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const hitsAfter = await keptHits(spec.api);
  const sorted = Float64Array.from(latencies).sort();
  return {
    ok: latencies.length,
    rps: latencies.length / result.duration,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    statuses,
    errors: result.errors + result.timeouts,
    keptShare: hitsBefore === null || hitsAfter === null || !latencies.length ? null : (hitsAfter - hitsBefore) / latencies.length,
  };
}

export async function write(spec: MixedWriteSpec): Promise<MixedWriteResult> {
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  const issues: { repo: string; number: number }[] = [];
  const headers = { Authorization: `token ${spec.token}`, 'Content-Type': 'application/json' };
  const one = async (n: number) => {
    const t0 = performance.now();
    const target = n % 2 === 1 && issues.length ? issues[Math.floor(Math.random() * issues.length)]! : null;
    const repo = target?.repo ?? spec.repos[Math.floor(Math.random() * spec.repos.length)]!;
    const url = target
      ? `${spec.api}/repos/${spec.owner}/${repo}/issues/${target.number}/comments`
      : `${spec.api}/repos/${spec.owner}/${repo}/issues`;
    const body = target ? { body: 'A comment of the mixed workload.' } : { title: `Mixed ${n}`, body: 'An issue of the mixed workload.' };
    try {
      const r = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
      const json = (await r.json()) as { number?: number };
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status === 201) {
        latencies.push(performance.now() - t0);
        if (!target && json.number) issues.push({ repo, number: json.number });
      }
    } catch {
      statuses.error = (statuses.error ?? 0) + 1;
    }
  };
  const pending: Promise<void>[] = [];
  const t0 = performance.now();
  let sent = 0;
  if (spec.perSecond > 0) {
    // Open loop: the n-th write leaves at n / rate seconds, whether the earlier ones were answered or not.
    while (performance.now() - t0 < spec.seconds * 1000) {
      const due = t0 + (sent * 1000) / spec.perSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      pending.push(one(sent++));
    }
  }
  await Promise.all(pending);
  const sorted = Float64Array.from(latencies).sort();
  return {
    sent,
    ok: latencies.length,
    perSecond: sent / spec.seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    statuses,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [mode, json] = process.argv.slice(2);
  const out = mode === 'read' ? await read(JSON.parse(json ?? '')) : await write(JSON.parse(json ?? ''));
  process.stdout.write(`${JSON.stringify(out)}\n`);
}
