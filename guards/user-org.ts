// Forgejo's GetUserOrgsPermissions: the organization `{org}` asked about for the user `{username}`; an
// unknown name answers 404 naming it, and one the user asked about may not see (a private organization
// they are not in) answers 404 "HasOrgOrUserVisible". Visibility is judged for that user, not for the
// caller, as Forgejo does.
import { User } from '../model/user.ts';
import { userIsSiteAdmin } from '../lib/auth/auth-types.ts';
import { canSeeOwner } from '../lib/auth/perm.ts';
import { deny, need, step } from './types.ts';

export const USER_ORG = step('USER_ORG', 'loader', ['user'], ['org'], async (s) => {
  const user = need(s.contextUser, 'user');
  const name = s.params.org ?? '';
  const org = await s.em.findOne(User, { lowerName: name.toLowerCase() });
  if (!org) return deny(404, 'GetUserByName', { errors: [`user does not exist [uid: 0, name: ${name}]`] });
  if (!(await canSeeOwner(s.em, org, user, userIsSiteAdmin(user)))) return deny(404, 'HasOrgOrUserVisible', { errors: [] });
  s.org = org;
  return null;
});
