// Branch protection rules: list, get, create, edit, delete (Forgejo routers/api/v1/repo/branch.go,
// services/convert ToBranchProtection).
import type { EntityManager } from '@mikro-orm/core';
import type { Handler } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import type { CreateBranchProtectionOption, EditBranchProtectionOption } from '../model/schemas/index.ts';
import { ProtectedBranch, type IProtectedBranch } from '../model/branch-protection.ts';
import { branchProtectionsToApi } from '../lib/repos/api/protection.ts';
import { badRequest, conflict403, notFound } from '../lib/http/errors.ts';
import { teamIds, writerIds } from '../lib/repos/allowlists.ts';
import { need, type RequestState } from '../lib/http/request.ts';

const protectionJson = async (em: EntityManager, r: IProtectedBranch) => (await branchProtectionsToApi(em, [r]))[0]!;

export const list: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const rules = await c.em.find(ProtectedBranch, { repoId: repo.id }, { orderBy: { id: 'asc' } });
  return json(200, await branchProtectionsToApi(c.em, rules));
};

async function byName(c: RequestState): Promise<IProtectedBranch> {
  const { repo } = need(c.repo, 'repo');
  const rule = await c.em.findOne(ProtectedBranch, { repoId: repo.id, ruleName: c.params.name ?? '' });
  if (!rule) throw notFound();
  return rule;
}

export const get: Handler = async (c) => json(200, await protectionJson(c.em, await byName(c)));

export const create: Handler<CreateBranchProtectionOption> = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  const b = c.body;
  const ruleName = b.rule_name || b.branch_name || '';
  if (ruleName === '') throw badRequest('both rule_name and branch_name are empty');
  if (await c.em.findOne(ProtectedBranch, { repoId: repo.id, ruleName })) throw conflict403('Branch protection already exist');
  const push = !!b.enable_push;
  const rule = c.em.create(ProtectedBranch, {
    repoId: repo.id,
    ruleName,
    canPush: push,
    enableWhitelist: push && !!b.enable_push_whitelist,
    whitelistUserIds: await writerIds(c.em, repo, owner, b.push_whitelist_usernames ?? []),
    whitelistTeamIds: await teamIds(c.em, repo, owner, b.push_whitelist_teams ?? []),
    whitelistDeployKeys: push && !!b.enable_push_whitelist && !!b.push_whitelist_deploy_keys,
    enableMergeWhitelist: !!b.enable_merge_whitelist,
    mergeWhitelistUserIds: await writerIds(c.em, repo, owner, b.merge_whitelist_usernames ?? []),
    mergeWhitelistTeamIds: await teamIds(c.em, repo, owner, b.merge_whitelist_teams ?? []),
    enableStatusCheck: !!b.enable_status_check,
    statusCheckContexts: b.status_check_contexts ?? [],
    enableApprovalsWhitelist: !!b.enable_approvals_whitelist,
    approvalsWhitelistUserIds: await writerIds(c.em, repo, owner, b.approvals_whitelist_username ?? []),
    approvalsWhitelistTeamIds: await teamIds(c.em, repo, owner, b.approvals_whitelist_teams ?? []),
    requiredApprovals: Math.max(0, b.required_approvals ?? 0),
    blockOnRejectedReviews: !!b.block_on_rejected_reviews,
    blockOnOfficialReviewRequests: !!b.block_on_official_review_requests,
    blockOnOutdatedBranch: !!b.block_on_outdated_branch,
    dismissStaleApprovals: !!b.dismiss_stale_approvals,
    ignoreStaleApprovals: !!b.ignore_stale_approvals,
    requireSignedCommits: !!b.require_signed_commits,
    protectedFilePatterns: b.protected_file_patterns ?? '',
    unprotectedFilePatterns: b.unprotected_file_patterns ?? '',
    applyToAdmins: !!b.apply_to_admins,
  });
  await c.em.flush();
  return json(201, await protectionJson(c.em, rule));
};

export const edit: Handler<EditBranchProtectionOption> = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  const rule = await byName(c);
  const b = c.body;
  if (b.enable_push !== undefined) {
    rule.canPush = b.enable_push;
    if (!b.enable_push) {
      rule.enableWhitelist = false;
      rule.whitelistDeployKeys = false;
    } else if (b.enable_push_whitelist !== undefined) {
      rule.enableWhitelist = b.enable_push_whitelist;
      if (!b.enable_push_whitelist) rule.whitelistDeployKeys = false;
      else if (b.push_whitelist_deploy_keys !== undefined) rule.whitelistDeployKeys = b.push_whitelist_deploy_keys;
    }
  }
  if (b.enable_merge_whitelist !== undefined) rule.enableMergeWhitelist = b.enable_merge_whitelist;
  if (b.enable_status_check !== undefined) rule.enableStatusCheck = b.enable_status_check;
  if (b.status_check_contexts !== undefined) rule.statusCheckContexts = b.status_check_contexts;
  if (b.required_approvals !== undefined && b.required_approvals >= 0) rule.requiredApprovals = b.required_approvals;
  if (b.enable_approvals_whitelist !== undefined) rule.enableApprovalsWhitelist = b.enable_approvals_whitelist;
  if (b.block_on_rejected_reviews !== undefined) rule.blockOnRejectedReviews = b.block_on_rejected_reviews;
  if (b.block_on_official_review_requests !== undefined) rule.blockOnOfficialReviewRequests = b.block_on_official_review_requests;
  if (b.dismiss_stale_approvals !== undefined) rule.dismissStaleApprovals = b.dismiss_stale_approvals;
  if (b.ignore_stale_approvals !== undefined) rule.ignoreStaleApprovals = b.ignore_stale_approvals;
  if (b.require_signed_commits !== undefined) rule.requireSignedCommits = b.require_signed_commits;
  if (b.protected_file_patterns !== undefined) rule.protectedFilePatterns = b.protected_file_patterns;
  if (b.unprotected_file_patterns !== undefined) rule.unprotectedFilePatterns = b.unprotected_file_patterns;
  if (b.block_on_outdated_branch !== undefined) rule.blockOnOutdatedBranch = b.block_on_outdated_branch;
  if (b.apply_to_admins !== undefined) rule.applyToAdmins = b.apply_to_admins;
  if (b.push_whitelist_usernames !== undefined) rule.whitelistUserIds = await writerIds(c.em, repo, owner, b.push_whitelist_usernames);
  if (b.merge_whitelist_usernames !== undefined)
    rule.mergeWhitelistUserIds = await writerIds(c.em, repo, owner, b.merge_whitelist_usernames);
  if (b.approvals_whitelist_username !== undefined)
    rule.approvalsWhitelistUserIds = await writerIds(c.em, repo, owner, b.approvals_whitelist_username);
  if (b.push_whitelist_teams !== undefined) rule.whitelistTeamIds = await teamIds(c.em, repo, owner, b.push_whitelist_teams);
  if (b.merge_whitelist_teams !== undefined) rule.mergeWhitelistTeamIds = await teamIds(c.em, repo, owner, b.merge_whitelist_teams);
  if (b.approvals_whitelist_teams !== undefined)
    rule.approvalsWhitelistTeamIds = await teamIds(c.em, repo, owner, b.approvals_whitelist_teams);
  rule.updatedAt = new Date();
  await c.em.flush();
  return json(200, await protectionJson(c.em, rule));
};

export const remove: Handler = async (c) => {
  const rule = await byName(c);
  c.em.remove(rule);
  await c.em.flush();
  return noContent();
};

/** This family's handlers; `routes.table.ts` names each `branchProtections.<key>`. */
export const handlers = {
  list,
  get,
  create,
  edit,
  remove,
} satisfies Record<string, Handler<never, never>>;
