// Forgejo's ListTrackedTimesByUser (GET {R}/times/{timetrackingusername}): the user is looked up by
// name, unknown 404 naming it; only repository admins, site admins (not through public-only or
// repo-specific tokens: spec, token kinds, "no managing or viewing others' logged time") and the user
// themself may list that user's times, else 403.
import { NOT_FOUND } from '../lib/http/errors.ts';
import { User } from '../model/user.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';

export const TIMES_USER = step('TIMES_USER', 'loader', [], ['user'], async (s) => {
  const name = s.params.timetrackingusername ?? '';
  const user = await s.em.findOne(User, { lowerName: name.toLowerCase() });
  if (!user) return deny(404, NOT_FOUND, { errors: [`user does not exist [uid: 0, name: ${name}]`] });
  s.contextUser = user;
  return null;
});

export const TIMES_OF_USER = step('TIMES_OF_USER', 'guard', ['repo', 'user'], [], (s) =>
  need(s.repo, 'repo').perm.isAdmin() || isSiteAdmin(s) || s.auth.doer?.id === need(s.contextUser, 'user').id
    ? null
    : deny(403, 'query by user not allowed; not enough rights'),
);
