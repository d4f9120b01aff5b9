// Pull request assignment on the review routes (Forgejo's GetPullRequestByIndex): the pull request
// numbered `{index}` in the addressed repository; an unknown number, or an issue's, is 404 naming it.
import { positiveInt } from '../lib/issues/issues.ts';
import { findPull } from '../lib/pulls/pulls.ts';
import { deny, need, step } from './types.ts';

export const PULL = step('PULL', 'loader', ['repo'], ['pull'], async (s) => {
  const { repo } = need(s.repo, 'repo');
  const index = positiveInt(s.params.index);
  const found = index === null ? null : await findPull(s.em, repo.id, index);
  if (!found)
    return deny(404, 'GetPullRequestByIndex', {
      errors: [`pull request does not exist [base_repo_id: ${repo.id}, index: ${s.params.index}]`],
    });
  s.pull = found;
  return null;
});
