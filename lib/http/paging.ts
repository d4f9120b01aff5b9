// Pagination (forgejo-facts 4): `page` and `limit`, X-Total-Count and a Link header.
import type { RequestState } from './request.ts';
import { INT32_MAX } from './query-values.ts';

export interface Page {
  page: number;
  limit: number;
  offset: number;
}

/**
 * A page past the end is empty, so a page whose offset exceeds what any list (or `git log --skip`,
 * an int) can hold is clamped to the first page past that bound: the answer is the same, and the
 * offset stays in range.
 */
export function pageOf(s: Pick<RequestState, 'q' | 'config'>, defaultLimit = s.config.API.DEFAULT_PAGING_NUM): Page {
  // The row declares `page` (model/schemas/query.ts); a row that does not is a table bug.
  if (!('page' in s.q)) throw new Error('table bug: a paged row declares no page query parameter');
  let page = typeof s.q.page === 'number' ? s.q.page : 0;
  let limit = typeof s.q.limit === 'number' ? s.q.limit : 0;
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
