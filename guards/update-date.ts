// Forgejo's SetIssueUpdateDate (issue edit and labels, comments, issue and comment attachments): an
// explicit update time needs repository admin rights (403 "user needs to have admin or owner right"),
// and must lie between the issue's creation and now (403 "unallowed update date"). The time is the
// body's `updated_at`, or for attachment uploads the query's. A time that does not parse passes here:
// the handler answers 422 for it, as Forgejo's binding does before any permission check.
import { allowedUpdateDate } from '../lib/issues/issues.ts';
import { rfc3339Time } from '../lib/issues/edit.ts';
import { deny, need, step, type Need, type RequestState } from './types.ts';

const SOURCES: Record<'body' | 'query', { needs: Need[]; raw: (s: RequestState) => string | undefined }> = {
  body: {
    needs: ['repo', 'issue', 'body'],
    raw: (s) => {
      const v = (s.body as { updated_at?: unknown } | undefined)?.updated_at;
      return typeof v === 'string' ? v : undefined;
    },
  },
  query: { needs: ['repo', 'issue'], raw: (s) => (typeof s.q.updated_at === 'string' && s.q.updated_at) || undefined },
};

export function UPDATE_DATE(from: 'body' | 'query') {
  if (!Object.hasOwn(SOURCES, from)) throw new Error(`UPDATE_DATE: unknown source "${from}"`);
  const { needs, raw } = SOURCES[from];
  return step(`UPDATE_DATE(${from})`, 'guard', needs, [], (s) => {
    const value = raw(s);
    const t = value === undefined ? null : rfc3339Time(value);
    if (!t) return null;
    if (!need(s.repo, 'repo').perm.isAdmin()) return deny(403, 'user needs to have admin or owner right');
    return allowedUpdateDate(need(s.issue, 'issue'), t) ? null : deny(403, 'unallowed update date');
  });
}
