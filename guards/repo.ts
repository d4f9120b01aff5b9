// Repository assignment (spec, path resolution rules 1-6; forgejo-facts 5 and 1.2).
import { User, UserRedirect } from '../model/user.ts';
import { findRedirectTarget } from '../lib/repos/redirect.ts';
import { canSeeOwner, Mode, RepoPermission, repoPermission } from '../lib/auth/perm.ts';
import { findRepoByName } from '../lib/repos/repos.ts';
import { NOT_FOUND } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, step, type RequestState } from './types.ts';
import { redirectPath } from '../lib/http/redirect-path.ts';

export const REPO = step('REPO', 'loader', [], ['repo'], async (s) => {
  const ownerName = s.params.username ?? '';
  const repoName = s.params.reponame ?? '';
  const doer = s.auth.doer;
  // Rule 1: the signed-in user's own name never goes through a lookup or a redirect.
  const mine = doer && doer.lowerName === ownerName.toLowerCase();
  const found = await findRepoByName(s.em, mine ? doer : ownerName, repoName, { plain: !!s.plainContext, ahead: s.ahead });
  const owner = found.owner;
  if (!owner) {
    // Rule 2: renamed owner.
    const r = await s.em.findOne(UserRedirect, { lowerName: ownerName.toLowerCase() });
    const target = r && (await s.em.findOne(User, { id: r.redirectUserId }));
    if (target && (await canSeeOwner(s.em, target, doer, isSiteAdmin(s)))) {
      return { status: 307 as const, location: redirectPath(s, ownerName, target.name) };
    }
    return deny(404, 'GetUserByName', { errors: [`user redirect does not exist [name: ${ownerName.toLowerCase()}]`] });
  }
  const { repo, units, transferPending } = found;
  if (!repo) return redirectRepo(s, owner.id, ownerName, repoName);
  const task = s.auth.task;
  if (task) {
    // Rule 4: a task reaches only its own repository — read when it runs for a fork's pull request,
    // otherwise write — on every enabled unit.
    if (task.repoId !== repo.id) return deny(404, NOT_FOUND, { errors: [] });
    const mode = task.isForkPullRequest ? Mode.read : Mode.write;
    const enabled = new Set(units.map((u) => u.type));
    s.repo = { repo, owner, perm: new RepoPermission(mode, new Map([...enabled].map((u) => [u, mode])), enabled), units, transferPending };
    return null;
  }
  const perm = await repoPermission(
    s.em,
    { repo, owner, doer, siteAdmin: isSiteAdmin(s), token: s.auth.token, ahead: s.ahead },
    new Set(units.map((u) => u.type)),
  );
  // Rule 6: no access is indistinguishable from no repository.
  if (!perm.hasAnyAccess()) return deny(404, NOT_FOUND, { errors: [] });
  s.repo = { repo, owner, perm, units, transferPending };
  return null;
});

// Rule 3: a renamed or transferred repository answers 301 when the caller can reach the new one.
async function redirectRepo(s: RequestState, ownerId: number, ownerName: string, repoName: string) {
  const found = await findRedirectTarget(s.em, ownerId, repoName);
  if (found) {
    const { repo: target, owner: targetOwner } = found;
    const perm = await repoPermission(s.em, {
      repo: target,
      owner: targetOwner,
      doer: s.auth.doer,
      siteAdmin: isSiteAdmin(s),
      token: s.auth.token,
    });
    if (perm.hasAnyAccess()) {
      const location = redirectPath(s, `${ownerName}/${repoName}`, `${targetOwner.name}/${target.name}`);
      return { status: 301 as const, location };
    }
  }
  return deny(404, NOT_FOUND, { errors: [] });
}
