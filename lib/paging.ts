// Pagination (forgejo-facts 4): `page` and `limit`, X-Total-Count and a Link header.
import type { RequestState } from './request.ts';
import { atoi, INT32_MAX } from './query-values.ts';

export interface Page { page: number; limit: number; offset: number }

/**
 * A page past the end is empty, so a page whose offset exceeds what any list (or `git log --skip`,
 * an int) can hold is clamped to the first page past that bound: the answer is the same, and the
 * offset stays in range (issue 9, item 7).
 */
export function pageOf(s: Pick<RequestState, 'query' | 'config'>, defaultLimit = s.config.API.DEFAULT_PAGING_NUM): Page {
  let page = atoi(s.query.get('page'));
  let limit = atoi(s.query.get('limit'));
  if (page <= 0) page = 1;
  if (limit <= 0) limit = defaultLimit;
  if (limit > s.config.API.MAX_RESPONSE_ITEMS) limit = s.config.API.MAX_RESPONSE_ITEMS;
  page = Math.min(page, Math.floor(INT32_MAX / limit) + 1);
  return { page, limit, offset: (page - 1) * limit };
}

export function pagingHeaders(s: Pick<RequestState, 'query' | 'config' | 'path'>, p: Page, total: number): Record<string, string> {
  const headers: Record<string, string> = { 'X-Total-Count': String(total), 'Access-Control-Expose-Headers': 'Link, X-Total-Count' };
  if (total <= 0) return headers;
  const last = Math.max(1, Math.ceil(total / p.limit));
  const page = Math.min(p.page, last);
  const link = (n: number, rel: string) => {
    const q = new URLSearchParams(s.query);
    q.set('page', String(n));
    const sorted = new URLSearchParams([...q.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return `<${s.config.appUrl}api/v1${s.path}?${sorted.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (total > page * p.limit) links.push(link(page + 1, 'next'));
  if (page < last) links.push(link(last, 'last'));
  if (page > 1) links.push(link(1, 'first'), link(page - 1, 'prev'));
  if (links.length) headers.Link = links.join(',');
  return headers;
}
