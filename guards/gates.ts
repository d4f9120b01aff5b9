// Spec, path resolution, unit gates: each answers 404 when its condition holds. Also the attachments
// gate (instance setting) and the actions-unit gate (spec, "What the service does" 5).
import { NOT_FOUND } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, need, step, type RequestState } from './types.ts';
import { positiveInt } from '../lib/issues/issues.ts';
import { Issue } from '../model/issue.ts';
import { trackerConfig } from '../lib/issues/tracker.ts';

const missing = () => deny(404, NOT_FOUND, { errors: [] });
const canRead = (s: RequestState, unit: 'issues' | 'pulls' | 'wiki') => {
  const { perm } = need(s.repo, 'repo');
  return perm.canRead(unit) || (perm.unitEnabled(unit) && isSiteAdmin(s));
};
/** Forgejo's CanEnablePulls: pulls are possible on a repository that is neither empty nor a mirror. */
const pullsPossible = (s: RequestState) => {
  const { repo } = need(s.repo, 'repo');
  return !repo.isMirror && !repo.isEmpty;
};

export const ISSUES_GATE = step('ISSUES_GATE', 'gate', ['repo'], [], (s) => (canRead(s, 'issues') ? null : missing()));
export const PULLS_GATE = step('PULLS_GATE', 'gate', ['repo'], [], (s) => (pullsPossible(s) && canRead(s, 'pulls') ? null : missing()));
export const ISSUES_OR_PULLS_GATE = step('ISSUES_OR_PULLS_GATE', 'gate', ['repo'], [], (s) =>
  canRead(s, 'issues') || (pullsPossible(s) && canRead(s, 'pulls')) ? null : missing(),
);
export const WIKI_GATE = step('WIKI_GATE', 'gate', ['repo'], [], (s) => (canRead(s, 'wiki') ? null : missing()));
export const ATTACHMENTS_GATE = step('ATTACHMENTS_GATE', 'gate', [], [], (s) => (s.config.ATTACHMENT.ENABLED ? null : missing()));
export const ACTIONS_GATE = step('ACTIONS_GATE', 'gate', ['repo'], [], (s) =>
  s.config.ACTIONS.ENABLED && need(s.repo, 'repo').perm.unitEnabled('actions') ? null : missing(),
);
/**
 * Spec, local-issue gate: "issues unit disabled and the issue at {index} is not a pull request (or does
 * not exist)" — with the issues unit off, only pull requests stay reachable through the issue routes.
 */
export const LOCAL_ISSUE_GATE = step('LOCAL_ISSUE_GATE', 'gate', ['repo'], [], async (s) => {
  const { repo, perm } = need(s.repo, 'repo');
  if (perm.unitEnabled('issues')) return null;
  const index = positiveInt(s.params.index);
  const issue = index === null ? null : await s.em.findOne(Issue, { repoId: repo.id, index }, { fields: ['isPull'] });
  return issue?.isPull ? null : missing();
});
/** Forgejo's ListTrackedTimes of an issue: 404 "Timetracker is disabled" while the repository's time tracking is off. */
export const TIME_TRACKER_GATE = step('TIME_TRACKER_GATE', 'gate', ['repo'], [], (s) =>
  trackerConfig(need(s.repo, 'repo').units ?? []).timeTracking ? null : deny(404, 'Timetracker is disabled', { errors: [] }),
);
/** Forgejo's tracked-time lists of a repository: 400 "time tracking disabled" while its time tracking is off. */
export const TIME_TRACKING_ON = step('TIME_TRACKING_ON', 'gate', ['repo'], [], (s) =>
  trackerConfig(need(s.repo, 'repo').units ?? []).timeTracking ? null : deny(400, 'time tracking disabled'),
);
