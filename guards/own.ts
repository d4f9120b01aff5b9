// Spec, guard table: "OWN(units) — caller is repository owner or site admin, else 403. When units are
// given, at least one must be enabled on the repository, else 404 (checked first)".
import { MSG, NOT_FOUND } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';
import { checkUnits, label } from './units.ts';

export function OWN(...units: string[]) {
  const names = checkUnits('OWN', units);
  return step(label('OWN', units), 'guard', ['repo'], [], (s) => {
    const { perm } = need(s.repo, 'repo');
    if (names.length && !names.some((u) => perm.unitEnabled(u))) return deny(404, NOT_FOUND, { errors: [] });
    return perm.isOwner() || isSiteAdmin(s) ? null : deny(403, MSG.repoOwner);
  });
}
