import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { GitArgError, GitError } from './errors.ts';
import { spawnGit } from './exec.ts';

// One long-lived `git cat-file --batch-command` per repository. --batch-command (git >= 2.36)
// answers both `info` (what --batch-check gives) and `contents` (what --batch gives) on one pipe,
// so a repository costs one process instead of two. Requests that arrive while others are being
// answered are sent together, in one write, when those are done (a write to the pipe is
// a system call and a wake-up of git, and was the largest cost of a contents read under load);
// git answers in order. An `info` asked again while the same one waits unsent shares its answer: git
// reads it after both were asked, so it is as fresh for the second as for the first.

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

export interface ObjectInfo {
  oid: string;
  type: ObjectType;
  size: number;
}

export interface GitObject extends ObjectInfo {
  content: Buffer;
}

export const IDLE_TIMEOUT_MS = 60_000;
const MAX_READERS = 128;
const ARGS = ['cat-file', '--batch-command'];
const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) (blob|tree|commit|tag) (\d+)$/;

interface Request {
  line: string;
  contents: boolean;
  resolve: (value: GitObject | ObjectInfo | null) => void;
  reject: (err: Error) => void;
}

function parseType(value: string): ObjectType {
  if (value === 'blob' || value === 'tree' || value === 'commit' || value === 'tag') return value;
  throw new GitError(`cat-file: unknown object type ${value}`, null, '', ARGS);
}

export class BatchReader {
  readonly repoPath: string;
  private readonly child: ChildProcessWithoutNullStreams;
  /** Not sent yet. */
  private readonly queue: Request[] = [];
  /** The `info` requests of `queue`, by revision. */
  private readonly queuedInfo = new Map<string, Promise<ObjectInfo | null>>();
  /** Sent, answered in this order. */
  private inflight: Request[] = [];
  private header: ObjectInfo | null = null;
  private chunks: Buffer[] = [];
  private buffered = 0;
  private stderr = '';
  private closedFlag = false;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly exited: Promise<void>;
  private readonly onClose: (reader: BatchReader) => void;
  private readonly idleMs: number;

  constructor(repoPath: string, onClose: (reader: BatchReader) => void, idleMs = IDLE_TIMEOUT_MS) {
    this.repoPath = repoPath;
    this.onClose = onClose;
    this.idleMs = idleMs;
    this.child = spawnGit(repoPath, ARGS, { timeoutMs: 0 });
    this.exited = new Promise((resolve) => this.child.on('close', () => resolve()));
    this.child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => {
      if (this.stderr.length < 16_384) this.stderr += chunk.toString('utf8');
    });
    this.child.on('error', (err) => this.fail(new GitError(`cat-file: ${err.message}`, null, this.stderr, ARGS)));
    this.child.on('close', (code, signal) =>
      this.fail(new GitError(`cat-file for ${repoPath} exited (${signal ?? code}): ${this.stderr.trim()}`, code, this.stderr, ARGS)),
    );
    this.armIdle();
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get pending(): number {
    return this.queue.length + this.inflight.length;
  }

  readObject(rev: string): Promise<GitObject | null> {
    return this.request(rev, true).then((obj) => (obj && 'content' in obj ? obj : null));
  }

  /** The answer is shared with the other requests for `rev` sent in the same write: do not change it. */
  readInfo(rev: string): Promise<ObjectInfo | null> {
    const queued = this.queuedInfo.get(rev);
    if (queued !== undefined) return queued;
    const asked = this.request(rev, false) as Promise<ObjectInfo | null>;
    if (!this.closedFlag && this.queue.length > 0) this.queuedInfo.set(rev, asked);
    return asked;
  }

  /** Ends the process; queued requests are rejected. Resolves when git has exited. */
  close(): Promise<void> {
    if (!this.closedFlag) {
      this.fail(new GitError(`cat-file for ${this.repoPath} was closed`, null, '', ARGS));
      this.child.stdin.end();
    }
    return this.exited;
  }

  private request(rev: string, contents: boolean): Promise<GitObject | ObjectInfo | null> {
    // A newline would end the command early and let the rest be read as a second command.
    if (rev === '' || /[\n\r\0]/.test(rev)) return Promise.reject(new GitArgError(`invalid revision ${JSON.stringify(rev)}`));
    if (this.closedFlag) return Promise.reject(new GitError(`cat-file for ${this.repoPath} is closed`, null, '', ARGS));
    return new Promise((resolve, reject) => {
      this.queue.push({ line: `${contents ? 'contents' : 'info'} ${rev}\n`, contents, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    if (this.inflight.length > 0 || this.closedFlag) return;
    if (this.queue.length === 0) return this.armIdle();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.inflight = this.queue.splice(0);
    this.queuedInfo.clear();
    this.child.stdin.write(this.inflight.length === 1 ? this.inflight[0]!.line : this.inflight.map((r) => r.line).join(''));
  }

  private armIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.close(), this.idleMs);
    this.idleTimer.unref();
  }

  private onData(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.inflight.length > 0 && this.parseOne());
    if (this.buffered > 0 && this.inflight.length === 0) {
      this.fail(new GitError('cat-file: unexpected output', null, this.stderr, ARGS));
      this.child.kill('SIGKILL');
    }
  }

  private flatten(): Buffer {
    if (this.chunks.length !== 1) this.chunks = [Buffer.concat(this.chunks, this.buffered)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  private consume(n: number): void {
    const rest = this.flatten().subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
  }

  /** Parses one answer if it is complete; returns whether it did. */
  private parseOne(): boolean {
    const req = this.inflight[0];
    if (!req) return false;
    if (!this.header) {
      const buf = this.flatten();
      const nl = buf.indexOf(10);
      if (nl < 0) return false;
      const line = buf.subarray(0, nl).toString('utf8');
      this.consume(nl + 1);
      const m = HEADER.exec(line);
      if (!m) {
        if (line.endsWith(' missing') || line.endsWith(' ambiguous')) return this.finish(null);
        this.fail(new GitError(`cat-file: unexpected header ${JSON.stringify(line)}`, null, this.stderr, ARGS));
        this.child.kill('SIGKILL');
        return false;
      }
      const info: ObjectInfo = { oid: m[1], type: parseType(m[2]), size: Number(m[3]) };
      if (!req.contents) return this.finish(info);
      this.header = info;
    }
    const header = this.header;
    if (this.buffered < header.size + 1) return false;
    // When other answers follow in the same buffer, a copy, so that the content does not pin them.
    const slice = this.flatten().subarray(0, header.size);
    const content = this.buffered > header.size + 1 ? Buffer.from(slice) : slice;
    this.consume(header.size + 1); // the content is followed by a newline
    this.header = null;
    return this.finish({ ...header, content });
  }

  private finish(value: GitObject | ObjectInfo | null): boolean {
    const req = this.inflight.shift();
    req?.resolve(value);
    this.pump();
    return true;
  }

  private fail(err: GitError): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const wasClosed = this.closedFlag;
    this.closedFlag = true;
    const pending = [...this.inflight, ...this.queue];
    this.inflight = [];
    this.queue.length = 0;
    this.queuedInfo.clear();
    for (const req of pending) req.reject(err);
    if (!wasClosed) this.onClose(this);
  }
}

const readers = new Map<string, BatchReader>();

function forget(reader: BatchReader): void {
  if (readers.get(reader.repoPath) === reader) readers.delete(reader.repoPath);
}

/** The shared reader of a repository, spawned on first use and after its process died or idled out. */
export function getBatch(repoPath: string): BatchReader {
  const key = path.resolve(repoPath);
  let reader = readers.get(key);
  if (reader && !reader.closed) {
    // Re-insert so that the map's order is least recently used first.
    readers.delete(key);
    readers.set(key, reader);
    return reader;
  }
  reader = new BatchReader(key, forget);
  readers.set(key, reader);
  if (readers.size > MAX_READERS) {
    for (const old of readers.values()) {
      if (old.pending === 0) {
        void old.close();
        break;
      }
    }
  }
  return reader;
}

export function readObject(repoPath: string, rev: string): Promise<GitObject | null> {
  return getBatch(repoPath).readObject(rev);
}

export function readInfo(repoPath: string, rev: string): Promise<ObjectInfo | null> {
  return getBatch(repoPath).readInfo(rev);
}

/** Drops a repository's reader, e.g. before the repository is moved or deleted. */
export function closeBatch(repoPath: string): Promise<void> {
  const reader = readers.get(path.resolve(repoPath));
  return reader ? reader.close() : Promise.resolve();
}

export async function closeAll(): Promise<void> {
  await Promise.all([...readers.values()].map((r) => r.close()));
}

export function openReaders(): number {
  return readers.size;
}
