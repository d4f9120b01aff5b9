// Which repositories a caller can reach, as SQL, and Forgejo's repository search on top of it
// (models/repo/repo_list.go SearchRepositoryCondition). Every listing route builds on `reachable`,
// so a listing never shows a repository whose page would answer 404 (spec, token kinds: "Listing
// and lookup routes return only repositories the token can reach, and never private repositories
// for public-only tokens").
import type { EntityManager } from '@mikro-orm/core';
import { Repository, type IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import type { TokenInfo } from '../auth/auth-types.ts';
import { plainRows, TOTAL, type Plain } from '../../model/raw.ts';
import { allOf as and, anyOf as or, executeSql, readFragmentPrepared, sql, type Sql } from '../../model/sql.ts';
import { Lru } from '../../git/lru.ts';
import type { Page } from '../http/paging.ts';
import { unprocessable } from '../http/errors.ts';
import { INT32_MAX } from '../http/query-values.ts';
import type { QueryOf } from '../../model/schemas/query.ts';

export interface Caller {
  doer: IUser | null;
  siteAdmin: boolean;
  token: TokenInfo | null;
}

/** Public repositories of public owners: what anonymous callers and public-only tokens see. */
export const PUBLIC = sql`not r.is_private and r.owner_id in (select o.id from "user" o where o.visibility = 'public')`;

// The conditions below are uncorrelated `in (select ...)` sets rather than `exists` per row: inside an
// `or`, PostgreSQL cannot turn `exists` into a join and runs it once per repository, while a set is
// built once (a hashed subplan), so a search over many repositories costs little more than over few.

/** A team of the owning organization holding `uid` that covers the repository. */
const viaTeam = (uid: number) =>
  or([
    sql`r.owner_id in (select t.org_id from team_user tu join team t on t.id = tu.team_id
    where tu.uid = ${uid} and t.includes_all_repositories)`,
    sql`r.id in (select tr.repo_id from team_user tu join team t on t.id = tu.team_id
    join team_repo tr on tr.team_id = t.id join repository tr_r on tr_r.id = tr.repo_id and tr_r.owner_id = t.org_id
    where tu.uid = ${uid})`,
  ]);
const viaCollaboration = (uid: number) => sql`r.id in (select c.repo_id from collaboration c where c.user_id = ${uid})`;

/** lib/auth/perm.ts as a condition: owned, collaborating, through a team, or public with a visible owner. */
function accessibleTo(uid: number): Sql {
  return or([
    sql`r.owner_id = ${uid}`,
    viaCollaboration(uid),
    viaTeam(uid),
    sql`not r.is_private and r.owner_id in (select o.id from "user" o
      where o.visibility in ('public', 'limited') or o.id in (select ou.org_id from org_user ou where ou.uid = ${uid}))`,
  ]);
}

/** The repositories the caller can reach at all (lib/auth/perm.ts including the token-kind reductions). */
export function reachable(c: Caller): Sql {
  if (!c.doer || c.token?.publicOnly) return PUBLIC;
  if (c.siteAdmin) return sql`true`;
  const mine = accessibleTo(c.doer.id);
  // Spec, token kinds: a repo-specific token's listings hold its repositories only, public ones
  // elsewhere included.
  if (c.token?.repoIds) {
    if (c.token.repoIds.length === 0) return sql`false`;
    return and([sql`r.id in (${sql.list(c.token.repoIds)})`, mine]);
  }
  return mine;
}

/**
 * The repositories `reachable` gives, as a set of rows (`columns` of each, without duplicates), each
 * way of reaching one read from its own index (owner, collaboration, team, public repositories of
 * visible owners: repository_public_owner_index): for a statement that starts from the caller's
 * repositories rather than testing every repository. Null when the caller reaches every repository
 * (a site administrator).
 */
export function reachableRows(c: Caller, columns: readonly string[]): Sql | null {
  const cols = sql.join(columns.map((name) => sql`x.${sql.id(name)}`));
  const publicOf = (owners: Sql) => sql`select ${cols} from repository x where not x.is_private and x.owner_id in (${owners})`;
  if (!c.doer || c.token?.publicOnly) return publicOf(sql`select o.id from "user" o where o.visibility = 'public'`);
  if (c.siteAdmin) return null;
  const uid = c.doer.id;
  const mine = sql.join(
    [
      sql`select ${cols} from repository x where x.owner_id = ${uid}`,
      sql`select ${cols} from collaboration c join repository x on x.id = c.repo_id where c.user_id = ${uid}`,
      sql`select ${cols} from repository x where x.owner_id in (select t.org_id from team_user tu join team t on t.id = tu.team_id
        where tu.uid = ${uid} and t.includes_all_repositories)`,
      sql`select ${cols} from team_user tu join team t on t.id = tu.team_id
        join team_repo tr on tr.team_id = t.id join repository x on x.id = tr.repo_id and x.owner_id = t.org_id
        where tu.uid = ${uid}`,
      publicOf(sql`select o.id from "user" o
        where o.visibility in ('public', 'limited') or o.id in (select ou.org_id from org_user ou where ou.uid = ${uid})`),
    ],
    ' union ',
  );
  if (!c.token?.repoIds) return mine;
  const only = c.token.repoIds.length ? sql`in (${sql.list(c.token.repoIds)})` : sql`is null`;
  return sql`select * from (${mine}) x where x.id ${only}`;
}

/**
 * LIMIT and OFFSET of a page for a named statement. The first page's limit is written into the text:
 * as a parameter, PostgreSQL's generic plan assumes it returns a tenth of the rows, so it costs more
 * than a custom plan for 50 rows once the table is large, and the statement was planned again on
 * every execution (2 to 5 ms of planning per `GET /repos/search` at 10,000 repositories,
 * none at 100, where the generic plan won; it runs the same index scan in 0.1 to 0.3 ms). Limits are
 * at most `MAX_RESPONSE_ITEMS`, so that is a text per size; later pages keep parameters, not a text each.
 */
export function pageCut(page: Page | null): Sql {
  if (!page) return sql.empty;
  if (page.offset === 0 && Number.isSafeInteger(page.limit) && page.limit > 0) return sql.raw(` limit ${page.limit}`);
  return sql` limit ${page.limit} offset ${page.offset}`;
}

/** The statement of `pageWithTotal`. */
export function pageWithTotalSql(table: string, alias: string, where: Sql, order: Sql, page: Page | null, total?: Sql): Sql {
  const from = sql`${sql.id(table)} ${sql.id(alias)}`;
  const count = total ?? sql`select count(*)::int from ${from} where ${where}`;
  return sql`select c.n as ${sql.id(TOTAL)}, p.* from (${count}) c(n)
      left join lateral (select ${sql.id(alias)}.* from ${from} where ${where} order by ${order}${pageCut(page)}) p on true`;
}

/**
 * The rows of `table` (alias `alias`) matching `where`, in `order`, cut to `page` (null: all), and how
 * many match, in one statement: the total's one row joined to the page, so that a page past the end
 * still brings it. The total is `count(*)` of the matches unless `total` gives a statement that knows it
 * (a counter). By default the statement goes through model/sql.ts executeSql, which sends its values
 * inlined, so PostgreSQL plans it for them (a keyword's trigram index or a scan); with `prepared` (a
 * condition without a keyword, whose plan is the same for any values) it is planned once per connection.
 */
export async function pageWithTotal(
  em: EntityManager,
  table: string,
  alias: string,
  where: Sql,
  order: Sql,
  page: Page | null,
  total?: Sql,
  prepared = false,
): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const statement = pageWithTotalSql(table, alias, where, order, page, total);
  const rows = await (prepared ? readFragmentPrepared(em, statement) : executeSql(em, statement));
  return { rows: rows.filter((row) => row.id != null), total: Number(rows[0]?.[TOTAL] ?? 0) };
}

/**
 * A page of repositories (in order, plain rows as model/raw.ts reads them) and the total (`pageWithTotal`).
 * With `keepTotal`, the total comes from `keptTotal`'s memo when it still holds: `where` may then read
 * only the tables and columns whose changes bump `repo_search_version` (migration RepoSearchVersion;
 * test/model/repo-search-version.test.ts checks the conditions built here).
 */
export async function findRepos(
  em: EntityManager,
  where: Sql,
  order: Sql,
  page: Page | null,
  o: { keepTotal?: boolean; prepared?: boolean } = {},
): Promise<{ repos: Plain<IRepository>[]; total: number }> {
  const { rows, total } = o.keepTotal
    ? await pageWithKeptTotal(em, where, order, page, o.prepared === true)
    : await pageWithTotal(em, 'repository', 'r', where, order, page, undefined, o.prepared === true);
  return { repos: plainRows(em, Repository, rows), total };
}

/**
 * Totals of repository conditions (by SQL text and parameters, which name the caller and every
 * filter) with the `repo_search_version` they were counted at. The exact total of a search
 * counts every repository the caller can see (3 ms of PostgreSQL at 10,000), while its page is an index
 * scan. A kept total is used only when the statement reads the same version, that is when no
 * transaction that could change it has committed since it was counted (the triggers bump the version
 * in the writer's transaction): so it is exact in any process, and nothing depends on this memory but
 * the work saved. Bounded (the least recently used goes first), and a condition longer than `MAX_KEY` is not kept.
 */
const kept = new Lru<string, { v: number; n: number }>(1000);
const MAX_KEY = 4096;
/** The version column of a page with a kept total; no table has it. */
const VERSION = 'cairn__version';

/** `pageWithTotal` over repositories, counting only when the memo does not hold the total for the version read. */
async function pageWithKeptTotal(
  em: EntityManager,
  where: Sql,
  order: Sql,
  page: Page | null,
  prepared: boolean,
): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const key = `${where.text}\0${JSON.stringify(where.values)}`;
  // Inside a transaction, its own changes are visible before its bump is: neither read nor keep.
  const keep = key.length <= MAX_KEY && !em.isInTransaction();
  const memo = keep ? kept.get(key) : undefined;
  // The count is an uncorrelated subquery (an InitPlan), which PostgreSQL runs only when the CASE
  // reaches it: not at all when the version read is the memo's.
  const count = sql`select s.v::text, case when s.v = ${memo ? String(memo.v) : null}::bigint then null else (select count(*)::int from "repository" r where ${where}) end
    from (select (select v from "repo_search_version" where id = 1) v) s`;
  const statement = sql`select c.v as ${sql.id(VERSION)}, c.n as ${sql.id(TOTAL)}, p.* from (${count}) c(v, n)
      left join lateral (select r.* from "repository" r where ${where} order by ${order}${pageCut(page)}) p on true`;
  const rows = await (prepared ? readFragmentPrepared(em, statement) : executeSql(em, statement));
  const first = rows[0];
  const v = first?.[VERSION] == null ? null : Number(first[VERSION]);
  const counted = first?.[TOTAL];
  let total: number;
  if (counted == null && memo && v === memo.v) {
    total = memo.n;
  } else {
    total = Number(counted ?? 0);
    // A concurrent request may have kept a later version already.
    if (v !== null && keep && (kept.get(key)?.v ?? -1) <= v) kept.set(key, { v, n: total });
  }
  return { rows: rows.filter((row) => row.id != null), total };
}

export const ORDER_BY_ID = sql`r.id asc`;

const SORTS: Record<string, string> = {
  alpha: 'r.owner_name {d}, r.lower_name {d}',
  created: 'r.created_at {d}',
  updated: 'r.updated_at {d}',
  size: 'r.size {d}',
  git_size: 'r.size {d}',
  lfs_size: 'r.size {d}',
  id: 'r.id {d}',
  stars: 'r.num_stars {d}',
  forks: 'r.num_forks {d}',
};

const likeArg = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * `GET /repos/search` (Forgejo routers/api/v1/repo/repo.go Search): q (comma-separated, with
 * `topic` matching topics only, `includeDesc` descriptions too), uid with exclusive, team_id,
 * starredBy, private, is_private, template, archived, mode, sort/order, priority_owner_id.
 */
export function searchCondition(c: Caller, q: QueryOf<'RepoSearch'>): { where: Sql; order: Sql } {
  const parts: Sql[] = [];
  // Forgejo's `private` option: include the private repositories the caller may see (default true
  // for a signed-in caller); a public-only token never does.
  const wantPrivate = !!c.doer && !c.token?.publicOnly && q.private !== false;
  parts.push(wantPrivate ? reachable(c) : c.token?.repoIds ? and([PUBLIC, reachable(c)]) : PUBLIC);

  let collaborate: boolean | null = q.exclusive === true ? false : null;
  // An unknown mode was refused by the row's declaration (422 "Invalid search mode").
  switch (q.mode) {
    case 'source':
      parts.push(sql`not r.is_fork and not r.is_mirror`);
      break;
    case 'fork':
      parts.push(sql`r.is_fork`);
      break;
    case 'mirror':
      parts.push(sql`r.is_mirror`);
      break;
    case 'collaborative':
      parts.push(sql`not r.is_mirror`);
      collaborate = true;
      break;
    default:
      break;
  }

  // Ids are Go's Atoi (0: not given); one beyond the `integer` columns names nothing.
  const uid = q.uid ?? 0;
  const teamId = q.team_id ?? 0;
  const starredBy = q.starredBy ?? 0;
  if ([uid, teamId, starredBy].some((id) => id > INT32_MAX)) parts.push(sql`false`);
  else if (uid > 0) {
    const owned = sql`r.owner_id = ${uid}`;
    const collab = and([sql`r.owner_id <> ${uid}`, or([viaCollaboration(uid), viaTeam(uid)])]);
    parts.push(collaborate === false ? owned : collaborate === true ? collab : or([owned, collab]));
  }
  if (teamId > 0 && teamId <= INT32_MAX) parts.push(sql`r.id in (select repo_id from team_repo where team_id = ${teamId})`);
  if (starredBy > 0 && starredBy <= INT32_MAX) parts.push(sql`r.id in (select repo_id from star where uid = ${starredBy})`);
  for (const [param, column] of [
    ['is_private', sql`r.is_private`],
    ['template', sql`r.is_template`],
    ['archived', sql`r.is_archived`],
  ] as const) {
    const v = q[param];
    if (v !== undefined) parts.push(v ? column : sql`not ${column}`);
  }

  const keyword = (q.q ?? '').trim();
  if (keyword) {
    const words = keyword.split(',').filter((w) => w !== '');
    const topicOnly = q.topic === true;
    const topicMatch = (w: string) => (topicOnly ? sql`t.name = ${w.toLowerCase()}` : sql`t.name like ${likeArg(w)} escape '\\'`);
    const byTopic = sql`select rt.repo_id from repo_topic rt join topic t on t.id = rt.topic_id where ${or(words.map(topicMatch))}`;
    if (topicOnly) parts.push(sql`r.id in (${byTopic})`);
    else {
      // One set of the repositories matching by name, description, topic or owner/name, each part read
      // from its own index (migration KeywordSearch): OR'ed with the rest of the condition, the parts
      // could only be tested repository by repository.
      const likes: Sql[] = [byTopic];
      for (const w of words) {
        likes.push(sql`select x.id from repository x where x.lower_name like ${likeArg(w)} escape '\\'`);
        if (q.includeDesc === true)
          likes.push(sql`select x.id from repository x where lower(x.description) like ${likeArg(w)} escape '\\'`);
      }
      const pieces = keyword.split('/');
      if (teamId === 0 && pieces.length === 2) {
        likes.push(
          sql`select x.id from repository x where lower(x.owner_name) like ${likeArg(pieces[0])} escape '\\' and x.lower_name like ${likeArg(pieces[1])} escape '\\'`,
        );
      }
      parts.push(sql`r.id in (${sql.join(likes, ' union all ')})`);
    }
  }

  let order = SORTS.alpha.replaceAll('{d}', 'asc');
  const sort = q.sort ?? '';
  if (sort) {
    const dir = q.order || 'asc';
    if (dir !== 'asc' && dir !== 'desc') throw unprocessable(`Invalid sort order: "${dir}"`);
    if (!Object.hasOwn(SORTS, sort)) throw unprocessable(`Invalid sort mode: "${sort}"`);
    order = SORTS[sort].replaceAll('{d}', dir);
  }
  const priority = q.priority_owner_id ?? 0;
  const orderSql =
    priority > 0 && priority <= INT32_MAX
      ? sql`case when r.owner_id = ${priority} then 0 else 1 end, ${sql.raw(order)}, r.id asc`
      : sql`${sql.raw(order)}, r.id asc`;
  return { where: and(parts), order: orderSql };
}

/** `order_by` of `GET /user/repos` (Forgejo's ListMyRepos). */
const ORDER_BY: Record<string, string> = {
  name: 'r.lower_name asc',
  id: 'r.id asc',
  newest: 'r.created_at desc',
  oldest: 'r.created_at asc',
  recentupdate: 'r.updated_at desc',
  leastupdate: 'r.updated_at asc',
  reversealphabetically: 'r.lower_name desc',
  alphabetically: 'r.lower_name asc',
  reversesize: 'r.size desc',
  size: 'r.size asc',
  reversegitsize: 'r.size desc',
  gitsize: 'r.size asc',
  reverselfssize: 'r.size desc',
  lfssize: 'r.size asc',
  moststars: 'r.num_stars desc',
  feweststars: 'r.num_stars asc',
  mostforks: 'r.num_forks desc',
  fewestforks: 'r.num_forks asc',
};

export function orderByParam(v: string | null): Sql {
  const key = v || 'name';
  if (!Object.hasOwn(ORDER_BY, key)) throw unprocessable(`Invalid order_by: "${key}"`);
  return sql`${sql.raw(ORDER_BY[key])}, r.id asc`;
}

/** Repositories owned by `ownerId`, plus (for the owner) those they collaborate on. */
export const ownedBy = (ownerId: number) => sql`r.owner_id = ${ownerId}`;
export const ownedOrCollaborating = (uid: number) => or([sql`r.owner_id = ${uid}`, viaCollaboration(uid), viaTeam(uid)]);
export const starredBy = (uid: number) => sql`r.id in (select repo_id from star where uid = ${uid})`;
export const watchedBy = (uid: number) => sql`r.id in (select repo_id from watch where user_id = ${uid} and mode in (1, 3))`;
export const forksOf = (repoId: number) => sql`r.fork_id = ${repoId}`;
export { and as allOf };
export type { Sql };
