// Package assignment: `{type}/{name}/{version}` under the package owner. No package registry is stored
// yet, so every package version is unknown: 404. Routes naming a package without a version (link,
// unlink) resolve nothing here, as in Forgejo, so their "TOK; PKGWRITE" guards answer first (spec,
// Packages) and the handler reports the unknown package.
import { NOT_FOUND } from '../lib/errors.ts';
import { deny, step } from './types.ts';

export const PACKAGE = step('PACKAGE', 'loader', ['user'], ['package'], (s) =>
  s.params.type && s.params.name && s.params.version ? deny(404, NOT_FOUND, { errors: [] }) : null);
