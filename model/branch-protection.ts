import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A branch protection rule (Forgejo's protected_branch). `ruleName` is a branch name or a glob; user
 * and team lists hold ids, rendered as names by the converter.
 */
export const ProtectedBranch = defineEntity({
  name: 'ProtectedBranch',
  tableName: 'protected_branch',
  properties: {
    id: p.integer().primary().autoincrement(),
    repoId: p.integer().index(),
    ruleName: p.string().length(255),
    canPush: p.boolean().default(false),
    enableWhitelist: p.boolean().default(false),
    whitelistUserIds: p.json<number[]>().default('[]'),
    whitelistTeamIds: p.json<number[]>().default('[]'),
    whitelistDeployKeys: p.boolean().default(false),
    enableMergeWhitelist: p.boolean().default(false),
    mergeWhitelistUserIds: p.json<number[]>().default('[]'),
    mergeWhitelistTeamIds: p.json<number[]>().default('[]'),
    enableStatusCheck: p.boolean().default(false),
    statusCheckContexts: p.json<string[]>().default('[]'),
    enableApprovalsWhitelist: p.boolean().default(false),
    approvalsWhitelistUserIds: p.json<number[]>().default('[]'),
    approvalsWhitelistTeamIds: p.json<number[]>().default('[]'),
    requiredApprovals: p.integer().default(0),
    blockOnRejectedReviews: p.boolean().default(false),
    blockOnOfficialReviewRequests: p.boolean().default(false),
    blockOnOutdatedBranch: p.boolean().default(false),
    dismissStaleApprovals: p.boolean().default(false),
    ignoreStaleApprovals: p.boolean().default(false),
    requireSignedCommits: p.boolean().default(false),
    protectedFilePatterns: p.text().default(''),
    unprotectedFilePatterns: p.text().default(''),
    applyToAdmins: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['repoId', 'ruleName'] }],
});
export type IProtectedBranch = InferEntity<typeof ProtectedBranch>;

/** A tag protection rule (Forgejo's protected_tag): a glob, or a regular expression written `/re/`. */
export const ProtectedTag = defineEntity({
  name: 'ProtectedTag',
  tableName: 'protected_tag',
  properties: {
    id: p.integer().primary().autoincrement(),
    repoId: p.integer().index(),
    namePattern: p.string().length(255),
    allowlistUserIds: p.json<number[]>().default('[]'),
    allowlistTeamIds: p.json<number[]>().default('[]'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IProtectedTag = InferEntity<typeof ProtectedTag>;
