// Locked issues (Forgejo's issue lock; spec, token kinds: "no commenting on locked issues" through the
// admin rights a public-only or repo-specific token drops): on a locked issue only writers of the
// issue's unit (issues, or pulls for a pull request; site admins count) may comment or change reactions,
// else 403 with Forgejo's message for the action.
import { canWriteIssues } from '../lib/issues/issues.ts';
import { deny, need, step } from './types.ts';

const MESSAGES = {
  comment: 'You cannot comment on a locked issue.',
  reaction: 'no permission to change reaction',
} as const;

export function ISSUE_LOCKED(action: keyof typeof MESSAGES) {
  if (!Object.hasOwn(MESSAGES, action)) throw new Error(`ISSUE_LOCKED: unknown action "${action}"`);
  const message = MESSAGES[action];
  return step(`ISSUE_LOCKED(${action})`, 'guard', ['issue'], [], (s) => {
    const issue = need(s.issue, 'issue');
    return issue.isLocked && !canWriteIssues(s, issue.isPull) ? deny(403, message) : null;
  });
}
