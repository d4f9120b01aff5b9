// Creating a repository from a template (Forgejo services/repository/generate.go), with the parts
// GenerateRepoOption selects. Git content is the template's default branch, history included.
import type { EntityManager, RequiredEntityData } from '@mikro-orm/core';
import { wrap } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import type { Services } from '../http/services.ts';
import type { IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import { Label } from '../../model/label.ts';
import { ProtectedBranch, type IProtectedBranch } from '../../model/branch-protection.ts';
import { insertRepository, withNewGitDir } from './repos.ts';
import { copyTopics } from './topics.ts';
import { copyRepoAvatar } from './avatar.ts';
import { pathOf } from './forks.ts';
import { fetchFrom } from '../../git/remote.ts';
import { repoSize, setHead, type ObjectFormat } from '../../git/repo.ts';

export interface GenerateInput {
  name: string;
  description?: string;
  private?: boolean;
  defaultBranch?: string;
  gitContent?: boolean;
  topics?: boolean;
  avatar?: boolean;
  labels?: boolean;
  protectedBranch?: boolean;
}

export async function generateRepository(
  em: EntityManager,
  cfg: Config,
  services: Services,
  doer: IUser,
  owner: IUser,
  tpl: IRepository,
  input: GenerateInput,
): Promise<IRepository> {
  const withContent = !!input.gitContent && !tpl.isEmpty;
  const repo = await insertRepository(em, cfg, owner, doer, {
    name: input.name,
    description: input.description,
    private: input.private,
    defaultBranch: input.defaultBranch || (withContent ? tpl.defaultBranch : undefined),
    objectFormat: tpl.objectFormatName as ObjectFormat,
    trustModel: tpl.trustModel,
    templateId: tpl.id,
  });
  const path = services.repoPath(owner.name, repo.name);
  await withNewGitDir(path, { defaultBranch: repo.defaultBranch, objectFormat: repo.objectFormatName as ObjectFormat }, async () => {
    if (withContent) {
      await fetchFrom(path, pathOf(services, tpl), [`+refs/heads/${tpl.defaultBranch}:refs/heads/${repo.defaultBranch}`]);
      await setHead(path, repo.defaultBranch);
      repo.isEmpty = false;
      repo.size = await repoSize(path);
    }
    if (input.topics) await copyTopics(em, tpl, repo);
    if (input.avatar) await copyRepoAvatar(cfg, tpl, repo);
    if (input.labels) {
      for (const l of await em.find(Label, { repoId: tpl.id })) {
        em.create(Label, {
          repoId: repo.id,
          orgId: 0,
          name: l.name,
          exclusive: l.exclusive,
          color: l.color,
          description: l.description,
          isArchived: l.isArchived,
          archivedAt: l.archivedAt,
        });
      }
    }
    if (input.protectedBranch) {
      for (const rule of await em.find(ProtectedBranch, { repoId: tpl.id })) {
        const { id: _id, createdAt: _c, updatedAt: _u, ...fields } = wrap(rule).toObject();
        em.create(ProtectedBranch, { ...fields, repoId: repo.id } as RequiredEntityData<IProtectedBranch>);
      }
    }
    await em.flush();
  });
  return repo;
}
