// Forgejo's Transfer: the user or organization named by the body's `new_owner`. An unknown name, or a
// private organization the caller is not a member of (site admins see every one), answers 404 "The new
// owner does not exist or cannot be found".
import { User } from '../model/user.ts';
import { isOrgMember } from '../lib/auth/membership.ts';
import { deny, isSiteAdmin, step } from './types.ts';

export const NO_NEW_OWNER = 'The new owner does not exist or cannot be found';

export const NEW_OWNER = step('NEW_OWNER', 'loader', ['body'], ['new-owner'], async (s) => {
  const name = (s.body as { new_owner?: unknown } | undefined)?.new_owner;
  const found = typeof name === 'string' ? await s.em.findOne(User, { lowerName: name.toLowerCase() }) : null;
  if (!found) return deny(404, NO_NEW_OWNER, { errors: [] });
  const hidden =
    found.type === 1 &&
    found.visibility === 'private' &&
    !isSiteAdmin(s) &&
    !(s.auth.doer && (await isOrgMember(s.em, found.id, s.auth.doer.id)));
  if (hidden) return deny(404, NO_NEW_OWNER, { errors: [] });
  s.newOwner = found;
  return null;
});
