// Reading a repository from another instance of this API (Forgejo's services/migrations
// gitea_downloader.go): milestones, releases, issues, pull requests, comments and reactions, page by
// page from `{source}/api/v1/repos/{owner}/{repo}/...`. The answers are untrusted input: every field
// is checked and converted into the plain records below, and anything malformed is dropped.
// Every API address is checked against the [migrations] allow and block lists like the clone URL,
// and redirects are not followed, so an allowed host cannot hand the request on to a blocked one.
import fs from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebStream } from 'node:stream/web';
import type { Config } from '../../config.ts';
import { unprocessable } from '../http/errors.ts';
import { checkRemoteAllowed } from './remote-url.ts';

const PAGE = 50;
const MAX_PAGES = 10_000;
const TIMEOUT_MS = 30_000;
const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;
const MAX_REDIRECTS = 5;

export interface ApiSource {
  /** `<scheme>://<host>[/<sub path>]`, without a trailing slash. */
  base: string;
  owner: string;
  repo: string;
  headers: Record<string, string>;
  /** Items per page, from the source's `/settings/api` once read (null: not known). */
  pageSize?: number | null;
}

export interface SourceCredentials {
  username?: string;
  password?: string;
  token?: string;
}

/** The API behind an http(s) clone URL `<base>/<owner>/<repo>[.git]`, or null when it has no such shape. */
export function apiSourceOf(cloneAddr: string, creds: SourceCredentials): ApiSource | null {
  if (!URL.canParse(cloneAddr)) return null;
  const u = new URL(cloneAddr);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  const parts = u.pathname.split('/').filter((x) => x !== '');
  if (parts.length < 2) return null;
  const repo = decodeURIComponent(parts.pop()!.replace(/\.git$/, ''));
  const owner = decodeURIComponent(parts.pop()!);
  const headers: Record<string, string> = { Accept: 'application/json' };
  const user = creds.username || decodeURIComponent(u.username);
  const pass = creds.password || decodeURIComponent(u.password);
  if (creds.token) headers.Authorization = `token ${creds.token}`;
  else if (user || pass) headers.Authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
  const base = `${u.protocol}//${u.host}${parts.length ? `/${parts.join('/')}` : ''}`;
  return { base, owner, repo, headers };
}

interface JsonAnswer {
  status: number;
  body: unknown;
  total: number | null;
}

export async function getJson(cfg: Config, src: ApiSource, apiPath: string): Promise<JsonAnswer> {
  const url = `${src.base}/api/v1${apiPath}`;
  await checkRemoteAllowed(cfg, url);
  let res: Response;
  try {
    res = await fetch(url, { headers: src.headers, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    // fetch reports network failures and timeouts as TypeError / DOMException.
    if (e instanceof TypeError || (e instanceof DOMException && e.name === 'TimeoutError')) return { status: 0, body: null, total: null };
    throw e;
  }
  const text = await res.text();
  let body: unknown = null;
  if (res.ok) {
    try {
      body = JSON.parse(text);
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
    }
  }
  const total = res.headers.get('x-total-count');
  return { status: res.status, body, total: total && /^\d+$/.test(total) ? Number(total) : null };
}

/** Whether the clone URL's host serves this API (`GET /api/v1/version` answers a version). */
export async function servesApi(cfg: Config, src: ApiSource): Promise<boolean> {
  const r = await getJson(cfg, src, '/version');
  return r.status === 200 && typeof (r.body as { version?: unknown } | null)?.version === 'string';
}

/** Reads the source's page size (`max_response_items`, as Forgejo's downloader does); 50 at most. */
export async function readPageSize(cfg: Config, src: ApiSource): Promise<void> {
  const r = await getJson(cfg, src, '/settings/api');
  const n = (r.body as { max_response_items?: unknown } | null)?.max_response_items;
  src.pageSize = r.status === 200 && typeof n === 'number' && Number.isInteger(n) && n > 0 ? Math.min(n, PAGE) : null;
}

const repoPath = (src: ApiSource) => `/repos/${encodeURIComponent(src.owner)}/${encodeURIComponent(src.repo)}`;

function readFailure(src: ApiSource, what: string, status: number): never {
  throw unprocessable(
    `Migration failed: could not read the ${what} of ${src.owner}/${src.repo} from ${src.base} (${status ? `status ${status}` : 'unreachable'}).`,
  );
}

export type Raw = Record<string, unknown>;
const isRaw = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Every item of a listing, page by page. The list ends with an empty page, the announced total, or a
 * page shorter than the source's known page size. A source that ignores `page` (Forgejo's comment
 * and comment-reaction listings do) answers the same items again: a page with nothing new ends the
 * list too. `lenient` ends the list quietly where the source does not answer it.
 */
async function* pages(cfg: Config, src: ApiSource, path: string, what: string, lenient = false): AsyncGenerator<Raw[]> {
  const size = src.pageSize ?? PAGE;
  const seen = new Set<string>();
  let count = 0;
  const sep = path.includes('?') ? '&' : '?';
  for (let page = 1; page <= MAX_PAGES; page++) {
    const r = await getJson(cfg, src, `${repoPath(src)}${path}${sep}limit=${size}&page=${page}`);
    if (r.status !== 200 || !Array.isArray(r.body)) {
      if (lenient) return;
      readFailure(src, what, r.status);
    }
    const items = (r.body as unknown[]).filter(isRaw);
    const fresh = items.filter((it) => {
      const key = typeof it.id === 'number' ? `#${it.id}` : JSON.stringify(it);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (fresh.length) yield fresh;
    count += fresh.length;
    if (fresh.length === 0 || (r.total !== null && count >= r.total) || (src.pageSize && items.length < src.pageSize)) return;
  }
}

export async function all<T>(cfg: Config, src: ApiSource, path: string, what: string, convert: (raw: Raw) => T | null): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages(cfg, src, path, what))
    for (const raw of page) {
      const v = convert(raw);
      if (v) out.push(v);
    }
  return out;
}

// --- Field readers: a wrong type reads as absent. ---------------------------------------------

export const str = (v: unknown) => (typeof v === 'string' ? v : '');
const int = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : 0);
export const bool = (v: unknown) => v === true;
/** A time the source wrote, or null; Go's zero time means "none". */
function time(v: unknown): Date | null {
  if (typeof v !== 'string' || v === '' || v.startsWith('0001-01-01')) return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : new Date(t);
}

/**
 * A person on the source instance: its id and login there. `imported` marks an author the source
 * itself only knows by name (its `original_author`), whose id belongs to yet another service.
 */
export interface SourceUser {
  id: number;
  login: string;
  imported?: boolean;
}

function user(v: unknown): SourceUser {
  const u = isRaw(v) ? v : {};
  return { id: int(u.id), login: str(u.login) || str(u.username) };
}

/** The author of an issue or comment; one the source itself imported keeps its original author. */
function author(raw: Raw): SourceUser {
  const original = str(raw.original_author);
  return original ? { id: int(raw.original_author_id), login: original, imported: true } : user(raw.user);
}

// --- Records -------------------------------------------------------------------------------------

export interface SourceMilestone {
  title: string;
  description: string;
  closed: boolean;
  deadline: Date | null;
  createdAt: Date | null;
  updatedAt: Date | null;
  closedAt: Date | null;
}

/** A release asset: bytes behind `url`, or with `external` only a link (Forgejo's external assets). */
export interface SourceAsset {
  name: string;
  size: number;
  downloadCount: number;
  createdAt: Date | null;
  url: string;
  external: boolean;
}

export interface SourceRelease {
  tagName: string;
  target: string;
  name: string;
  body: string;
  draft: boolean;
  prerelease: boolean;
  publisher: SourceUser;
  createdAt: Date | null;
  assets: SourceAsset[];
}

export interface SourceReaction {
  user: SourceUser;
  content: string;
  createdAt: Date | null;
}

export interface SourceComment {
  id: number;
  author: SourceUser;
  body: string;
  createdAt: Date | null;
  updatedAt: Date | null;
}

export interface SourceIssue {
  number: number;
  title: string;
  body: string;
  ref: string;
  author: SourceUser;
  closed: boolean;
  locked: boolean;
  createdAt: Date | null;
  updatedAt: Date | null;
  closedAt: Date | null;
  labels: string[];
  milestone: string | null;
  assignees: string[];
}

export interface SourceBranch {
  ref: string;
  sha: string;
  repoOwner: string;
  repoName: string;
}

export interface SourcePull extends SourceIssue {
  head: SourceBranch;
  base: SourceBranch;
  mergeBase: string;
  merged: boolean;
  mergedAt: Date | null;
  mergeCommitSha: string;
}

export async function readMilestones(cfg: Config, src: ApiSource): Promise<SourceMilestone[]> {
  return all(cfg, src, '/milestones?state=all', 'milestones', (m) => {
    const title = str(m.title);
    if (!title) return null;
    return {
      title,
      description: str(m.description),
      closed: m.state === 'closed',
      deadline: time(m.due_on),
      createdAt: time(m.created_at),
      updatedAt: time(m.updated_at),
      closedAt: time(m.closed_at),
    };
  });
}

export async function readReleases(cfg: Config, src: ApiSource): Promise<SourceRelease[]> {
  return all(cfg, src, '/releases', 'releases', (r) => {
    const tagName = str(r.tag_name);
    if (!tagName) return null;
    const assets = (Array.isArray(r.assets) ? r.assets : [])
      .filter(isRaw)
      .map((a) => ({
        name: str(a.name),
        size: int(a.size),
        downloadCount: int(a.download_count),
        createdAt: time(a.created_at),
        url: str(a.browser_download_url),
        external: a.type === 'external',
      }))
      .filter((a) => a.name !== '' && a.url !== '');
    return {
      tagName,
      target: str(r.target_commitish),
      name: str(r.name),
      body: str(r.body),
      draft: bool(r.draft),
      prerelease: bool(r.prerelease),
      publisher: user(r.author),
      createdAt: time(r.created_at) ?? time(r.published_at),
      assets,
    };
  });
}

function issueFields(i: Raw): SourceIssue | null {
  const number = int(i.number);
  if (number <= 0) return null;
  const labels = (Array.isArray(i.labels) ? i.labels : [])
    .filter(isRaw)
    .map((l) => str(l.name))
    .filter((n) => n !== '');
  const assignees = (Array.isArray(i.assignees) ? i.assignees : []).map((a) => user(a).login).filter((n) => n !== '');
  const milestone = isRaw(i.milestone) ? str(i.milestone.title) || null : null;
  return {
    number,
    title: str(i.title),
    body: str(i.body),
    ref: str(i.ref),
    author: author(i),
    closed: i.state === 'closed',
    locked: bool(i.is_locked),
    createdAt: time(i.created_at),
    updatedAt: time(i.updated_at),
    closedAt: time(i.closed_at),
    labels,
    milestone,
    assignees,
  };
}

/** Issues (not pull requests), one page at a time. */
export async function* issuePages(cfg: Config, src: ApiSource): AsyncGenerator<SourceIssue[]> {
  for await (const page of pages(cfg, src, '/issues?state=all&type=issues', 'issues')) {
    // An instance that ignores `type` also lists pull requests; those carry `pull_request`.
    yield page
      .filter((i) => !isRaw(i.pull_request))
      .map(issueFields)
      .filter((i) => i !== null);
  }
}

/**
 * A pull's head or base. Once the head branch is gone Forgejo answers `ref` with the pull ref
 * (`refs/pull/<n>/head`) and keeps the branch name in `label`.
 */
function branch(v: unknown): SourceBranch {
  const b = isRaw(v) ? v : {};
  const repo = isRaw(b.repo) ? b.repo : {};
  let ref = str(b.ref);
  if (ref.startsWith('refs/pull/')) ref = str(b.label).split(':').pop() ?? '';
  return { ref, sha: str(b.sha), repoOwner: user(repo.owner).login, repoName: str(repo.name) };
}

export async function* pullPages(cfg: Config, src: ApiSource): AsyncGenerator<SourcePull[]> {
  for await (const page of pages(cfg, src, '/pulls?state=all', 'pull requests')) {
    const pulls: SourcePull[] = [];
    for (const p of page) {
      const fields = issueFields(p);
      if (!fields) continue;
      pulls.push({
        ...fields,
        head: branch(p.head),
        base: branch(p.base),
        mergeBase: str(p.merge_base),
        merged: bool(p.merged),
        mergedAt: time(p.merged_at),
        mergeCommitSha: str(p.merge_commit_sha),
      });
    }
    yield pulls;
  }
}

/** The plain comments of an issue or pull request. */
export async function readComments(cfg: Config, src: ApiSource, index: number): Promise<SourceComment[]> {
  return all(cfg, src, `/issues/${index}/comments`, `comments of #${index}`, (c) => {
    const id = int(c.id);
    if (id <= 0) return null;
    return { id, author: author(c), body: str(c.body), createdAt: time(c.created_at), updatedAt: time(c.updated_at) };
  });
}

/**
 * Reactions of an issue or of one of its comments. As in Forgejo's downloader, a source that
 * does not answer them loses its reactions but not the migration: the list is then empty.
 */
export async function readReactions(
  cfg: Config,
  src: ApiSource,
  target: { index: number } | { comment: number },
): Promise<SourceReaction[]> {
  const path = 'index' in target ? `/issues/${target.index}/reactions` : `/issues/comments/${target.comment}/reactions`;
  const out: SourceReaction[] = [];
  for await (const page of pages(cfg, src, path, 'reactions', true)) {
    for (const r of page) {
      const content = str(r.content);
      if (content) out.push({ user: user(r.user), content, createdAt: time(r.created_at) });
    }
  }
  return out;
}

/** Whether `url` lies below the source instance, where its credentials may go. */
function belowSource(src: ApiSource, url: URL): boolean {
  const base = new URL(`${src.base}/`);
  return url.origin === base.origin && url.pathname.startsWith(base.pathname);
}

/**
 * Downloads a release asset into `dest`, at most `maxBytes`. Redirects are followed by hand, each hop
 * checked against the allow and block lists; the source's credentials go only to addresses below it.
 * 422 when the source does not hand the bytes over.
 */
export async function downloadAsset(cfg: Config, src: ApiSource, asset: SourceAsset, dest: string, maxBytes: number): Promise<number> {
  const failed = (why: string) =>
    unprocessable(`Migration failed: could not download the release asset ${asset.name} of ${src.owner}/${src.repo} (${why}).`);
  let url = asset.url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (!URL.canParse(url)) throw failed('bad address');
    await checkRemoteAllowed(cfg, url);
    const headers = belowSource(src, new URL(url)) ? src.headers : {};
    let res: Response;
    try {
      res = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
    } catch (e) {
      if (e instanceof TypeError || (e instanceof DOMException && e.name === 'TimeoutError')) throw failed('unreachable');
      throw e;
    }
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      url = new URL(location, url).toString();
      continue;
    }
    if (res.status !== 200 || !res.body) {
      await res.body?.cancel();
      throw failed(`status ${res.status}`);
    }
    let size = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        done(size > maxBytes ? failed(`larger than ${maxBytes} bytes`) : null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(res.body as WebStream<Uint8Array>), limit, fs.createWriteStream(dest));
    return size;
  }
  throw failed('too many redirects');
}
