// The repository a renamed or transferred repository's old name points to (RepoRedirect), for the
// API's REPO loader and for git over HTTP.
import type { EntityManager } from '@mikro-orm/core';
import { RepoRedirect, Repository, type IRepository } from '../../model/repo.ts';
import { User, type IUser } from '../../model/user.ts';

export async function findRedirectTarget(
  em: EntityManager,
  ownerId: number,
  repoName: string,
): Promise<{ repo: IRepository; owner: IUser } | null> {
  const r = await em.findOne(RepoRedirect, { ownerId, lowerName: repoName.toLowerCase() });
  const repo = r && (await em.findOne(Repository, { id: r.redirectRepoId }));
  const owner = repo && (await em.findOne(User, { id: repo.ownerId }));
  return repo && owner ? { repo, owner } : null;
}
