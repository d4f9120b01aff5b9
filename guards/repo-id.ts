// `GET /repositories/{id}` (Forgejo's GetByID): the repository with that id, 404 when it does not
// exist or the caller (with the token's kind taken into account) has no access to it at all.
import { User } from '../model/user.ts';
import { Repository } from '../model/repo.ts';
import { NOT_FOUND } from '../lib/errors.ts';
import { repoPermission } from '../lib/perm.ts';
import { deny, isSiteAdmin, step } from './types.ts';

export const REPO_ID = step('REPO_ID', 'loader', [], ['repo'], async (s) => {
  const raw = s.params.id ?? '';
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : 0;
  const repo = id ? await s.em.findOne(Repository, { id }) : null;
  const owner = repo && (await s.em.findOne(User, { id: repo.ownerId }));
  if (!repo || !owner) return deny(404, NOT_FOUND, { errors: [] });
  const perm = await repoPermission(s.em, { repo, owner, doer: s.auth.doer, siteAdmin: isSiteAdmin(s), token: s.auth.token });
  if (!perm.hasAnyAccess()) return deny(404, NOT_FOUND, { errors: [] });
  s.repo = { repo, owner, perm };
  return null;
});
