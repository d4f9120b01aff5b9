// A branch or tag read from the repository's files, as git's files backend stores it: the loose file
// `refs/heads/<name>` when there is one, else its line in `packed-refs` (issue 10: every request
// resolved its ref with a round trip through the repository's cat-file reader). Nothing is kept that
// could go stale: the loose file is read on every call, and the parsed `packed-refs` is used again
// only while the file's inode, size and change times are the ones it was read with (git rewrites it
// by renaming a new file over it, as git's own reader of the file assumes).
// Reads are synchronous: a file of one line, or one `fstat`, costs less than a trip to the thread pool.
import fs from 'node:fs';
import path from 'node:path';
import { Lru } from './lru.ts';

const LOOSE = /^([0-9a-f]{40}|[0-9a-f]{64})\n?$/;
const PACKED_LINE = /^([0-9a-f]{40}|[0-9a-f]{64}) (refs\/\S+)$/;

interface Packed {
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  refs: Map<string, string>;
}

const packedFiles = new Lru<string, Packed>(256, (p) => 1 + Math.floor(p.refs.size / 64));

const errno = (err: unknown) => (err instanceof Error && 'code' in err ? err.code : undefined);

/** The loose file's id; null when there is no loose file; undefined when git must be asked (a symbolic ref, another backend). */
function loose(repoPath: string, ref: string): string | null | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(repoPath, ref), 'latin1');
  } catch (err) {
    // EISDIR: refs/heads/<name>/… exist loose, <name> may still be packed.
    const code = errno(err);
    if (code === 'ENOENT' || code === 'EISDIR') return null;
    return undefined;
  }
  return LOOSE.exec(text)?.[1];
}

function parsePacked(text: string): Map<string, string> {
  const refs = new Map<string, string>();
  for (const line of text.split('\n')) {
    // `# pack-refs with: …` header and `^<id>` peeled lines.
    const m = PACKED_LINE.exec(line);
    if (m) refs.set(m[2]!, m[1]!);
  }
  return refs;
}

/** The refs in `packed-refs`; an empty map when there is no such file; undefined when it cannot be read. */
function packed(repoPath: string): Map<string, string> | undefined {
  const file = path.join(path.resolve(repoPath), 'packed-refs');
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (err) {
    return errno(err) === 'ENOENT' ? new Map() : undefined;
  }
  try {
    // The same open file is checked and read, so the facts kept describe the text parsed.
    const st = fs.fstatSync(fd, { bigint: true });
    const known = packedFiles.get(file);
    if (known && known.ino === st.ino && known.size === st.size && known.mtimeNs === st.mtimeNs && known.ctimeNs === st.ctimeNs) return known.refs;
    const refs = parsePacked(fs.readFileSync(fd, 'latin1'));
    packedFiles.set(file, { ino: st.ino, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, refs });
    return refs;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The object id a full ref name (`refs/heads/main`) points at, read from the files: null when the
 * ref does not exist, undefined when only git can tell (symbolic refs, a repository on another
 * ref backend, an unreadable file). `ref` must be a valid ref name.
 */
export function readRefFile(repoPath: string, ref: string): string | null | undefined {
  const oid = loose(repoPath, ref);
  if (oid !== null) return oid;
  const refs = packed(repoPath);
  return refs === undefined ? undefined : (refs.get(ref) ?? null);
}
