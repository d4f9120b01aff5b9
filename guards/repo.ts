// Repository assignment (spec, path resolution rules 1-6; forgejo-facts 5 and 1.2).
import { User, UserRedirect } from '../model/user.ts';
import { findRedirectTarget } from '../lib/repos/redirect.ts';
import { canSeeOwner, factsColumnsOfRepo, keepFactsRead, Mode, RepoPermission, repoPermission, type FactsRow } from '../lib/auth/perm.ts';
import { findRepoByName, keepRepoRead, repoByNameLateral } from '../lib/repos/repos.ts';
import { NOT_FOUND } from '../lib/http/errors.ts';
import { deny, isSiteAdmin, readsAhead, step, type RequestState, type TokenRead } from './types.ts';
import { redirectPath } from '../lib/http/redirect-path.ts';
import { isStorableText } from '../model/schemas/storable.ts';
import { prefixedId } from '../model/raw.ts';
import { Repository } from '../model/repo.ts';

/**
 * The owner and repository of `{username}/{reponame}` with the repository's units and the caller's
 * access facts on it, read with the token (alias `ahead`; the reads inside it see the owner as `o` and
 * the repository as `r`): the loader then reads none of them, and a write maps them into managed
 * entities as its own read would have (one statement, not two or three). Names no stored text
 * can equal are left to the loader's own checks.
 */
export const REPO_AHEAD: TokenRead = {
  name: 'repo',
  select: () => ', ahead.*',
  join: (em, inner) => `
       ${repoByNameLateral(em, `, ${factsColumnsOfRepo('t.uid')}${inner}`)}`,
  values: ({ username = '', reponame = '' }) =>
    username !== '' && reponame !== '' && isStorableText(username) && isStorableText(reponame)
      ? [reponame.toLowerCase(), username.toLowerCase()]
      : null,
  keep: ({ em, ahead, row, uid, plain, params }) => {
    keepRepoRead(ahead, params.username!, params.reponame!, row);
    // A write's facts are taken once, by its REPO loader: what asks after the write changed something reads.
    if (row.facts != null) keepFactsRead(ahead, uid, Number(prefixedId(em, Repository, row, 'r')), row as unknown as FactsRow, !plain);
  },
};

export const REPO = readsAhead(
  step('REPO', 'loader', [], ['repo'], async (s) => {
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
      s.repo = {
        repo,
        owner,
        perm: new RepoPermission(mode, new Map([...enabled].map((u) => [u, mode])), enabled),
        units,
        transferPending,
      };
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
  }),
  REPO_AHEAD,
);

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
