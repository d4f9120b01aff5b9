// Attachment storage and what every upload route shares (Forgejo services/attachment, modules/upload):
// the bytes live under <APP_DATA_PATH>/attachments/<uuid[0]>/<uuid[1]>/<uuid> and are moved there with a
// rename, so a reader never sees a partial file; a row is written only once its bytes are in place, and
// the bytes go when the row goes. Multipart bodies arrive as koa-body's `{ fields, files }`, the files
// being formidable's temporary files, which `removeUploads` removes once the request is answered.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { Context } from 'koa';
import type { Config } from '../../config.ts';
import type { RequestState } from '../http/request.ts';
import { Attachment, type IAttachment } from '../../model/attachment.ts';
import { isStorableText } from '../../model/schemas/storable.ts';
import { notFound, unprocessable, type HttpError } from '../http/errors.ts';
import { positiveInt } from '../issues/index.ts';
import { sql, writeSql } from '../../model/sql.ts';

export const attachmentsRoot = (cfg: Pick<Config, 'dataPath'>) => path.join(cfg.dataPath, 'attachments');

export const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(s);

export function attachmentPath(cfg: Pick<Config, 'dataPath'>, uuid: string): string {
  if (!isUuid(uuid)) throw new Error(`not an attachment uuid: ${uuid}`);
  return path.join(attachmentsRoot(cfg), uuid[0], uuid[1], uuid);
}

// ---------------------------------------------------------------------------------------------
// Multipart bodies

export interface UploadedFile {
  filepath: string;
  originalFilename: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function fileOf(v: unknown): UploadedFile | null {
  const f = Array.isArray(v) ? v[0] : v;
  if (!isRecord(f) || typeof f.filepath !== 'string') return null;
  return { filepath: f.filepath, originalFilename: typeof f.originalFilename === 'string' ? f.originalFilename : '' };
}

/** The file of a multipart field (the first one when several were sent, as Go's FormFile). */
export function uploadedFile(body: unknown, field = 'attachment'): UploadedFile | null {
  return isRecord(body) && isRecord(body.files) ? fileOf(body.files[field]) : null;
}

/**
 * A multipart body whose names or values no stored text can equal (model/schemas/storable.ts): the
 * 422 message naming the field (`[Attachment]` for a file's name), else null.
 */
export function unusableMultipart(raw: { fields?: unknown; files?: unknown }): string | null {
  const fields = isRecord(raw.fields) ? raw.fields : {};
  for (const [name, v] of Object.entries(fields)) {
    const values = Array.isArray(v) ? v : [v];
    if (!isStorableText(name) || values.some((x) => typeof x === 'string' && !isStorableText(x)))
      return `[${isStorableText(name) ? name : ''}]: Invalid`;
  }
  const files = isRecord(raw.files) ? raw.files : {};
  for (const [name, v] of Object.entries(files)) {
    const names = (Array.isArray(v) ? v : [v]).map(fileOf).map((f) => f?.originalFilename ?? '');
    if (!isStorableText(name) || !names.every(isStorableText)) return '[Attachment]: Invalid';
  }
  return null;
}

/** Go's FormValue: a form field of the body wins over the query parameter of the same name. */
export function formValue(s: Pick<RequestState, 'body' | 'q'>, name: string): string {
  const fields = isRecord(s.body) && isRecord(s.body.fields) ? s.body.fields : {};
  const raw = fields[name];
  const v = Array.isArray(raw) ? raw[0] : raw;
  // The query side is the row's declared parameter of that name (AssetUpload, AttachmentUpload).
  const fromQuery = s.q[name];
  return typeof v === 'string' ? v : typeof fromQuery === 'string' ? fromQuery : '';
}

/** formidable options for koa-body: temporary files next to the store (a rename moves them), size limit in MiB. */
/** Removes what an answered request left of its uploads; null when it has none (most requests: nothing to await). */
export function removeUploads(ctx: Context): Promise<unknown> | null {
  const files = (ctx.request as { files?: unknown }).files;
  if (!isRecord(files)) return null;
  const all = Object.values(files).flatMap((v) => (Array.isArray(v) ? v : [v]));
  return Promise.all(all.map((f) => fileOf(f)).map((f) => (f ? fs.promises.rm(f.filepath, { force: true }) : undefined)));
}

// ---------------------------------------------------------------------------------------------
// Allowed types (Forgejo modules/upload Verify): a comma list of `.ext`, `type/sub`, `type/*` or `*/*`;
// an empty list allows everything.

const MAGIC: [RegExp | ((b: Buffer) => boolean), string][] = [
  [(b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'image/png'],
  [(b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff, 'image/jpeg'],
  [/^GIF8[79]a/, 'image/gif'],
  [(b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP', 'image/webp'],
  [(b) => b.subarray(4, 12).toString('latin1') === 'ftypavif', 'image/avif'],
  [(b) => b.subarray(4, 8).toString('latin1') === 'ftyp', 'video/mp4'],
  [(b) => b.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3])), 'video/webm'],
  [/^%PDF-/, 'application/pdf'],
  [(b) => b.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])), 'application/zip'],
  [(b) => b[0] === 0x1f && b[1] === 0x8b, 'application/x-gzip'],
  [/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i, 'image/svg+xml'],
];

/** A content type from the first bytes, as Forgejo's type sniffer names the common ones. */
export function sniffType(head: Buffer): string {
  for (const [test, type] of MAGIC) {
    if (typeof test === 'function' ? test(head) : test.test(head.toString('latin1'))) return type;
  }
  if (head.includes(0)) return 'application/octet-stream';
  return 'text/plain; charset=utf-8';
}

/** null when allowed, else the detected type for Forgejo's "not allowed" message. */
export function forbiddenType(allowed: string, name: string, head: Buffer): string | null {
  const entries = allowed
    .replaceAll('|', ',')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '');
  if (entries.length === 0) return null;
  const full = sniffType(head);
  const mime = full.split(';')[0].trim();
  const ext = path.extname(name).toLowerCase();
  for (const e of entries) {
    if (e === '*/*' || e === mime) return null;
    if (e.startsWith('.') && e === ext) return null;
    if (e.endsWith('/*') && mime.startsWith(e.slice(0, -1))) return null;
  }
  return full;
}

async function readHead(file: string): Promise<Buffer> {
  const fh = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Storing and removing

async function moveFile(src: string, dest: string): Promise<void> {
  try {
    await fs.promises.rename(src, dest);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    await fs.promises.copyFile(src, dest);
    await fs.promises.rm(src, { force: true });
  }
}

/** Moves an uploaded file into the store under a new uuid: first to `<uuid>.tmp`, then renamed into place. */
async function storeFile(cfg: Config, src: string): Promise<{ uuid: string; size: number }> {
  const uuid = randomUUID();
  const dest = attachmentPath(cfg, uuid);
  const tmp = `${dest}.tmp`;
  await fs.promises.mkdir(path.dirname(dest), { recursive: true });
  try {
    await moveFile(src, tmp);
    const { size } = await fs.promises.stat(tmp);
    await fs.promises.rename(tmp, dest);
    return { uuid, size };
  } catch (e) {
    await fs.promises.rm(tmp, { force: true });
    throw e;
  }
}

async function removeFiles(cfg: Config, rows: IAttachment[]): Promise<void> {
  await Promise.all(
    rows.filter((a) => !a.externalUrl && isUuid(a.uuid)).map((a) => fs.promises.rm(attachmentPath(cfg, a.uuid), { force: true })),
  );
}

export type AttachmentLink = Pick<IAttachment, 'repoId' | 'uploaderId'> &
  Partial<Pick<IAttachment, 'issueId' | 'commentId' | 'releaseId' | 'createdAt'>>;

/** Attachment names are at most 255 characters (the column), and not empty. */
export function attachmentName(name: string): string {
  if (name === '') throw unprocessable('[Name]: Required');
  if ([...name].length > 255) throw unprocessable('[Name]: MaxSize');
  return name;
}

/**
 * Stores an uploaded file and inserts its row. The type check reads the first bytes; a forbidden type is
 * reported with `onForbidden` (400 for release assets, 422 for issue attachments, as Forgejo does). When
 * the insert fails, the stored bytes are removed again.
 */
export async function createUploaded(
  s: Pick<RequestState, 'em' | 'config'>,
  file: UploadedFile,
  name: string,
  allowedTypes: string,
  link: AttachmentLink,
  onForbidden: (message: string) => HttpError,
): Promise<IAttachment> {
  const type = forbiddenType(allowedTypes, name, await readHead(file.filepath));
  if (type !== null) throw onForbidden(`This file extension or type is not allowed to be uploaded. Type: ${type}`);
  const { uuid, size } = await storeFile(s.config, file.filepath);
  const row = s.em.create(Attachment, { ...link, uuid, name: attachmentName(name), size });
  try {
    await s.em.flush();
  } catch (e) {
    await removeFiles(s.config, [row]);
    throw e;
  }
  return row;
}

/** An external asset (release assets only): a name and an http(s) URL, no bytes. */
export async function createExternal(s: Pick<RequestState, 'em'>, name: string, url: string, link: AttachmentLink): Promise<IAttachment> {
  const row = s.em.create(Attachment, { ...link, uuid: randomUUID(), name: attachmentName(name), externalUrl: url });
  await s.em.flush();
  return row;
}

/** Forgejo validation.IsValidURL: an absolute http or https URL. */
export function isValidExternalUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const u = new URL(url);
  return (u.protocol === 'http:' || u.protocol === 'https:') && u.host !== '' && url.length <= 2048;
}

/** Deletes attachment rows, then their bytes. */
export async function deleteAttachments(s: Pick<RequestState, 'em' | 'config'>, where: FilterQuery<IAttachment>): Promise<void> {
  const rows = await s.em.find(Attachment, where);
  if (rows.length === 0) return;
  for (const r of rows) s.em.remove(r);
  await s.em.flush();
  await removeFiles(s.config, rows);
}

/** The attachment `{attachment_id}` when `belongs` accepts it, else 404. */
export async function loadAttachment(s: Pick<RequestState, 'em' | 'params'>, belongs: (a: IAttachment) => boolean): Promise<IAttachment> {
  const id = positiveInt(s.params.attachment_id);
  const a = id === null ? null : await s.em.findOne(Attachment, { id });
  if (!a || !belongs(a)) throw notFound();
  return a;
}

/** Raises the download count in SQL, so concurrent downloads (and processes) all count. */
export async function countDownload(em: EntityManager, id: number): Promise<void> {
  await writeSql(em, sql`update attachment set download_count = download_count + 1 where id = ${id}`);
}
