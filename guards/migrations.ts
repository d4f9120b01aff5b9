// Forgejo's Migrate: "the site administrator has disabled migrations" (403) when
// [repository] DISABLE_MIGRATIONS is set, and "the site administrator has disabled the creation of
// new pull mirrors" (403) for `mirror: true` when [repository] DISABLE_MIRRORS is set.
import { deny, step } from './types.ts';

export const MIGRATIONS_GATE = step('MIGRATIONS_GATE', 'gate', ['body'], [], (s) => {
  if (s.config.REPOSITORY.DISABLE_MIGRATIONS) return deny(403, 'the site administrator has disabled migrations');
  const mirror = (s.body as Record<string, unknown> | undefined)?.mirror === true;
  return mirror && s.config.REPOSITORY.DISABLE_MIRRORS
    ? deny(403, 'the site administrator has disabled the creation of new pull mirrors')
    : null;
});
