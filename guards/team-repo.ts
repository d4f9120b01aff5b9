// Team repositories (`/teams/{teamid}/repos/{org}/{reponame}`). TEAM_REPO resolves `{reponame}`
// among the team organization's repositories (spec, token kinds: lookup routes "return only
// repositories the token can reach", so an unreachable one is 404, as on repository paths). Forgejo
// looks the repository up in the team's organization whatever `{org}` says; cairn also wants `{org}`
// to name that organization. TEAM_REPO_ADM is Forgejo's AddTeamRepository/RemoveTeamRepository rule:
// the caller needs admin access to the repository, else 403 "Must have admin-level access to the
// repository".
import { Repository } from '../model/repo.ts';
import { repoPermission } from '../lib/auth/perm.ts';
import { MSG, NOT_FOUND } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, need, step } from './types.ts';

export const TEAM_REPO = step('TEAM_REPO', 'loader', ['team', 'org'], ['repo'], async (s) => {
  const org = need(s.org, 'org');
  const missing = deny(404, NOT_FOUND, { errors: [] });
  if ((s.params.org ?? '').toLowerCase() !== org.lowerName) return missing;
  const repo = await s.em.findOne(Repository, { ownerId: org.id, lowerName: (s.params.reponame ?? '').toLowerCase() });
  if (!repo) return missing;
  const perm = await repoPermission(s.em, { repo, owner: org, doer: s.auth.doer, siteAdmin: isSiteAdmin(s), token: s.auth.token });
  if (!perm.hasAnyAccess()) return missing;
  s.repo = { repo, owner: org, perm };
  return null;
});

export const TEAM_REPO_ADM = step('TEAM_REPO_ADM', 'guard', ['repo'], [], (s) => {
  const { perm } = need(s.repo, 'repo');
  return perm.isAdmin() || isSiteAdmin(s) ? null : deny(403, MSG.teamRepoAdmin);
});
