// Repository teams (Forgejo routers/api/v1/repo/teams.go): the routes answer 405 `repo is not owned
// by an organization` for a repository of an individual; adding or removing a team needs the
// repository's owner rights unless the organization lets repository admins change team access (403).
import { deny, need, step } from './types.ts';

export const ORG_REPO = step('ORG_REPO', 'gate', ['repo'], [], (s) =>
  need(s.repo, 'repo').owner.type === 1 ? null : deny(405, 'repo is not owned by an organization'),
);

export const TEAM_ACCESS_CHANGE = step('TEAM_ACCESS_CHANGE', 'guard', ['repo'], [], (s) => {
  const { owner, perm } = need(s.repo, 'repo');
  return owner.repoAdminChangeTeamAccess || perm.isOwner() ? null : deny(403, 'user is nor repo admin nor owner');
});
