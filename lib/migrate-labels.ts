// Labels of a migration whose source is another instance of this API (Forgejo's services/migrations
// gitea_downloader.go): read page by page from `GET {source}/api/v1/repos/{owner}/{repo}/labels`.
// Every API address is checked against the [migrations] allow and block lists like the clone URL,
// and redirects are not followed, so an allowed host cannot hand the request on to a blocked one.
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../config.ts';
import { Label } from '../model/label.ts';
import { unprocessable } from './errors.ts';
import { normalizeLabelColor } from './label-color.ts';
import { checkRemoteAllowed } from './remote-url.ts';

const PAGE = 50;
const MAX_PAGES = 200;
const TIMEOUT_MS = 30_000;

export interface ApiSource {
  /** `<scheme>://<host>[/<sub path>]`, without a trailing slash. */
  base: string;
  owner: string;
  repo: string;
  headers: Record<string, string>;
}

export interface SourceLabel { name: string; color: string; description: string; exclusive: boolean; isArchived: boolean }

export interface SourceCredentials { username?: string; password?: string; token?: string }

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

async function getJson(cfg: Config, src: ApiSource, apiPath: string): Promise<{ status: number; body: unknown; total: number | null }> {
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

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** All labels of the source repository; 422 when the source does not answer them. */
export async function fetchSourceLabels(cfg: Config, src: ApiSource): Promise<SourceLabel[]> {
  const out: SourceLabel[] = [];
  const path = `/repos/${encodeURIComponent(src.owner)}/${encodeURIComponent(src.repo)}/labels`;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const r = await getJson(cfg, src, `${path}?limit=${PAGE}&page=${page}`);
    if (r.status !== 200 || !Array.isArray(r.body)) {
      throw unprocessable(`Migration failed: could not read the labels of ${src.owner}/${src.repo} from ${src.base} (${r.status ? `status ${r.status}` : 'unreachable'}).`);
    }
    for (const l of r.body as Record<string, unknown>[]) {
      if (!str(l?.name)) continue;
      out.push({ name: str(l.name), color: normalizeLabelColor(str(l.color)), description: str(l.description), exclusive: l.exclusive === true, isArchived: l.is_archived === true });
    }
    // The source may cap pages below PAGE: an empty page (or the announced total) ends the list.
    if (r.body.length === 0 || (r.total !== null && out.length >= r.total)) break;
  }
  return out;
}

export function insertLabels(em: EntityManager, repoId: number, labels: SourceLabel[]): void {
  const now = new Date();
  for (const l of labels) {
    em.create(Label, { repoId, orgId: 0, name: l.name, color: l.color, description: l.description, exclusive: l.exclusive, isArchived: l.isArchived, archivedAt: l.isArchived ? now : null });
  }
}
