// Repository labels (Forgejo's routers/api/v1/repo/label.go). Only the list exists so far; the
// other label routes are pending.
import type { Handler } from '../lib/handler.ts';
import { json } from '../lib/handler.ts';
import { Label } from '../model/label.ts';
import { pageOf, pagingHeaders } from '../lib/paging.ts';
import { toApiLabel } from '../model/api-label.ts';
import { need } from '../guards/types.ts';

const SORTS: Record<string, Record<string, 'asc' | 'desc'>> = {
  reversealphabetically: { name: 'desc' },
  leastissues: { numIssues: 'asc' },
  mostissues: { numIssues: 'desc' },
};

export const list: Handler = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  const p = pageOf(c);
  const orderBy = { ...(SORTS[c.query.get('sort') ?? ''] ?? { name: 'asc' }), id: 'asc' as const };
  const [rows, total] = await c.em.findAndCount(Label, { repoId: repo.id, orgId: 0 }, { orderBy, limit: p.limit, offset: p.offset });
  const base = `${c.config.appUrl}api/v1/repos/${encodeURIComponent(owner.name)}/${encodeURIComponent(repo.name)}`;
  return json(200, rows.map((l) => toApiLabel(l, base)), pagingHeaders(c, p, total));
};
