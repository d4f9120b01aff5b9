// Spec, guard table: "ADM(units) — caller is repository admin (owner or collaborator with admin) or
// site admin, else 403. Unit rule as OWN".
import { MSG, NOT_FOUND } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';
import { checkUnits, label } from './units.ts';

export function ADM(...units: string[]) {
  const names = checkUnits('ADM', units);
  return step(label('ADM', units), 'guard', ['repo'], [], (s) => {
    const { perm } = need(s.repo, 'repo');
    if (names.length && !names.some((u) => perm.unitEnabled(u))) return deny(404, NOT_FOUND, { errors: [] });
    return perm.isAdmin() || isSiteAdmin(s) ? null : deny(403, MSG.repoAdmin);
  });
}
