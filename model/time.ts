// Go's time encoding as Forgejo emits it (forgejo-facts 6.1): RFC 3339, whole seconds, UTC here.
export const ZERO_TIME = '0001-01-01T00:00:00Z';
export const EPOCH = '1970-01-01T00:00:00Z';
export const fmtTime = (d: Date | null | undefined, zero = ZERO_TIME): string => {
  if (!d) return zero;
  // `YYYY-MM-DDTHH:MM:SS.mmmZ` cut before the milliseconds is the time floored to the second, before
  // 1970 too; six-digit years take the long way (lists format many times per request).
  const iso = d.toISOString();
  return iso.length === 24 ? `${iso.slice(0, 19)}Z` : new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
};
