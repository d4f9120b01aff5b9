// Forgejo's CancelScheduledAutoMerge: the merge scheduled on the loaded pull (merge_when_checks_succeed);
// a pull without one answers 404.
import { AutoMerge } from '../model/pull.ts';
import { NOT_FOUND } from '../lib/http/errors.ts';
import { deny, need, step } from './types.ts';

export const SCHEDULED_MERGE = step('SCHEDULED_MERGE', 'loader', ['pull'], ['auto-merge'], async (s) => {
  const scheduled = await s.em.findOne(AutoMerge, { pullId: need(s.pull, 'pull').pull.id });
  if (!scheduled) return deny(404, NOT_FOUND, { errors: [] });
  s.autoMerge = scheduled;
  return null;
});
