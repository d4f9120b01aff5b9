// cairn as `npm start` runs it: `node <SERVE_NODE_FLAGS> cli.ts serve` (lib/runtime/node-flags.ts)
// with the Node.js the project installs, settings from CAIRN__ variables, log level warn.
import { performance } from 'node:perf_hooks';
import { NODE, childEnv, runToEnd, start, waitFor200, type Proc } from './procs.ts';
import { SERVE_NODE_FLAGS } from '../lib/runtime/node-flags.ts';

export interface CairnSetup {
  dataPath: string;
  /** Empty for the embedded database. */
  dbUrl: string;
  port: number;
  log: string;
  /** Kept answers (lib/http/answer-cache.ts) on, as by default; off with `--no-kept`. */
  kept: boolean;
  /** [server] WORKERS (0: one per core). */
  workers: number;
  /** GET /metrics on (the mixed workload reads the kept answers' count there). */
  metrics?: boolean;
}

export interface Cairn {
  proc: Proc;
  url: string;
  api: string;
  /** From the spawn to the first 200 of /api/v1/version. */
  startupMs: number;
}

export function cairnEnv(s: CairnSetup): NodeJS.ProcessEnv {
  const env: Record<string, string> = {
    CAIRN__SERVER__APP_DATA_PATH: s.dataPath,
    CAIRN__SERVER__HTTP_ADDR: '127.0.0.1',
    CAIRN__SERVER__HTTP_PORT: String(s.port),
    CAIRN__SERVER__ROOT_URL: `http://127.0.0.1:${s.port}/`,
    CAIRN__LOG__LEVEL: 'warn',
  };
  if (s.dbUrl) env.CAIRN__DATABASE__URL = s.dbUrl;
  if (!s.kept) env.CAIRN__CACHE__ANSWERS = 'false';
  if (s.metrics) env.CAIRN__METRICS__ENABLED = 'true';
  env.CAIRN__SERVER__WORKERS = String(s.workers);
  return childEnv(env);
}

export async function startCairn(s: CairnSetup, nodeFlags: string[] = []): Promise<Cairn> {
  const url = `http://127.0.0.1:${s.port}`;
  const t0 = performance.now();
  // BENCH_CAIRN_FLAGS: Node.js flags for cairn's process only (say `--max-old-space-size=256`), to measure them.
  const extra = (process.env.BENCH_CAIRN_FLAGS ?? '').split(' ').filter((f) => f !== '');
  const proc = start('cairn', [NODE, ...SERVE_NODE_FLAGS, ...extra, ...nodeFlags, 'cli.ts', 'serve'], { env: cairnEnv(s), log: s.log });
  // Minutes on a machine others load (the run's own time bound still applies).
  const startupMs = await waitFor200(`${url}/api/v1/version`, proc, t0, 600_000);
  return { proc, url, api: `${url}/api/v1`, startupMs };
}

/** `npm run --silent cli -- admin user create ...` (README, "Run it"); returns the token it prints last. */
export async function createUser(s: CairnSetup, name: string, admin: boolean): Promise<string> {
  const argv = [
    'npm',
    'run',
    '--silent',
    'cli',
    '--',
    'admin',
    'user',
    'create',
    '--username',
    name,
    '--password',
    'bench-Passw0rd',
    '--email',
    `${name}@example.com`,
    '--access-token',
  ];
  if (admin) argv.push('--admin');
  const out = await runToEnd(argv, { env: cairnEnv(s), timeoutMs: 120_000 });
  const token = out.trim().split('\n').pop() ?? '';
  if (!/^[0-9a-f]{40}$/.test(token)) throw new Error(`cli admin user create ${name}: no token in ${JSON.stringify(out)}`);
  return token;
}

/** One API call; anything but `expect` stops the run with what cairn answered. */
export async function api<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
  expect = method === 'POST' ? 201 : 200,
): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `token ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  if (r.status !== expect) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : null) as T;
}
