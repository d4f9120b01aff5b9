// Issue assignment (spec, path resolution): the issue or pull request numbered `{index}` in the
// addressed repository; unknown 404. Issues and pulls share one numbering, and the issue routes reach a
// pull through its issue half, so the caller must be able to read the issue's own unit (issues, or
// pulls for a pull request), else 404: an issue the caller may not see is as absent as a missing one.
import { NOT_FOUND } from '../lib/http/errors.ts';
import { findReadableIssue } from '../lib/issues/issues.ts';
import { deny, step } from './types.ts';

export const ISSUE = step('ISSUE', 'loader', ['repo'], ['issue'], async (s) => {
  const issue = await findReadableIssue(s, s.params.index);
  if (!issue) return deny(404, NOT_FOUND, { errors: [] });
  s.issue = issue;
  return null;
});
