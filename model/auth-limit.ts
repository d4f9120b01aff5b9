import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * Counters of failed authentications (lib/auth/limits.ts). The table is rate-limiter-flexible's
 * PostgreSQL store, in the layout that library reads and writes: a key, the points consumed in the
 * current window, and when the window ends (epoch milliseconds).
 */
export const AuthLimit = defineEntity({
  name: 'AuthLimit',
  tableName: 'auth_limit',
  properties: {
    key: p.string().length(255).primary(),
    points: p.integer().default(0),
    expire: p.bigint().nullable().index(),
  },
});
export type IAuthLimit = InferEntity<typeof AuthLimit>;
