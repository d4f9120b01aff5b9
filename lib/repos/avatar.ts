// Repository avatars (Forgejo services/repository/avatar.go): the checked image is stored under
// `<APP_DATA_PATH>/repo-avatars/<hash>`, which `avatar_url` names (`<AppURL>repo-avatars/<hash>`).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.ts';
import type { IRepository } from '../../model/repo.ts';
import { avatarHash, checkAvatarImage } from '../users/index.ts';

const dir = (cfg: Config) => path.join(cfg.dataPath, 'repo-avatars');

export async function setRepoAvatar(cfg: Config, repo: IRepository, data: Buffer): Promise<void> {
  checkAvatarImage(data);
  const hash = avatarHash(repo.id, data);
  if (hash === repo.avatar) return;
  await fs.mkdir(dir(cfg), { recursive: true });
  await fs.writeFile(path.join(dir(cfg), hash), data);
  const old = repo.avatar;
  repo.avatar = hash;
  if (old) await removeFile(cfg, old);
}

export async function clearRepoAvatar(cfg: Config, repo: IRepository): Promise<void> {
  const old = repo.avatar;
  repo.avatar = '';
  if (old) await removeFile(cfg, old);
}

/** Copies a repository's avatar file for another repository (template generation). */
export async function copyRepoAvatar(cfg: Config, from: IRepository, to: IRepository): Promise<void> {
  if (!/^[0-9a-f]{64}$/.test(from.avatar)) return;
  const data = await fs.readFile(path.join(dir(cfg), from.avatar)).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
  if (data) await setRepoAvatar(cfg, to, data);
}

/** The stored image of a repository avatar hash, or null. */
export async function readRepoAvatar(cfg: Config, hash: string): Promise<Buffer | null> {
  if (!/^[0-9a-f]{64}$/.test(hash)) return null;
  return fs.readFile(path.join(dir(cfg), hash)).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
}

async function removeFile(cfg: Config, hash: string): Promise<void> {
  if (/^[0-9a-f]{64}$/.test(hash)) await fs.rm(path.join(dir(cfg), hash), { force: true });
}
