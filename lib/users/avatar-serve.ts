// GET /avatars/<hash> outside /api/v1, where every `avatar_url` points (forgejo-facts 6.2): an
// uploaded image as stored, or — for the generated default (an md5-length hash) — a deterministic
// 5×5 identicon PNG derived from the hash, standing in for Forgejo's random default avatar.
// GET /repo-avatars/<hash> serves repository avatars; those have no generated default.
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import type { Middleware } from 'koa';
import type { Config } from '../../config.ts';
import { imageInfo, readAvatar } from './avatar-store.ts';
import { readRepoAvatar } from '../repos/index.ts';

const SIZE = 290;
const CELL = 58;

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/** A symmetric 5×5 pattern in one colour on white, the way identicons are drawn. */
export function identicon(seed: string): Buffer {
  const h = createHash('sha256').update(seed).digest();
  const color = [h[0], h[1], h[2]].map((v) => 40 + (v % 160));
  const on = (x: number, y: number) => ((h[3 + y * 3 + Math.min(x, 4 - x)] ?? 0) & 1) === 1;
  const rows: Buffer[] = [];
  for (let py = 0; py < SIZE; py++) {
    const row = Buffer.alloc(1 + SIZE * 3, 255);
    row[0] = 0;
    for (let px = 0; px < SIZE; px++) {
      if (on(Math.floor(px / CELL), Math.floor(py / CELL))) row.set(color, 1 + px * 3);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(SIZE, 0);
  ihdr.writeUInt32BE(SIZE, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const TYPES = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' } as const;

/** Koa middleware; mount it before the API router. Anything else passes through. */
export function serveAvatars(cfg: Config): Middleware {
  const prefix = `${cfg.appSubUrl}/avatars/`;
  const repoPrefix = `${cfg.appSubUrl}/repo-avatars/`;
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    let data: Buffer | null;
    if (ctx.path.startsWith(prefix)) {
      const hash = ctx.path.slice(prefix.length);
      data = (await readAvatar(cfg, hash)) ?? (/^[0-9a-f]{32}$/.test(hash) ? identicon(hash) : null);
    } else if (ctx.path.startsWith(repoPrefix)) {
      data = await readRepoAvatar(cfg, ctx.path.slice(repoPrefix.length));
    } else {
      return next();
    }
    if (!data) {
      ctx.status = 404;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'Not found.\n';
      return;
    }
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.type = TYPES[imageInfo(data)?.type ?? 'png'];
    ctx.body = data;
  };
}
