// Rate limits on the API that callers can see (GitHub's header names). With
// [api_rate_limit] ENABLED, every /api/v1 request takes a point from its caller's budget of the
// window: a signed-in user's (PER_USER, whatever token or method) or, for anonymous callers, the
// client address's (PER_ADDRESS). Each answer says where the caller stands:
//   X-RateLimit-Limit      the budget of the window
//   X-RateLimit-Remaining  what is left of it
//   X-RateLimit-Reset      when the window ends (Unix seconds)
// and a request past the budget answers 429 with Retry-After. A 304 (lib/http/conditional-get.ts) gives
// its point back. The counters are rate-limiter-flexible's PostgreSQL store (the `auth_limit` table,
// its own key prefix), so every cairn process on the database shares them.
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../../config.ts';
import type { Orm } from '../../model/db.ts';
import { HttpError } from './errors.ts';
import { storePool } from '../../model/connection.ts';

export const RATE_LIMITED = 'API rate limit exceeded, try again later';

export interface Budget {
  /** Headers for the answer. */
  headers: Record<string, string>;
  /** Gives the point back (a 304). */
  refund(): Promise<void>;
}

export interface ApiLimiter {
  /** Takes a point for the caller; throws 429 past the budget. */
  take(caller: { userId: number | null; address: () => string }): Promise<Budget>;
}

/** Null when the instance sets no limits (a request then awaits nothing for them). */
export function createApiLimiter(cfg: Config, orm: Orm): ApiLimiter | null {
  const s = cfg.API_RATE_LIMIT;
  if (!s.ENABLED) return null;
  const store = (points: number) =>
    new RateLimiterPostgres({
      storeClient: storePool(orm),
      storeType: 'pool',
      tableName: 'auth_limit',
      tableCreated: true,
      keyPrefix: 'api',
      points,
      duration: s.WINDOW,
    });
  const perUser = store(s.PER_USER);
  const perAddress = store(s.PER_ADDRESS);
  const headersOf = (limit: number, r: RateLimiterRes) => ({
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, r.remainingPoints)),
    'X-RateLimit-Reset': String(Math.ceil((Date.now() + r.msBeforeNext) / 1000)),
  });
  return {
    async take({ userId, address }) {
      const [limiter, limit, key] =
        userId !== null ? [perUser, s.PER_USER, `user:${userId}`] : [perAddress, s.PER_ADDRESS, `addr:${address()}`];
      try {
        const r = await limiter.consume(key, 1);
        return {
          headers: headersOf(limit, r),
          refund: async () => {
            await limiter.reward(key, 1);
          },
        };
      } catch (e) {
        if (!(e instanceof RateLimiterRes)) throw e;
        throw new HttpError(429, RATE_LIMITED, {
          headers: { ...headersOf(limit, e), 'Retry-After': String(Math.max(1, Math.ceil(e.msBeforeNext / 1000))) },
        });
      }
    },
  };
}
