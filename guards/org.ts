// Organization assignment (spec, path resolution: "{org} unknown: redirect when a rename redirect
// exists, otherwise 404"). An organization the caller may not see is unknown to them.
import { User, UserRedirect, UserType } from '../model/user.ts';
import { canSeeOwner } from '../lib/auth/perm.ts';
import { NOT_FOUND } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, step } from './types.ts';
import { redirectPath } from '../lib/http/redirect-path.ts';

export const ORG = step('ORG', 'loader', [], ['org'], async (s) => {
  const name = (s.params.org ?? '').toLowerCase();
  const org = await s.em.findOne(User, { lowerName: name, type: UserType.organization });
  if (org && (await canSeeOwner(s.em, org, s.auth.doer, isSiteAdmin(s)))) {
    s.org = org;
    return null;
  }
  if (!org) {
    const r = await s.em.findOne(UserRedirect, { lowerName: name });
    const target = r && (await s.em.findOne(User, { id: r.redirectUserId, type: UserType.organization }));
    if (target && (await canSeeOwner(s.em, target, s.auth.doer, isSiteAdmin(s)))) {
      return { status: 307 as const, location: redirectPath(s, s.params.org, target.name) };
    }
  }
  return deny(404, NOT_FOUND, { errors: [] });
});
