// Forgejo's label list binding on the issue-labels routes: each label is an integer (an id) or a string
// (a name), and one list holds one kind, else 400. Forgejo checks the list's shape once the issue is
// found and before the caller's right to change its labels, so this step sits between ISSUE and
// ISSUE_WRITER(labels).
import { labelListProblem } from '../lib/issues/edit.ts';
import { deny, step } from './types.ts';

export const LABEL_LIST = step('LABEL_LIST', 'body', ['body'], [], (s) => {
  const labels = (s.body as { labels?: unknown } | undefined)?.labels;
  const problem = Array.isArray(labels) ? labelListProblem(labels) : null;
  return problem ? deny(400, problem) : null;
});
