// Renaming a user or an organization (Forgejo's services/user RenameUser): the old name redirects
// (spec, path resolution: "redirect when a rename redirect exists"), the repositories follow the
// owner's new name, in the database and on disk (repository and wiki directories).
import { access } from 'node:fs/promises';
import type { EntityManager } from '@mikro-orm/core';
import { User, UserRedirect, type IUser } from '../../model/user.ts';
import { Repository } from '../../model/repo.ts';
import type { Services } from '../http/services.ts';
import { checkUserName } from './names.ts';
import { unprocessable } from '../http/errors.ts';
import { renameRepo } from '../../git/repo.ts';

export async function renameOwner(em: EntityManager, services: Services, owner: IUser, newName: string): Promise<void> {
  if (newName === owner.name) return;
  checkUserName(newName);
  const oldName = owner.name;
  const lower = newName.toLowerCase();
  const caseOnly = lower === owner.lowerName;
  if (!caseOnly && (await em.count(User, { lowerName: lower })) > 0) throw unprocessable(`user already exists [name: ${newName}]`);

  const repos = await em.find(Repository, { ownerId: owner.id });
  for (const r of repos) r.ownerName = newName;
  if (!caseOnly) {
    await em.nativeDelete(UserRedirect, { lowerName: { $in: [owner.lowerName, lower] } });
    em.create(UserRedirect, { lowerName: owner.lowerName, redirectUserId: owner.id });
  }
  owner.name = newName;
  owner.lowerName = lower;
  await em.flush();
  if (caseOnly) return;

  // The database work is still uncommitted: if a move fails, put back what moved and let the
  // transaction roll back, so disk and database agree either way.
  const moved: [string, string][] = [];
  try {
    for (const dir of repos.flatMap((r) => [r.name, `${r.name}.wiki`])) {
      const from = services.repoPath(oldName, dir);
      const to = services.repoPath(newName, dir);
      // Like Forgejo, a missing directory (a wiki never written, say) does not stop the rename.
      if (
        !(await access(from).then(
          () => true,
          () => false,
        ))
      )
        continue;
      await renameRepo(from, to);
      moved.push([from, to]);
    }
  } catch (e) {
    for (const [from, to] of moved.reverse()) await renameRepo(to, from);
    throw e;
  }
}
