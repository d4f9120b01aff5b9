// Spec, guard table: "ARR — caller has any read access to the repository or is site admin; else 403".
import { MSG } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';

export const ARR = step('ARR', 'guard', ['repo'], [], (s) =>
  need(s.repo, 'repo').perm.hasAnyAccess() || isSiteAdmin(s) ? null : deny(403, MSG.repoAnyRead),
);
