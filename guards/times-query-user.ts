// Forgejo's ListTrackedTimes / ListTrackedTimesByRepository with `?user=` (cantSetUser): site admins and
// writers of the issues unit may ask for anyone's times; others only for their own, else 403 "query by
// user not allowed; not enough rights". An unknown name answers 404 first, naming it. Public-only and
// repo-specific tokens lose the site-admin part (spec, token kinds: "no managing or viewing others'
// logged time"). Without `user` the handler lists the caller's own times for those who may not ask.
import { User } from '../model/user.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';

export const TIMES_QUERY_USER = step('TIMES_QUERY_USER', 'guard', ['repo'], [], async (s) => {
  const name = (typeof s.q.user === 'string' ? s.q.user : '').trim();
  if (name === '') return null;
  const user = await s.em.findOne(User, { lowerName: name.toLowerCase() });
  if (!user) return deny(404, 'User does not exist', { errors: [`user does not exist [uid: 0, name: ${name}]`] });
  if (isSiteAdmin(s) || need(s.repo, 'repo').perm.canWrite('issues') || user.id === s.auth.doer?.id) return null;
  return deny(403, 'query by user not allowed; not enough rights');
});
