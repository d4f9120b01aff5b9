// The second user of `GET /users/{username}/following/{target}`, looked up like Forgejo's GetUserByParamsName:
// case-insensitively; a renamed user redirects (307) when the caller may see the new one; otherwise 404
// `GetUserByName` "user does not exist [uid: 0, name: x]".
import { User, UserRedirect } from '../model/user.ts';
import { canSeeOwner } from '../lib/auth/perm.ts';
import { redirectPath } from '../lib/http/redirect-path.ts';
import { deny, isSiteAdmin, step } from './types.ts';

export const TARGET_USER = step('TARGET_USER', 'loader', [], ['target-user'], async (s) => {
  const name = s.params.target ?? '';
  const user = await s.em.findOne(User, { lowerName: name.toLowerCase() });
  if (user) {
    s.targetUser = user;
    return null;
  }
  const r = await s.em.findOne(UserRedirect, { lowerName: name.toLowerCase() });
  const renamed = r && (await s.em.findOne(User, { id: r.redirectUserId }));
  if (renamed && (await canSeeOwner(s.em, renamed, s.auth.doer, isSiteAdmin(s))))
    return { status: 307, location: redirectPath(s, name, renamed.name) };
  return deny(404, 'GetUserByName', { errors: [`user does not exist [uid: 0, name: ${name}]`] });
});
