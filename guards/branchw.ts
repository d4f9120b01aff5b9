// Spec, guard table: "BRANCHW — for file-change routes: caller may write to the branch named in the
// body, or is site admin; else 403". The branch is `new_branch` when given, else `branch`, else the
// default branch; protected-branch rules join this check when branch protections exist.
import { MSG } from '../lib/errors.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';
import { canPushBranch } from '../lib/branch-rules.ts';

export const BRANCHW = step('BRANCHW', 'guard', ['repo', 'body'], [], async (s) => {
  const loaded = need(s.repo, 'repo');
  if (isSiteAdmin(s)) return null;
  const body = (s.body ?? {}) as { branch?: unknown; new_branch?: unknown };
  const pick = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const branch = pick(body.new_branch) ?? pick(body.branch) ?? loaded.repo.defaultBranch;
  return (await canPushBranch(s.em, loaded, s.auth.doer, branch)) ? null : deny(403, MSG.branchWrite);
});
