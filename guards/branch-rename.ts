// Forgejo PATCH {R}/branches/* (services/repository/branch.go RenameBranch): renaming the default
// branch or a protected branch needs a repository or site admin (403 `User must be a repo or site
// admin to rename default or protected branches.`); a branch protected by a glob rule cannot be
// renamed at all (403 `Branch is protected by glob-based protection rules.`), since the rule would not
// follow it.
import { deny, isSiteAdmin, need, step } from './types.ts';
import { branchRule } from '../lib/repos/branch-rules.ts';
import { isGlobPattern } from '../lib/repos/glob.ts';

export const BRANCH_RENAMABLE = step('BRANCH_RENAMABLE', 'guard', ['repo'], [], async (s) => {
  const { repo, perm } = need(s.repo, 'repo');
  if (repo.isEmpty) return null;
  const branch = s.params.path ?? '';
  const rule = await branchRule(s.em, repo.id, branch);
  if ((branch === repo.defaultBranch || rule) && !perm.isAdmin() && !isSiteAdmin(s)) {
    return deny(403, 'User must be a repo or site admin to rename default or protected branches.');
  }
  return rule && isGlobPattern(rule.ruleName) ? deny(403, 'Branch is protected by glob-based protection rules.') : null;
});
