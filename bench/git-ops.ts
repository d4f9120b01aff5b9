// git for the bench: a repository of many commits made with `git fast-import`, and timed clones and
// pushes over cairn's smart HTTP against the same operations on the file system (`clone --no-local`
// and a push to a path run the same pack protocol through pipes, with no HTTP and no cairn).
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { runGit } from '../git/exec.ts';

const LONG = { timeoutMs: 600_000 };

/** A fast-import stream of `n` commits on main, each changing one of 100 files, one a minute. */
export function fastImportStream(n: number): string {
  const out: string[] = [];
  const t0 = 1_700_000_000;
  for (let i = 1; i <= n; i++) {
    const body = i === 1 ? '# bench\n\nA repository for the benchmark.\n' : `change ${i}\n`;
    const file = i === 1 ? 'README.md' : `src/file${i % 100}.txt`;
    const msg = `commit ${i}\n`;
    out.push(
      'commit refs/heads/main',
      `committer Bench <bench@example.com> ${t0 + i * 60} +0000`,
      `data ${Buffer.byteLength(msg)}`,
      msg.slice(0, -1),
      `M 100644 inline ${file}`,
      `data ${Buffer.byteLength(body)}`,
      body.slice(0, -1),
      '',
    );
  }
  return `${out.join('\n')}\n`;
}

/** A bare repository at `dir` holding `commits` commits on main, packed as a server would hold it. */
export async function makeHistory(dir: string, commits: number): Promise<void> {
  await runGit(null, ['init', '-q', '--bare', '--initial-branch=main', dir]);
  await runGit(dir, ['fast-import', '--quiet'], { input: fastImportStream(commits), ...LONG });
  await runGit(dir, ['gc', '-q'], LONG);
}

/** `-c http.extraHeader=...` for git over HTTP as `user` with a token as the password (README, "Git over HTTP"). */
export const basicAuth = (user: string, token: string) => [
  '-c',
  `http.extraHeader=Authorization: Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`,
];

export async function push(src: string, url: string, auth: string[]): Promise<void> {
  await runGit(null, [...auth, '-C', src, 'push', '-q', url, 'main'], LONG);
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export interface Timing {
  http: number[];
  disk: number[];
}

/** `runs` clones of `httpUrl` and of `diskPath` (--no-local), alternating, each into a new directory. */
export async function timeClones(work: string, httpUrl: string, diskPath: string, runs: number): Promise<Timing> {
  const t: Timing = { http: [], disk: [] };
  for (let i = 0; i < runs; i++) {
    const a = path.join(work, `clone-http-${i}`);
    const b = path.join(work, `clone-disk-${i}`);
    t.http.push(await timed(() => runGit(null, ['clone', '-q', '--bare', httpUrl, a], LONG)));
    t.disk.push(await timed(() => runGit(null, ['clone', '-q', '--bare', '--no-local', diskPath, b], LONG)));
    fs.rmSync(a, { recursive: true, force: true });
    fs.rmSync(b, { recursive: true, force: true });
  }
  return t;
}

/**
 * `targets.length` pushes of `src` (its main) to the empty cairn repositories `targets`, each against a
 * push to a new empty bare repository on disk.
 */
export async function timePushes(work: string, src: string, targets: string[], auth: string[]): Promise<Timing> {
  const t: Timing = { http: [], disk: [] };
  for (const [i, url] of targets.entries()) {
    const b = path.join(work, `push-disk-${i}.git`);
    await runGit(null, ['init', '-q', '--bare', '--initial-branch=main', b]);
    t.http.push(await timed(() => push(src, url, auth)));
    t.disk.push(await timed(() => push(src, b, [])));
    fs.rmSync(b, { recursive: true, force: true });
  }
  return t;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
