// Uploaded avatars of users and organizations (Forgejo's services/user UploadAvatar, modules/avatar):
// a PNG, JPEG, GIF or WebP image of at most 4096×4096, stored as sent under
// `<APP_DATA_PATH>/avatars/<hash>`, the hash being `hex(sha256("<owner id>-" + bytes))`, which the
// owner's `avatar` column keeps and `avatar_url` names. cairn has no image library, so it stores the
// bytes without Forgejo's resize, and refuses files above Forgejo's upload limit instead.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.ts';
import { badRequest, unprocessable } from '../http/errors.ts';

const MAX_SIDE = 4096;
const MAX_BYTES = 1 << 20;

/** Decodes the `image` of an UpdateUserAvatarOption; 400 for bad base64, as Forgejo. */
export function decodeAvatar(image: string): Buffer {
  const bad = image.search(/[^A-Za-z0-9+/=]/);
  if (bad >= 0 || image.length % 4 !== 0 || /=[^=]/.test(image)) {
    throw badRequest(`illegal base64 data at input byte ${bad >= 0 ? bad : Math.max(0, image.length - (image.length % 4 || 4))}`);
  }
  return Buffer.from(image, 'base64');
}

interface ImageInfo {
  type: 'png' | 'jpeg' | 'gif' | 'webp';
  width: number;
  height: number;
}

function jpegSize(b: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const len = b.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    }
    i += 2 + len;
  }
  return null;
}

function webpSize(b: Buffer): { width: number; height: number } | null {
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ' && b.length >= 30) return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L' && b.length >= 25) {
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X' && b.length >= 30) return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return null;
}

/** The image type and size from the header, like Go's image.DecodeConfig; null when unknown. */
export function imageInfo(b: Buffer): ImageInfo | null {
  if (
    b.length >= 24 &&
    b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) &&
    b.toString('latin1', 12, 16) === 'IHDR'
  ) {
    return { type: 'png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (b.length >= 10 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6)))
    return { type: 'gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    const size = jpegSize(b);
    return size && { type: 'jpeg', ...size };
  }
  if (b.length >= 16 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') {
    const size = webpSize(b);
    return size && { type: 'webp', ...size };
  }
  return null;
}

/** Checks the image as Forgejo's ProcessAvatarImage does (422 here where Forgejo answers 500). */
export function checkAvatarImage(data: Buffer): void {
  const info = imageInfo(data);
  if (!info) throw unprocessable('image.DecodeConfig: image: unknown format');
  if (info.width > MAX_SIDE) throw unprocessable(`image width is too large: ${info.width} > ${MAX_SIDE}`);
  if (info.height > MAX_SIDE) throw unprocessable(`image height is too large: ${info.height} > ${MAX_SIDE}`);
  if (data.length > MAX_BYTES) throw unprocessable(`image file is too large: ${data.length} > ${MAX_BYTES}`);
}

const avatarDir = (cfg: Config) => path.join(cfg.dataPath, 'avatars');

export const avatarHash = (ownerId: number, data: Buffer) => createHash('sha256').update(`${ownerId}-`).update(data).digest('hex');

/** Stores a checked image and returns its hash (the value of the owner's `avatar`). */
export async function storeAvatar(cfg: Config, ownerId: number, data: Buffer): Promise<string> {
  checkAvatarImage(data);
  const hash = avatarHash(ownerId, data);
  await fs.mkdir(avatarDir(cfg), { recursive: true });
  await fs.writeFile(path.join(avatarDir(cfg), hash), data);
  return hash;
}

export async function readAvatar(cfg: Config, hash: string): Promise<Buffer | null> {
  if (!/^[0-9a-f]{64}$/.test(hash)) return null;
  return fs.readFile(path.join(avatarDir(cfg), hash)).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
}

export async function deleteAvatar(cfg: Config, hash: string): Promise<void> {
  if (!/^[0-9a-f]{64}$/.test(hash)) return;
  await fs.rm(path.join(avatarDir(cfg), hash), { force: true });
}
