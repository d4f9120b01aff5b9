// Reads a write takes no later than its contended lock (issue 10). A new issue's number comes from a row
// lock on `resource_index` held until COMMIT, so every statement after it makes all other writers of the
// repository wait (a new comment likewise locks its followers' notification threads). What the event
// reads and does not depend on those rows (the repository's hooks, the feed's watchers) is read in the
// statement of the new row's insert (lib/issues/events.ts insertWithEventEarly), kept here for the
// request (per EntityManager, never shared between requests), and taken once by the subscriber that
// would have read it: a second event of the same request reads again. Reading earlier in the same READ
// COMMITTED transaction sees what a later statement could have seen a moment before, the same answer as
// if the change came just after.
// The token's statement also reads ahead the issue a request below `{R}/issues/{index}` addresses
// (lib/issues/issues.ts keepIssueRead), for the ISSUE loader, which takes it the same way.
import type { EntityManager } from '@mikro-orm/core';

const kept = new WeakMap<EntityManager, Map<string, unknown>>();

/** Keep `value`, read by this request's transaction on `em`, for the next `takeEarly` of `key`. */
export function keepEarly(em: EntityManager, key: string, value: unknown): void {
  const map = kept.get(em) ?? new Map<string, unknown>();
  kept.set(em, map.set(key, value));
}

/** What `keepEarly` kept under `key` (and forget it), or undefined. */
export function takeEarly<T>(em: EntityManager, key: string): T | undefined {
  const map = kept.get(em);
  const value = map?.get(key) as T | undefined;
  map?.delete(key);
  return value;
}
