// ActivityPub path loaders: `{user-id}` (user by id) and `{repository-id}` (repository by id).
import { User } from '../model/user.ts';
import { Repository } from '../model/repo.ts';
import { NOT_FOUND } from '../lib/http/errors.ts';
import { repoPermission } from '../lib/auth/perm.ts';
import { deny, isSiteAdmin, step } from './types.ts';
import { rowId } from '../lib/http/query-values.ts';

const idOf = (v: string | undefined) => rowId(v) ?? 0;

export const USER_BY_ID = step('USER_BY_ID', 'loader', [], ['user'], async (s) => {
  const user = await s.em.findOne(User, { id: idOf(s.params['user-id']), type: 0 });
  if (!user) return deny(404, NOT_FOUND, { errors: [] });
  s.contextUser = user;
  return null;
});

/** A loader for a repository named by its id in path parameter `param`; no access reads as absent. */
export const repoByIdLoader = (name: string, param: string) =>
  step(name, 'loader', [], ['repo'], async (s) => {
    const id = idOf(s.params[param]);
    const repo = id ? await s.em.findOne(Repository, { id }) : null;
    const owner = repo && (await s.em.findOne(User, { id: repo.ownerId }));
    if (!repo || !owner) return deny(404, NOT_FOUND, { errors: [] });
    const perm = await repoPermission(s.em, { repo, owner, doer: s.auth.doer, siteAdmin: isSiteAdmin(s), token: s.auth.token });
    if (!perm.hasAnyAccess()) return deny(404, NOT_FOUND, { errors: [] });
    s.repo = { repo, owner, perm };
    return null;
  });

export const REPO_BY_ID = repoByIdLoader('REPO_BY_ID', 'repository-id');
