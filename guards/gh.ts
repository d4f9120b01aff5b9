// Spec, guard table: "GH — caller may edit Git hooks; else 403". Editing hooks runs code on the
// server, so it needs [security] DISABLE_GIT_HOOKS=false and a site admin.
import { MSG } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, step } from './types.ts';

export const GH = step('GH', 'guard', [], [], (s) =>
  !s.config.SECURITY.DISABLE_GIT_HOOKS && isSiteAdmin(s) ? null : deny(403, MSG.gitHooks),
);
