// Forks (Forgejo services/repository/fork.go) and bringing a fork's branch up to date with its base
// repository (services/repository/sync_fork.go).
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import type { Services } from '../http/services.ts';
import { Repository, type IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import { conflict, notFound } from '../http/errors.ts';
import { FORK_UNITS, insertRepository, recountForks, withNewGitDir } from './repos.ts';
import { repoSize, revParse, setHead, type ObjectFormat } from '../../git/repo.ts';
import { readInfo } from '../../git/cat-file.ts';
import { isAncestor } from '../../git/merge.ts';
import { runGit } from '../../git/exec.ts';
import { updateRef } from '../../git/refs.ts';
import { systemIdentityEnv } from '../../git/identity.ts';
import { RefConflictError } from '../../git/errors.ts';
import { ALL_BRANCHES_AND_TAGS, fetchFrom } from '../../git/remote.ts';
import { sql, writeSql } from '../../model/sql.ts';

export const pathOf = (services: Services, repo: IRepository) => services.repoPath(repo.ownerName, repo.name);

/** Copies every branch and tag of `from` into the bare repository at `toPath` and points HEAD at `branch`. */
export async function copyGitContent(services: Services, from: IRepository, toPath: string, branch: string): Promise<void> {
  if (!from.isEmpty) await fetchFrom(toPath, pathOf(services, from), ALL_BRANCHES_AND_TAGS);
  await setHead(toPath, branch);
}

export async function forkRepository(
  em: EntityManager,
  cfg: Config,
  services: Services,
  doer: IUser,
  base: IRepository,
  baseOwner: IUser,
  forker: IUser,
  name: string,
): Promise<IRepository> {
  const existing = await em.findOne(Repository, { ownerId: forker.id, forkId: base.id });
  if (existing) {
    throw conflict(
      `repository is already forked by user [uname: ${forker.name}, repo path: ${baseOwner.name}/${base.name}, fork path: ${forker.name}/${existing.name}]`,
    );
  }
  const fork = await insertRepository(em, cfg, forker, doer, {
    name,
    description: base.description,
    private: base.isPrivate || baseOwner.visibility === 'private',
    defaultBranch: base.defaultBranch,
    objectFormat: base.objectFormatName as ObjectFormat,
    units: FORK_UNITS,
    isFork: true,
    forkId: base.id,
  });
  const path = services.repoPath(forker.name, fork.name);
  await withNewGitDir(path, { defaultBranch: fork.defaultBranch, objectFormat: fork.objectFormatName as ObjectFormat }, async () => {
    await copyGitContent(services, base, path, base.defaultBranch);
    fork.isEmpty = base.isEmpty;
    fork.size = await repoSize(path);
    await recountForks(em, base.id);
    // The fork's LFS pointers resolve to the same objects (Forgejo copies the LFS meta objects).
    await writeSql(
      em,
      sql`insert into lfs_meta_object (oid, size, repository_id, created_at) select oid, size, ${fork.id}, ${new Date()} from lfs_meta_object where repository_id = ${base.id} on conflict do nothing`,
    );
  });
  return fork;
}

export interface SyncInfo {
  allowed: boolean;
  fork_commit: string;
  base_commit: string;
  commits_behind: number;
}

/** Forgejo's GetSyncForkInfo; 404 when the fork has no such branch. */
export async function syncInfo(
  em: EntityManager,
  services: Services,
  fork: IRepository,
  branch: string,
): Promise<SyncInfo & { base: IRepository | null }> {
  const forkPath = pathOf(services, fork);
  const forkCommit = await revParse(forkPath, `refs/heads/${branch}`);
  if (!forkCommit) throw notFound('GetBranch', [`branch does not exist [repo_id: ${fork.id} name: ${branch}]`]);
  const info = { allowed: false, fork_commit: forkCommit, base_commit: '', commits_behind: 0, base: null as IRepository | null };
  const base = await em.findOne(Repository, { id: fork.forkId });
  if (!base || fork.isArchived) return info;
  info.base = base;
  const basePath = pathOf(services, base);
  const baseCommit = await revParse(basePath, `refs/heads/${branch}`);
  if (!baseCommit) return info;
  info.base_commit = baseCommit;
  if (baseCommit === forkCommit) return info;
  // The fork can be fast-forwarded only when its tip is part of the base branch's history.
  if (!(await readInfo(basePath, forkCommit)) || !(await isAncestor(basePath, forkCommit, baseCommit))) return info;
  const { stdout } = await runGit(basePath, ['rev-list', '--count', `${forkCommit}..${baseCommit}`]);
  info.allowed = true;
  info.commits_behind = Number(stdout.toString('utf8').trim());
  return info;
}

/** Fast-forwards the fork's branch to the base's; 409 when that is not a fast-forward (or the branch moved meanwhile). */
export async function syncFork(em: EntityManager, services: Services, fork: IRepository, branch: string): Promise<void> {
  const info = await syncInfo(em, services, fork, branch);
  if (!info.allowed || !info.base) throw conflict(`branch ${branch} cannot be fast-forwarded to the base repository's branch`);
  const forkPath = pathOf(services, fork);
  await fetchFrom(forkPath, pathOf(services, info.base), [`refs/heads/${branch}`]);
  try {
    await updateRef(forkPath, `refs/heads/${branch}`, info.base_commit, info.fork_commit, systemIdentityEnv());
  } catch (e) {
    if (e instanceof RefConflictError) throw conflict(`branch ${branch} was updated meanwhile`);
    throw e;
  }
  fork.isEmpty = false;
  fork.size = await repoSize(forkPath);
  fork.updatedAt = new Date();
  await em.flush();
}
