// A reproducible benchmark of git-backed reads, on loopback only: a real server on an in-memory
// database, a repository of 10,000 commits made with `git fast-import`, and a small closed-loop load
// generator (node:http, keep-alive, a fixed number of workers, bounded in requests and time).
//
//   npx tsx bench/run.ts [--commits 10000] [--concurrency 8] [--requests 2000] [--seconds 15] [--clones 3]
//
// Prints requests per second and p50/p99 latency per route, and the time of a clone over HTTP against
// `git clone --no-local` of the same repository from the file system (same pack protocol, no network).
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openTestDb, startServer } from '../test/helpers/server.ts';
import { makeRepo, makeUser } from '../test/helpers/fixtures.ts';
import { runGit } from '../git/exec.ts';
import { Repository } from '../model/repo.ts';
import { refreshAfterWrite } from '../lib/repo-git.ts';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? Number(process.argv[i + 1]) : dflt;
};
const COMMITS = arg('commits', 10_000);
const CONCURRENCY = arg('concurrency', 8);
const REQUESTS = arg('requests', 2_000);
const SECONDS = arg('seconds', 15);
const CLONES = arg('clones', 3);

/** A fast-import stream: `COMMITS` commits, each appending to one of 100 files, one a minute. */
function fastImportStream(n: number): string {
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

interface LoadResult { route: string; requests: number; errors: number; rps: number; p50: number; p99: number }

function once(agent: http.Agent, url: URL): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** Closed loop: each worker sends its next request when the previous answer has been read. */
async function load(route: string, url: URL): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  for (let i = 0; i < 20; i++) await once(agent, url); // warm the readers and caches
  const latencies: number[] = [];
  let started = 0;
  let errors = 0;
  const t0 = performance.now();
  const deadline = t0 + SECONDS * 1000;
  const worker = async () => {
    while (started < REQUESTS && performance.now() < deadline) {
      started += 1;
      const s = performance.now();
      const status = await once(agent, url);
      latencies.push(performance.now() - s);
      if (status !== 200) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - t0) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))] ?? 0;
  return { route, requests: latencies.length, errors, rps: latencies.length / elapsed, p50: pct(50), p99: pct(99) };
}

async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const s = performance.now();
  await fn();
  return performance.now() - s;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const db = await openTestDb();
  const srv = await startServer(db, { LOG__LEVEL: 'silent' });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-'));
  try {
    const user = await makeUser(db, srv.api);
    await makeRepo(srv.api, user, { name: 'bench' });
    const repoPath = path.join(srv.config.repoRoot, user.name.toLowerCase(), 'bench.git');
    const made = await timeIt(() => runGit(repoPath, ['fast-import', '--quiet'], { input: fastImportStream(COMMITS), timeoutMs: 300_000 }));
    await runGit(repoPath, ['gc', '--quiet']);
    const em = db.db.orm.em.fork();
    const repo = await em.findOneOrFail(Repository, { ownerId: user.id, lowerName: 'bench' });
    await refreshAfterWrite(em, repo, repoPath, ['main']);
    const count = (await runGit(repoPath, ['rev-list', '--count', 'main'])).stdout.toString().trim();
    console.log(`repository: ${count} commits (fast-import ${made.toFixed(0)} ms), node ${process.version}, ${os.cpus().length} CPUs`);
    console.log(`load: ${CONCURRENCY} workers, at most ${REQUESTS} requests or ${SECONDS} s per route, keep-alive, loopback\n`);

    const R = `${srv.api}/repos/${user.name}/bench`;
    const results = [
      await load('GET {R}', new URL(R)),
      await load('GET {R}/contents/README.md', new URL(`${R}/contents/README.md`)),
      await load('GET {R}/commits?limit=30', new URL(`${R}/commits?limit=30`)),
    ];
    console.log('| route | requests | errors | req/s | p50 ms | p99 ms |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const r of results) console.log(`| ${r.route} | ${r.requests} | ${r.errors} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} |`);

    const httpTimes: number[] = [];
    const fsTimes: number[] = [];
    for (let i = 0; i < CLONES; i++) {
      httpTimes.push(await timeIt(() => runGit(null, ['clone', '-q', '--bare', `${srv.url}/${user.name}/bench.git`, path.join(work, `http-${i}`)], { timeoutMs: 300_000 })));
      fsTimes.push(await timeIt(() => runGit(null, ['clone', '-q', '--bare', '--no-local', repoPath, path.join(work, `fs-${i}`)], { timeoutMs: 300_000 })));
    }
    const h = median(httpTimes);
    const f = median(fsTimes);
    console.log(`\nclone (median of ${CLONES}): over HTTP ${h.toFixed(0)} ms, from the file system (--no-local) ${f.toFixed(0)} ms, ratio ${(h / f).toFixed(2)}`);
  } finally {
    await srv.close();
    await db.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
