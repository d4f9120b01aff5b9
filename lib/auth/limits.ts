// Limits on failed authentication: wrong passwords, wrong one-time passwords and
// wrong or unknown tokens are counted per window of [security.login_limit] WINDOW seconds, and over
// a limit the answer is 429 with Retry-After. The counters live in PostgreSQL (rate-limiter-flexible's
// store, table `auth_limit`), so every cairn process on the database shares them.
//
// Three counters, so that an attacker can neither guess on nor lock out someone else cheaply:
//   account@address  PER_ACCOUNT_ADDRESS  guessing one account's password from one place;
//   address          PER_ADDRESS          one place trying many accounts or tokens;
//   account          PER_ACCOUNT          a looser cap on one account from everywhere (a botnet).
// A blocked account or address stops password logins only: a valid token is still accepted (tokens
// cannot be guessed, and so a victim whose password logins an attacker has exhausted keeps working
// with tokens). Password logins are checked against the counters before the password is (one
// indexed read); token requests read nothing unless the token is wrong.
import { createHash } from 'node:crypto';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Config } from '../../config.ts';
import type { Orm } from '../../model/db.ts';
import { storePool } from '../../model/connection.ts';
import { executeSql, sql } from '../../model/sql.ts';
import { HttpError } from '../http/errors.ts';

export const TOO_MANY = 'too many failed authentication attempts, try again later';

/** Who tried: the account name given (null for a bare token) and the client address. */
export interface Attempt {
  account: string | null;
  address: string;
}

export interface AuthLimiter {
  /** The 429 to answer when one of the attempt's counters is at its limit already, else null. */
  refusal(attempt: Attempt): Promise<HttpError | null>;
  /** Counts a failure; 429 when that took a counter over its limit, else nothing (the caller answers 401). */
  fail(attempt: Attempt): Promise<void>;
}

interface Counter {
  key: string;
  limit: number;
}

const PREFIX = 'auth';
const TABLE = 'auth_limit';
// Keys are at most 255 characters; a long login (an e-mail address) is hashed to fit.
/**
 * An account name as a key part: a name from a Basic header may hold NUL or anything else PostgreSQL's text
 * refuses, so it is JSON-escaped (NUL becomes `\u0000`), and a long one is hashed to keep keys short.
 */
const part = (s: string) => {
  const escaped = JSON.stringify(s).slice(1, -1);
  return escaped.length > 100 ? createHash('sha256').update(escaped).digest('hex') : escaped;
};

export function createAuthLimiter(cfg: Config, orm: Orm): AuthLimiter {
  const settings = cfg.SECURITY_LOGIN_LIMIT;
  if (!settings.ENABLED) return { refusal: async () => null, fail: async () => {} };
  const store = new RateLimiterPostgres({
    storeClient: storePool(orm),
    storeType: 'pool',
    tableName: TABLE,
    tableCreated: true,
    keyPrefix: PREFIX,
    points: settings.PER_ADDRESS,
    duration: settings.WINDOW,
  });

  const counters = ({ account, address }: Attempt): Counter[] => {
    const out: Counter[] = [{ key: `addr:${address}`, limit: settings.PER_ADDRESS }];
    if (account !== null) {
      const name = part(account.trim().toLowerCase());
      out.push(
        { key: `pair:${name}@${address}`, limit: settings.PER_ACCOUNT_ADDRESS },
        { key: `acct:${name}`, limit: settings.PER_ACCOUNT },
      );
    }
    return out;
  };
  const tooMany = (msBeforeNext: number) =>
    new HttpError(429, TOO_MANY, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(msBeforeNext / 1000))) } });

  return {
    async refusal(attempt) {
      const cs = counters(attempt);
      // One statement for all counters, on the store's own table, instead of one `get` each.
      const rows = await executeSql<{ key: string; points: number; expire: number | bigint }>(
        orm.em,
        sql`select key, points, expire from ${sql.id(TABLE)} where key in (${sql.list(cs.map((c) => store.getKey(c.key)))}) and expire > ${Date.now()}`,
      );
      const waits = cs.flatMap((c) => {
        const row = rows.find((r) => r.key === store.getKey(c.key));
        return row && Number(row.points) >= c.limit ? [Number(row.expire) - Date.now()] : [];
      });
      return waits.length ? tooMany(Math.max(...waits)) : null;
    },
    async fail(attempt) {
      const cs = counters(attempt);
      const results = await Promise.all(cs.map((c) => store.penalty(c.key, 1)));
      const waits = results.flatMap((r, i) => (r.consumedPoints > cs[i].limit ? [r.msBeforeNext] : []));
      if (waits.length) throw tooMany(Math.max(...waits));
    },
  };
}
