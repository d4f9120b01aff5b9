import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import os from 'node:os';
import { PassThrough, type Readable } from 'node:stream';
import { GitArgError, GitError, GitTimeoutError } from './errors.ts';
import { mayChange, repositoryChanged } from './changes.ts';

export { GitArgError, GitError, GitTimeoutError } from './errors.ts';

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_STREAM_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_MAX_BUFFER = 256 * 1024 * 1024;
const STDERR_LIMIT = 64 * 1024;

// Options placed before the subcommand. Attributes are read from no user file, and no credential
// helper may run (this process never talks to a remote).
const GLOBAL_ARGS = ['-c', 'credential.helper=', '-c', 'core.attributesFile=/dev/null'];

export interface RunOptions {
  input?: Buffer | string;
  timeoutMs?: number;
  env?: Record<string, string>;
  maxBuffer?: number;
  /** Exit codes that resolve instead of rejecting with GitError. Default [0]. */
  okCodes?: number[];
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

export interface SpawnOptions {
  env?: Record<string, string>;
  /** 0 disables the timeout (only for long-lived processes owned by one module). */
  timeoutMs?: number;
}

export interface StreamOptions extends SpawnOptions {
  input?: Readable;
}

/** Throws unless `value` can sit in argv without being read as an option. */
export function assertSafeArg(value: string, what = 'argument'): void {
  if (value.startsWith('-')) throw new GitArgError(`${what} may not start with '-': ${JSON.stringify(value)}`);
  if (value.includes('\0')) throw new GitArgError(`${what} may not contain NUL`);
}

/**
 * The whole environment of a git child: nothing is inherited but PATH (and TMPDIR), so a stray
 * GIT_DIR, GIT_INDEX_FILE or user config of the server process cannot leak in.
 */
export function gitEnv(extra?: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: os.tmpdir(),
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    // User input is never a glob or magic pathspec.
    GIT_LITERAL_PATHSPECS: '1',
    // A pushed refs/replace/* must not change what the server reads.
    GIT_NO_REPLACE_OBJECTS: '1',
  };
  if (process.env.TMPDIR) env.TMPDIR = process.env.TMPDIR;
  return { ...env, ...extra };
}

function gitArgv(repoPath: string | null, args: string[]): string[] {
  return repoPath === null ? [...GLOBAL_ARGS, ...args] : [...GLOBAL_ARGS, `--git-dir=${repoPath}`, ...args];
}

function describe(args: string[], code: number | null, signal: string | null, stderr: string): string {
  const firstLine = stderr.split('\n').find((l) => l.trim() !== '') ?? '';
  return `git ${args[0] ?? ''} failed (${signal ?? code}): ${firstLine}`;
}

interface Launched {
  child: ChildProcessWithoutNullStreams;
  timedOut: () => boolean;
}

function launch(repoPath: string | null, args: string[], opts: SpawnOptions, defaultTimeout: number): Launched {
  // cwd '/' so that commands run without --git-dir never discover a repository around the server.
  const child = spawn('git', gitArgv(repoPath, args), { cwd: '/', env: gitEnv(opts.env), stdio: 'pipe' });
  let timedOut = false;
  const timeoutMs = opts.timeoutMs ?? defaultTimeout;
  if (timeoutMs > 0) {
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
      // A grandchild (hook, pack-objects) may hold the pipes open; do not wait for it.
      child.stdout.destroy();
      child.stderr.destroy();
    }, timeoutMs);
    child.on('close', () => clearTimeout(timer));
    child.on('error', () => clearTimeout(timer));
  }
  // git may exit before reading all of stdin (e.g. on a usage error); its exit code tells the story.
  child.stdin.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') child.kill('SIGKILL');
  });
  return { child, timedOut: () => timedOut };
}

/** Runs one git command to completion, buffering stdout. Rejects with GitError unless the exit code is in okCodes. */
export function runGit(repoPath: string | null, args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBuffer = opts.maxBuffer ?? DEFAULT_MAX_BUFFER;
  const okCodes = opts.okCodes ?? [0];
  return new Promise((resolve, reject) => {
    const { child, timedOut } = launch(repoPath, args, { env: opts.env, timeoutMs }, timeoutMs);
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let overflow = false;
    let settled = false;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBuffer) {
        overflow = true;
        child.kill('SIGKILL');
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_LIMIT) stderr += chunk.toString('utf8');
    });
    child.on('error', (err) => {
      if (settled) return;
      settled = true;
      reject(err);
    });
    child.on('close', (code, signal) => {
      if (settled) return;
      settled = true;
      const settle = () => {
        if (timedOut()) return reject(new GitTimeoutError(args, timeoutMs, stderr));
        if (overflow) return reject(new GitError(`git ${args[0] ?? ''} output exceeds ${maxBuffer} bytes`, null, stderr, args));
        if (code === null || !okCodes.includes(code)) return reject(new GitError(describe(args, code, signal, stderr), code, stderr, args));
        resolve({ stdout: Buffer.concat(chunks), stderr, code });
      };
      // A command that may have moved a ref is announced before its caller goes on, failed or not
      // (git/changes.ts): the caller's answer must not reach a client before kept answers are stale.
      if (mayChange(args)) repositoryChanged().then(settle, reject);
      else settle();
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** Starts a git process and hands over its pipes; the caller owns it. Killed after timeoutMs (default 10 min). */
export function spawnGit(repoPath: string | null, args: string[], opts: SpawnOptions = {}): ChildProcessWithoutNullStreams {
  return launch(repoPath, args, opts, DEFAULT_STREAM_TIMEOUT_MS).child;
}

/**
 * git's stdout as a stream that ends only after git exited 0, and is destroyed with a GitError
 * otherwise, so a consumer can never mistake a truncated output for a complete one. Destroying the
 * returned stream kills git.
 */
export function gitStream(repoPath: string | null, args: string[], opts: StreamOptions = {}): Readable {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_STREAM_TIMEOUT_MS;
  const { child, timedOut } = launch(repoPath, args, { env: opts.env, timeoutMs }, timeoutMs);
  const out = new PassThrough();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < STDERR_LIMIT) stderr += chunk.toString('utf8');
  });
  child.stdout.pipe(out, { end: false });
  child.on('error', (err) => out.destroy(err));
  child.on('close', (code, signal) => {
    if (code === 0) out.end();
    else if (timedOut()) out.destroy(new GitTimeoutError(args, timeoutMs, stderr));
    else out.destroy(new GitError(describe(args, code, signal, stderr), code, stderr, args));
  });
  out.on('close', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const input = opts.input;
  if (input) {
    input.on('error', (err) => {
      out.destroy(err);
      child.kill('SIGKILL');
    });
    input.pipe(child.stdin);
  } else {
    child.stdin.end();
  }
  return out;
}
