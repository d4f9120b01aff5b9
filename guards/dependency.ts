// Forgejo's CreateIssueDependency / RemoveIssueDependency and the `blocks` routes: the issue the IssueMeta
// body names by owner, repository and index (owner and repository are needed even for this repository,
// as in Forgejo), with the caller's permission on its repository. A repository that does not exist or
// that the caller cannot reach at all answers 404 naming it; an issue that does not exist, or that the
// caller may not read (its unit), answers 404 naming the index.
import { canReadIssue, findIssueByIndex, positiveInt } from '../lib/issues/issues.ts';
import { loadOtherRepo } from '../lib/issues/tracker.ts';
import { NOT_FOUND } from '../lib/http/errors.ts';
import { deny, need, step } from './types.ts';

export const DEPENDENCY = step('DEPENDENCY', 'loader', ['body', 'repo'], ['dependency'], async (s) => {
  const here = need(s.repo, 'repo');
  const body = (s.body ?? {}) as { owner?: string; repo?: string; index?: number };
  const owner = body.owner ?? '';
  const name = body.repo ?? '';
  const same = owner.toLowerCase() === here.owner.lowerName && name.toLowerCase() === here.repo.lowerName;
  const at = same ? here : await loadOtherRepo(s, owner, name);
  if (!at) return deny(404, NOT_FOUND, { errors: [`repository does not exist [id: 0, uid: 0, owner_name: ${owner}, name: ${name}]`] });
  const index = positiveInt(String(body.index ?? ''));
  const issue = index === null ? null : await findIssueByIndex(s.em, at.repo.id, index);
  if (!issue || !canReadIssue({ repo: at, auth: s.auth }, issue)) {
    return deny(404, NOT_FOUND, { errors: [`issue does not exist [repo_id: ${at.repo.id}, index: ${body.index ?? 0}]`] });
  }
  s.dependency = { issue, at };
  return null;
});
