// Spec, guard table: "BRANCHW — for file-change routes: caller may write to the branch named in the
// body, or is site admin; else 403". The branch is `new_branch` when given, else `branch`, else the
// default branch. Writing means code write access and, on a protected branch, what its rule allows
// for the changed paths (Forgejo's VerifyBranchProtection: push allowlist, unprotected and
// protected file patterns).
import { deny, isSiteAdmin, need, step } from './types.ts';
import { canPushBranch } from '../lib/repos/branch-rules.ts';

export const BRANCHW = step('BRANCHW', 'guard', ['repo', 'body'], [], async (s) => {
  const loaded = need(s.repo, 'repo');
  if (isSiteAdmin(s)) return null;
  const body = (s.body ?? {}) as { branch?: unknown; new_branch?: unknown; files?: unknown };
  const pick = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const branch = pick(body.new_branch) ?? pick(body.branch) ?? loaded.repo.defaultBranch;
  const paths: string[] = [];
  if (Array.isArray(body.files)) {
    for (const f of body.files as { path?: unknown; from_path?: unknown }[]) {
      for (const p of [f?.path, f?.from_path]) if (typeof p === 'string' && p !== '') paths.push(p);
    }
  } else if (s.params.path) {
    paths.push(s.params.path);
  }
  const denied = await canPushBranch(s.em, loaded, s.auth.doer, branch, paths);
  return denied ? deny(403, denied) : null;
});
