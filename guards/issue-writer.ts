// Writers of the issue's unit (Forgejo's CanWriteIssuesOrPulls: issues, or pulls for a pull request;
// site admins count, except through public-only and repo-specific tokens): setting a deadline and
// changing an issue's labels, else 403 with Forgejo's message for the route.
import { canWriteIssues } from '../lib/issues/issues.ts';
import { deny, need, step } from './types.ts';

const MESSAGES = {
  deadline: 'Not repo writer',
  labels: 'write permission is required',
} as const;

export function ISSUE_WRITER(action: keyof typeof MESSAGES) {
  if (!Object.hasOwn(MESSAGES, action)) throw new Error(`ISSUE_WRITER: unknown action "${action}"`);
  const message = MESSAGES[action];
  return step(`ISSUE_WRITER(${action})`, 'guard', ['issue'], [], (s) =>
    canWriteIssues(s, need(s.issue, 'issue').isPull) ? null : deny(403, message),
  );
}
