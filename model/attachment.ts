import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A file attached to an issue, a comment or a release (Forgejo's `attachment`). The bytes live under
 * `<APP_DATA_PATH>/attachments/<uuid[0]>/<uuid[1]>/<uuid>`; release assets may instead point to an
 * `externalUrl` (Forgejo's "external" assets). Ids not used are 0.
 */
export const Attachment = defineEntity({
  name: 'Attachment',
  tableName: 'attachment',
  properties: {
    id: p.integer().primary().autoincrement(),
    uuid: p.string().length(40).unique(),
    repoId: p.integer().default(0).index(),
    issueId: p.integer().default(0).index(),
    commentId: p.integer().default(0).index(),
    releaseId: p.integer().default(0).index(),
    uploaderId: p.integer().default(0),
    name: p.string().length(255),
    size: p.bigint('number').default(0),
    downloadCount: p.integer().default(0),
    externalUrl: p.string().length(2048).default(''),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IAttachment = InferEntity<typeof Attachment>;
