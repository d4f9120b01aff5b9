// Comment assignment (spec, path resolution, comment paths): unknown comment 404; the comment's issue
// must belong to the addressed repository, else 404; the caller must be able to read issues (or pulls,
// when the comment's issue is a pull request), else 404. The comment is `{comment}` on review-comment
// paths (where `{id}` is the review) and `{id}` elsewhere. The comment's issue is also the request's
// issue, so the issue guards (ISSUE_LOCKED, POSTER_OR_WRITER, UPDATE_DATE) apply to comment routes.
import { NOT_FOUND } from '../lib/http/errors.ts';
import { findReadableComment } from '../lib/issues/issues.ts';
import { deny, step } from './types.ts';

export const COMMENT = step('COMMENT', 'loader', ['repo'], ['comment', 'issue'], async (s) => {
  const found = await findReadableComment(s, s.params.comment ?? s.params.id);
  if (!found) return deny(404, NOT_FOUND, { errors: [] });
  s.comment = found;
  s.issue = found.issue;
  return null;
});
