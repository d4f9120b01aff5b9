const FULL_OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const OID_PREFIX = /^[0-9a-f]{4,64}$/;

/** A full sha1 (40) or sha256 (64) object id in lower case. */
export function isFullOid(value: string): boolean {
  return FULL_OID.test(value);
}

/** Something that may abbreviate an object id (4 to 64 lower-case hex digits). */
export function isOidPrefix(value: string): boolean {
  return OID_PREFIX.test(value);
}

/** The null oid of the same object format as `like` (git's "must not exist" value for update-ref). */
export function zeroOid(like: string): string {
  return '0'.repeat(like.length === 64 ? 64 : 40);
}
