// What a PyPI upload carries (Forgejo's routers/api/packages/pypi): names normalised and checked as PEP 426
// and PEP 440 say, and the form's fields reduced to the metadata a version keeps.
import { isStorableText } from '../../../model/schemas/storable.ts';
import { RegistryError } from './common.ts';

export const TYPE = 'pypi';

// https://peps.python.org/pep-0426/#name and PEP 440's version pattern, as Forgejo checks them.
export const normalize = (name: string) => name.replace(/[._]/g, '-');
const NAME = /^(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9.\-_]*[a-zA-Z0-9])$/;
const VERSION = new RegExp(
  '^v?' +
    '(?:[0-9]+!)?' + // epoch
    '[0-9]+(?:\\.[0-9]+)*' + // release segment
    '(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?[0-9]*)?' + // pre-release
    '(?:-[0-9]+|[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?' + // post release
    '(?:[-_.]?dev[-_.]?[0-9]*)?' + // dev release
    '(?:\\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?' + // local version
    '$',
);
const MAX_NAME = 255;

export interface Metadata {
  author?: string;
  description?: string;
  long_description?: string;
  summary?: string;
  project_url?: string;
  license?: string;
  requires_python?: string;
}

function validUrl(v: string): string | undefined {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Forgejo's Project-URL label normalisation: no punctuation or white space, lower case. */
const normalizeLabel = (label: string) => label.replace(/[\p{P}\s]/gu, '').toLowerCase();

/**
 * The fields of an upload checked (name, version, file name) and reduced to the metadata a version keeps;
 * `name` comes back normalised.
 */
export function checkUpload(
  fields: Readonly<Record<string, string[]>>,
  filename: string,
): { name: string; version: string; filename: string; metadata: Metadata } {
  const value = (name: string) => fields[name]?.[0] ?? '';
  const name = normalize(value('name'));
  const version = value('version');
  if (!NAME.test(name) || !VERSION.test(version) || name.length > MAX_NAME || version.length > MAX_NAME)
    throw new RegistryError(400, 'invalid name or version');
  if (
    filename === '' ||
    filename.length > MAX_NAME ||
    /[/\\]/.test(filename) ||
    filename === '.' ||
    filename === '..' ||
    !isStorableText(filename)
  )
    throw new RegistryError(400, 'invalid filename');
  let homepage = '';
  for (const entry of fields.project_urls ?? []) {
    const cut = entry.indexOf(',');
    if (cut >= 0 && normalizeLabel(entry.slice(0, cut)) === 'homepage') {
      homepage = entry.slice(cut + 1).trim();
      break;
    }
  }
  if (homepage === '') homepage = value('home_page');
  const metadata: Metadata = {
    author: value('author') || undefined,
    description: value('description') || undefined,
    long_description: value('long_description') || undefined,
    summary: value('summary') || undefined,
    project_url: validUrl(homepage),
    license: value('license') || undefined,
    requires_python: value('requires_python') || undefined,
  };
  for (const [k, v] of Object.entries(metadata))
    if (typeof v === 'string' && !isStorableText(v)) throw new RegistryError(400, `invalid ${k}`);
  return { name, version, filename, metadata };
}
