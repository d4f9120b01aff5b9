// Forgejo's EditPullRequest with `allow_maintainer_edit` (pull_service.SetAllowEdits): only the pull's
// poster may change whether maintainers may push to its head branch, else 403. A body that leaves the
// flag out, or sends the value it already has, changes nothing and passes.
import { deny, need, step } from './types.ts';

export const ALLOW_EDITS = step('ALLOW_EDITS', 'guard', ['body', 'pull'], [], (s) => {
  const { pull, issue } = need(s.pull, 'pull');
  const wanted = (s.body as { allow_maintainer_edit?: unknown } | undefined)?.allow_maintainer_edit;
  if (typeof wanted !== 'boolean' || wanted === pull.allowMaintainerEdit) return null;
  return s.auth.doer?.id === issue.posterId ? null : deny(403, 'SetAllowEdits: user not allowed to do this action');
});
