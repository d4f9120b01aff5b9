// Paths served outside the route table (attachment downloads, the package registry) are split here.
import { isStorableText } from '../../model/schemas/storable.ts';

/**
 * The non-empty segments of a URL path, percent-decoded; null when an escape is malformed or a
 * segment decodes to text no stored name can equal (NUL), so that it never
 * reaches a query.
 */
export function pathSegments(p: string): string[] | null {
  let parts: string[];
  try {
    parts = p
      .split('/')
      .filter((s) => s !== '')
      .map(decodeURIComponent);
  } catch (e) {
    if (e instanceof URIError) return null;
    throw e;
  }
  return parts.every(isStorableText) ? parts : null;
}
