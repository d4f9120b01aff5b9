// Git LFS pointer files, as Forgejo reads them (modules/lfs/pointer.go ReadPointerFromBuffer): the
// spec's version line, then `oid sha256:<64 hex>` and `size <n>`. Anything else is an ordinary blob.
export const POINTER_MAX = 1024;
const PREFIX = 'version https://git-lfs.github.com/spec/v1';

export interface LfsPointer {
  oid: string;
  size: number;
}

export function readPointer(buf: Buffer): LfsPointer | null {
  if (buf.length > POINTER_MAX) return null;
  const lines = buf.toString('utf8').split('\n');
  if (!lines[0].startsWith(PREFIX) || lines.length < 3) return null;
  const oid = lines[1].startsWith('oid sha256:') ? lines[1].slice('oid sha256:'.length) : '';
  if (!/^[0-9a-f]{64}$/.test(oid)) return null;
  const size = /^size (\d{1,15})$/.exec(lines[2]);
  return size ? { oid, size: Number(size[1]) } : null;
}
