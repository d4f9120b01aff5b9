// Forgejo's DeleteTime: only the user who tracked the time or a site admin may delete it (repository
// admins may not), else 403. Site admins lose the right through public-only and repo-specific tokens
// (spec, token kinds: "no managing or viewing others' logged time").
import { deny, isSiteAdmin, need, step } from './types.ts';

export const TIME_OWNER = step('TIME_OWNER', 'guard', ['time'], [], (s) =>
  isSiteAdmin(s) || need(s.trackedTime, 'time').userId === s.auth.doer?.id
    ? null
    : deny(403, 'only the user who tracked the time or a site admin may delete it'),
);
