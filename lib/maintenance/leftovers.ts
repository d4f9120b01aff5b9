// What a killed process leaves on disk: partial uploads in the attachment and
// package spools, and the quarantine directories where `git receive-pack` keeps a push's objects until
// it accepts them. Removed at start, before listening. Only names these writers use are touched:
//   <APP_DATA_PATH>/attachments/tmp/*             formidable's temporary upload files (lib/attachments/attachments.ts), and
//                                                 release assets a migration downloaded (lib/mirrors/migrate-import.ts)
//   <APP_DATA_PATH>/packages/tmp/*                spooled package uploads (lib/packages/packages.ts)
//   <ROOT>/.migrating/*                           a migration's clone before its repository exists (lib/mirrors/mirrors.ts)
//   <ROOT>/<owner>/<repo>[.wiki].git/objects/tmp_objdir-incoming-*, incoming-*   git's quarantine
//   <APP_DATA_PATH>/dump-tmp/*                   the staging directory of `admin dump` (lib/maintenance/dump.ts)
// When another process may be serving the same data (lib/runtime/serving-lock.ts), what it is writing must
// stay: then only leftovers untouched for a day go.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.ts';
import { uploadSpool } from '../http/request-body.ts';
import { packagesRoot } from '../packages/index.ts';
import { migrationSpool } from '../mirrors/index.ts';

/** The staging directories of `admin dump` (lib/maintenance/dump.ts), under the data path. */
export const DUMP_STAGING = 'dump-tmp';

const QUARANTINE = /^(tmp_objdir-incoming-|incoming-)[A-Za-z0-9_-]+$/;
export const STALE_MS = 24 * 3600_000;

export interface LeftoverOptions {
  /** No other process serves this data: everything matching goes, however recent. */
  alone: boolean;
  now?: number;
}

/** Removes the leftovers; returns the paths removed. */
export async function removeLeftovers(cfg: Config, opts: LeftoverOptions): Promise<string[]> {
  const now = opts.now ?? Date.now();
  const removed: string[] = [];
  const remove = async (p: string) => {
    if (!opts.alone) {
      const st = await fs.lstat(p).catch(missing);
      if (!st || now - st.mtimeMs < STALE_MS) return;
    }
    await fs.rm(p, { recursive: true, force: true });
    removed.push(p);
  };
  for (const spool of [uploadSpool(cfg), path.join(packagesRoot(cfg), 'tmp'), migrationSpool(cfg), path.join(cfg.dataPath, DUMP_STAGING)]) {
    for (const name of await names(spool)) await remove(path.join(spool, name));
  }
  for (const owner of await names(cfg.repoRoot)) {
    for (const repo of (await names(path.join(cfg.repoRoot, owner))).filter((n) => n.endsWith('.git'))) {
      const objects = path.join(cfg.repoRoot, owner, repo, 'objects');
      for (const name of (await names(objects)).filter((n) => QUARANTINE.test(n))) await remove(path.join(objects, name));
    }
  }
  return removed;
}

/** Entries of a directory; none when it does not exist (yet) or is not a directory. */
async function names(dir: string): Promise<string[]> {
  return fs.readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return [];
    throw e;
  });
}

function missing(e: NodeJS.ErrnoException): null {
  if (e.code === 'ENOENT') return null;
  throw e;
}
