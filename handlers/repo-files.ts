// Raw files and archives: {R}/raw/*, {R}/media/*, {R}/archive/*, {R}/{ball_type}/* (Forgejo
// routers/api/v1/repo/file.go, routers/common/serve.go; forgejo-facts 12.1, 12.3). Bodies are streamed.
import type { Readable } from 'node:stream';
import type { Handler, Reply } from '../lib/http/handler.ts';
import { readInfo, readObject } from '../git/cat-file.ts';
import { getCommit } from '../git/commits.ts';
import { gitStream } from '../git/exec.ts';
import { entryAt, lastCommitFor, lookupRef, readRef } from '../git/lookup.ts';
import { archiveStream, type ArchiveFormat } from '../git/archive.ts';
import type { ResolvedRef } from '../git/repo.ts';
import { badRequest, notFound } from '../lib/http/errors.ts';
import { gitCtx, type GitCtx } from '../lib/repos/git.ts';
import type { RequestState } from '../lib/http/request.ts';
import { POINTER_MAX, readPointer } from '../lib/transport/lfs-pointer.ts';
import { findMeta } from '../lib/transport/lfs-objects.ts';
import { LfsStore } from '../lib/transport/lfs-store.ts';
import { refQuery } from '../lib/http/query-params.ts';
import { noneMatch } from '../lib/http/conditional-get.ts';

/** Blobs up to this size are served from the cat-file reader; larger ones are streamed by git. */
const INLINE_BLOB = 1024 * 1024;

/**
 * `?ref=` names the revision; without it the path may start with a branch, tag or commit id (the
 * shortest matching prefix wins, as in Forgejo's RepoRefForAPI), else the default branch is used.
 */
async function refAndPath(g: GitCtx, s: RequestState): Promise<{ ref: ResolvedRef; path: string } | null> {
  const whole = s.params.path ?? '';
  const given = (refQuery(s) ?? '').trim();
  if (given) {
    const ref = await lookupRef(g.path, given);
    return ref ? { ref, path: whole } : null;
  }
  const parts = whole.split('/');
  for (const kind of ['heads', 'tags'] as const) {
    for (let i = 1; i < parts.length; i++) {
      const name = parts.slice(0, i).join('/');
      const info = await readRef(g.path, kind, name);
      if (info) {
        const ref = await lookupRef(g.path, name);
        if (ref) return { ref, path: parts.slice(i).join('/') };
      }
    }
  }
  if (parts.length > 1 && /^[0-9a-f]{7,64}$/.test(parts[0])) {
    const ref = await lookupRef(g.path, parts[0]);
    if (ref?.kind === 'commit') return { ref, path: parts.slice(1).join('/') };
  }
  const ref = await lookupRef(g.path, g.repo.defaultBranch);
  return ref ? { ref, path: whole } : null;
}

function contentType(head: Buffer, name: string): string {
  const magic: [number[], string][] = [
    [[0x89, 0x50, 0x4e, 0x47], 'image/png'],
    [[0xff, 0xd8, 0xff], 'image/jpeg'],
    [[0x47, 0x49, 0x46, 0x38], 'image/gif'],
    [[0x25, 0x50, 0x44, 0x46], 'application/pdf'],
    [[0x50, 0x4b, 0x03, 0x04], 'application/zip'],
    [[0x1f, 0x8b], 'application/gzip'],
  ];
  for (const [bytes, type] of magic) if (bytes.every((b, i) => head[i] === b)) return type;
  if (/\.svg$/i.test(name) && head.toString('utf8').includes('<svg')) return 'image/svg+xml';
  return head.includes(0) ? 'application/octet-stream' : 'text/plain; charset=utf-8';
}

const httpDate = (unixSeconds: number) => new Date(unixSeconds * 1000).toUTCString();

/**
 * The LFS object an LFS pointer blob names, when the LFS server is on and the repository has the
 * object (Forgejo's GetRawFileOrLFS); its ETag is the oid. Null serves the blob itself.
 */
async function lfsObject(c: RequestState, g: GitCtx, oid: string, name: string): Promise<Reply | null> {
  if (!c.config.SERVER.LFS_START_SERVER) return null;
  const info = await readInfo(g.path, oid);
  if (!info || info.size > POINTER_MAX) return null;
  const blob = await readObject(g.path, oid);
  const pointer = blob && readPointer(blob.content);
  if (!pointer || !(await findMeta(c.em, g.repo.id, pointer.oid))) return null;
  const store = LfsStore.forDataPath(c.config.dataPath);
  const size = await store.size(pointer.oid);
  if (size === null) return null;
  const etag = `"${pointer.oid}"`;
  const objectType = 'file';
  const headers: Record<string, string> = { ETag: etag, 'X-Gitea-Object-Type': objectType, 'X-Forgejo-Object-Type': objectType };
  if (noneMatch(c.headers['if-none-match'], etag)) return { status: 304, headers };
  headers['Content-Disposition'] = `inline; filename="${name.replace(/["\\\r\n]/g, '_')}"`;
  headers['Content-Length'] = String(size);
  const type = contentType(await store.head(pointer.oid, 1024), name);
  return { status: 200, body: store.read(pointer.oid), headers, type };
}

async function serveBlob(c: RequestState, lfs = false): Promise<Reply> {
  const g = gitCtx(c);
  if (g.repo.isEmpty) throw notFound(undefined, ['repository is empty']);
  const target = await refAndPath(g, c);
  if (!target?.ref.commit || target.path === '') throw notFound();
  const entry = await entryAt(g.path, target.ref.commit, target.path.replace(/\/+$/, ''));
  if (!entry || entry.type !== 'blob') throw notFound();
  const object = lfs && entry.mode !== '120000' ? await lfsObject(c, g, entry.oid, entry.name) : null;
  if (object) return object;
  const last = await getCommit(g.path, (await lastCommitFor(g.path, target.ref.commit, entry.path)) ?? target.ref.commit);
  const etag = `"${entry.oid}"`;
  const objectType = entry.mode === '120000' ? 'symlink' : 'file';
  const headers: Record<string, string> = { ETag: etag, 'X-Gitea-Object-Type': objectType, 'X-Forgejo-Object-Type': objectType };
  if (last) headers['Last-Modified'] = httpDate(last.committer.timestamp);
  const since = c.headers['if-modified-since'];
  const notModified =
    noneMatch(c.headers['if-none-match'], etag) ||
    (c.headers['if-none-match'] === undefined && typeof since === 'string' && last && Date.parse(since) >= last.committer.timestamp * 1000);
  if (notModified) return { status: 304, headers };
  const info = await readInfo(g.path, entry.oid);
  const size = info?.size ?? 0;
  headers['Content-Disposition'] = `inline; filename="${entry.name.replace(/["\\\r\n]/g, '_')}"`;
  headers['Content-Length'] = String(size);
  if (size <= INLINE_BLOB) {
    const obj = await readObject(g.path, entry.oid);
    if (!obj) throw notFound();
    return { status: 200, body: obj.content, headers, type: contentType(obj.content.subarray(0, 1024), entry.name) };
  }
  const stream: Readable = gitStream(g.path, ['cat-file', 'blob', entry.oid]);
  return { status: 200, body: stream, headers, type: 'application/octet-stream' };
}

export const raw: Handler = (c) => serveBlob(c);

/** An LFS pointer is served as its object; without the object (or the LFS server) as the pointer, as Forgejo does. */
export const media: Handler = (c) => serveBlob(c, true);

const FORMATS: [string, ArchiveFormat][] = [
  ['.tar.gz', 'tar.gz'],
  ['.zip', 'zip'],
  ['.bundle', 'bundle'],
];
const MIME: Record<ArchiveFormat, string> = { 'tar.gz': 'application/gzip', zip: 'application/zip', bundle: 'application/octet-stream' };

async function serveArchive(c: RequestState, refName: string, format: ArchiveFormat): Promise<Reply> {
  const g = gitCtx(c);
  const ref = g.repo.isEmpty || refName === '' ? null : await lookupRef(g.path, refName);
  if (!ref?.commit) throw notFound('unrecognized reference', [`repo ref not found: ${refName}`]);
  const body = await archiveStream(g.path, ref.commit, format, g.repo.lowerName);
  const download = `${g.repo.name}-${refName.replace(/\//g, '-')}.${format}`;
  return {
    status: 200,
    body,
    type: MIME[format],
    headers: {
      'Content-Disposition': `attachment; filename="${download.replace(/["\\\r\n]/g, '_')}"`,
      Link: `<${g.urls.api}/archive/${ref.commit}.${format}?rev=${ref.commit}>; rel="immutable"`,
      ETag: `"${ref.commit}-${format}"`,
    },
  };
}

export const archive: Handler = async (c) => {
  const uri = c.params.path ?? '';
  const found = FORMATS.find(([ext]) => uri.endsWith(ext));
  if (!found) throw badRequest(`unknown format: ${uri}`);
  return serveArchive(c, uri.slice(0, -found[0].length), found[1]);
};

export const ballType: Handler = async (c) => {
  const kind = c.params.ball_type;
  const format: ArchiveFormat = kind === 'zipball' ? 'zip' : kind === 'bundle' ? 'bundle' : 'tar.gz';
  return serveArchive(c, c.params.path ?? '', format);
};

/** This family's handlers; `routes.table.ts` names each `repoFiles.<key>`. */
export const handlers = {
  raw,
  media,
  archive,
  ballType,
} satisfies Record<string, Handler<never, never>>;
