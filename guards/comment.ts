// Comment assignment (spec, path resolution, comment paths): unknown comment 404; the comment's issue
// must belong to the addressed repository, else 404; the caller must be able to read issues (or pulls,
// when the comment's issue is a pull request), else 404. The comment is `{comment}` on review-comment
// paths (where `{id}` is the review) and `{id}` elsewhere.
import { NOT_FOUND } from '../lib/errors.ts';
import { canReadIssue, positiveInt } from '../lib/issues.ts';
import { Comment, Issue } from '../model/issue.ts';
import { deny, need, step } from './types.ts';

const missing = () => deny(404, NOT_FOUND, { errors: [] });

export const COMMENT = step('COMMENT', 'loader', ['repo'], ['comment'], async (s) => {
  const id = positiveInt(s.params.comment ?? s.params.id);
  if (id === null) return missing();
  const comment = await s.em.findOne(Comment, { id });
  if (!comment) return missing();
  const issue = await s.em.findOne(Issue, { id: comment.issueId });
  if (!issue || issue.repoId !== need(s.repo, 'repo').repo.id || !canReadIssue(s, issue)) return missing();
  s.comment = { comment, issue };
  return null;
});
