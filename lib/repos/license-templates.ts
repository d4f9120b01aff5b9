// License templates: the SPDX list (`spdx-license-list`) with Forgejo's placeholder filling
// (modules/repository/license.go) and its preferred licenses listed first.
import { createRequire } from 'node:module';

interface SpdxEntry {
  name: string;
  url: string;
  licenseText: string;
}

const require = createRequire(import.meta.url);
let full: Record<string, SpdxEntry> | null = null;
/** Loaded on first use: the texts take several megabytes. */
function all(): Record<string, SpdxEntry> {
  full ??= require('spdx-license-list/full') as Record<string, SpdxEntry>;
  return full;
}

const PREFERRED = ['Apache-2.0', 'MIT'];

export function licenseNames(): string[] {
  const names = Object.keys(all()).sort();
  return [...PREFERRED.filter((n) => names.includes(n)), ...names.filter((n) => !PREFERRED.includes(n))];
}

export function licenseText(name: string): string | undefined {
  const l = all();
  return Object.hasOwn(l, name) ? l[name].licenseText : undefined;
}

export interface LicenseValues {
  owner: string;
  email: string;
  repo: string;
  year: string;
}

const PLACEHOLDERS: [keyof LicenseValues, string[]][] = [
  [
    'owner',
    [
      '<name of author>',
      '<owner>',
      '[NAME]',
      '[name of copyright owner]',
      '[fullname]',
      '<copyright holders>',
      '<COPYRIGHT HOLDER>',
      '[name of copyright holder]',
    ],
  ],
  ['email', ['[EMAIL]']],
  ['repo', ['<program>', "<one line to give the program's name and a brief idea of what it does.>"]],
  ['year', ['<year>', '[year]', '{year}', '[yyyy]', '[YEAR]']],
];

/** The license text with owner, e-mail, repository and year filled in; undefined for an unknown name. */
export function fillLicense(name: string, v: LicenseValues): string | undefined {
  let text = licenseText(name);
  if (text === undefined) return undefined;
  for (const [key, marks] of PLACEHOLDERS) for (const m of marks) text = text.split(m).join(v[key]);
  return text;
}
