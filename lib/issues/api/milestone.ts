// api.Milestone wire shape (Forgejo's convert.ToAPIMilestone): `closed_at` only while closed,
// `due_on` only when a deadline is set, `open_issues` counted from the totals.
import { fmtTime } from '../../../model/time.ts';
import type { IMilestone } from '../../../model/milestone.ts';
import type { Milestone, Wire } from '../../../model/schemas/index.ts';

export type ApiMilestone = Wire<Milestone>;

export function toApiMilestone(m: IMilestone): ApiMilestone {
  return {
    id: m.id,
    title: m.name,
    description: m.description,
    state: m.isClosed ? ('closed' as const) : ('open' as const),
    open_issues: m.numIssues - m.numClosedIssues,
    closed_issues: m.numClosedIssues,
    created_at: fmtTime(m.createdAt),
    updated_at: fmtTime(m.updatedAt),
    closed_at: m.isClosed && m.closedAt ? fmtTime(m.closedAt) : null,
    due_on: m.deadline ? fmtTime(m.deadline) : null,
  };
}
