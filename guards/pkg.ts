// Spec, guard table: "PKGREAD / PKGWRITE — caller's access to the package owner is at least read /
// write, or site admin; else 403". Owner access: the owner themself or an organization owner writes;
// an organization member reads; anyone reads a public owner's packages.
import { MSG } from '../lib/errors.ts';
import { deny, isSiteAdmin, need, step, type RequestState } from './types.ts';
import { isOrgMember, isOrgOwner } from './membership.ts';

async function ownerAccess(s: RequestState): Promise<0 | 1 | 2> {
  const owner = need(s.contextUser, 'user');
  const doer = s.auth.doer;
  if (doer?.id === owner.id) return 2;
  if (doer && owner.type === 1) {
    if (await isOrgOwner(s.em, owner.id, doer.id)) return 2;
    if (await isOrgMember(s.em, owner.id, doer.id)) return 1;
  }
  if (owner.visibility === 'public' || (owner.visibility === 'limited' && doer)) return 1;
  return 0;
}

export const PKGREAD = step('PKGREAD', 'guard', ['user'], [], async (s) =>
  isSiteAdmin(s) || (await ownerAccess(s)) >= 1 ? null : deny(403, MSG.packageAccess));
export const PKGWRITE = step('PKGWRITE', 'guard', ['user'], [], async (s) =>
  isSiteAdmin(s) || (await ownerAccess(s)) >= 2 ? null : deny(403, MSG.packageAccess));
