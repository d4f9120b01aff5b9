// Who may fetch from or push to a repository over git, whatever the transport (HTTP, SSH, and the
// LFS endpoints that ride on them): Forgejo's routers/web/repo/githttp.go and
// routers/private/serv.go as one decision. The repository and its `.wiki` are resolved by name
// (following a rename or transfer), the permission is computed for the caller (a user with or
// without a token, an actions task, or a deploy key), token scopes are honoured, and archived and
// mirror repositories are read-only. What cannot be seen is "not found", never "forbidden".
import fs from 'node:fs/promises';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import type { IUser } from '../../model/user.ts';
import { User } from '../../model/user.ts';
import { Repository, type IRepository } from '../../model/repo.ts';
import type { IPublicKey } from '../../model/keys.ts';
import type { Services } from '../http/services.ts';
import { siteAdminOf, type TaskInfo, type TokenInfo } from '../auth/auth-types.ts';
import { Mode, RepoPermission, enabledUnits, repoPermission, type AccessMode } from '../auth/perm.ts';
import { hasScope } from '../auth/scopes.ts';
import { findRedirectTarget } from '../repos/index.ts';
import { wikiPath } from '../repos/index.ts';

/** The authenticated party of a git request. A deploy key has no user: it reaches its own repository only. */
export interface GitPrincipal {
  doer: IUser | null;
  token: TokenInfo | null;
  task: TaskInfo | null;
  /** The deploy keys with the presented fingerprint (one per repository they were added to). */
  deployKeys: IPublicKey[] | null;
}

export const anonymousPrincipal = (): GitPrincipal => ({ doer: null, token: null, task: null, deployKeys: null });

export type GitMode = 'read' | 'write';

export interface GitAccess {
  repo: IRepository;
  owner: IUser;
  perm: RepoPermission;
  /** The bare repository on disk (the wiki's for `<repo>.wiki`). */
  path: string;
  isWiki: boolean;
  mode: GitMode;
  /**
   * Whom a push is attributed to (events, tag rules): the user, or for a deploy key the repository
   * owner, as Forgejo does (routers/private/serv.go: "use the owner of the repository").
   */
  pusher: IUser | null;
  /** The deploy key that authenticated the request, when one did. */
  deployKey: IPublicKey | null;
}

export interface GitDenial {
  denied: true;
  status: 401 | 403 | 404;
  message: string;
}

/** A renamed or transferred repository the caller can read under its new name. */
export interface GitMoved {
  moved: true;
  owner: string;
  name: string;
}

export type GitAccessResult = GitAccess | GitDenial | GitMoved;

export const isDenial = (r: GitAccessResult): r is GitDenial => 'denied' in r;
export const isMoved = (r: GitAccessResult): r is GitMoved => 'moved' in r;

const deny = (status: GitDenial['status'], message: string): GitDenial => ({ denied: true, status, message });
export const NOT_FOUND_MESSAGE = 'Repository not found';

export interface GitAccessDeps {
  config: Config;
  services: Services;
}

/**
 * Resolves `<owner>/<requested>` (requested may end in `.wiki`) for `mode`. The denials, in order:
 * 401 when no credentials were given and they are needed; 404 when the caller cannot read it;
 * 403 for a token without the scope, a disabled wiki, or a write the caller may not make.
 */
export async function resolveGitAccess(
  em: EntityManager,
  deps: GitAccessDeps,
  who: GitPrincipal,
  ownerName: string,
  requested: string,
  mode: GitMode,
): Promise<GitAccessResult> {
  const { config, services } = deps;
  // `<repo>.wiki` is the repository's wiki (no repository may be named so), guarded by the wiki unit.
  const isWiki = requested.toLowerCase().endsWith('.wiki');
  const repoName = isWiki ? requested.slice(0, -'.wiki'.length) : requested;
  const unit = isWiki ? 'wiki' : 'code';
  const isRead = mode === 'read';
  const signedIn = !!who.doer || !!who.deployKeys;
  const owner = await em.findOne(User, { lowerName: ownerName.toLowerCase() });
  const repo = owner ? await em.findOne(Repository, { ownerId: owner.id, lowerName: repoName.toLowerCase() }) : null;
  const perm = repo && owner ? await permissionOf(em, who, repo, owner) : null;
  const canRead = !!perm && (perm.canRead(unit) || perm.isAdmin());
  // A renamed or transferred repository: the caller is sent to its new name if they may read it there.
  if (!repo && owner && (signedIn || (isRead && !config.SERVICE.REQUIRE_SIGNIN_VIEW))) {
    const target = await findRedirectTarget(em, owner.id, repoName);
    const movedPerm = target && (await permissionOf(em, who, target.repo, target.owner));
    if (target && movedPerm && (movedPerm.canRead(unit) || movedPerm.isAdmin())) {
      return { moved: true, owner: target.owner.name, name: isWiki ? `${target.repo.name}.wiki` : target.repo.name };
    }
  }
  // Only a public read needs no credentials; otherwise ask for them rather than reveal anything.
  if (!signedIn && (!isRead || !canRead || config.SERVICE.REQUIRE_SIGNIN_VIEW)) return deny(401, 'Unauthorized');
  if (!repo || !owner || !perm || !canRead) return deny(404, NOT_FOUND_MESSAGE);
  if (who.token) {
    if (!who.token.scopes || !hasScope(who.token.scopes, 'repository', mode)) {
      return deny(403, `token does not have at least one of required scope(s): [${mode}:repository]`);
    }
  }
  if (isWiki && !perm.unitEnabled('wiki')) return deny(403, 'repository wiki is disabled');
  const deployKey = who.deployKeys?.find((k) => k.ownerId === repo.id) ?? null;
  if (!isRead) {
    if (!(perm.canWrite(unit) || perm.isAdmin())) {
      // Forgejo's words for a read-only deploy key (routers/private/serv.go).
      return deny(
        403,
        deployKey
          ? `Deploy Key: ${deployKey.id}:${deployKey.name} is not authorized to write ${owner.name}/${repo.name}.`
          : 'User permission denied for writing.',
      );
    }
    if (repo.isArchived) return deny(403, 'repo is archived');
    if (repo.isMirror) return deny(403, 'mirror repository is read-only');
  }
  const path = isWiki ? wikiPath(services, owner.name, repo.name) : services.repoPath(owner.name, repo.name);
  // A wiki is created by its first push (Forgejo's InitWiki); there is nothing to fetch before.
  if (isWiki && isRead && !(await fs.stat(path).catch(() => null))) return deny(404, NOT_FOUND_MESSAGE);
  const pusher = deployKey ? owner : who.doer;
  return { repo, owner, perm, path, isWiki, mode, pusher, deployKey };
}

/** The caller's permission on one repository: a task's or a deploy key's fixed mode, else the user's. */
async function permissionOf(em: EntityManager, who: GitPrincipal, repo: IRepository, owner: IUser): Promise<RepoPermission> {
  const fixed = async (m: AccessMode) => {
    const enabled = await enabledUnits(em, repo.id);
    return new RepoPermission(m, new Map([...enabled].map((u) => [u, m])), enabled);
  };
  // Spec, path resolution rule 4: a task reaches its own repository only, read for a fork's pull request.
  if (who.task) return who.task.repoId === repo.id ? fixed(who.task.isForkPullRequest ? Mode.read : Mode.write) : fixed(Mode.none);
  if (who.deployKeys) {
    const key = who.deployKeys.find((k) => k.ownerId === repo.id);
    // A deploy key gives read, or read and write (`read_only: false`), to its repository and no other.
    if (key) return fixed(key.mode >= Mode.write ? Mode.write : Mode.read);
    // Without a key for this repository the public view applies, as to an anonymous caller.
    return repoPermission(em, { repo, owner, doer: null, siteAdmin: false, token: null });
  }
  const { doer, token } = who;
  return repoPermission(em, { repo, owner, doer, siteAdmin: siteAdminOf({ doer, token }), token });
}
