// Spec, guard table: "PKGREAD / PKGWRITE — caller's access to the package owner is at least read /
// write, or site admin; else 403". Owner access: the owner themself writes; an organization member gets
// the best mode of their teams (Forgejo's GetOrgUserMaxAuthorizeLevel); anyone reads a public owner's packages.
import { MSG } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, need, step, type RequestState } from './types.ts';
import { packageAccess } from '../lib/auth/membership.ts';

const ownerAccess = (s: RequestState) => packageAccess(s.em, need(s.contextUser, 'user'), s.auth.doer);

export const PKGREAD = step('PKGREAD', 'guard', ['user'], [], async (s) =>
  isSiteAdmin(s) || (await ownerAccess(s)) >= 1 ? null : deny(403, MSG.packageAccess),
);
export const PKGWRITE = step('PKGWRITE', 'guard', ['user'], [], async (s) =>
  isSiteAdmin(s) || (await ownerAccess(s)) >= 2 ? null : deny(403, MSG.packageAccess),
);
