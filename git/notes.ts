// Git notes under refs/notes/commits, read through cat-file and written with the same
// compare-and-swap plumbing as file commits, so concurrent writers cannot lose a note.
import { readInfo, readObject } from './cat-file.ts';
import type { Identity } from './identity.ts';
import { lastCommitFor } from './lookup.ts';
import { commitFiles, type FileOp } from './write.ts';

export const NOTES_REF = 'refs/notes/commits';

/** Where `git notes` may have stored the note of `sha`: flat, or fanned out by one or two levels. */
const candidates = (sha: string) => [sha, `${sha.slice(0, 2)}/${sha.slice(2)}`, `${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha.slice(4)}`];

export interface Note {
  message: Buffer;
  /** The commit of the notes ref that last changed this note. */
  notesCommit: string;
}

async function locate(repoPath: string, sha: string): Promise<{ tip: string | null; path: string | null; message: Buffer | null }> {
  const tip = await readInfo(repoPath, NOTES_REF);
  if (!tip) return { tip: null, path: null, message: null };
  for (const p of candidates(sha)) {
    const obj = await readObject(repoPath, `${tip.oid}:${p}`);
    if (obj?.type === 'blob') return { tip: tip.oid, path: p, message: obj.content };
  }
  return { tip: tip.oid, path: null, message: null };
}

export async function readNote(repoPath: string, sha: string): Promise<Note | null> {
  const { tip, path, message } = await locate(repoPath, sha);
  if (!tip || !path || !message) return null;
  return { message, notesCommit: (await lastCommitFor(repoPath, tip, path)) ?? tip };
}

/** Adds or replaces the note of commit `sha`. */
export async function setNote(repoPath: string, sha: string, message: string, who: Identity): Promise<void> {
  const { tip, path } = await locate(repoPath, sha);
  const content = Buffer.from(message === '' || message.endsWith('\n') ? message : `${message}\n`);
  const ops: FileOp[] = path ? [{ op: 'update', path, content }] : [{ op: 'create', path: sha, content }];
  await commitFiles(repoPath, {
    branch: 'notes',
    ref: NOTES_REF,
    parent: tip,
    expectedOld: tip,
    ops,
    message: "Notes added by 'git notes add'",
    author: who,
  });
}

/** Removes the note of `sha`; false when there was none. */
export async function removeNote(repoPath: string, sha: string, who: Identity): Promise<boolean> {
  const { tip, path } = await locate(repoPath, sha);
  if (!tip || !path) return false;
  await commitFiles(repoPath, {
    branch: 'notes',
    ref: NOTES_REF,
    parent: tip,
    expectedOld: tip,
    ops: [{ op: 'delete', path }],
    message: "Notes removed by 'git notes remove'",
    author: who,
  });
  return true;
}
