// Quota accounting (spec, Limits 1). Subjects follow Forgejo's quota subject names.
import type { EntityManager } from '@mikro-orm/core';

export const QUOTA_SUBJECTS = ['size:repos:all', 'size:git:all', 'size:assets:attachments:releases', 'size:assets:attachments:issues', 'size:wiki'] as const;
export type QuotaSubject = (typeof QUOTA_SUBJECTS)[number];

/**
 * Whether `ownerId` is over a limit for `subject`. Quota rules and groups are created through the
 * /admin/quota routes, which have no handler yet; with no rule defined nothing is limited, which is
 * also Forgejo's behaviour for a user outside every quota group.
 */
export async function quotaExceeded(_em: EntityManager, _ownerId: number, _subject: QuotaSubject): Promise<boolean> {
  return false;
}
