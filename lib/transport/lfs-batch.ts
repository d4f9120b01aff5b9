// The Git LFS batch API's answer for each object (Forgejo's services/lfs/server.go BatchHandler,
// buildObjectResponse): upload and verify actions for objects the repository does not have yet,
// download actions for those it has, and per-object errors for invalid pointers, size mismatches,
// oversize uploads and missing objects. The links carry the caller's Authorization header.
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import type { IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import { findMetas } from './lfs-objects.ts';
import { validPointer, type LfsStore } from './lfs-store.ts';

export const LFS_MEDIA_TYPE = 'application/vnd.git-lfs+json';

export interface BatchObject {
  oid: string;
  size: number;
}
interface Link {
  href: string;
  header?: Record<string, string>;
}
export interface ObjectResponse {
  oid: unknown;
  size: unknown;
  actions?: Record<string, Link>;
  error?: { code: number; message: string };
}

export interface BatchInput {
  operation: 'upload' | 'download';
  objects: unknown[];
  repo: IRepository;
  owner: IUser;
  /** The request's Authorization header, handed back in every link. */
  authorization: string | undefined;
}

export function lfsBase(config: Config, owner: IUser, repo: IRepository): string {
  return `${config.appUrl}${encodeURIComponent(owner.name)}/${encodeURIComponent(`${repo.name}.git`)}/info/lfs`;
}

export async function batchObjects(em: EntityManager, config: Config, store: LfsStore, input: BatchInput): Promise<ObjectResponse[]> {
  const base = lfsBase(config, input.owner, input.repo);
  const header = input.authorization ? { Authorization: input.authorization } : undefined;
  const objects = input.objects.map((o) => (o && typeof o === 'object' ? (o as Record<string, unknown>) : {}));
  const valid = objects.filter((o) => validPointer(o.oid, o.size)).map((o) => o.oid as string);
  const metas = await findMetas(em, input.repo.id, [...new Set(valid)]);
  const out: ObjectResponse[] = [];
  for (const o of objects) {
    const { oid, size } = o;
    const fail = (code: number, message: string): ObjectResponse => ({ oid, size, error: { code, message } });
    if (!validPointer(oid, size)) {
      out.push(fail(422, 'Oid or size are invalid'));
      continue;
    }
    const p = { oid: oid as string, size: size as number };
    const meta = metas.get(p.oid);
    if (meta && meta.size !== p.size) {
      out.push(fail(422, `Object ${p.oid} is not ${p.size} bytes`));
      continue;
    }
    const stored = await store.size(p.oid);
    if (input.operation === 'download') {
      out.push(
        meta && stored !== null ? { ...p, actions: { download: { href: `${base}/objects/${p.oid}`, header } } } : fail(404, 'Not Found'),
      );
      continue;
    }
    // The repository has it already: nothing to send.
    if (meta && stored !== null) {
      out.push({ ...p });
      continue;
    }
    const max = config.SERVER.LFS_MAX_FILE_SIZE;
    if (max > 0 && p.size > max) {
      out.push(fail(422, `Size must be less than or equal to ${max}`));
      continue;
    }
    // Stored for another repository but not linked to this one: the client must send the bytes,
    // which proves it has them before the object is linked here.
    out.push({
      ...p,
      actions: {
        upload: { href: `${base}/objects/${p.oid}/${p.size}`, header },
        // The Accept header works around git-lfs/git-lfs#3662, as Forgejo does.
        verify: { href: `${base}/verify`, header: { ...header, Accept: LFS_MEDIA_TYPE } },
      },
    });
  }
  return out;
}
