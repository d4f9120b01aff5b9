// Forgejo DELETE {R}/branches/* (services/repository/branch.go DeleteBranch): "the default branch
// cannot be deleted" and "a branch matched by a protection rule cannot be deleted", both 403
// (`can not delete default branch`, `branch protected`). An empty repository has no branch to
// protect; the handler answers it.
import { deny, need, step } from './types.ts';
import { branchRule } from '../lib/repos/branch-rules.ts';

export const BRANCH_DELETABLE = step('BRANCH_DELETABLE', 'guard', ['repo'], [], async (s) => {
  const { repo } = need(s.repo, 'repo');
  const branch = s.params.path ?? '';
  if (repo.isEmpty) return null;
  if (branch === repo.defaultBranch) return deny(403, 'can not delete default branch');
  return (await branchRule(s.em, repo.id, branch)) ? deny(403, 'branch protected') : null;
});
