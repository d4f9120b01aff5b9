// Issue lists as SQL over `issue i`: the filters of GET {R}/issues and GET /repos/issues/search
// (Forgejo's issue indexer options, as its database indexer applies them), the sort names, and the
// set of repositories whose issues or pulls a caller may read.
import type { EntityManager } from '@mikro-orm/core';
import { Issue, type IIssue } from '../../model/issue.ts';
import { CommentType } from '../../model/issue.ts';
import { ReviewType } from '../../model/pull.ts';
import type { Page } from '../http/paging.ts';
import { plainRows, type Plain } from '../../model/raw.ts';
import { Unit } from '../auth/perm.ts';
import { pageCut, pageWithTotal, reachableRows, reachableRepos, type Caller } from '../repos/index.ts';
import { TOTAL } from '../../model/raw.ts';
import { unprocessable } from '../http/errors.ts';
import { allOf, anyOf, executeSql, sql, type Sql } from '../../model/sql.ts';

const likeArg = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
/**
 * A user-supplied string in raw SQL. MikroORM inlines parameters into the statement, and the embedded
 * driver takes any raw statement holding `;` for several statements; base64 carries neither. The decoding
 * function (migration KeywordSearch) is immutable, so the planner sees the text itself, as a constant.
 */
const text = (s: string) => sql`cairn_b64_text(${Buffer.from(s, 'utf8').toString('base64')})`;

export interface IssueFilter {
  isPull?: boolean;
  isClosed?: boolean;
  keyword?: string;
  /** The repository the list is of (its condition is the caller's): keyword search looks there only. */
  repoId?: number;
  /** The issue carries every one of these labels (GET {R}/issues). */
  allLabelIds?: number[];
  /** The issue carries at least one of these labels (search). */
  anyLabelIds?: number[];
  milestoneIds?: number[];
  updatedSince?: Date;
  updatedBefore?: Date;
  posterId?: number;
  assigneeId?: number;
  mentioned?: string;
  reviewRequestedId?: number;
  reviewedId?: number;
}

/** Forgejo's mention syntax (modules/references): `@name` after a space, `(` or `[`, before a space or punctuation. */
function mentionPattern(name: string): string {
  const esc = name.replace(/[.\\^$|?*+()[\]{}-]/g, (ch) => `\\${ch}`);
  return `(^|[[:space:](\\[])@${esc}([[:space:]'\\])]|[:,;.?!]([[:space:]]|$)|$)`;
}

/** A plain comment: the only kind whose text keyword search and mentions read. */
const COMMENT = sql.raw(String(CommentType.comment));

export function filterSql(f: IssueFilter): Sql[] {
  const parts: Sql[] = [];
  if (f.isPull !== undefined) parts.push(f.isPull ? sql`i.is_pull` : sql`not i.is_pull`);
  if (f.isClosed !== undefined) parts.push(f.isClosed ? sql`i.is_closed` : sql`not i.is_closed`);
  if (f.keyword) {
    const k = text(likeArg(f.keyword));
    // One set of the issues whose title, body or a plain comment holds the keyword, each part read
    // from its own trigram index (migration KeywordSearch, over these very expressions): OR'ed in
    // one WHERE with the rest of the filter, the parts could only be tested row by row. Within one
    // repository the issue parts are kept to it (PostgreSQL ANDs the repository's index with the
    // trigrams); the comment part stays the index's matches: joined to the repository's issues, a
    // generic plan (the statement is prepared) read every comment of a large repository instead.
    const scope = f.repoId === undefined ? sql.empty : sql` and k.repo_id = ${f.repoId}`;
    const commentScope =
      f.repoId === undefined ? sql.empty : sql` and c.issue_id in (select k.id from issue k where k.repo_id = ${f.repoId})`;
    parts.push(
      sql`i.id in (select k.id from issue k where lower(k.title) like ${k} escape '\\'${scope}
        union all select k.id from issue k where lower(k.content) like ${k} escape '\\'${scope}
        union all select c.issue_id from comment c where c.type = ${COMMENT} and lower(c.content) like ${k} escape '\\'${commentScope})`,
    );
  }
  for (const id of new Set(f.allLabelIds ?? []))
    parts.push(sql`i.id in (select il.issue_id from issue_label il where il.label_id = ${id})`);
  if (f.anyLabelIds?.length)
    parts.push(sql`i.id in (select il.issue_id from issue_label il where il.label_id in (${sql.list(f.anyLabelIds)}))`);
  if (f.milestoneIds?.length) parts.push(sql`i.milestone_id in (${sql.list(f.milestoneIds)})`);
  if (f.updatedSince) parts.push(sql`i.updated_at >= ${f.updatedSince}`);
  if (f.updatedBefore) parts.push(sql`i.updated_at <= ${f.updatedBefore}`);
  if (f.posterId) parts.push(sql`i.poster_id = ${f.posterId}`);
  if (f.assigneeId) parts.push(sql`i.id in (select a.issue_id from issue_assignees a where a.assignee_id = ${f.assigneeId})`);
  if (f.mentioned) {
    // Forgejo records mentions when text is saved; here the saved texts are matched instead.
    const re = text(mentionPattern(f.mentioned));
    parts.push(sql`i.content ~* ${re} or i.id in (select c.issue_id from comment c where c.type = ${COMMENT} and c.content ~* ${re})`);
  }
  if (f.reviewRequestedId) {
    parts.push(
      sql`i.id in (select r.issue_id from review r where r.type = ${sql.raw(String(ReviewType.request))} and r.original_author_id = 0
      and (r.reviewer_id = ${f.reviewRequestedId} or r.reviewer_team_id in (select tu.team_id from team_user tu where tu.uid = ${f.reviewRequestedId})))`,
    );
  }
  if (f.reviewedId) {
    parts.push(
      sql`i.poster_id <> ${f.reviewedId} and i.id in (select r.issue_id from review r where r.reviewer_id = ${f.reviewedId} and r.original_author_id = 0
      and r.type in (${sql.raw(`${ReviewType.approve}, ${ReviewType.comment}, ${ReviewType.reject}`)}))`,
    );
  }
  return parts;
}

/** The earlier of the issue's own deadline and its milestone's (Forgejo's due-date sorts). */
const DUE = `least(i.deadline, (select m.deadline from milestone m where m.id = i.milestone_id))`;
const SORTS: Record<string, string> = {
  latest: 'i.created_at desc',
  oldest: 'i.created_at asc',
  recentupdate: 'i.updated_at desc',
  leastupdate: 'i.updated_at asc',
  mostcomment: 'i.num_comments desc',
  leastcomment: 'i.num_comments asc',
  nearduedate: `${DUE} asc nulls last, i.created_at desc`,
  farduedate: `${DUE} desc nulls last, i.created_at desc`,
};

/** Forgejo's ParseSortBy: unknown names and `relevance` (no score without an indexer) sort newest first. */
export function orderSql(sort: string | null, priorityRepoId = 0): Sql {
  const order = sql.raw(`${SORTS[sort ?? ''] ?? SORTS.latest}, i.id desc`);
  return priorityRepoId > 0 ? sql`case when i.repo_id = ${priorityRepoId} then 0 else 1 end, ${order}` : order;
}

/**
 * The number of open issues and/or pulls of a repository, read from its counters (num_open_issues,
 * num_open_pulls: kept exact in SQL by every write that creates, closes, reopens or deletes one, lib/issues/issues.ts),
 * when the filter asks for nothing else; else null, and the list counts. At 10,000 open issues
 * the count was the one part of the page that grew with the data (about 2 ms of PostgreSQL per page).
 */
export function openTotalSql(repoId: number, f: IssueFilter): Sql | null {
  if (f.isClosed !== false || filterSql({ ...f, isPull: undefined, isClosed: undefined }).length) return null;
  const counters = f.isPull === undefined ? 'r.num_open_issues + r.num_open_pulls' : f.isPull ? 'r.num_open_pulls' : 'r.num_open_issues';
  return sql`select ${sql.raw(counters)} from repository r where r.id = ${repoId}`;
}

/** The columns of an issue that an order of `orderSql` reads. */
const ORDER_COLUMNS = sql`i.id, i.repo_id, i.created_at, i.updated_at, i.num_comments, i.deadline, i.milestone_id`;

/**
 * `pageWithTotal`'s statement for a few matches found at some cost (a keyword's): they are found once
 * (`matches`: a query of `ORDER_COLUMNS` of distinct issues), then counted and cut to the page.
 */
export function matchesOnceSql(ctes: Sql, matches: Sql, order: Sql, page: Page): Sql {
  const n = sql.raw(String(page.offset + page.limit));
  return sql`with ${ctes}m as materialized (${matches})
    select c.n as ${sql.id(TOTAL)}, p.* from (select count(*)::int from m) c(n)
      left join lateral (select i.* from issue i where i.id in (select i.id from m i order by ${order} limit ${n})
        order by ${order}${pageCut(page)}) p on true`;
}

/**
 * A page of issues (in order, plain rows as model/raw.ts reads them) and the total (`pageWithTotal`;
 * `total` is a statement giving it, when one cheaper than counting the matches exists). With
 * `matchesOnce`, the matches are found once for both (`matchesOnceSql`).
 */
export async function findIssues(
  em: EntityManager,
  where: Sql,
  order: Sql,
  page: Page,
  total?: Sql | null,
  matchesOnce = false,
): Promise<{ issues: Plain<IIssue>[]; total: number }> {
  if (matchesOnce) {
    const matches = sql`select ${ORDER_COLUMNS} from issue i where ${where}`;
    return pageOf(em, await executeSql(em, matchesOnceSql(sql.empty, matches, order, page)));
  }
  // Without a keyword the plan is the same for any values: planned once per connection.
  const found = await pageWithTotal(em, 'issue', 'i', where, order, page, total ?? undefined, true);
  return { issues: plainRows(em, Issue, found.rows), total: found.total };
}

const pageOf = (em: EntityManager, rows: Record<string, unknown>[]) => ({
  issues: plainRows(
    em,
    Issue,
    rows.filter((row) => row.id != null),
  ),
  total: Number(rows[0]?.[TOTAL] ?? 0),
});

/** `searchIssuesSql`'s page of issues (plain rows) and total. */
export async function searchIssues(
  em: EntityManager,
  c: Caller,
  repoCond: Sql,
  f: IssueFilter,
  order: Sql,
  page: Page,
): Promise<{ issues: Plain<IIssue>[]; total: number }> {
  return pageOf(em, await executeSql(em, searchIssuesSql(c, repoCond, f, order, page)));
}

/**
 * Repositories (over `repository r`) whose unit of type `type` (an SQL expression) the caller can
 * read: reachable at all (`reach`: lib/repos/search.ts, with the token-kind limits), the unit enabled,
 * and for a signed-in caller who reaches the repository only through a team, a team that grants the unit.
 */
function unitReadable(c: Caller, type: Sql, reach: Sql = reachableRepos(c)): Sql {
  const parts = [reach, sql`exists (select 1 from repo_unit u where u.repo_id = r.id and u.type = ${type})`];
  if (c.doer && !c.siteAdmin) {
    parts.push(
      anyOf([
        sql`not r.is_private`,
        sql`r.owner_id = ${c.doer.id}`,
        sql`exists (select 1 from collaboration co where co.repo_id = r.id and co.user_id = ${c.doer.id})`,
        sql`exists (select 1 from team_user tu join team t on t.id = tu.team_id
        where tu.uid = ${c.doer.id} and t.org_id = r.owner_id
          and (t.includes_all_repositories or exists (select 1 from team_repo tr where tr.team_id = t.id and tr.repo_id = r.id))
          and (t.access_mode >= 3 or exists (select 1 from team_unit tn where tn.team_id = t.id and tn.type = ${type} and tn.access_mode >= 1)))`,
      ]),
    );
  }
  return allOf(parts);
}

const unitType = (unit: 'issues' | 'pulls') => sql.raw(String(Unit[unit]));

/**
 * Pairs of (repository, kind) read one by one instead of walking all issues in the list's order:
 * up to this many, reading each pair's first page from issue_repo_list_index costs less than
 * walking issues that mostly belong to other repositories (a caller who reads a few repositories
 * of a large instance); beyond it, the walk.
 */
const PER_PAIR_MAX = 2000;

/**
 * GET /repos/issues/search: a page of the issues and pulls of repositories matching `repoCond` (over
 * `repository r`) whose unit the caller can read (`unitReadable`: public-only and repo-specific tokens
 * keep to their repositories) matching `f`, in `order`, with the total, in one statement (`pageWithTotal`'s shape). The (repository, kind)
 * pairs the caller reads are computed once, as a small set, before any issue is read; pairs with no
 * open issue of the kind (the repository's exact counters) are left out when only open ones are asked.
 * Without a keyword, a page is the first rows of each pair's index merged (few pairs), or the issues
 * walked in order and tested against the set (many); with one, the keyword's matches are the set to
 * start from. The total is counted over the same pairs, or summed from their counters when the filter
 * asks for nothing else. `perPairMax` (`PER_PAIR_MAX`) chooses between the two ways to a page.
 */
export function searchIssuesSql(c: Caller, repoCond: Sql, f: IssueFilter, order: Sql, page: Page, perPairMax = PER_PAIR_MAX): Sql {
  const kinds = sql.join([
    ...(f.isPull !== true ? [sql`(false, ${unitType('issues')})`] : []),
    ...(f.isPull !== false ? [sql`(true, ${unitType('pulls')})`] : []),
  ]);
  const reachable = reachableRows(c, ['id', 'owner_id', 'is_private', 'num_open_issues', 'num_open_pulls']);
  const pairs = sql`select r.id, k.pull, case when k.pull then r.num_open_pulls else r.num_open_issues end
    from ${reachable ? sql`(${reachable})` : sql`repository`} r cross join (values ${kinds}) k(pull, type)
    where ${allOf([unitReadable(c, sql`k.type`, sql`true`), repoCond])}`;
  const v = sql`select v.id, v.pull from v${f.isClosed === false ? sql` where v.open > 0` : sql.empty}`;
  const where = allOf([sql`(i.repo_id, i.is_pull) in (${v})`, ...filterSql(f)]);
  const pairsSet = sql`v(id, pull, open) as materialized (${pairs}), `;
  if (f.keyword) {
    // Each place the keyword is found in, with the rest of the filter: the issues found by their own
    // title or body are tested where the index leads, without being read again by id.
    const k = text(likeArg(f.keyword));
    const rest = [sql`(i.repo_id, i.is_pull) in (${v})`, ...filterSql({ ...f, keyword: undefined })];
    const places = [
      sql`lower(i.title) like ${k} escape '\\'`,
      sql`lower(i.content) like ${k} escape '\\'`,
      sql`i.id in (select c.issue_id from comment c where c.type = ${COMMENT} and lower(c.content) like ${k} escape '\\')`,
    ];
    const found = sql.join(
      places.map((place) => sql`select ${ORDER_COLUMNS} from issue i where ${allOf([place, ...rest])}`),
      ' union ',
    );
    return matchesOnceSql(pairsSet, found, order, page);
  }
  const onlyOpen = f.isClosed === false && filterSql({ ...f, isPull: undefined, isClosed: undefined }).length === 0;
  const total = onlyOpen ? sql`select coalesce(sum(v.open), 0)::int from v` : sql`select count(*)::int from issue i where ${where}`;
  const n = sql.raw(String(page.offset + page.limit));
  const pairsMax = sql.raw(String(perPairMax));
  const walk = sql`select i.id from issue i where ${where} order by ${order} limit ${n}`;
  // A pair's rows carry every column the order reads, under the same alias.
  const perPair = sql`select i.id from (${v}) v cross join lateral (
      select ${ORDER_COLUMNS} from issue i
      where i.repo_id = v.id and i.is_pull = v.pull and ${allOf(filterSql({ ...f, isPull: undefined }))} order by ${order} limit ${n}) i
    where (select count(*) from (${v}) w) <= ${pairsMax} order by ${order} limit ${n}`;
  const ids = sql`(${perPair}) union all (select w.id from (${walk}) w where (select count(*) from (${v}) w) > ${pairsMax})`;
  return sql`with ${pairsSet}c(n) as (${total})
    select c.n as ${sql.id(TOTAL)}, p.* from c
      left join lateral (select i.* from issue i where i.id in (${ids}) order by ${order}${pageCut(page)}) p on true`;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * `since` / `before` (Forgejo's GetQueryBeforeSince): RFC 3339 or 422 with Go's parse error.
 */
export function queryTime(q: URLSearchParams, name: 'since' | 'before'): Date | undefined {
  const raw = q.get(name);
  if (!raw) return undefined;
  const d = RFC3339.test(raw) ? new Date(raw) : null;
  if (!d || Number.isNaN(d.getTime()))
    throw unprocessable(`parsing time "${raw}" as "2006-01-02T15:04:05Z07:00": cannot parse "${raw}" as "2006"`);
  return d;
}

/** Go's strconv.ParseBool as Forgejo's FormBool reads it (anything else is false). */
export const queryBool = (v: string | null) => v !== null && /^(1|t|T|TRUE|true|True)$/.test(v);
