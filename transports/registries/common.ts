// What the package registries' handlers share on the wire: a package file sent as a download, an empty
// answer with its status, and a request body read whole under a cap.
import fs from 'node:fs';
import type { Context } from 'koa';
import type { IPackageBlob, IPackageFile } from '../../model/package.ts';
import { bodyCap } from '../../lib/http/request-body.ts';
import { blobPath, countDownload } from '../../lib/packages/packages.ts';
import { RegistryError, type RegistryRequest } from '../../lib/packages/registries/common.ts';

/**
 * Sends a package file (Forgejo's helper.ServePackageFile); a GET of the version's lead file counts
 * as a download of the version.
 */
export async function sendFile(
  r: RegistryRequest,
  versionId: number,
  entry: { file: IPackageFile; blob: IPackageBlob },
  type = 'application/octet-stream',
): Promise<void> {
  const { ctx } = r;
  const file = blobPath(r.deps.config, entry.blob.hashSha256);
  const stat = await fs.promises.stat(file).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
  if (!stat) throw new RegistryError(404, 'package file does not exist');
  if (ctx.method === 'GET' && entry.file.isLead) await countDownload(r.em, versionId);
  ctx.status = 200;
  ctx.type = type;
  ctx.set('Content-Disposition', `attachment; filename="${entry.file.name.replace(/["\\]/g, '_')}"`);
  ctx.set('Last-Modified', entry.file.createdAt.toUTCString());
  ctx.set('ETag', `"${entry.blob.hashSha256}"`);
  ctx.body = fs.createReadStream(file);
  ctx.length = stat.size;
}

/** Koa answers an empty body with 204 unless the status is set after it. */
export function emptyAnswer(ctx: Context, status: number): void {
  ctx.body = null;
  ctx.status = status;
}

/**
 * The whole request body, for formats that must be parsed as one document (npm's publish JSON), capped
 * by [api] MAX_BODY_SIZE unless the format fixes its own cap: a larger body is 413 before or while it arrives.
 */
export async function readCapped(r: RegistryRequest, cap = bodyCap(r.deps.config)): Promise<Buffer> {
  const tooLarge = () => new RegistryError(413, 'request entity too large');
  if (Number(r.ctx.get('Content-Length') || 0) > cap) throw tooLarge();
  const req = r.ctx.req;
  // Not `for await`: leaving that loop early destroys the request and with it the connection the 413 goes out on.
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (e: Error) => {
      req.off('data', onData).off('end', onEnd).off('error', stop);
      req.pause();
      reject(e);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) stop(tooLarge());
      else chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks, size));
    req.on('data', onData).on('end', onEnd).on('error', stop);
  });
}
