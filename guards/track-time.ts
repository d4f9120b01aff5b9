// Forgejo's CanUseTimetracker for the tracked-time routes of an issue: time tracking is on for the
// repository (else 400 "time tracking disabled"), and either anyone may track time or the caller writes
// to the issue's unit, posted the issue or is assigned to it (else 403).
import { canTrackTime, trackerConfig } from '../lib/issues/tracker.ts';
import { deny, need, step } from './types.ts';

export const TRACK_TIME = step('TRACK_TIME', 'guard', ['repo', 'issue'], [], async (s) => {
  const loaded = need(s.repo, 'repo');
  if (await canTrackTime(s, loaded, need(s.issue, 'issue'))) return null;
  return trackerConfig(loaded.units ?? []).timeTracking
    ? deny(403, 'user should be a writer of the issue, its poster or an assignee to track time')
    : deny(400, 'time tracking disabled');
});
