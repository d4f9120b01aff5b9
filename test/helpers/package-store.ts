// What the package registries left on disk below a data directory: stored blobs and spool files.
// Tests compare these before and after a refused upload ("nothing stored, nothing left behind").
import fs from 'node:fs';
import path from 'node:path';

export function blobFiles(dataPath: string): string[] {
  const root = path.join(dataPath, 'packages');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .filter((d) => d !== 'tmp')
    .flatMap((d) => fs.readdirSync(path.join(root, d)));
}

export function spoolFiles(dataPath: string): string[] {
  const dir = path.join(dataPath, 'packages', 'tmp');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}
