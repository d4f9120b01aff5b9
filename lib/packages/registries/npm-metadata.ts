// The npm registry's names, versions (as Forgejo orders them) and stored metadata; npm.ts routes.
import { type IPackageVersion } from '../../../model/package.ts';
import { isStorableText } from '../../../model/schemas/storable.ts';
import { RegistryError } from './common.ts';

export const TYPE = 'npm';
export const TAG_PROPERTY = 'npm.tag';

export const NAME = /^(@[a-z0-9-][a-z0-9-._]*\/)?[a-z0-9-][a-z0-9-._]*$/;
export const validName = (name: string) => name.trim() === name && name.length > 0 && name.length <= 214 && NAME.test(name);

// ---------------------------------------------------------------------------------------------
// Versions (hashicorp/go-version as Forgejo parses them: a leading `v`, missing minor or patch)

export interface SemVer {
  nums: [number, number, number];
  pre: string;
  build: string;
}

export const SEMVER =
  /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;
// go-version's NewVersion also takes a pre-release without its hyphen (`1.0beta`); a tag must not look like either.
export const LOOSE_VERSION = /^v?\d+(?:\.\d+)*(?:-?[0-9A-Za-z-~]+(?:\.[0-9A-Za-z-~]+)*)?(?:\+[0-9A-Za-z-~]+(?:\.[0-9A-Za-z-~]+)*)?$/;

export function parseSemver(v: string): SemVer | null {
  const m = v.length <= 255 ? SEMVER.exec(v) : null;
  if (!m) return null;
  const nums = [m[1], m[2], m[3]].map((n) => Number(n ?? 0));
  if (!nums.every(Number.isSafeInteger)) return null;
  return { nums: nums as [number, number, number], pre: m[4] ?? '', build: m[5] ?? '' };
}

export const semverString = (s: SemVer) => `${s.nums.join('.')}${s.pre ? `-${s.pre}` : ''}${s.build ? `+${s.build}` : ''}`;

export function compareSemver(a: SemVer, b: SemVer): number {
  for (let i = 0; i < 3; i++) if (a.nums[i] !== b.nums[i]) return a.nums[i] - b.nums[i];
  if (a.pre === b.pre) return 0;
  if (!a.pre || !b.pre) return a.pre ? -1 : 1;
  const x = a.pre.split('.');
  const y = b.pre.split('.');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] === y[i]) continue;
    const nx = /^\d+$/.test(x[i]);
    const ny = /^\d+$/.test(y[i]);
    if (nx && ny) return Number(x[i]) - Number(y[i]);
    if (nx !== ny) return nx ? -1 : 1;
    return x[i] < y[i] ? -1 : 1;
  }
  return x.length - y.length;
}

export const MAX_TAG = 255;
export const invalidTag = () => new RegistryError(400, 'The tag name is invalid');
export function checkTag(tag: string): void {
  if (tag === '' || tag.length > MAX_TAG || !isStorableText(tag) || LOOSE_VERSION.test(tag)) throw invalidTag();
}

// ---------------------------------------------------------------------------------------------
// Metadata (Forgejo's npm.Metadata, as stored in package_version.metadata)

export interface Metadata {
  scope?: string;
  name?: string;
  description?: string;
  author?: string;
  license?: string;
  project_url?: string;
  keywords?: string[];
  dependencies?: Record<string, string>;
  bundleDependencies?: string[];
  development_dependencies?: Record<string, string>;
  peer_dependencies?: Record<string, string>;
  optional_dependencies?: Record<string, string>;
  bin?: Record<string, string>;
  readme?: string;
  repository: { type: string; url: string };
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
export const strList = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.length > 0 ? v.filter((x): x is string => typeof x === 'string') : undefined;
export function strMap(v: unknown): Record<string, string> | undefined {
  if (!isRecord(v)) return undefined;
  const out = Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return Object.keys(out).length > 0 ? out : undefined;
}
/** npm's `bin` may be one path (named after the package) or a map. */
export const binOf = (v: unknown, name: string) => (typeof v === 'string' ? { [name]: v } : strMap(v));
/** An npm person is `"Name <mail> (url)"` or `{ name, email, url }`; Forgejo keeps the name (the whole string). */
export const personName = (v: unknown) => (typeof v === 'string' ? str(v) : isRecord(v) ? str(v.name) : undefined);
export function validUrl(v: string | undefined): string | undefined {
  if (!v) return undefined;
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol) ? v : undefined;
  } catch {
    return undefined;
  }
}
export function repositoryOf(v: unknown): Metadata['repository'] {
  if (typeof v === 'string') return { type: '', url: v };
  return isRecord(v) ? { type: str(v.type) ?? '', url: str(v.url) ?? '' } : { type: '', url: '' };
}

export const metadataOf = (v: IPackageVersion): Metadata =>
  isRecord(v.metadata) ? (v.metadata as unknown as Metadata) : { repository: { type: '', url: '' } };
