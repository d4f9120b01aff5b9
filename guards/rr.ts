// Spec, guard table: "RR(unit) — unit enabled, else 404; caller can read it, or is repo admin or site
// admin, else 403".
import { MSG, NOT_FOUND } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';
import { checkUnits } from './units.ts';

export function RR(unit: string) {
  const [name] = checkUnits('RR', [unit]);
  return step(`RR(${unit})`, 'guard', ['repo'], [], (s) => {
    const { perm } = need(s.repo, 'repo');
    if (!perm.unitEnabled(name)) return deny(404, NOT_FOUND, { errors: [] });
    return perm.canRead(name) || perm.isAdmin() || isSiteAdmin(s) ? null : deny(403, MSG.repoRead);
  });
}
