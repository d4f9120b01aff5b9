// The generic registry's names (Forgejo routers/api/packages/generic/generic.go): what a package, a version
// and a file may be called.
import { RegistryError } from './common.ts';

export const TYPE = 'generic';

// Forgejo generic.go: names of letters, digits and `-_+.`; file names a wider set, no outer spaces.
const NAME = /^[-_+.A-Za-z0-9]+$/;
const FILE_NAME = /^[-_+=:;.()[\]{}~!@#$%^& A-Za-z0-9]+$/;

/** The `package`, `package_version` and `package_file` name columns are varchar(255). */
const MAX_NAME = 255;

export function checkNames(name: string, version: string, filename: string): void {
  if (!NAME.test(name) || name.length > MAX_NAME || name === '..' || (name.length === 1 && !/[A-Za-z0-9]/.test(name)))
    throw new RegistryError(400, 'invalid package name');
  if (!FILE_NAME.test(filename) || filename.length > MAX_NAME || filename.trim() !== filename || filename === '.' || filename === '..')
    throw new RegistryError(400, 'invalid filename');
  if (version.trim() !== version || version === '' || version.length > MAX_NAME) throw new RegistryError(400, 'invalid package version');
}
