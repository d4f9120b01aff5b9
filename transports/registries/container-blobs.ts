// Blob uploads and blobs of the container registry (OCI distribution spec: blobs/uploads, blobs).
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { PackageBlob, PackageFile, PackageVersion, type IPackageBlob } from '../../model/package.ts';
import { isUuid } from '../../lib/attachments/index.ts';
import { blobPath, spool, spoolDir } from '../../lib/packages/packages.ts';
import { checkQuota, uploader, type RegistryRequest } from '../../lib/packages/registries/common.ts';
import {
  UPLOAD_VERSION,
  DIGEST,
  E,
  type ImageRequest,
  imagePackage,
  localBlob,
  saveBlob,
} from '../../lib/packages/registries/container-storage.ts';
import { answer, ownerPath, setHeaders } from './container-answer.ts';

// ---------------------------------------------------------------------------------------------
// Blob uploads. A session is a file in the spool named by its uuid (the uuid is the capability, as in
// Forgejo); chunks are appended in order and the whole is hashed once when the upload is finished.

export const sessionFile = (r: RegistryRequest, uuid: string) => path.join(spoolDir(r.deps.config), `oci-upload-${uuid}`);

export async function sessionSize(r: RegistryRequest, uuid: string): Promise<number> {
  if (!isUuid(uuid)) throw E.uploadUnknown();
  const stat = await fs.promises.stat(sessionFile(r, uuid)).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
  if (!stat) throw E.uploadUnknown();
  return stat.size;
}

export async function appendBody(r: RegistryRequest, uuid: string): Promise<void> {
  await pipeline(r.ctx.req, fs.createWriteStream(sessionFile(r, uuid), { flags: 'a' }));
}

export async function startUpload(r: ImageRequest): Promise<void> {
  await checkQuota(r, uploader(r));
  const digest = new URLSearchParams(r.ctx.querystring).get('digest')?.trim() ?? '';
  if (digest !== '') {
    const up = await spool(r.deps.config, r.ctx.req);
    try {
      if (digest !== `sha256:${up.sha256}`) throw E.digestInvalid();
      await saveBlob(r, up, digest);
    } finally {
      await fs.promises.rm(up.file, { force: true });
    }
    return answer(r.ctx, 201, { location: `${ownerPath(r)}/blobs/${digest}`, digest });
  }
  await fs.promises.mkdir(spoolDir(r.deps.config), { recursive: true });
  const uuid = randomUUID();
  await fs.promises.writeFile(sessionFile(r, uuid), '', { flag: 'wx' });
  answer(r.ctx, 202, { location: `${ownerPath(r)}/blobs/uploads/${uuid}`, range: '0-0', uuid });
}

export async function uploadStatus(r: ImageRequest, uuid: string): Promise<void> {
  const size = await sessionSize(r, uuid);
  answer(r.ctx, 204, { range: `0-${size}`, uuid });
}

export async function uploadChunk(r: ImageRequest, uuid: string): Promise<void> {
  const size = await sessionSize(r, uuid);
  const range = r.ctx.get('Content-Range');
  if (range !== '') {
    const m = /^(\d+)-(\d+)$/.exec(range.trim());
    if (!m) throw E.uploadInvalid();
    if (Number(m[1]) !== size) throw E.uploadInvalid('range not satisfiable', 416);
  } else if (size !== 0) {
    throw E.uploadInvalid('Stream uploads after first write are not allowed');
  }
  await appendBody(r, uuid);
  const now = await sessionSize(r, uuid);
  answer(r.ctx, 202, { location: `${ownerPath(r)}/blobs/uploads/${uuid}`, range: `0-${Math.max(now - 1, 0)}`, uuid });
}

export async function finishUpload(r: ImageRequest, uuid: string): Promise<void> {
  const digest = new URLSearchParams(r.ctx.querystring).get('digest')?.trim() ?? '';
  if (digest === '') throw E.digestInvalid();
  await sessionSize(r, uuid);
  await appendBody(r, uuid);
  const file = sessionFile(r, uuid);
  const up = await spool(r.deps.config, fs.createReadStream(file));
  try {
    if (digest !== `sha256:${up.sha256}`) throw E.digestInvalid();
    await saveBlob(r, up, digest);
    await fs.promises.rm(file, { force: true });
  } finally {
    await fs.promises.rm(up.file, { force: true });
  }
  answer(r.ctx, 201, { location: `${ownerPath(r)}/blobs/${digest}`, digest });
}

export async function cancelUpload(r: ImageRequest, uuid: string): Promise<void> {
  await sessionSize(r, uuid);
  await fs.promises.rm(sessionFile(r, uuid), { force: true });
  answer(r.ctx, 204);
}

export async function sendBlob(r: ImageRequest, entry: { blob: IPackageBlob }, digest: string, mediaType: string): Promise<void> {
  const { ctx } = r;
  const file = blobPath(r.deps.config, entry.blob.hashSha256);
  setHeaders(ctx, { digest });
  ctx.status = 200;
  ctx.type = mediaType;
  if (ctx.method === 'GET') ctx.body = fs.createReadStream(file);
  ctx.length = entry.blob.size;
}

export async function getBlob(r: ImageRequest, digest: string): Promise<void> {
  const found = await localBlob(r.em, r, digest);
  if (!found) throw E.blobUnknown();
  await sendBlob(r, found, digest, 'application/octet-stream');
}

export async function deleteBlob(r: ImageRequest, digest: string): Promise<void> {
  if (!DIGEST.test(digest)) throw E.blobUnknown();
  await r.em.transactional(async (tx) => {
    const pkg = await imagePackage(tx, r);
    const version = pkg && (await tx.findOne(PackageVersion, { packageId: pkg.id, lowerVersion: UPLOAD_VERSION }));
    const file = version && (await tx.findOne(PackageFile, { versionId: version.id, lowerName: digest }));
    if (!version || !file) return;
    const blobId = file.blobId;
    await tx.nativeDelete(PackageFile, { id: file.id });
    if ((await tx.count(PackageFile, { blobId })) === 0) {
      const blob = await tx.findOneOrFail(PackageBlob, { id: blobId });
      await tx.nativeDelete(PackageBlob, { id: blobId });
      await fs.promises.rm(blobPath(r.deps.config, blob.hashSha256), { force: true });
    }
  });
  answer(r.ctx, 202);
}
