// Runs every test/**/*.test.ts file in its own process (each gets its own database and data
// directory), a few at a time, and ends with the line CI reads: `N passed, N failed`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.dirname(new URL(import.meta.url).pathname);
const filter = process.argv.slice(2);
const files = fs
  .readdirSync(root, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts'))
  .filter((f) => filter.length === 0 || filter.some((x) => f.includes(x)))
  .sort();

interface Result {
  file: string;
  passed: number;
  failed: number;
  output: string;
  code: number | null;
}

function runFile(file: string): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, file)], {
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('close', (code) => {
      const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
      const total = [...plain.matchAll(/Total:\s+(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
      const passed = [...plain.matchAll(/Passed:\s+(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
      // uvu's Total counts the tests that ran; skipped ones are reported apart and never in Total.
      let failed = total - passed;
      // A file that crashed before reporting, or exited non-zero with nothing failed, counts as one failure.
      if ((code !== 0 && failed === 0) || total === 0) failed += 1;
      resolve({ file, passed, failed, output, code });
    });
  });
}

const parallel = Math.max(1, Math.min(Number(process.env.TEST_JOBS ?? 0) || Math.ceil(os.cpus().length), 4));
const queue = [...files];
const results: Result[] = [];
await Promise.all(
  Array.from({ length: parallel }, async () => {
    for (let f = queue.shift(); f; f = queue.shift()) {
      const r = await runFile(f);
      results.push(r);
      const mark = r.failed ? 'FAIL' : 'ok  ';
      process.stdout.write(`${mark} ${r.file} (${r.passed} passed${r.failed ? `, ${r.failed} failed` : ''})\n`);
      if (r.failed || process.env.TEST_VERBOSE) process.stdout.write(`${r.output}\n`);
    }
  }),
);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed ? 1 : 0);
