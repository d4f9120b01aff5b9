import { InvalidPathError } from './errors.ts';

/** Checks a repository-relative path given by a client. */
export function validatePath(p: string): void {
  if (p === '') throw new InvalidPathError(p, 'empty');
  if (/[\x00-\x1f\x7f]/.test(p)) throw new InvalidPathError(p, 'control character');
  if (p.includes('\\')) throw new InvalidPathError(p, 'backslash');
  if (p.startsWith('/')) throw new InvalidPathError(p, 'absolute');
  if (p.endsWith('/')) throw new InvalidPathError(p, 'trailing slash');
  for (const segment of p.split('/')) {
    if (segment === '') throw new InvalidPathError(p, 'empty segment');
    if (segment === '.' || segment === '..') throw new InvalidPathError(p, `'${segment}' segment`);
    if (segment.toLowerCase() === '.git') throw new InvalidPathError(p, "'.git' segment");
  }
}
