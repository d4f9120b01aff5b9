// Memory of a server flooded with large anonymous bodies: starts `cli.ts serve` as
// its own process (embedded database, or CAIRN__DATABASE__URL), sends N concurrent JSON bodies of
// SIZE MiB to a route that needs a token, and prints the server's resident memory before and at its
// peak (VmRSS / VmHWM from /proc), with the statuses the clients got.
//
//   npx tsx bench/body-memory.ts [--clients 16] [--mib 15] [--path /api/v1/user/repos]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : dflt;
};
const CLIENTS = Number(arg('clients', '16'));
const MIB = Number(arg('mib', '15'));
const PATH = arg('path', '/api/v1/user/repos');
const PORT = 20000 + Math.floor(Math.random() * 20000);

const memory = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMiB: Math.round(kb('VmRSS') / 1024), peakMiB: Math.round(kb('VmHWM') / 1024) };
};

function post(body: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: PORT,
        path: PATH,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': body.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
      },
    );
    // A server that answers early and closes makes the rest of the upload fail; the answer counts.
    req.on('error', (e: NodeJS.ErrnoException) => resolve(`error ${e.code ?? e.message}`));
    req.end(body);
  });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-body-'));
const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'cli.ts'), 'serve'], {
  cwd: root,
  env: {
    ...process.env,
    CAIRN__SERVER__APP_DATA_PATH: dir,
    CAIRN__SERVER__HTTP_PORT: String(PORT),
    CAIRN__SERVER__HTTP_ADDR: '127.0.0.1',
    CAIRN__LOG__LEVEL: 'error',
    // One process: its memory is what is measured (lib/runtime/workers.ts would fork one per core).
    CAIRN__SERVER__WORKERS: '1',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
try {
  for (let i = 0; ; i++) {
    const up = await fetch(`http://127.0.0.1:${PORT}/api/v1/version`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 120) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 500));
  }
  await new Promise((r) => setTimeout(r, 2000));
  const before = memory(server.pid!);
  const body = Buffer.from(JSON.stringify({ name: 'x', description: 'y'.repeat(MIB * 1024 * 1024 - 40) }));
  const t0 = Date.now();
  const statuses = await Promise.all(Array.from({ length: CLIENTS }, () => post(body)));
  const seconds = (Date.now() - t0) / 1000;
  const after = memory(server.pid!);
  const counts = statuses.reduce<Record<string, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {});
  console.log(JSON.stringify({ clients: CLIENTS, mib: MIB, path: PATH, before, after, statuses: counts, seconds }));
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  fs.rmSync(dir, { recursive: true, force: true });
}
