// Personal access tokens (forgejo-facts 2.7): 40 lowercase hex characters, no prefix. Only a salted
// hash is stored, with the last eight characters for lookup. Tokens carry 160 random bits, so one
// HMAC-SHA256 is enough to make the stored value useless to a thief, and keeps each request cheap.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { User, type IUser } from '../../model/user.ts';
import { mapPrefixed, plainPrefixed, prefixedColumns, type Plain } from '../../model/raw.ts';
import { executeSql, readPrepared, sql, type PreparedValue } from '../../model/sql.ts';
import type { TaskInfo } from './auth-types.ts';

export const TOKEN_RE = /^[0-9a-f]{40}$/;

export function newTokenValue(): string {
  return randomBytes(20).toString('hex');
}

export function hashToken(value: string, salt: string): string {
  return createHmac('sha256', salt).update(value).digest('hex');
}

/**
 * The hash of a presented token under a stored salt, as bytes: a pure function of the two, so a small
 * process-wide memo is safe (an HMAC per request was 4 % of the CPU of a GET with a token).
 * It answers only what the HMAC would, so a wrong or deleted token fails as before; cleared when full.
 */
const presented = new Map<string, { salt: string; hash: Buffer }>();
function presentedHash(value: string, salt: string): Buffer {
  const known = presented.get(value);
  if (known !== undefined && known.salt === salt) return known.hash;
  if (presented.size >= 4096) presented.clear();
  const hash = Buffer.from(hashToken(value, salt), 'hex');
  presented.set(value, { salt, hash });
  return hash;
}

/** Whether a presented token is the one a row stores (its salted hash, in hex). */
function matches(value: string, row: { token_hash: string; token_salt: string }): boolean {
  const want = Buffer.from(row.token_hash, 'hex');
  const got = presentedHash(value, row.token_salt);
  return want.length === got.length && timingSafeEqual(want, got);
}

export function newSalt(): string {
  return randomBytes(16).toString('base64url').slice(0, 22);
}

export class TokenLookupError extends Error {}

export interface FoundToken {
  id: number;
  uid: number;
  scope: string;
  updatedAt: Date;
  repoIds: number[] | null;
  /** Managed, or plain when `findToken` was asked for `plain`: either way read-only here. */
  user: Plain<IUser> | null;
}

let tokenSql: string | undefined;
/** The statements that read something ahead, by their shape (a function of the route table). */
const aheadSql = new Map<string, string>();

/**
 * What a request reads ahead in its token's statement: composed by the interpreter from what its row's
 * steps declare (guards/types.ts TokenRead), for the row and its path parameters.
 */
export interface TokenAhead {
  /** Names the statement's shape: its text is built once per shape. */
  readonly shape: string;
  /** Select expressions after the token's and its user's (each led by a comma), and joins after the user's, over the token `t`. */
  sql(em: EntityManager): { select: string; join: string };
  /** The values of their placeholders, in the order of the text. */
  readonly params: readonly PreparedValue[];
  /** Keeps what the statement read, in the row of the token it found for user `uid`. */
  keep(em: EntityManager, row: Record<string, unknown>, uid: number): void;
}

/**
 * Finds the token for a presented value, with its repository list and its user, in one query (this
 * runs on every token-authenticated request); throws TokenLookupError with Forgejo's message. With
 * `plain`, the user is a plain object (model/raw.ts, plainPrefixed), for a request that changes nothing.
 * With `ahead`, the same statement reads what the request's row declared it can be served from here.
 */
export async function findToken(
  em: EntityManager,
  value: string,
  opts: { plain?: boolean; ahead?: TokenAhead | null } = {},
): Promise<FoundToken> {
  if (value === '') throw new TokenLookupError('access token is empty');
  if (!TOKEN_RE.test(value)) throw new TokenLookupError(`access token does not exist [sha: ${value}]`);
  // The text is built once per shape and runs as a named prepared statement (model/sql.ts readPrepared). Lists are
  // `array(select ...)` with no order, sorted here: an aggregate or a sort is a plan node PostgreSQL
  // sets up on every execution, whether it finds rows or not.
  const statement = (select = '', join = '') => `select t.id, t.uid, t.scope, t.token_hash, t.token_salt, t.updated_at,
            array(select r.repo_id from access_token_repo r where r.token_id = t.id) as repo_ids,
            ${prefixedColumns(em, User, 'u')}${select}
       from access_token t left join "user" u on u.id = t.uid${join} where t.token_last_eight = ?`;
  const ahead = opts.ahead ?? null;
  let sql = (tokenSql ??= statement());
  if (ahead) {
    let found = aheadSql.get(ahead.shape);
    if (found === undefined) {
      const { select, join } = ahead.sql(em);
      aheadSql.set(ahead.shape, (found = statement(select, join)));
    }
    sql = found;
  }
  const rows = await readPrepared<
    {
      id: number;
      uid: number;
      scope: string;
      token_hash: string;
      token_salt: string;
      updated_at: Date | string;
      repo_ids: number[] | null;
    } & Record<string, unknown>
  >(em, [], sql, ahead ? [...ahead.params, value.slice(-8)] : [value.slice(-8)]);
  for (const t of rows) {
    if (matches(value, t)) {
      const repoIds = t.repo_ids?.length ? t.repo_ids.map(Number).sort((a, b) => a - b) : null;
      ahead?.keep(em, t, Number(t.uid));
      return {
        id: Number(t.id),
        uid: Number(t.uid),
        scope: t.scope,
        updatedAt: new Date(t.updated_at),
        repoIds,
        user: (opts.plain ? plainPrefixed : mapPrefixed)(em, User, t, 'u'),
      };
    }
  }
  throw new TokenLookupError(`access token does not exist [sha: ${value}]`);
}

/** A running actions task whose job token is `value`, or null (forgejo-facts 2.10: task tokens). */
export async function findTaskToken(em: EntityManager, value: string): Promise<TaskInfo | null> {
  if (!TOKEN_RE.test(value)) return null;
  const rows = await executeSql<{ id: number; repo_id: number; is_fork_pull_request: boolean; token_hash: string; token_salt: string }>(
    em,
    sql`select id, repo_id, is_fork_pull_request, token_hash, token_salt from action_task where token_last_eight = ${value.slice(-8)} and status = 'running'`,
  );
  for (const t of rows) {
    if (matches(value, t)) return { id: Number(t.id), repoId: Number(t.repo_id), isForkPullRequest: t.is_fork_pull_request };
  }
  return null;
}
