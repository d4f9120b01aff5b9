// Shared setup for the git layer tests: real bare repositories in a private temp dir.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { closeAll } from '../../git/cat-file.ts';
import { runGit } from '../../git/exec.ts';
import { initBare } from '../../git/repo.ts';
import { commitFiles, type FileOp, type Identity } from '../../git/write.ts';

export const alice: Identity = { name: 'Alice', email: 'alice@example.com', date: new Date('2024-01-02T01:04:05Z'), tz: '+0200' };
export const bob: Identity = { name: 'Bob', email: 'bob@example.com', date: new Date('2024-03-04T05:06:07Z'), tz: '-0430' };

export interface Sandbox {
  root: string;
  repo: (name?: string) => Promise<string>;
  cleanup: () => Promise<void>;
}

export async function sandbox(): Promise<Sandbox> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'cairn-git-test-'));
  let n = 0;
  return {
    root,
    repo: async (name?: string) => {
      const p = path.join(root, name ?? `r${n++}.git`);
      await initBare(p, { defaultBranch: 'main' });
      return p;
    },
    cleanup: async () => {
      await closeAll();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** git's stdout as trimmed text. */
export async function git(repo: string | null, ...args: string[]): Promise<string> {
  return (await runGit(repo, args)).stdout.toString('utf8').trim();
}

export function text(s: string): Buffer {
  return Buffer.from(s, 'utf8');
}

/** Commits onto `branch` at its current value (or as a first commit). */
export async function commit(repo: string, ops: FileOp[], message = 'change', branch = 'main', author: Identity = alice): Promise<string> {
  const { stdout, code } = await runGit(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { okCodes: [0, 1] });
  const parent = code === 0 ? stdout.toString('utf8').trim() : null;
  return (await commitFiles(repo, { branch, parent, ops, message, author })).commitSha;
}
