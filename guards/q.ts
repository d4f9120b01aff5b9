// Spec, guard table: "Q(subject,target) — quota not exceeded for subject and target" (Limits, 1).
// Only active when [quota] ENABLED; the status on excess is Forgejo's 413 with `user_id`/`username`.
import { deny, need, step, type Need } from './types.ts';
import { quotaExceeded, QUOTA_SUBJECTS, type QuotaSubject } from '../lib/quota.ts';

const TARGETS = { user: [], org: ['org'], repo: ['repo'] } as const satisfies Record<string, Need[]>;

export function Q(subject: QuotaSubject, target: keyof typeof TARGETS) {
  if (!QUOTA_SUBJECTS.includes(subject)) throw new Error(`Q: unknown subject "${subject}"`);
  if (!Object.hasOwn(TARGETS, target)) throw new Error(`Q: unknown target "${target}"`);
  return step(`Q(${subject}, ${target})`, 'guard', TARGETS[target], [], async (s) => {
    if (!s.config.QUOTA.ENABLED) return null;
    const owner = target === 'repo' ? need(s.repo, 'repo').owner : target === 'org' ? need(s.org, 'org') : s.auth.doer;
    if (!owner) return null;
    return (await quotaExceeded(s.em, owner.id, subject)) ? deny(413, 'quota exceeded') : null;
  });
}
