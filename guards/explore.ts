// Spec, guard table: "EXPLORE — when sign-in is required to view, or explore requires sign-in, caller
// must be signed in; else 401. Separately the users-search page may be disabled (404)".
// EXPLORE('users') is the users-search variant that also honours DISABLE_USERS_PAGE.
import { MSG, NOT_FOUND } from '../lib/http/errors.ts';
import { deny, step } from './types.ts';

export function EXPLORE(page?: 'users') {
  if (page !== undefined && page !== 'users') throw new Error(`EXPLORE: unknown page "${page}"`);
  return step(page ? `EXPLORE(${page})` : 'EXPLORE', 'guard', [], [], (s) => {
    const signinRequired = s.config.SERVICE.REQUIRE_SIGNIN_VIEW || s.config.SERVICE_EXPLORE.REQUIRE_SIGNIN_VIEW;
    if (signinRequired && !s.auth.doer) return deny(401, MSG.exploreSignin);
    if (page === 'users' && s.config.SERVICE_EXPLORE.DISABLE_USERS_PAGE) return deny(404, NOT_FOUND, { errors: [] });
    return null;
  });
}
