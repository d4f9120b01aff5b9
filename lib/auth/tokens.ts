// Personal access tokens (forgejo-facts 2.7): 40 lowercase hex characters, no prefix. Only a salted
// hash is stored, with the last eight characters for lookup. Tokens carry 160 random bits, so one
// HMAC-SHA256 is enough to make the stored value useless to a thief, and keeps each request cheap.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { User, type IUser } from '../../model/user.ts';
import { mapPrefixed, plainPrefixed, prefixedColumns, prefixedId } from '../../model/raw.ts';
import { readRows } from '../../model/sql.ts';
import { Repository } from '../../model/repo.ts';
import type { TaskInfo } from './auth-types.ts';
import { keepRepoRead, repoByNameLateral } from '../repos/repos.ts';
import { factsColumnsOfRepo, keepFactsRead, type FactsRow } from './perm.ts';
import { keepStarCount, starCountColumn } from '../repos/social.ts';
import { issueByIndexColumn, keepIssueRead, type NewRowKind } from '../issues/issues.ts';
import { keepNewRowAhead, newRowAheadColumns } from '../issues/events.ts';

export const TOKEN_RE = /^[0-9a-f]{40}$/;

export function newTokenValue(): string {
  return randomBytes(20).toString('hex');
}

export function hashToken(value: string, salt: string): string {
  return createHmac('sha256', salt).update(value).digest('hex');
}

/**
 * The hash of a presented token under a stored salt, as bytes: a pure function of the two, so a small
 * process-wide memo is safe (issue 10: an HMAC per request was 4 % of the CPU of a GET with a token).
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
  user: IUser | null;
}

let tokenSql: string | undefined;
let tokenStarsSql: string | undefined;
/** The statements that read a repository ahead, by what else they read (an issue, a new row's early reads). */
const aheadSql = new Map<string, string>();

/**
 * A repository the request addresses (`/repos/{owner}/{repo}/...`), to find in the token's statement,
 * the number of the issue it addresses (`.../issues/{index}...`), if any, and the kind of row it
 * creates, if it is POST {R}/issues or POST {R}/issues/{index}/comments.
 */
export interface RepoAhead {
  owner: string;
  name: string;
  issueIndex?: number;
  newRow?: NewRowKind;
}

/**
 * Finds the token for a presented value, with its repository list and its user, in one query (this
 * runs on every token-authenticated request); throws TokenLookupError with Forgejo's message. With
 * `plain`, the user is a plain object (model/raw.ts, plainPrefixed), for a request that changes nothing.
 */
export async function findToken(
  em: EntityManager,
  value: string,
  opts: { plain?: boolean; repo?: RepoAhead; stars?: boolean } = {},
): Promise<FoundToken> {
  if (value === '') throw new TokenLookupError('access token is empty');
  if (!TOKEN_RE.test(value)) throw new TokenLookupError(`access token does not exist [sha: ${value}]`);
  // The text is built once: a named statement is looked up by it on every request. Lists are
  // `array(select ...)` with no order, sorted here: an aggregate or a sort is a plan node PostgreSQL
  // sets up on every execution, whether it finds rows or not (issue 10).
  const statement = (select = '', join = '') => `select t.id, t.uid, t.scope, t.token_hash, t.token_salt, t.updated_at,
            array(select r.repo_id from access_token_repo r where r.token_id = t.id) as repo_ids,
            ${prefixedColumns(em, User, 'u')}${select}
       from access_token t left join "user" u on u.id = t.uid${join} where t.token_last_eight = ?`;
  tokenSql ??= statement();
  // With `repo` (a request below `{R}`), the same statement finds the owner, the repository with its
  // units and the caller's access facts on it, which the REPO loader then reads from the request's
  // EntityManager instead of the database (issue 10: one statement, not two or three); a write maps
  // them into managed entities there, as its own read would have.
  // With `stars` (GET /user), it counts the user's stars, which the answer shows.
  // With an issue number as well (`{R}/issues/{index}...`), the issue too, for the ISSUE loader.
  // With a new row, the early reads of its event and the id it takes (lib/issues/events.ts).
  const repo = opts.repo;
  const issueIndex = repo?.issueIndex;
  const newRow = repo?.newRow;
  let sql = tokenSql;
  if (repo) {
    const shape = `${issueIndex !== undefined ? 'issue' : ''}/${newRow ?? ''}`;
    let found = aheadSql.get(shape);
    if (found === undefined) {
      const more =
        (issueIndex !== undefined ? `, ${issueByIndexColumn(em, 'r.id')}` : '') + (newRow ? `, ${newRowAheadColumns(em, newRow)}` : '');
      found = statement(
        ', ahead.*',
        `
       ${repoByNameLateral(em, `, ${factsColumnsOfRepo('t.uid')}${more}`)}`,
      );
      aheadSql.set(shape, found);
    }
    sql = found;
  } else if (opts.stars) sql = tokenStarsSql ??= statement(`, ${starCountColumn('t.uid')}`);
  const names = repo ? [repo.name.toLowerCase(), repo.owner.toLowerCase()] : [];
  const params = issueIndex === undefined ? [...names, value.slice(-8)] : [issueIndex, ...names, value.slice(-8)];
  const rows = await readRows<
    {
      id: number;
      uid: number;
      scope: string;
      token_hash: string;
      token_salt: string;
      updated_at: Date | string;
      repo_ids: number[] | null;
    } & Record<string, unknown>
  >(em, [], sql, params);
  for (const t of rows) {
    if (matches(value, t)) {
      const repoIds = t.repo_ids?.length ? t.repo_ids.map(Number).sort((a, b) => a - b) : null;
      if (repo) {
        keepRepoRead(em, repo.owner, repo.name, t);
        const repoId = Number(prefixedId(em, Repository, t, 'r'));
        if (issueIndex !== undefined && t.r != null) keepIssueRead(em, repoId, issueIndex, t);
        if (newRow && t.r != null) keepNewRowAhead(em, newRow, repoId, Number(t.uid), t);
        if (t.facts != null) keepFactsRead(em, Number(t.uid), repoId, t as unknown as FactsRow, !opts.plain);
      } else if (opts.stars) keepStarCount(em, Number(t.uid), Number(t.star_count));
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
  const rows = await em
    .getConnection()
    .execute<{ id: number; repo_id: number; is_fork_pull_request: boolean; token_hash: string; token_salt: string }[]>(
      `select id, repo_id, is_fork_pull_request, token_hash, token_salt from action_task where token_last_eight = ? and status = 'running'`,
      [value.slice(-8)],
    );
  for (const t of rows) {
    if (matches(value, t)) return { id: Number(t.id), repoId: Number(t.repo_id), isForkPullRequest: t.is_fork_pull_request };
  }
  return null;
}
