import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Forgejo's PullRequestStatus. */
export const PullStatus = { conflict: 0, checking: 1, mergeable: 2, manuallyMerged: 3, error: 4, empty: 5, ancestor: 6 } as const;

/**
 * The pull-request half of an issue with `isPull` (forgejo-facts 6.8, 9). `headRepoId` 0 means the head
 * repository was deleted. `flow` 0 = branch in a repository, 1 = AGit.
 */
export const PullRequest = defineEntity({
  name: 'PullRequest',
  tableName: 'pull_request',
  properties: {
    id: p.integer().primary().autoincrement(),
    issueId: p.integer().unique(),
    index: p.integer(),
    baseRepoId: p.integer().index(),
    headRepoId: p.integer().index(),
    baseBranch: p.string().length(255),
    headBranch: p.string().length(255),
    /** Head commit recorded at the last update (also kept in refs/pull/<n>/head of the base repository). */
    headCommitId: p.string().length(64).default(''),
    mergeBase: p.string().length(64).default(''),
    status: p.smallint().default(1),
    conflictedFiles: p.json<string[]>().default('[]'),
    commitsAhead: p.integer().default(0),
    commitsBehind: p.integer().default(0),
    flow: p.smallint().default(0),
    allowMaintainerEdit: p.boolean().default(false),
    hasMerged: p.boolean().default(false),
    mergedCommitId: p.string().length(64).default(''),
    mergerId: p.integer().default(0),
    mergedAt: p.datetime().nullable(),
  },
});
export type IPullRequest = InferEntity<typeof PullRequest>;

/** Forgejo's ReviewType: 0 pending, 1 approve, 2 comment, 3 request changes, 4 review requested. */
export const ReviewType = { pending: 0, approve: 1, comment: 2, reject: 3, request: 4 } as const;
export const REVIEW_STATES = ['PENDING', 'APPROVED', 'COMMENT', 'REQUEST_CHANGES', 'REQUEST_REVIEW'] as const;

/** A pull review, or with type `request` an open review request of a user (`reviewerId`) or team (`reviewerTeamId`). */
export const Review = defineEntity({
  name: 'Review',
  tableName: 'review',
  properties: {
    id: p.integer().primary().autoincrement(),
    type: p.smallint(),
    issueId: p.integer().index(),
    reviewerId: p.integer().default(0).index(),
    reviewerTeamId: p.integer().default(0),
    originalAuthor: p.string().length(255).default(''),
    originalAuthorId: p.bigint('number').default(0),
    content: p.text().default(''),
    official: p.boolean().default(false),
    commitId: p.string().length(64).default(''),
    stale: p.boolean().default(false),
    dismissed: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IReview = InferEntity<typeof Review>;

/** A merge scheduled for when the required checks succeed (Forgejo's pull_auto_merge). */
export const AutoMerge = defineEntity({
  name: 'AutoMerge',
  tableName: 'pull_auto_merge',
  properties: {
    id: p.integer().primary().autoincrement(),
    pullId: p.integer().unique(),
    doerId: p.integer(),
    mergeStyle: p.string().length(32),
    message: p.text().default(''),
    deleteBranchAfterMerge: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IAutoMerge = InferEntity<typeof AutoMerge>;
