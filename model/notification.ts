import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Forgejo's NotificationStatus values (models/activities/notification.go). */
export const NotificationStatus = { unread: 1, read: 2, pinned: 3 } as const;
export type NotificationStatusName = keyof typeof NotificationStatus;

/** Forgejo's NotificationSource values: what a thread is about. */
export const NotificationSource = { issue: 1, pull: 2, commit: 3, repository: 4 } as const;
export type NotificationSourceName = keyof typeof NotificationSource;

/**
 * A notification thread: one row per (user, issue) for issue and pull threads, updated in place when
 * the issue moves again. `commentId` is the first comment the user has not seen (Forgejo only moves
 * it when the thread was read), `updatedBy` the last user who caused an update.
 */
export const Notification = defineEntity({
  name: 'Notification',
  tableName: 'notification',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer().index(),
    repoId: p.integer().index(),
    status: p.smallint().index(),
    source: p.smallint(),
    issueId: p.integer().default(0).index(),
    commentId: p.integer().default(0),
    commitId: p.string().length(64).default(''),
    updatedBy: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .index(),
  },
  // One thread per (user, issue); repository threads (issue id 0) may repeat. Writers upsert on it.
  uniques: [
    {
      name: 'notification_user_issue_unique',
      expression: 'create unique index "notification_user_issue_unique" on "notification" ("user_id", "issue_id") where "issue_id" <> 0',
    },
  ],
});
export type INotification = InferEntity<typeof Notification>;
