// Issue assignment (spec, path resolution): the issue or pull request numbered `{index}` in the
// addressed repository; unknown 404. Issues and pulls share one numbering, and the issue routes reach a
// pull through its issue half, so the caller must be able to read the issue's own unit (issues, or
// pulls for a pull request), else 404: an issue the caller may not see is as absent as a missing one.
import { NOT_FOUND } from '../lib/http/errors.ts';
import { findReadableIssue, issueByIndexColumn, keepIssueRead, positiveInt } from '../lib/issues/issues.ts';
import { deny, readsAhead, step, type TokenRead } from './types.ts';
import { REPO_AHEAD } from './repo.ts';
import { prefixedId } from '../model/raw.ts';
import { Repository } from '../model/repo.ts';

/** The issue numbered `{index}` in the repository REPO reads with the token (one statement less). */
export const ISSUE_AHEAD: TokenRead = {
  name: 'issue',
  inside: REPO_AHEAD,
  select: (em) => `, ${issueByIndexColumn(em, 'r.id')}`,
  values: ({ index }) => {
    const n = positiveInt(index);
    return n === null ? null : [n];
  },
  keep: ({ em, ahead, row, params }) => {
    if (row.r != null) keepIssueRead(ahead, Number(prefixedId(em, Repository, row, 'r')), positiveInt(params.index)!, row);
  },
};

export const ISSUE = readsAhead(
  step('ISSUE', 'loader', ['repo'], ['issue'], async (s) => {
    const issue = await findReadableIssue(s, s.params.index);
    if (!issue) return deny(404, NOT_FOUND, { errors: [] });
    s.issue = issue;
    return null;
  }),
  ISSUE_AHEAD,
);
