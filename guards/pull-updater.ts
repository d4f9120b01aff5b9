// Forgejo's UpdatePullRequest and IsUserAllowedToUpdate (with the pull's base and head swapped): the
// caller must be allowed to push to the head branch, or merge into it, or (when the poster allows
// maintainer edits) merge into the base branch; rebasing needs an unprotected head branch and the head
// repository's allow_rebase_update. Anyone else answers 403. A pull that cannot be updated at all
// (merged, closed, head repository gone) passes here: the handler answers 422 for it, as Forgejo
// checks that first.
import { User } from '../model/user.ts';
import { repoPermission } from '../lib/auth/perm.ts';
import { repoUnits } from '../lib/repos/repos.ts';
import { canUserPushRule } from '../lib/repos/branch-rules.ts';
import { branchRule, canMerge, pullsConfig } from '../lib/pulls/merge.ts';
import { pullRepos } from '../lib/pulls/pulls.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';

const DENIED = deny(403, 'user is not allowed to update this pull request');

export const PULL_UPDATER = step('PULL_UPDATER', 'guard', ['repo', 'pull'], [], async (s) => {
  const { pull, issue } = need(s.pull, 'pull');
  if (pull.hasMerged || issue.isClosed) return null;
  const { head } = await pullRepos(s.em, pull);
  if (!head) return null;
  const doer = s.auth.doer;
  if (!doer) return DENIED;
  const loaded = need(s.repo, 'repo');
  const headPerm =
    head.id === loaded.repo.id
      ? loaded.perm
      : await repoPermission(s.em, {
          repo: head,
          owner: await s.em.findOneOrFail(User, { id: head.ownerId }),
          doer,
          siteAdmin: isSiteAdmin(s),
          token: s.auth.token,
        });
  const rule = await branchRule(s.em, head.id, pull.headBranch);
  if (rule && !(await canUserPushRule(s.em, rule, headPerm, doer))) return DENIED;
  const rebase = s.q.style === 'rebase';
  if (rebase && (rule || !pullsConfig(await repoUnits(s.em, head.id)).allow_rebase_update)) return DENIED;
  if (await canMerge(s.em, rule, headPerm, doer)) return null;
  return pull.allowMaintainerEdit && (await canMerge(s.em, rule, loaded.perm, doer)) ? null : DENIED;
});
