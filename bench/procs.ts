// The processes of a bench run: cairn, the two ceilings, the load generator and the CLI, each its own
// process (argv arrays, never a shell), with output kept in a log file of the run. Every process
// started here is stopped by `stopAll`, also when the run fails or is interrupted.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
/**
 * The Node.js the project installs (README, "Run it"); `npm start` runs this one. `BENCH_NODE=/usr/bin/node`
 * runs cairn and the ceilings on another runtime, to compare runtimes in one way.
 */
export const NODE = process.env.BENCH_NODE ?? path.join(ROOT, 'node_modules', '.bin', 'node');

export interface Proc {
  name: string;
  pid: number;
  child: ChildProcess;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

const running = new Set<Proc>();

/** A port nobody listens on now (loopback), for a process that needs its port before it starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** The environment of a child: ours without any CAIRN__ setting, plus `env`. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CAIRN__')) out[k] = v;
  return { ...out, ...env };
}

export function start(name: string, argv: string[], opts: { env: NodeJS.ProcessEnv; log: string }): Proc {
  const out = fs.openSync(opts.log, 'a');
  const child = spawn(argv[0], argv.slice(1), { cwd: ROOT, env: opts.env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  if (child.pid === undefined) throw new Error(`${name}: could not start ${argv[0]}`);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const proc: Proc = {
    name,
    pid: child.pid,
    child,
    exited,
    async stop() {
      running.delete(proc);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      // cairn closes its server, database and git readers on SIGTERM; a CPU profile is written on exit.
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
  running.add(proc);
  return proc;
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop()));
}

/** Milliseconds until `url` answers 200 (polled every 20 ms), measured from `since`. */
export async function waitFor200(url: string, proc: Proc, since: number, timeoutMs = 120_000): Promise<number> {
  const deadline = since + timeoutMs;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited (${proc.child.exitCode}) before answering ${url}`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await r.arrayBuffer();
      if (r.status === 200) return performance.now() - since;
    } catch {
      // Not listening yet: connection refused until the server is up.
    }
    if (performance.now() > deadline) throw new Error(`${proc.name}: no 200 from ${url} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Resident memory of a process in MB of 10^6 bytes (`VmRSS`), and its peak (`VmHWM`), from /proc. */
export function memoryMB(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  // /proc says kB and means KiB.
  const mb = (key: string) => (Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024) / 1e6;
  return { rss: mb('VmRSS'), peak: mb('VmHWM') };
}

/** Runs a process to its end; resolves with its stdout, rejects with its output on a non-zero exit. */
export function runToEnd(argv: string[], opts: { env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd: ROOT, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${argv.slice(0, 4).join(' ')} … ended with ${signal ?? code}\n${stderr.slice(-2000)}`));
    });
  });
}
