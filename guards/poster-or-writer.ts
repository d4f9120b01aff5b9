// Poster or writer (Forgejo's EditIssue, EditPullRequest, EditIssueComment, DeleteIssueComment and the attachment
// routes; spec, other permission rules: "Editing or adding/removing attachments of an issue comment
// requires the same permission as editing the comment text: the comment's poster may always do it,
// without write permission on the issues or pulls unit"): the poster of the issue (or comment), or a
// writer of the issue's unit, else 403 with Forgejo's message for the route. Site admins count as
// writers, except through public-only and repo-specific tokens (spec, token kinds: "no
// editing/deleting others' comments and attachments by admin").
import { isPosterOrWriter } from '../lib/issues/issues.ts';
import { deny, need, step, type Need } from './types.ts';

const TARGETS = {
  issue: { of: 'issue', message: 'user should be the poster of the issue or have write permission' },
  'issue-attachment': { of: 'issue', message: 'user should have permission to write issue' },
  comment: { of: 'comment', message: "user should be the comment's poster or have write permission on the repository's issues" },
  'comment-attachment': { of: 'comment', message: 'user should have permission to edit comment' },
  'review-comment': { of: 'comment', message: 'user should be the poster of the comment or write pull requests' },
  pull: { of: 'pull', message: 'user should be the poster or have write access to pull requests' },
} as const;

export function POSTER_OR_WRITER(target: keyof typeof TARGETS) {
  if (!Object.hasOwn(TARGETS, target)) throw new Error(`POSTER_OR_WRITER: unknown target "${target}"`);
  const { of, message } = TARGETS[target];
  const needs: Need[] = of === 'comment' ? ['comment', 'issue'] : of === 'pull' ? ['pull'] : ['issue'];
  return step(`POSTER_OR_WRITER(${target})`, 'guard', needs, [], (s) => {
    const issue = of === 'pull' ? need(s.pull, 'pull').issue : need(s.issue, 'issue');
    const posterId = of === 'comment' ? need(s.comment, 'comment').comment.posterId : issue.posterId;
    return isPosterOrWriter(s, posterId, issue.isPull) ? null : deny(403, message);
  });
}
