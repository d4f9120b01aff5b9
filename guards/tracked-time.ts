// Tracked time assignment: the time `{id}` of the loaded issue (Forgejo looks it up by id alone; here
// it must belong to the issue of the path), unknown 404; a time already deleted is 404 as well.
import { NOT_FOUND } from '../lib/http/errors.ts';
import { positiveInt } from '../lib/issues/issues.ts';
import { TrackedTime } from '../model/issue.ts';
import { deny, need, step } from './types.ts';

export const TRACKED_TIME = step('TRACKED_TIME', 'loader', ['issue'], ['time'], async (s) => {
  const id = positiveInt(s.params.id);
  const t = id === null ? null : await s.em.findOne(TrackedTime, { id, issueId: need(s.issue, 'issue').id });
  if (!t) return deny(404, NOT_FOUND, { errors: [`tracked_time does not exist [id: ${s.params.id}]`] });
  if (t.deleted) return deny(404, NOT_FOUND, { errors: [`tracked time [${t.id}] already deleted`] });
  s.trackedTime = t;
  return null;
});
