// Another cairn process (`cli.ts serve`) over a test database: what a second server of the same
// instance sees, with a clock, a pool and kept answers of its own (PostgreSQL only: the embedded
// database admits one process).
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

export interface CairnProcess {
  url: string;
  api: string;
  /** Everything the process logged so far. */
  log(): string;
  close(): Promise<void>;
}

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/** Starts `cli.ts serve` on a free port of 127.0.0.1 with `CAIRN__` settings (`{ DATABASE__URL: ... }`). */
export async function startCairnProcess(dataPath: string, settings: Record<string, string>): Promise<CairnProcess> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: os.tmpdir(),
    CAIRN__SERVER__APP_DATA_PATH: dataPath,
    CAIRN__SERVER__HTTP_PORT: '0',
    CAIRN__SERVER__HTTP_ADDR: '127.0.0.1',
    CAIRN__LOG__LEVEL: 'info',
    // One process, with one clock and one pool, unless the settings ask for workers (lib/runtime/workers.ts).
    CAIRN__SERVER__WORKERS: '1',
  };
  for (const [k, v] of Object.entries(settings)) env[`CAIRN__${k}`] = v;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'cli.ts'), 'serve'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const m = /cairn listening on (http:\/\/[^\s"]+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
    void exited.then(() => reject(new Error(`serve exited: ${out}`)));
  });
  return {
    url,
    api: `${url}/api/v1`,
    log: () => out,
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
