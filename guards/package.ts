// Package assignment (spec, Packages: "user assignment; package assignment; PKGREAD; public-only"):
// `{type}/{name}/{version}` under the package owner, type exact, name and version case-insensitive
// (Forgejo's PackageAssignmentAPI, GetVersionByNameAndVersion); an unknown one is 404 — before the
// owner-access guard, as the chain orders them. Routes naming a package without a version (link,
// unlink) resolve nothing here, as in Forgejo, so their "TOK; PKGWRITE" guards answer first and the
// handler reports an unknown package (404).
import { NOT_FOUND } from '../lib/http/errors.ts';
import { findVersion } from '../lib/packages/packages.ts';
import { deny, need, step } from './types.ts';

export const PACKAGE = step('PACKAGE', 'loader', ['user'], ['package'], async (s) => {
  const { type, name, version } = s.params;
  if (!type || !name || !version) return null;
  const found = await findVersion(s.em, { ownerId: need(s.contextUser, 'user').id, type, name, version });
  if (!found) return deny(404, NOT_FOUND, { errors: [] });
  s.package = found;
  return null;
});
