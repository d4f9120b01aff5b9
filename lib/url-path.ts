// Paths served outside the route table (attachment downloads, the package registry) are split here.

/** The non-empty segments of a URL path, percent-decoded; null when an escape is malformed. */
export function pathSegments(p: string): string[] | null {
  try {
    return p.split('/').filter((s) => s !== '').map(decodeURIComponent);
  } catch (e) {
    if (e instanceof URIError) return null;
    throw e;
  }
}
