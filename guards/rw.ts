// Spec, guard table: "RW(units) — at least one listed unit enabled, else 404; then caller can write to
// one of them, or is repo admin or site admin, else 403".
import { MSG, NOT_FOUND } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';
import { checkUnits, label } from './units.ts';

export function RW(...units: string[]) {
  if (units.length === 0) throw new Error('RW needs at least one unit');
  const names = checkUnits('RW', units);
  return step(label('RW', units), 'guard', ['repo'], [], (s) => {
    const { perm } = need(s.repo, 'repo');
    if (!names.some((u) => perm.unitEnabled(u))) return deny(404, NOT_FOUND, { errors: [] });
    return names.some((u) => perm.canWrite(u)) || perm.isAdmin() || isSiteAdmin(s) ? null : deny(403, MSG.repoWrite);
  });
}
