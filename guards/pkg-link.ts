// Forgejo's LinkToRepository (packages): the repository `{repo_name}` of the package owner `{username}`,
// with the caller's permission on it; an unknown name answers 404 (PKG_LINK_REPO). Linking needs write
// access to that repository's packages unit, else 403 "no permission to link this package and
// repository, or packages are disabled" (PKG_LINKER): a disabled unit is a 403 here, not RW's 404.
import { Repository } from '../model/repo.ts';
import { NOT_FOUND } from '../lib/http/errors.ts';
import { repoPermission } from '../lib/auth/perm.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';

export const PKG_LINK_REPO = step('PKG_LINK_REPO', 'loader', ['user'], ['repo'], async (s) => {
  const owner = need(s.contextUser, 'user');
  const repo = await s.em.findOne(Repository, { ownerId: owner.id, lowerName: (s.params.repo_name ?? '').toLowerCase() });
  if (!repo) return deny(404, NOT_FOUND, { errors: [] });
  s.repo = {
    repo,
    owner,
    perm: await repoPermission(s.em, { repo, owner, doer: s.auth.doer, siteAdmin: isSiteAdmin(s), token: s.auth.token }),
  };
  return null;
});

export const PKG_LINKER = step('PKG_LINKER', 'guard', ['repo'], [], (s) =>
  need(s.repo, 'repo').perm.canWrite('packages')
    ? null
    : deny(403, 'no permission to link this package and repository, or packages are disabled'),
);
