// Repository wiki pages (Forgejo routers/api/v1/repo/wiki.go). Pages live in the bare repository
// `<repo>.wiki.git` (lib/repos/wiki.ts); the chain has already checked the wiki unit and, for writes, the
// right to write it. `{pageName}` is a web path (a page's sub_url) and is read as the client sent
// it, still escaped, as Forgejo reads it (PathParamRaw).
import { emitEvent } from '../lib/activity/events.ts';
import type { Handler } from '../lib/http/handler.ts';
import { signedIn, json, noContent } from '../lib/http/handler.ts';
import type { SignedInCtx } from '../lib/http/handler.ts';
import type { CreateWikiPageOptions } from '../model/schemas/index.ts';
import type { ObjectFormat } from '../git/repo.ts';
import { getCommit, type Commit } from '../git/commits.ts';
import { countHistory, historyPage } from '../git/history.ts';
import { lastCommitFor } from '../git/lookup.ts';
import { utcDate } from '../lib/repos/api/git.ts';
import { badRequest, notFound } from '../lib/http/errors.ts';
import { pageOf } from '../lib/http/paging.ts';
import { wikiPath } from '../lib/repos/repos.ts';
import { gitWrite, identityOf } from '../lib/repos/git.ts';
import {
  blobBase64,
  changeWiki,
  checkPageName,
  ensureWikiRepo,
  findPage,
  listPageFiles,
  titleToWebPath,
  webPathFromRequest,
  webPathToGitPath,
  webPathToTitle,
  WikiNameError,
  wikiTip,
  type PageFile,
  type Wiki,
} from '../lib/repos/wiki.ts';
import { need, type RequestState } from '../lib/http/request.ts';

/** Forgejo pages revisions by `[git] COMMITS_RANGE_SIZE` (50) and takes no `limit`. */
const REVISIONS_PER_PAGE = 50;

function wikiOf(c: RequestState): Wiki {
  const { repo, owner } = need(c.repo, 'repo');
  return { path: wikiPath(c.services, owner.name, repo.name), branch: repo.wikiBranch || c.config.REPOSITORY.DEFAULT_BRANCH };
}

/** The {pageName} segment before the router decoded it (the last segment of the request path). */
function requestedPage(c: RequestState): string {
  const p = c.path.replace(/\/+$/, '');
  return webPathFromRequest(p.slice(p.lastIndexOf('/') + 1));
}

/** Go's %q for the default commit messages. */
const goQuote = (s: string) => JSON.stringify(s);

/** Go's base64.StdEncoding: padded, standard alphabet; line breaks are skipped. Node's decoder accepts anything. */
function decodeContent(b64: string): Buffer {
  const t = b64.replace(/[\r\n]/g, '');
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(t)) throw badRequest('invalid base64 encoding of content');
  return Buffer.from(t, 'base64');
}

/** Reserved and invalid names are 400 (Forgejo: ErrWikiReservedName on create). */
function checkedName(web: string): string {
  try {
    checkPageName(web);
  } catch (e) {
    if (e instanceof WikiNameError) throw badRequest(e.message);
    throw e;
  }
  return web;
}

const alreadyExists = (p: PageFile) => badRequest(`wiki page already exists [title: ${p.gitPath}]`);

// --- answers --------------------------------------------------------------------------------------

/** Forgejo's ToWikiCommit: UTC dates, the field spelled `commiter`. */
function toWikiCommit(c: Commit) {
  return {
    sha: c.sha,
    author: { name: c.author.name, email: c.author.email, date: utcDate(c.author) },
    commiter: { name: c.committer.name, email: c.committer.email, date: utcDate(c.committer) },
    message: c.message,
  };
}

async function lastCommit(w: Wiki, tip: string, gitPath: string) {
  const sha = (await lastCommitFor(w.path, tip, gitPath)) ?? tip;
  const commit = await getCommit(w.path, sha);
  return commit ? toWikiCommit(commit) : null;
}

/** WikiPageMetaData: sub_url is the web path, html_url the page in the web UI. */
async function metaOf(c: RequestState, w: Wiki, tip: string, web: string, gitPath: string) {
  const { repo, owner } = need(c.repo, 'repo');
  return {
    title: webPathToTitle(web),
    html_url: `${c.config.appUrl}${owner.name}/${repo.name}/wiki/${web}`,
    sub_url: web,
    last_commit: await lastCommit(w, tip, gitPath),
  };
}

/** WikiPage at the current tip, with the wiki's _Sidebar and _Footer; 404 when there is no such page. */
async function pageJson(c: RequestState, w: Wiki, web: string) {
  const tip = await wikiTip(w);
  const page = tip ? await findPage(w, tip, web) : null;
  if (!tip || !page) throw notFound();
  const max = c.config.API.DEFAULT_MAX_BLOB_SIZE;
  const extra = async (name: string) => {
    const f = await findPage(w, tip, name);
    return f ? blobBase64(w, f.oid, max) : '';
  };
  return {
    ...(await metaOf(c, w, tip, web, page.gitPath)),
    content_base64: await blobBase64(w, page.oid, max),
    commit_count: await countHistory(w.path, { commit: tip, path: page.gitPath }),
    sidebar: await extra('_Sidebar'),
    footer: await extra('_Footer'),
  };
}

/** Only X-Total-Count, no Link header: Forgejo's wiki lists call SetTotalCountHeader alone. */
const totalHeader = (total: number) => ({ 'X-Total-Count': String(total), 'Access-Control-Expose-Headers': 'X-Total-Count' });

// --- reading --------------------------------------------------------------------------------------

/**
 * The pages at the root of the wiki branch in tree order. X-Total-Count counts pages; Forgejo counts
 * every root entry (and pages by entries), which breaks paging as soon as a non-page file exists.
 */
export const listPages: Handler = async (c) => {
  const w = wikiOf(c);
  const tip = await wikiTip(w);
  if (!tip) throw notFound();
  const files = await listPageFiles(w, tip);
  const p = pageOf(c);
  const slice = files.slice(p.offset, p.offset + p.limit);
  const out: Awaited<ReturnType<typeof metaOf>>[] = [];
  // One rev-list per page for its last commit: a few at a time.
  for (let i = 0; i < slice.length; i += 16) {
    out.push(...(await Promise.all(slice.slice(i, i + 16).map((f) => metaOf(c, w, tip, f.web, f.gitPath)))));
  }
  return json(200, out, totalHeader(files.length));
};

export const getPage: Handler = async (c) => json(200, await pageJson(c, wikiOf(c), requestedPage(c)));

/** The commits that changed the page's file, newest first, 50 a page; a rename starts a new history. */
export const getRevisions: Handler = async (c) => {
  const w = wikiOf(c);
  const tip = await wikiTip(w);
  const page = tip ? await findPage(w, tip, requestedPage(c)) : null;
  if (!tip || !page) throw notFound();
  const q = { commit: tip, path: page.gitPath };
  const count = await countHistory(w.path, q);
  const shas = await historyPage(w.path, q, (pageOf(c).page - 1) * REVISIONS_PER_PAGE, REVISIONS_PER_PAGE);
  const commits = await Promise.all(shas.map((sha) => getCommit(w.path, sha)));
  return json(200, { commits: commits.flatMap((k) => (k ? [toWikiCommit(k)] : [])), count }, totalHeader(count));
};

// --- writing --------------------------------------------------------------------------------------

const doer = (c: SignedInCtx<unknown, unknown>) => identityOf(c.config, c.auth.doer);
const wikiEvent = (c: SignedInCtx<unknown, unknown>, action: 'created' | 'edited' | 'deleted', page: string, comment: string) =>
  emitEvent(c.em, c, { name: 'wiki', repo: need(c.repo, 'repo').repo, sender: c.auth.doer, action, page, comment });

/** A new page; the wiki repository is created on first use. An existing page is 400, as in Forgejo. */
export const createNew = signedIn<CreateWikiPageOptions>(async (c) => {
  const b = c.body;
  const title = b.title ?? '';
  if (title.trim() === '') throw badRequest('the page title is empty');
  const web = checkedName(titleToWebPath(title));
  const content = decodeContent(b.content_base64 ?? '');
  const message = b.message || `Add ${goQuote(title)}`;
  const w = wikiOf(c);
  await ensureWikiRepo(w, need(c.repo, 'repo').repo.objectFormatName as ObjectFormat);
  await gitWrite(() =>
    changeWiki(w, doer(c), async (tip) => {
      const existing = tip ? await findPage(w, tip, web) : null;
      if (existing) throw alreadyExists(existing);
      return { ops: [{ op: 'create', path: webPathToGitPath(web), content }], message };
    }),
  );
  await wikiEvent(c, 'created', web, message);
  return json(201, await pageJson(c, w, web));
});

/**
 * New content and/or a new title. Where Forgejo differs, the option's documentation wins: no
 * `title` keeps the name (Forgejo renames the page "unnamed"), no `content_base64` keeps the
 * content (Forgejo empties the page); an unknown page is 404 (Forgejo creates it), and renaming
 * onto another page is 400 (Forgejo overwrites it).
 */
export const editPage = signedIn<CreateWikiPageOptions>(async (c) => {
  const b = c.body;
  const oldWeb = requestedPage(c);
  const newWeb = (b.title ?? '').trim() === '' ? oldWeb : checkedName(titleToWebPath(b.title ?? ''));
  const content = b.content_base64 === undefined ? undefined : decodeContent(b.content_base64);
  const message = b.message || `Update ${goQuote(newWeb)}`;
  const w = wikiOf(c);
  await gitWrite(() =>
    changeWiki(w, doer(c), async (tip) => {
      const old = tip ? await findPage(w, tip, oldWeb) : null;
      if (!tip || !old) throw notFound();
      const target = newWeb === oldWeb ? old : await findPage(w, tip, newWeb);
      if (target && target.gitPath !== old.gitPath) throw alreadyExists(target);
      const to = target?.gitPath ?? webPathToGitPath(newWeb);
      if (to !== old.gitPath) return { ops: [{ op: 'move', fromPath: old.gitPath, path: to, content }], message };
      return content === undefined ? null : { ops: [{ op: 'update', path: to, content }], message };
    }),
  );
  await wikiEvent(c, 'edited', newWeb, message);
  return json(200, await pageJson(c, w, newWeb));
});

export const removePage = signedIn(async (c) => {
  const web = requestedPage(c);
  const w = wikiOf(c);
  await gitWrite(() =>
    changeWiki(w, doer(c), async (tip) => {
      const page = tip ? await findPage(w, tip, web) : null;
      if (!page) throw notFound();
      return { ops: [{ op: 'delete', path: page.gitPath }], message: `Delete page ${goQuote(web)}` };
    }),
  );
  await wikiEvent(c, 'deleted', web, '');
  return noContent();
});

/** This family's handlers; `routes.table.ts` names each `wiki.<key>`. */
export const handlers = {
  listPages,
  getPage,
  getRevisions,
  createNew,
  editPage,
  removePage,
} satisfies Record<string, Handler<never, never>>;
