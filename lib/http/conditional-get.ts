// Conditional GETs (GitHub's behaviour, not Forgejo's): every JSON answer to a GET
// carries a strong ETag computed from its bytes and `Cache-Control: private, max-age=0, must-revalidate`
// (a cache may keep it but must ask again; "private" because answers depend on the caller). A request
// whose `If-None-Match` names that tag gets `304 Not Modified` without a body: a poller that sends back
// the tag it saw pays for the work of the answer but not for its transfer and parsing.
import { hash } from 'node:crypto';

export const CACHE_CONTROL = 'max-age=0, private, must-revalidate';

/** A strong validator of the exact bytes (a 128-bit prefix of SHA-256, base64url). */
export function etagOf(body: string | Buffer): string {
  // The one-shot digest: the same bytes as a Hash object's, without making one per answer.
  return `"${hash('sha256', body, 'base64url').slice(0, 22)}"`;
}

/**
 * RFC 9110 13.1.2: If-None-Match matches when it is `*` or lists the tag, compared weakly (a `W/`
 * prefix on either side is ignored).
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const want = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === want);
}
