// Commit lists: GET {R}/commits, the commit of a merged pull request, and compare (Forgejo
// routers/api/v1/repo/commits.go, compare.go; forgejo-facts 4.2, 6.10, 12.3).
import type { Handler } from '../lib/http/handler.ts';
import { json } from '../lib/http/handler.ts';
import { commitOf, type Commit } from '../git/commits.ts';
import { lookupRef } from '../git/lookup.ts';
import { commitsChanges, compareRange, countHistory, historyPage, type HistoryQuery } from '../git/history.ts';
import { RevNotFoundError } from '../git/errors.ts';
import { validatePath } from '../git/paths.ts';
import { InvalidPathError } from '../git/errors.ts';
import { commitListOf, CommitUsers, keptCommitList, toApiCommit, type CommitExtras, type RepoUrls } from '../lib/repos/api/git.ts';
import type { RenderedBytes } from '../lib/http/json.ts';
import { conflict, notFound, unprocessable } from '../lib/http/errors.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { EMPTY_REPO, gitCtx } from '../lib/repos/git.ts';
import { isSiteAdmin, type RequestState } from '../lib/http/request.ts';
import { PullRequest } from '../model/pull.ts';
import { pullToApi } from '../lib/pulls/api/pull.ts';
import type { QueryOf } from '../model/schemas/query.ts';

/** `[git] COMMITS_RANGE_SIZE`: the commit list never pages by more (forgejo-facts 4.1). */
const COMMITS_RANGE_SIZE = 50;

export interface CommitOptions {
  stat: boolean;
  files: boolean;
  verification: boolean;
}

export const commitOptions = (q: QueryOf<'CommitFlags'>): CommitOptions => ({
  stat: q.stat !== false,
  files: q.files !== false,
  verification: q.verification !== false,
});
/** `files` and `verification` (NoteFlags), stat always. */
export const noteOptions = (q: QueryOf<'NoteFlags'>): CommitOptions => ({
  stat: true,
  files: q.files !== false,
  verification: q.verification !== false,
});

/** The commits of the ids (in order) and their changes when asked for. */
async function loadCommits(repoPath: string, shas: string[], opts: CommitOptions) {
  // The ids come from rev-list, so they are in the repository: their parsed commits may be shared.
  const commits = await Promise.all(shas.map((sha) => commitOf(repoPath, sha)));
  const found = commits.filter((c): c is Commit => c !== null);
  const changes =
    opts.stat || opts.files
      ? await commitsChanges(
          repoPath,
          found.map((c) => c.sha),
        )
      : [];
  const extras = found.map(
    (_, i): CommitExtras => ({
      files: opts.files ? (changes[i]?.files ?? []) : null,
      stats: opts.stat ? (changes[i]?.stats ?? null) : null,
      verification: opts.verification,
    }),
  );
  const final = found.length === shas.length && (!(opts.stat || opts.files) || changes.every((ch) => ch !== undefined));
  return { found, extras, final };
}

/** api.Commit for each id, in order, with one user lookup for the whole batch. */
export async function apiCommits(s: RequestState, repoPath: string, urls: RepoUrls, shas: string[], opts: CommitOptions) {
  const { found, extras } = await loadCommits(repoPath, shas, opts);
  const users = new CommitUsers(s.em, s.config);
  await users.load(found.flatMap((c) => [c.author.email, c.committer.email]));
  return found.map((c, i) => toApiCommit(s.config, urls, c, users, extras[i]));
}

/** apiCommits, rendered: the list as it is without its users is kept for the next request. */
export async function apiCommitsJson(
  s: RequestState,
  repoPath: string,
  urls: RepoUrls,
  shas: string[],
  opts: CommitOptions,
): Promise<RenderedBytes> {
  const flags = `${opts.files ? 'f' : ''}${opts.stat ? 's' : ''}${opts.verification ? 'v' : ''}`;
  const users = new CommitUsers(s.em, s.config);
  let list = keptCommitList(urls, shas, flags);
  if (!list) {
    const { found, extras, final } = await loadCommits(repoPath, shas, opts);
    list = commitListOf(s.config, urls, found, users, extras, flags, final);
  }
  await users.load(list.emails);
  return list.render(users);
}

export const list: Handler<never, QueryOf<'Commits'>> = async (c) => {
  const g = gitCtx(c);
  if (g.repo.isEmpty) throw conflict(EMPTY_REPO);
  const page = pageOf(c);
  const limit = Math.min(page.limit, COMMITS_RANGE_SIZE);
  const sha = c.q.sha ?? '';
  const file = c.q.path ?? '';
  const not = c.q.not ?? '';
  const { since, until } = c.q;
  if (file !== '') {
    try {
      validatePath(file);
    } catch (e) {
      if (e instanceof InvalidPathError) throw unprocessable(`path contains a malformed path component [path: ${file}]`);
      throw e;
    }
  }
  const start = await lookupRef(g.path, sha === '' ? g.repo.defaultBranch : sha);
  // forgejo-facts 1.2: an unknown `sha` answers 404 with the body `null`.
  if (!start?.commit) return json(404, null);
  let notCommit: string | undefined;
  if (not !== '') {
    notCommit = (await lookupRef(g.path, not))?.commit ?? undefined;
    if (!notCommit) return json(404, null);
  }
  const q: HistoryQuery = { commit: start.commit, not: notCommit, path: file || undefined, since, until };
  let total: number;
  try {
    total = await countHistory(g.path, q);
  } catch (e) {
    if (e instanceof RevNotFoundError) return json(404, null);
    throw e;
  }
  if (file !== '' && total === 0) throw notFound('FileCommitsCount');
  const shas = await historyPage(g.path, q, (page.page - 1) * limit, limit);
  const body = await apiCommitsJson(c, g.path, g.urls, shas, commitOptions(c.q));
  const pageCount = Math.ceil(total / limit);
  const headers = pagingHeaders(c, { ...page, limit }, total);
  Object.assign(headers, {
    'X-Page': String(page.page),
    'X-PerPage': String(limit),
    'X-Total': String(total),
    'X-PageCount': String(pageCount),
    'X-HasMore': String(page.page < pageCount),
    'Access-Control-Expose-Headers': 'Link, X-Total-Count, X-Page, X-PerPage, X-Total, X-PageCount, X-HasMore',
  });
  return json(200, body, headers);
};

/**
 * The pull request of a commit: the one merged as that commit (Forgejo's GetPullRequestByMergedCommit),
 * else the newest whose head is that commit. Pull requests stay hidden from callers who cannot read them.
 */
export const listPull: Handler = async (c) => {
  const g = gitCtx(c);
  const sha = c.params.ref ?? '';
  const readable = g.perm.canRead('pulls') || (g.perm.unitEnabled('pulls') && isSiteAdmin(c));
  const pull =
    !readable || sha === ''
      ? null
      : ((await c.em.findOne(PullRequest, { baseRepoId: g.repo.id, hasMerged: true, mergedCommitId: sha }, { orderBy: { id: 'desc' } })) ??
        (await c.em.findOne(PullRequest, { baseRepoId: g.repo.id, headCommitId: sha }, { orderBy: { id: 'desc' } })));
  if (!pull)
    throw notFound('GetPullRequestByMergedCommit', [
      `pull request does not exist [id: 0, issue_id: 0, head_repo_id: 0, base_repo_id: ${g.repo.id}, head_branch: , base_branch: ]`,
    ]);
  return json(200, await pullToApi(c, pull));
};

/** `base...head` (or `base..head`, or just `head` against the default branch) within the repository. */
export const compare: Handler<never, QueryOf<'NoteFlags'>> = async (c) => {
  const g = gitCtx(c);
  const info = c.params.path ?? '';
  let [base, head] = [g.repo.defaultBranch, g.repo.defaultBranch];
  if (info !== '') {
    const three = info.split('...');
    const two = info.split('..');
    if (three.length === 2) [base, head] = three;
    else if (two.length === 2) [base, head] = two;
    else head = info;
  }
  if (head.includes(':')) head = head.slice(head.lastIndexOf(':') + 1);
  const b = g.repo.isEmpty ? null : await lookupRef(g.path, base);
  const h = g.repo.isEmpty ? null : await lookupRef(g.path, head);
  if (!b?.commit) throw notFound(`BaseNotExist`, [`base ${base} does not exist`]);
  if (!h?.commit) throw notFound(`HeadNotExist`, [`head ${head} does not exist`]);
  const range = await compareRange(g.path, b.commit, h.commit);
  const commits = await apiCommits(c, g.path, g.urls, range.commits, noteOptions(c.q));
  return json(200, {
    total_commits: commits.length,
    commits,
    files: range.files.map((f) => ({ filename: f.filename, status: f.status })),
  });
};

/** This family's handlers; `routes.table.ts` names each `commits.<key>`. */
export const handlers = {
  list,
  listPull,
  compare,
} satisfies Record<string, Handler<never, never>>;
