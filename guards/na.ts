// Spec, guard table: "NA — repository not archived; else 423" (message per forgejo-facts 1.2).
import { MSG } from '../lib/http/errors.ts';
import { deny, need, step } from './types.ts';

export const NA = step('NA', 'guard', ['repo'], [], (s) => {
  const { repo } = need(s.repo, 'repo');
  return repo.isArchived ? deny(423, MSG.archived(repo.id, repo.ownerName, repo.name)) : null;
});
