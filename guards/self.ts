// Spec, guard table: "SELF — caller is the context user or a site admin; else 403".
import { MSG } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';

export const SELF = step('SELF', 'guard', ['user'], [], (s) => {
  const user = need(s.contextUser, 'user');
  return s.auth.doer?.id === user.id || isSiteAdmin(s) ? null : deny(403, MSG.self);
});
