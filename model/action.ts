import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * Forgejo's ActionType numbers (models/activities/action.go): stored as numbers, answered as names.
 * The order is Forgejo's `iota + 1`, so `OP_NAMES[n - 1]` is the name of `n`.
 */
export const OP_NAMES = [
  'create_repo',
  'rename_repo',
  'star_repo',
  'watch_repo',
  'commit_repo',
  'create_issue',
  'create_pull_request',
  'transfer_repo',
  'push_tag',
  'comment_issue',
  'merge_pull_request',
  'close_issue',
  'reopen_issue',
  'close_pull_request',
  'reopen_pull_request',
  'delete_tag',
  'delete_branch',
  'mirror_sync_push',
  'mirror_sync_create',
  'mirror_sync_delete',
  'approve_pull_request',
  'reject_pull_request',
  'comment_pull',
  'publish_release',
  'pull_review_dismissed',
  'pull_request_ready_for_review',
  'auto_merge_pull_request',
] as const;
export type OpName = (typeof OP_NAMES)[number];
export const OpType = Object.fromEntries(OP_NAMES.map((n, i) => [n, i + 1])) as { readonly [K in OpName]: number };
export const opName = (n: number): OpName | undefined => OP_NAMES[n - 1];

/**
 * One activity as seen in one feed (Forgejo's `action` table): the same activity is stored once per
 * receiver (`userId`): the actor, the owning organization, and each watcher who may read it.
 */
export const Action = defineEntity({
  name: 'Action',
  tableName: 'action',
  properties: {
    id: p.integer().primary().autoincrement(),
    /** Whose feed the row belongs to. */
    userId: p.integer().index(),
    opType: p.smallint(),
    actUserId: p.integer(),
    repoId: p.integer().index(),
    commentId: p.integer().default(0),
    refName: p.string().length(255).default(''),
    isPrivate: p.boolean().default(false),
    content: p.text().default(''),
    createdAt: p
      .datetime()
      .onCreate(() => new Date())
      .index(),
  },
  indexes: [{ properties: ['actUserId', 'createdAt'] }],
});
export type IAction = InferEntity<typeof Action>;
