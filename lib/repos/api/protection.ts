// api.BranchProtection and api.TagProtection wire shapes (Forgejo's convert.ToBranchProtection,
// ToTagProtection): allowlists are stored as ids and shown as names, read once for a list of rules.
import { readTogether } from '../../../model/reads.ts';
import type { EntityManager } from '@mikro-orm/core';
import type { IProtectedBranch, IProtectedTag } from '../../../model/branch-protection.ts';
import { Team } from '../../../model/org.ts';
import { User } from '../../../model/user.ts';
import { fmtTime } from '../../../model/time.ts';
import type { BranchProtection, TagProtection, Wire } from '../../../model/schemas/index.ts';
import { isGlobPattern } from '../glob.ts';

export type ApiBranchProtection = Wire<BranchProtection>;
export type ApiTagProtection = Wire<TagProtection>;

/** Names of the users and teams of allowlists, by id. */
export interface AllowlistNames {
  users: Map<number, string>;
  teams: Map<number, string>;
}

/** In the order of `ids`; ids whose user or team is gone are left out. */
const namesOf = (names: Map<number, string>, ids: number[]) => ids.flatMap((id) => (names.has(id) ? [names.get(id)!] : []));

export async function allowlistNames(em: EntityManager, userIds: number[], teamIds: number[]): Promise<AllowlistNames> {
  const uids = [...new Set(userIds)];
  const tids = [...new Set(teamIds)];
  const [users, teams] = await readTogether(em, [
    () => (uids.length ? em.find(User, { id: { $in: uids } }) : []),
    () => (tids.length ? em.find(Team, { id: { $in: tids } }) : []),
  ]);
  return { users: new Map(users.map((u) => [u.id, u.name])), teams: new Map(teams.map((t) => [t.id, t.name])) };
}

export function toApiBranchProtection(r: IProtectedBranch, n: AllowlistNames): ApiBranchProtection {
  return {
    branch_name: isGlobPattern(r.ruleName) ? '' : r.ruleName,
    rule_name: r.ruleName,
    enable_push: r.canPush,
    enable_push_whitelist: r.enableWhitelist,
    push_whitelist_usernames: namesOf(n.users, r.whitelistUserIds),
    push_whitelist_teams: namesOf(n.teams, r.whitelistTeamIds),
    push_whitelist_deploy_keys: r.whitelistDeployKeys,
    enable_merge_whitelist: r.enableMergeWhitelist,
    merge_whitelist_usernames: namesOf(n.users, r.mergeWhitelistUserIds),
    merge_whitelist_teams: namesOf(n.teams, r.mergeWhitelistTeamIds),
    enable_status_check: r.enableStatusCheck,
    status_check_contexts: r.statusCheckContexts,
    required_approvals: r.requiredApprovals,
    enable_approvals_whitelist: r.enableApprovalsWhitelist,
    approvals_whitelist_username: namesOf(n.users, r.approvalsWhitelistUserIds),
    approvals_whitelist_teams: namesOf(n.teams, r.approvalsWhitelistTeamIds),
    block_on_rejected_reviews: r.blockOnRejectedReviews,
    block_on_official_review_requests: r.blockOnOfficialReviewRequests,
    block_on_outdated_branch: r.blockOnOutdatedBranch,
    dismiss_stale_approvals: r.dismissStaleApprovals,
    ignore_stale_approvals: r.ignoreStaleApprovals,
    require_signed_commits: r.requireSignedCommits,
    protected_file_patterns: r.protectedFilePatterns,
    unprotected_file_patterns: r.unprotectedFilePatterns,
    apply_to_admins: r.applyToAdmins,
    created_at: fmtTime(r.createdAt),
    updated_at: fmtTime(r.updatedAt),
  };
}

/** Branch protection rules with their allowlists' names read once. */
export async function branchProtectionsToApi(em: EntityManager, rules: IProtectedBranch[]): Promise<ApiBranchProtection[]> {
  const names = await allowlistNames(
    em,
    rules.flatMap((r) => [...r.whitelistUserIds, ...r.mergeWhitelistUserIds, ...r.approvalsWhitelistUserIds]),
    rules.flatMap((r) => [...r.whitelistTeamIds, ...r.mergeWhitelistTeamIds, ...r.approvalsWhitelistTeamIds]),
  );
  return rules.map((r) => toApiBranchProtection(r, names));
}

export function toApiTagProtection(t: IProtectedTag, n: AllowlistNames): ApiTagProtection {
  return {
    id: t.id,
    name_pattern: t.namePattern,
    whitelist_usernames: namesOf(n.users, t.allowlistUserIds),
    whitelist_teams: namesOf(n.teams, t.allowlistTeamIds),
    created_at: fmtTime(t.createdAt),
    updated_at: fmtTime(t.updatedAt),
  };
}

/** Tag protection rules with their allowlists' names read once. */
export async function tagProtectionsToApi(em: EntityManager, rules: IProtectedTag[]): Promise<ApiTagProtection[]> {
  const names = await allowlistNames(
    em,
    rules.flatMap((r) => r.allowlistUserIds),
    rules.flatMap((r) => r.allowlistTeamIds),
  );
  return rules.map((r) => toApiTagProtection(r, names));
}
