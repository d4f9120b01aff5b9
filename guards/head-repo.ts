// Forgejo's CreatePullRequest and parseCompareInfo: the body's `head` is `branch` (this repository) or
// `owner:branch`, where owner's repository is a fork of this one, or this repository's parent. `head`
// equal to `base` answers 422 first; more than one colon 404; an unknown owner 404 `GetUserByName`; no such
// fork or parent 404 `GetBaseRepo`; a head repository whose code the caller may not read 404
// "Can't read headRepo UnitTypeCode".
import { Repository } from '../model/repo.ts';
import { User } from '../model/user.ts';
import { repoPermission } from '../lib/auth/perm.ts';
import { NOT_FOUND } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';

export const NO_CHANGES = 'Invalid PullRequest: There are no changes between the head and the base';

export const HEAD_REPO = step('HEAD_REPO', 'loader', ['repo', 'body'], ['head'], async (s) => {
  const { repo, owner } = need(s.repo, 'repo');
  const b = need(s.body as { head?: unknown; base?: unknown } | undefined, 'body');
  const head = String(b.head ?? '');
  if (head === b.base) return deny(422, NO_CHANGES);
  const parts = head.split(':');
  if (parts.length > 2) return deny(404, NOT_FOUND, { errors: [] });
  if (parts.length === 1) {
    s.head = { repo, owner, branch: parts[0] };
    return null;
  }
  const headOwner = await s.em.findOne(User, { lowerName: parts[0].toLowerCase() });
  if (!headOwner) return deny(404, 'GetUserByName', { errors: [`user redirect does not exist [name: ${parts[0]}]`] });
  if (headOwner.id === owner.id) {
    s.head = { repo, owner, branch: parts[1] };
    return null;
  }
  let headRepo = await s.em.findOne(Repository, { ownerId: headOwner.id, forkId: repo.id });
  if (!headRepo && repo.isFork && repo.forkId) {
    const parent = await s.em.findOne(Repository, { id: repo.forkId });
    if (parent?.ownerId === headOwner.id) headRepo = parent;
  }
  if (!headRepo) return deny(404, 'GetBaseRepo', { errors: [] });
  const perm = await repoPermission(s.em, {
    repo: headRepo,
    owner: headOwner,
    doer: s.auth.doer,
    siteAdmin: isSiteAdmin(s),
    token: s.auth.token,
  });
  if (!perm.canRead('code')) return deny(404, "Can't read headRepo UnitTypeCode", { errors: [] });
  s.head = { repo: headRepo, owner: headOwner, branch: parts[1] };
  return null;
});
