// Go's time encoding as Forgejo emits it (forgejo-facts 6.1): RFC 3339, whole seconds, UTC here.
export const ZERO_TIME = '0001-01-01T00:00:00Z';
export const EPOCH = '1970-01-01T00:00:00Z';
export const fmtTime = (d: Date | null | undefined, zero = ZERO_TIME): string =>
  d ? new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z') : zero;
