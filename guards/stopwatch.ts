// Forgejo's prepareIssueStopwatch: starting, stopping or cancelling a stopwatch needs write access to
// the issue's unit and the right to track time on it (CanUseTimetracker), else 403.
import { canTrackTime } from '../lib/issues/tracker.ts';
import { canWriteIssues } from '../lib/issues/issues.ts';
import { deny, need, step } from './types.ts';

export const STOPWATCH = step('STOPWATCH', 'guard', ['repo', 'issue'], [], async (s) => {
  const issue = need(s.issue, 'issue');
  return canWriteIssues(s, issue.isPull) && (await canTrackTime(s, need(s.repo, 'repo'), issue))
    ? null
    : deny(403, 'Not repo writer, user does not have rights to toggle stopwatch');
});
