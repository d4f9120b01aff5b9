// Creating, renaming and deleting repositories: the database record, its units and the bare git
// repository on disk (forgejo-facts 8.1, 8.2, 10.1).
import fs from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../config.ts';
import type { Services } from './services.ts';
import { Collaboration, RepoRedirect, RepoUnit, Repository, type IRepository, type IRepoUnit } from '../model/repo.ts';
import { AccessTokenRepo } from '../model/token.ts';
import { TeamRepo } from '../model/org.ts';
import type { IUser } from '../model/user.ts';
import { DEFAULT_UNITS, Mode, Unit, type UnitName } from './perm.ts';
import { checkRepoName } from './names.ts';
import { badRequest, conflict, unprocessable } from './errors.ts';
import { initBare, renameRepo, deleteRepo } from '../git/repo.ts';
import { closeBatch } from '../git/cat-file.ts';
import { commitFiles, type FileOp } from '../git/write.ts';
import { isValidBranchName } from '../git/refname.ts';
import { RepoExistsError } from '../git/errors.ts';
import { isOrgOwner } from '../guards/membership.ts';

export const DEFAULT_PULLS_CONFIG = {
  ignore_whitespace_conflicts: false,
  allow_merge_commits: true,
  allow_rebase: true,
  allow_rebase_explicit: true,
  allow_squash_merge: true,
  allow_fast_forward_only_merge: true,
  allow_rebase_update: true,
  allow_manual_merge: false,
  autodetect_manual_merge: false,
  default_delete_branch_after_merge: false,
  default_merge_style: 'merge',
  default_update_style: 'merge',
  default_allow_maintainer_edit: false,
};
export const DEFAULT_ISSUES_CONFIG = { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true };

export function defaultUnitConfig(u: UnitName): Record<string, unknown> {
  if (u === 'pulls') return { ...DEFAULT_PULLS_CONFIG };
  if (u === 'issues') return { ...DEFAULT_ISSUES_CONFIG };
  return {};
}

export interface NewRepo {
  name: string;
  description?: string;
  private?: boolean;
  autoInit?: boolean;
  defaultBranch?: string;
  readme?: string;
  gitignores?: string;
  license?: string;
  issueLabels?: string;
  template?: boolean;
  objectFormat?: 'sha1' | 'sha256';
  trustModel?: string;
}

export async function createRepository(em: EntityManager, cfg: Config, services: Services, owner: IUser, doer: IUser, input: NewRepo): Promise<IRepository> {
  checkRepoName(input.name);
  const defaultBranch = input.defaultBranch || cfg.REPOSITORY.DEFAULT_BRANCH;
  if (!isValidBranchName(defaultBranch)) throw unprocessable('[DefaultBranch]: GitRefName');
  if (input.readme && input.readme !== 'Default') throw badRequest('readme template does not exist, available templates: [Default]');
  if (input.issueLabels) throw unprocessable(`label set "${input.issueLabels}" does not exist`);
  if (input.gitignores) throw unprocessable(`gitignore template "${input.gitignores}" does not exist`);
  if (input.license) throw unprocessable(`license template "${input.license}" does not exist`);
  if (input.objectFormat === 'sha256') throw unprocessable('object format sha256 is not supported by this server\'s git');
  if ((await em.count(Repository, { ownerId: owner.id, lowerName: input.name.toLowerCase() })) > 0) {
    throw conflict('The repository with the same name already exists.');
  }
  const repo = em.create(Repository, {
    ownerId: owner.id,
    ownerName: owner.name,
    name: input.name,
    lowerName: input.name.toLowerCase(),
    description: input.description ?? '',
    defaultBranch,
    wikiBranch: cfg.REPOSITORY.DEFAULT_BRANCH,
    isPrivate: cfg.REPOSITORY.FORCE_PRIVATE || !!input.private,
    isTemplate: !!input.template,
    objectFormatName: input.objectFormat ?? 'sha1',
    trustModel: input.trustModel ?? 'default',
    isEmpty: true,
  });
  await em.flush();
  for (const u of DEFAULT_UNITS) em.create(RepoUnit, { repoId: repo.id, type: Unit[u], config: defaultUnitConfig(u) });
  await em.nativeDelete(RepoRedirect, { ownerId: owner.id, lowerName: repo.lowerName });
  if (owner.type === 1 && !(await isOrgOwner(em, owner.id, doer.id))) {
    em.create(Collaboration, { repoId: repo.id, userId: doer.id, mode: Mode.admin });
  }
  await em.flush();

  const path = services.repoPath(owner.name, repo.name);
  try {
    await initBare(path, { defaultBranch, objectFormat: repo.objectFormatName === 'sha256' ? 'sha256' : 'sha1' });
  } catch (e) {
    if (e instanceof RepoExistsError) throw conflict('The repository with the same name already exists.');
    throw e;
  }
  if (input.autoInit) {
    const ops: FileOp[] = [{ op: 'create', path: 'README.md', content: Buffer.from(`# ${repo.name}\n\n${repo.description}`) }];
    const who = { name: doer.fullName || doer.name, email: doer.keepEmailPrivate ? `${doer.lowerName}@${cfg.SERVICE.NO_REPLY_ADDRESS}` : doer.email };
    await commitFiles(path, { branch: defaultBranch, parent: null, expectedOld: null, ops, message: 'Initial commit', author: who });
    repo.isEmpty = false;
    await em.flush();
  }
  return repo;
}

export async function repoUnits(em: EntityManager, repoId: number): Promise<IRepoUnit[]> {
  return em.find(RepoUnit, { repoId }, { orderBy: { type: 'asc' } });
}

/** Moves the repository directory and leaves a redirect from the old name (spec, path resolution rule 3). */
export async function renameRepository(em: EntityManager, services: Services, repo: IRepository, owner: IUser, newName: string): Promise<void> {
  checkRepoName(newName);
  if (newName === repo.name) return;
  if (newName.toLowerCase() !== repo.lowerName && (await em.count(Repository, { ownerId: owner.id, lowerName: newName.toLowerCase() })) > 0) {
    throw conflict('The repository with the same name already exists.');
  }
  const from = services.repoPath(owner.name, repo.name);
  const to = services.repoPath(owner.name, newName);
  if (newName.toLowerCase() !== repo.lowerName) {
    await em.nativeDelete(RepoRedirect, { ownerId: owner.id, lowerName: newName.toLowerCase() });
    em.create(RepoRedirect, { ownerId: owner.id, lowerName: repo.lowerName, redirectRepoId: repo.id });
  }
  repo.name = newName;
  repo.lowerName = newName.toLowerCase();
  await em.flush();
  if (from !== to) await renameRepo(from, to);
}

/** Deletes the record and everything that points at it, then the git directory. */
export async function deleteRepository(em: EntityManager, services: Services, repo: IRepository, owner: IUser): Promise<void> {
  await em.nativeDelete(RepoUnit, { repoId: repo.id });
  await em.nativeDelete(Collaboration, { repoId: repo.id });
  await em.nativeDelete(TeamRepo, { repoId: repo.id });
  await em.nativeDelete(AccessTokenRepo, { repoId: repo.id });
  await em.nativeDelete(RepoRedirect, { redirectRepoId: repo.id });
  em.remove(repo);
  await em.flush();
  // Move aside first so a half-finished removal never leaves a repository that looks valid.
  const dir = services.repoPath(owner.name, repo.name);
  await closeBatch(dir);
  const trash = `${dir}.deleted-${randomBytes(4).toString('hex')}`;
  await fs.rename(dir, trash).catch((e: NodeJS.ErrnoException) => { if (e.code !== 'ENOENT') throw e; });
  await deleteRepo(trash);
}
