// Git LFS object bytes on disk: `<APP_DATA_PATH>/lfs/<oid[0:2]>/<oid[2:4]>/<oid>` (Forgejo's
// content store layout). An upload streams into a temporary file beside its destination while its
// sha256 and length are computed; only bytes that match the oid and the announced size are renamed
// into place, atomically, so a reader never sees a partial object and a failed upload leaves nothing.
// Two processes uploading one oid write two temporary files and the later rename wins with the same
// bytes. Nothing is buffered whole.
import fs from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export const OID = /^[0-9a-f]{64}$/;

/** Forgejo's Pointer.IsValid: a sha256 hex oid and a size that is not negative. */
export const validPointer = (oid: unknown, size: unknown): boolean =>
  typeof oid === 'string' && OID.test(oid) && typeof size === 'number' && Number.isSafeInteger(size) && size >= 0;

export class LfsContentError extends Error {
  // Forgejo's ErrSizeMismatch and ErrHashMismatch texts (modules/lfs/content_store.go).
  readonly kind: 'size' | 'hash';
  constructor(message: string, kind: 'size' | 'hash') {
    super(message);
    this.kind = kind;
  }
}

export class LfsStore {
  readonly root: string;
  constructor(root: string) {
    this.root = root;
  }

  static forDataPath(dataPath: string): LfsStore {
    return new LfsStore(path.join(dataPath, 'lfs'));
  }

  file(oid: string): string {
    if (!OID.test(oid)) throw new Error(`not an LFS oid: ${oid}`);
    return path.join(this.root, oid.slice(0, 2), oid.slice(2, 4), oid);
  }

  /** The stored size, or null when the object is not stored. */
  async size(oid: string): Promise<number | null> {
    const st = await stat(this.file(oid)).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      throw e;
    });
    return st ? st.size : null;
  }

  /**
   * Stores `body` as `oid` if its bytes hash to the oid and number exactly `size`; throws
   * LfsContentError otherwise (and for a body longer than `size`, as soon as it is). With `discard`
   * the bytes are only checked (proving possession of an object already stored).
   */
  async put(oid: string, size: number, body: Readable, opts: { discard?: boolean } = {}): Promise<void> {
    const dest = this.file(oid);
    const hash = createHash('sha256');
    let seen = 0;
    const check = new Transform({
      transform(chunk: Buffer, _enc, done) {
        seen += chunk.length;
        if (seen > size) return done(new LfsContentError('Content size does not match', 'size'));
        hash.update(chunk);
        done(null, opts.discard ? undefined : chunk);
      },
    });
    if (opts.discard) {
      await pipeline(body, check, async function* (source) {
        for await (const _ of source) {
          /* checked in transform */
        }
      });
    } else {
      await mkdir(path.dirname(dest), { recursive: true });
      const tmp = `${dest}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await pipeline(body, check, fs.createWriteStream(tmp, { flags: 'wx', mode: 0o644 }));
        verify();
        await rename(tmp, dest);
      } finally {
        await rm(tmp, { force: true });
      }
      return;
    }
    verify();

    function verify() {
      if (seen !== size) throw new LfsContentError('Content size does not match', 'size');
      if (hash.digest('hex') !== oid) throw new LfsContentError('Content hash does not match OID', 'hash');
    }
  }

  /** The first `n` bytes (fewer for a shorter object), to sniff a content type from. */
  async head(oid: string, n: number): Promise<Buffer> {
    const fh = await open(this.file(oid), 'r');
    try {
      const buf = Buffer.alloc(n);
      const { bytesRead } = await fh.read(buf, 0, n, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  }

  /** The stored bytes from `start` to `end` (inclusive). */
  read(oid: string, range?: { start: number; end: number }): Readable {
    return fs.createReadStream(this.file(oid), range);
  }
}
