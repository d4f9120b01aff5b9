// User assignment (spec, path resolution; forgejo-facts 1.2 "404 through UserAssignment", 5 redirects):
// `{username}` is looked up case-insensitively; a renamed user redirects (307) when the caller may see
// the new one; otherwise 404 `user redirect does not exist [name: x]`.
import { User, UserRedirect } from '../model/user.ts';
import { canSeeOwner } from '../lib/auth/perm.ts';
import { deny, isSiteAdmin, step, type RequestState } from './types.ts';
import { redirectPath } from '../lib/http/redirect-path.ts';

export const USER = step('USER', 'loader', [], ['user'], async (s) => {
  const name = s.params.username ?? '';
  const doer = s.auth.doer;
  if (doer && doer.lowerName === name.toLowerCase()) {
    s.contextUser = doer;
    return null;
  }
  const user = await s.em.findOne(User, { lowerName: name.toLowerCase() });
  if (user) {
    s.contextUser = user;
    return null;
  }
  return redirectOrMissing(s, name);
});

async function redirectOrMissing(s: RequestState, name: string) {
  const missing = deny(404, `user redirect does not exist [name: ${name.toLowerCase()}]`);
  const r = await s.em.findOne(UserRedirect, { lowerName: name.toLowerCase() });
  const target = r && (await s.em.findOne(User, { id: r.redirectUserId }));
  if (!target || !(await canSeeOwner(s.em, target, s.auth.doer, isSiteAdmin(s)))) return missing;
  return { status: 307 as const, location: redirectPath(s, name, target.name) };
}

/** Spec, unit gates: "user-visibility gate — private and caller neither that user nor a site admin; or limited and caller anonymous" (404). */
export const USER_VISIBLE = step('USER_VISIBLE', 'gate', ['user'], [], (s) => {
  const user = s.contextUser!;
  const doer = s.auth.doer;
  if (user.visibility === 'private' && !(doer?.id === user.id || isSiteAdmin(s)))
    return deny(404, `user redirect does not exist [name: ${user.lowerName}]`);
  if (user.visibility === 'limited' && !doer) return deny(404, `user redirect does not exist [name: ${user.lowerName}]`);
  return null;
});
