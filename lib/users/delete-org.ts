// Deleting an organization (Forgejo's services/org DeleteOrganization): refused while it owns repositories
// or packages; its teams, members, labels, action settings, hooks, feed, blocks, follows and redirects go
// with it, then the row and its avatar.
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import { UserRedirect, type IUser } from '../../model/user.ts';
import { OrgUser, Team, TeamRepo, TeamUnit, TeamUser } from '../../model/org.ts';
import { Repository } from '../../model/repo.ts';
import { Label } from '../../model/label.ts';
import { deleteActionConfig } from '../../model/action-secret.ts';
import { Action } from '../../model/action.ts';
import { BlockedUser, Follow } from '../../model/social.ts';
import { deleteOwnerHooks } from '../webhooks/index.ts';
import { ownsPackages } from '../packages/index.ts';
import { unprocessable } from '../http/errors.ts';
import { deleteAvatar } from './avatar-store.ts';

export async function deleteOrg(em: EntityManager, config: Config, org: IUser): Promise<void> {
  if ((await em.count(Repository, { ownerId: org.id })) > 0)
    throw unprocessable(`user still has ownership of repositories [uid: ${org.id}]`);
  if (await ownsPackages(em, org.id)) throw unprocessable(`user still has ownership of packages [uid: ${org.id}]`);
  await em.nativeDelete(TeamUnit, { orgId: org.id });
  await em.nativeDelete(TeamRepo, { orgId: org.id });
  await em.nativeDelete(TeamUser, { orgId: org.id });
  await em.nativeDelete(Team, { orgId: org.id });
  await em.nativeDelete(OrgUser, { orgId: org.id });
  await em.nativeDelete(Label, { orgId: org.id });
  await deleteActionConfig(em, { ownerId: org.id });
  await deleteOwnerHooks(em, org.id);
  await em.nativeDelete(Action, { userId: org.id });
  await em.nativeDelete(BlockedUser, { userId: org.id });
  await em.nativeDelete(Follow, { $or: [{ userId: org.id }, { followId: org.id }] });
  await em.nativeDelete(UserRedirect, { redirectUserId: org.id });
  const avatar = org.avatar;
  em.remove(org);
  await em.flush();
  if (avatar) await deleteAvatar(config, avatar);
}
