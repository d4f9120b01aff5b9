// The git command line against a test server: clones, commits and pushes in temporary work trees,
// with a fixed identity and no credential prompts (credentials go in the URL).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runGit } from '../../git/exec.ts';
import { GitError } from '../../git/errors.ts';

export const IDENTITY = {
  GIT_AUTHOR_NAME: 'Tester',
  GIT_AUTHOR_EMAIL: 'tester@example.com',
  GIT_COMMITTER_NAME: 'Tester',
  GIT_COMMITTER_EMAIL: 'tester@example.com',
};

export interface GitResult {
  ok: boolean;
  out: string;
}

/** Runs git; never throws for a non-zero exit, so tests can assert refusals. */
export async function git(cwd: string | null, ...args: string[]): Promise<GitResult> {
  try {
    const r = await runGit(null, cwd ? ['-C', cwd, ...args] : args, { env: IDENTITY, timeoutMs: 120_000 });
    return { ok: true, out: `${r.stdout.toString('utf8')}${r.stderr}` };
  } catch (e) {
    if (e instanceof GitError) return { ok: false, out: e.stderr };
    throw e;
  }
}

/** `git` that must succeed; returns trimmed stdout+stderr. */
export async function mustGit(cwd: string | null, ...args: string[]): Promise<string> {
  const r = await git(cwd, ...args);
  if (!r.ok) throw new Error(`git ${args.join(' ')} failed: ${r.out}`);
  return r.out.trim();
}

export function workDir(prefix = 'cairn-wt-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** `http://user:secret@host/owner/repo.git` (no credentials when `user` is null). */
export function cloneUrl(base: string, owner: string, repo: string, creds: [string, string] | null = null, suffix = '.git'): string {
  const u = new URL(`${base}/${owner}/${repo}${suffix}`);
  if (creds) {
    u.username = encodeURIComponent(creds[0]);
    u.password = encodeURIComponent(creds[1]);
  }
  return u.toString();
}

/** Writes files in a work tree and commits them. */
export async function commitFiles(dir: string, files: Record<string, string>, message: string): Promise<string> {
  for (const [p, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), content);
  }
  await mustGit(dir, 'add', '-A');
  await mustGit(dir, 'commit', '-q', '-m', message);
  return mustGit(dir, 'rev-parse', 'HEAD');
}

/** `mustGit` with extra environment (e.g. GIT_COMMITTER_DATE). */
export async function mustGitEnv(env: Record<string, string>, cwd: string | null, ...args: string[]): Promise<string> {
  try {
    const r = await runGit(null, cwd ? ['-C', cwd, ...args] : args, { env: { ...IDENTITY, ...env }, timeoutMs: 120_000 });
    return r.stdout.toString('utf8').trim();
  } catch (e) {
    if (e instanceof GitError) throw new Error(`git ${args.join(' ')} failed: ${e.stderr}`);
    throw e;
  }
}
