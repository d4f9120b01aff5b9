// Deleting a user account (Forgejo's services/user DeleteUser): refused while the user owns
// repositories or belongs to organizations, unless purging, which deletes the repositories and
// leaves the organizations first. Everything that points at the user goes with it.
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import type { Services } from '../http/services.ts';
import { EmailAddress, UserRedirect, type IUser } from '../../model/user.ts';
import { AccessToken, AccessTokenRepo } from '../../model/token.ts';
import { Collaboration, Repository } from '../../model/repo.ts';
import { OrgUser, Team, TeamUser } from '../../model/org.ts';
import { BlockedUser, Follow } from '../../model/social.ts';
import { GpgKey, GpgKeyImport, KeyType, PublicKey } from '../../model/keys.ts';
import { OAuth2Application } from '../../model/oauth2.ts';
import { deleteActionConfig } from '../../model/action-secret.ts';
import { Star, Watch } from '../../model/star.ts';
import { recountStarsAndWatches } from '../repos/index.ts';
import { Notification } from '../../model/notification.ts';
import { Action } from '../../model/action.ts';
import { deleteOwnerHooks } from '../webhooks/index.ts';
import { deleteRepository } from '../repos/index.ts';
import { ownsPackages, removeOwnerPackages } from '../packages/index.ts';
import { refreshFollowCounts } from './follows.ts';
import { deleteAvatar } from './avatar-store.ts';
import { unprocessable } from '../http/errors.ts';
import { Mode } from '../auth/perm.ts';

async function checkDeletable(em: EntityManager, user: IUser, purge: boolean): Promise<void> {
  if (!purge && (await em.count(Repository, { ownerId: user.id })) > 0)
    throw unprocessable(`user still has ownership of repositories [uid: ${user.id}]`);
  if (!purge && (await ownsPackages(em, user.id))) throw unprocessable(`user still has ownership of packages [uid: ${user.id}]`);
  const memberships = await em.find(OrgUser, { uid: user.id });
  if (!purge && memberships.length) throw unprocessable(`user still has membership of organizations [uid: ${user.id}]`);
  // Leaving an organization is refused to its last owner, so purging is too.
  for (const owners of await em.find(Team, { orgId: { $in: memberships.map((m) => m.orgId) }, accessMode: Mode.owner })) {
    const members = await em.find(TeamUser, { teamId: owners.id });
    if (members.length === 1 && members[0].uid === user.id) throw unprocessable(`user is the last member of owner team [uid: ${user.id}]`);
  }
}

/** Stars and watches go, and the repositories' counters are recounted. */
async function dropStarsAndWatches(em: EntityManager, uid: number): Promise<void> {
  const stars = await em.find(Star, { uid });
  const watches = await em.find(Watch, { userId: uid });
  await em.nativeDelete(Star, { uid });
  await em.nativeDelete(Watch, { userId: uid });
  await em.nativeDelete(Notification, { userId: uid });
  await recountStarsAndWatches(em, [...stars.map((s) => s.repoId), ...watches.map((w) => w.repoId)]);
}

export async function deleteUser(em: EntityManager, cfg: Config, services: Services, user: IUser, purge: boolean): Promise<void> {
  await checkDeletable(em, user, purge);
  const tokens = await em.find(AccessToken, { uid: user.id });
  if (tokens.length) await em.nativeDelete(AccessTokenRepo, { tokenId: { $in: tokens.map((t) => t.id) } });
  await em.nativeDelete(AccessToken, { uid: user.id });
  await em.nativeDelete(EmailAddress, { uid: user.id });
  await em.nativeDelete(Collaboration, { userId: user.id });
  await em.nativeDelete(TeamUser, { uid: user.id });
  await em.nativeDelete(OrgUser, { uid: user.id });
  const follows = await em.find(Follow, { $or: [{ userId: user.id }, { followId: user.id }] });
  await em.nativeDelete(Follow, { id: { $in: follows.map((f) => f.id) } });
  await em.nativeDelete(BlockedUser, { $or: [{ userId: user.id }, { blockId: user.id }] });
  await em.nativeDelete(PublicKey, { ownerId: user.id, type: KeyType.user });
  const gpgKeys = await em.find(GpgKey, { ownerId: user.id });
  if (gpgKeys.length) await em.nativeDelete(GpgKeyImport, { keyId: { $in: gpgKeys.map((k) => k.keyId) } });
  await em.nativeDelete(GpgKey, { ownerId: user.id });
  await em.nativeDelete(OAuth2Application, { uid: user.id });
  await deleteActionConfig(em, { ownerId: user.id });
  await deleteOwnerHooks(em, user.id);
  // Forgejo's DeleteUser drops the feed rows the user received and the ones they caused.
  await em.nativeDelete(Action, { $or: [{ userId: user.id }, { actUserId: user.id }] });
  await em.nativeDelete(UserRedirect, { redirectUserId: user.id });
  // Counter rows are locked users first, then topics (repository deletion), then repositories
  // (lib/db/counters.ts), the order other writers take them in.
  const others = [...new Set(follows.map((f) => (f.userId === user.id ? f.followId : f.userId)))];
  if (others.length) await refreshFollowCounts(em, others);
  for (const repo of await em.find(Repository, { ownerId: user.id })) await deleteRepository(em, services, repo, user);
  await dropStarsAndWatches(em, user.id);
  await removeOwnerPackages(em, cfg, user.id);
  const avatar = user.avatar;
  em.remove(user);
  await em.flush();
  if (avatar) await deleteAvatar(cfg, avatar);
}
