// Comment assignment (spec, path resolution, comment paths): unknown comment 404; the comment's issue
// must belong to the addressed repository, else 404; the caller must be able to read issues (or pulls,
// when the comment's issue is a pull request), else 404. The comment is `{comment}` on review-comment
// paths (where `{id}` is the review) and `{id}` elsewhere.
import { NOT_FOUND } from '../lib/errors.ts';
import { findReadableComment } from '../lib/issues.ts';
import { deny, step } from './types.ts';

export const COMMENT = step('COMMENT', 'loader', ['repo'], ['comment'], async (s) => {
  const found = await findReadableComment(s, s.params.comment ?? s.params.id);
  if (!found) return deny(404, NOT_FOUND, { errors: [] });
  s.comment = found;
  return null;
});
