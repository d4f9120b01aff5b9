// Spec, guard table: "Q(subject,target) — quota not exceeded for subject and target" (Limits, 1).
// Only active when [quota] ENABLED. Over quota is Forgejo's 413 `{"message":"quota exceeded",
// "user_id":N,"username":"..."}` naming the charged owner (forgejo-facts 1.2, services/context/quota.go):
// the caller for `user`, the organization for `org`, the repository's owner for `repo`.
import { deny, need, step, type Need } from './types.ts';
import { quotaExceeded, QUOTA_SUBJECTS, type QuotaSubject } from '../lib/quota/quota.ts';
import { MSG } from '../lib/http/errors.ts';

const TARGETS = { user: [], org: ['org'], repo: ['repo'] } as const satisfies Record<string, Need[]>;

export function Q(subject: QuotaSubject, target: keyof typeof TARGETS) {
  if (!QUOTA_SUBJECTS.includes(subject)) throw new Error(`Q: unknown subject "${subject}"`);
  if (!Object.hasOwn(TARGETS, target)) throw new Error(`Q: unknown target "${target}"`);
  return step(`Q(${subject}, ${target})`, 'quota', TARGETS[target], [], async (s) => {
    if (!s.config.QUOTA.ENABLED) return null;
    const owner = target === 'repo' ? need(s.repo, 'repo').owner : target === 'org' ? need(s.org, 'org') : s.auth.doer;
    if (!owner) return null;
    if (!(await quotaExceeded(s.em, s.config, owner.id, subject))) return null;
    const fields = owner.name ? { user_id: owner.id, username: owner.name } : { user_id: owner.id };
    return deny(413, MSG.quotaExceeded, { bare: true, fields });
  });
}
