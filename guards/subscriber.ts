// Issue subscriptions of `{user}` (Forgejo's setIssueSubscription): the user is looked up by name,
// unknown 404; a caller may (un)subscribe only themself, site admins anyone (public-only and
// repo-specific tokens drop that right), else 403 naming both users.
import { NOT_FOUND } from '../lib/http/errors.ts';
import { User } from '../model/user.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';

export const SUBSCRIBER = step('SUBSCRIBER', 'loader', [], ['user'], async (s) => {
  const name = (s.params.user ?? '').toLowerCase();
  const user = name ? await s.em.findOne(User, { lowerName: name }) : null;
  if (!user) return deny(404, NOT_FOUND, { errors: [] });
  s.contextUser = user;
  return null;
});

export const SUBSCRIBER_SELF = step('SUBSCRIBER_SELF', 'guard', ['user'], [], (s) => {
  const user = need(s.contextUser, 'user');
  const doer = need(s.auth.doer ?? undefined, 'user');
  return user.id === doer.id || isSiteAdmin(s) ? null : deny(403, `${doer.name} is not permitted to change subscriptions for ${user.name}`);
});
