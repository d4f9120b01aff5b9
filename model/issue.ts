import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * An issue or, with `isPull`, the issue half of a pull request (forgejo-facts 9): issues and pulls of a
 * repository share one index sequence (`resource_index` kind `issue`), backed by the unique (repo, index).
 */
export const Issue = defineEntity({
  name: 'Issue',
  tableName: 'issue',
  properties: {
    id: p.integer().primary().autoincrement(),
    repoId: p.integer(),
    index: p.integer(),
    posterId: p.integer().index(),
    /** Set for issues imported by a migration: the author's name and id on the source instance. */
    originalAuthor: p.string().length(255).default(''),
    originalAuthorId: p.bigint('number').default(0),
    title: p.string().length(255),
    content: p.text().default(''),
    ref: p.string().length(255).default(''),
    milestoneId: p.integer().default(0).index(),
    isPull: p.boolean().default(false),
    isClosed: p.boolean().default(false),
    isLocked: p.boolean().default(false),
    numComments: p.integer().default(0),
    /** 0 = not pinned; pinned issues of a repository are numbered 1.. per kind (issues / pulls). */
    pinOrder: p.integer().default(0),
    deadline: p.datetime().nullable(),
    closedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['repoId', 'index'] }],
  // A repository's issue or pull list, open or closed, newest first (lib/issues/query.ts): a page is read
  // from the index in order, whatever the number of issues; the second serves the list of both kinds.
  indexes: [
    { name: 'issue_repo_list_index', properties: ['repoId', 'isPull', 'isClosed', 'createdAt', 'id'] },
    { name: 'issue_repo_state_list_index', properties: ['repoId', 'isClosed', 'createdAt', 'id'] },
  ],
});
export type IIssue = InferEntity<typeof Issue>;

export const IssueLabel = defineEntity({
  name: 'IssueLabel',
  tableName: 'issue_label',
  properties: {
    id: p.integer().primary().autoincrement(),
    issueId: p.integer(),
    labelId: p.integer().index(),
  },
  uniques: [{ properties: ['issueId', 'labelId'] }],
});
export type IIssueLabel = InferEntity<typeof IssueLabel>;

export const IssueAssignee = defineEntity({
  name: 'IssueAssignee',
  tableName: 'issue_assignees',
  properties: {
    id: p.integer().primary().autoincrement(),
    issueId: p.integer(),
    assigneeId: p.integer().index(),
  },
  uniques: [{ properties: ['issueId', 'assigneeId'] }],
});
export type IIssueAssignee = InferEntity<typeof IssueAssignee>;

/**
 * Forgejo's comment types (models/issues/comment.go, CommentType). Only `comment` (0) and `code` (21,
 * review comments) carry user text; the others are timeline events.
 */
export const CommentType = {
  comment: 0,
  reopen: 1,
  close: 2,
  issueRef: 3,
  commitRef: 4,
  commentRef: 5,
  pullRef: 6,
  label: 7,
  milestone: 8,
  assignees: 9,
  changeTitle: 10,
  deleteBranch: 11,
  startTracking: 12,
  stopTracking: 13,
  addTimeManual: 14,
  cancelTracking: 15,
  addedDeadline: 16,
  modifiedDeadline: 17,
  removedDeadline: 18,
  addDependency: 19,
  removeDependency: 20,
  code: 21,
  review: 22,
  lock: 23,
  unlock: 24,
  changeTargetBranch: 25,
  deleteTimeManual: 26,
  reviewRequest: 27,
  mergePull: 28,
  pullRequestPush: 29,
  project: 30,
  projectBoard: 31,
  dismissReview: 32,
  changeIssueRef: 33,
  prScheduledToAutoMerge: 34,
  prUnScheduledToAutoMerge: 35,
  pin: 36,
  unpin: 37,
} as const;
/** The names Forgejo's TimelineComment `type` uses, indexed by CommentType value. */
export const COMMENT_TYPE_NAMES = [
  'comment',
  'reopen',
  'close',
  'issue_ref',
  'commit_ref',
  'comment_ref',
  'pull_ref',
  'label',
  'milestone',
  'assignees',
  'change_title',
  'delete_branch',
  'start_tracking',
  'stop_tracking',
  'add_time_manual',
  'cancel_tracking',
  'added_deadline',
  'modified_deadline',
  'removed_deadline',
  'add_dependency',
  'remove_dependency',
  'code',
  'review',
  'lock',
  'unlock',
  'change_target_branch',
  'delete_time_manual',
  'review_request',
  'merge_pull',
  'pull_push',
  'project',
  'project_board',
  'dismiss_review',
  'change_issue_ref',
  'pull_scheduled_merge',
  'pull_cancel_scheduled_merge',
  'pin',
  'unpin',
] as const;

/**
 * A comment or timeline event of an issue (Forgejo's `comment` table). Which of the optional columns
 * mean something depends on `type`; unused ones keep their zero value.
 */
export const Comment = defineEntity({
  name: 'Comment',
  tableName: 'comment',
  properties: {
    id: p.integer().primary().autoincrement(),
    type: p.smallint().default(0),
    issueId: p.integer().index(),
    posterId: p.integer().index(),
    originalAuthor: p.string().length(255).default(''),
    originalAuthorId: p.bigint('number').default(0),
    content: p.text().default(''),
    labelId: p.integer().default(0),
    oldMilestoneId: p.integer().default(0),
    milestoneId: p.integer().default(0),
    assigneeId: p.integer().default(0),
    assigneeTeamId: p.integer().default(0),
    removedAssignee: p.boolean().default(false),
    resolveDoerId: p.integer().default(0),
    oldTitle: p.string().length(255).default(''),
    newTitle: p.string().length(255).default(''),
    oldRef: p.string().length(255).default(''),
    newRef: p.string().length(255).default(''),
    dependentIssueId: p.integer().default(0),
    timeId: p.integer().default(0),
    /** Review comments (type code): the reviewed file, line (negative = old side), diff hunk and commit. */
    treePath: p.string().length(4096).default(''),
    line: p.integer().default(0),
    patch: p.text().default(''),
    commitSha: p.string().length(64).default(''),
    reviewId: p.integer().default(0).index(),
    invalidated: p.boolean().default(false),
    refRepoId: p.integer().default(0),
    refIssueId: p.integer().default(0),
    refCommentId: p.integer().default(0),
    refAction: p.smallint().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IComment = InferEntity<typeof Comment>;

/** A reaction of a user to an issue (`commentId` 0) or to one of its comments. */
export const Reaction = defineEntity({
  name: 'Reaction',
  tableName: 'reaction',
  properties: {
    id: p.integer().primary().autoincrement(),
    type: p.string().length(64),
    issueId: p.integer().index(),
    commentId: p.integer().default(0),
    userId: p.integer(),
    originalAuthor: p.string().length(255).default(''),
    originalAuthorId: p.bigint('number').default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['type', 'issueId', 'commentId', 'userId', 'originalAuthor'] }],
});
export type IReaction = InferEntity<typeof Reaction>;

/** An explicit (un)subscription of a user to an issue; without a row, participants are subscribed. */
export const IssueWatch = defineEntity({
  name: 'IssueWatch',
  tableName: 'issue_watch',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer(),
    issueId: p.integer().index(),
    isWatching: p.boolean(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['userId', 'issueId'] }],
});
export type IIssueWatch = InferEntity<typeof IssueWatch>;

/** `issueId` depends on (is blocked by) `dependencyId`. */
export const IssueDependency = defineEntity({
  name: 'IssueDependency',
  tableName: 'issue_dependency',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer(),
    issueId: p.integer(),
    dependencyId: p.integer().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['issueId', 'dependencyId'] }],
});
export type IIssueDependency = InferEntity<typeof IssueDependency>;

/** Time spent on an issue, in seconds. Deleting marks the row (Forgejo keeps it for the timeline). */
export const TrackedTime = defineEntity({
  name: 'TrackedTime',
  tableName: 'tracked_time',
  properties: {
    id: p.integer().primary().autoincrement(),
    issueId: p.integer().index(),
    userId: p.integer().index(),
    time: p.bigint('number'),
    deleted: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ITrackedTime = InferEntity<typeof TrackedTime>;

/** A running stopwatch of a user on an issue (at most one per pair). */
export const Stopwatch = defineEntity({
  name: 'Stopwatch',
  tableName: 'stopwatch',
  properties: {
    id: p.integer().primary().autoincrement(),
    issueId: p.integer(),
    userId: p.integer().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['userId', 'issueId'] }],
});
export type IStopwatch = InferEntity<typeof Stopwatch>;
