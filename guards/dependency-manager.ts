// Forgejo's createIssueDependency / removeIssueDependency checks on the dependent issue: the path issue
// on the `dependencies` routes (DEPENDENCY_MANAGER(path)), the body's issue on the `blocks` routes
// (DEPENDENCY_MANAGER(body)). Dependencies must be on in its repository and that repository not archived,
// else 404; the caller must write to its unit (issues, or pulls for a pull), else 403. Forgejo answers
// 404 for a caller who can read but not write; we say 403.
import { MSG, NOT_FOUND } from '../lib/http/errors.ts';
import { canWriteIssues } from '../lib/issues/issues.ts';
import { trackerConfig } from '../lib/issues/tracker.ts';
import { deny, need, step, type Need } from './types.ts';

const SIDES = ['path', 'body'] as const;

export function DEPENDENCY_MANAGER(side: (typeof SIDES)[number]) {
  if (!SIDES.includes(side)) throw new Error(`DEPENDENCY_MANAGER: unknown side "${side}"`);
  const needs: Need[] = side === 'path' ? ['repo', 'issue', 'dependency'] : ['dependency'];
  return step(`DEPENDENCY_MANAGER(${side})`, 'guard', needs, [], (s) => {
    const { issue, at } = side === 'path' ? { issue: need(s.issue, 'issue'), at: need(s.repo, 'repo') } : need(s.dependency, 'dependency');
    if (at.repo.isArchived || !trackerConfig(at.units ?? []).dependencies) return deny(404, NOT_FOUND, { errors: [] });
    return canWriteIssues({ repo: at, auth: s.auth }, issue.isPull) ? null : deny(403, MSG.repoWrite);
  });
}
