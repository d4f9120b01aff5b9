// api.Branch wire shape (forgejo-facts 6.9; Forgejo's convert.ToBranch).
import type { IProtectedBranch } from '../../../model/branch-protection.ts';
import type { Branch, Wire } from '../../../model/schemas/index.ts';
import type { ApiPayloadCommit } from './git.ts';

export type ApiBranch = Wire<Branch>;

/** What the caller may do on the branch (decided by the branch rules, lib/repos/branch-rules.ts). */
export interface BranchAccess {
  push: boolean;
  merge: boolean;
}

/** A branch head and the rule protecting it (if any); the rule's name only for repository admins. */
export function toApiBranch(
  name: string,
  commit: ApiPayloadCommit,
  rule: IProtectedBranch | null,
  access: BranchAccess,
  isAdmin: boolean,
): ApiBranch {
  if (!rule) {
    return {
      name,
      commit,
      protected: false,
      required_approvals: 0,
      enable_status_check: false,
      status_check_contexts: [],
      user_can_push: access.push,
      user_can_merge: access.merge,
      effective_branch_protection_name: '',
    };
  }
  return {
    name,
    commit,
    protected: true,
    required_approvals: rule.requiredApprovals,
    enable_status_check: rule.enableStatusCheck,
    status_check_contexts: rule.statusCheckContexts,
    user_can_push: access.push,
    user_can_merge: access.merge,
    effective_branch_protection_name: isAdmin ? rule.ruleName : '',
  };
}
