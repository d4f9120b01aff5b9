// What handlers of git data share: the repository's path and URLs, query flags, the mapping of git
// layer errors to HTTP errors, and the repository record's refresh after a write.
import type { EntityManager } from '@mikro-orm/core';
import { readRef } from '../../git/lookup.ts';
import {
  FileExistsError,
  FileNotFoundError,
  InvalidIdentityError,
  InvalidMessageError,
  InvalidPathError,
  InvalidRefNameError,
  PatchApplyError,
  RefConflictError,
  RefExistsError,
  RefNotFoundError,
  RevNotFoundError,
  ShaMismatchError,
} from '../../git/errors.ts';
import { isEmpty, repoSize, setHead } from '../../git/repo.ts';
import { need, type LoadedRepo, type RequestState } from '../http/request.ts';
import { repoUrls, type RepoUrls } from './api/git.ts';
import type { IRepository } from '../../model/repo.ts';
import { conflict, HttpError, notFound, unprocessable } from '../http/errors.ts';
import { afterRefsUpdated } from '../mirrors/index.ts';
import { refreshPullsAfterRefChange } from '../pulls/index.ts';
import type { Services } from '../http/services.ts';
import type { Config } from '../../config.ts';

export interface GitCtx extends LoadedRepo {
  path: string;
  urls: RepoUrls;
}

export function gitCtx(s: RequestState): GitCtx {
  const loaded = need(s.repo, 'repo');
  return { ...loaded, path: s.services.repoPath(loaded.owner.name, loaded.repo.name), urls: repoUrls(s.config, loaded.owner, loaded.repo) };
}

/** Go's FormBool with Forgejo's "absent means true" default for stat/verification/files. */
export function flag(q: URLSearchParams, name: string, dflt = true): boolean {
  const v = q.get(name);
  if (v === null || v === '') return dflt;
  return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);
}

export const EMPTY_REPO = 'Git Repository is empty.';

/** Git layer errors that a client caused, as Forgejo words them; anything else stays a 500. */
export function httpErrorOf(e: unknown): HttpError | null {
  if (e instanceof HttpError) return e;
  if (e instanceof RefConflictError) return conflict(`the reference ${e.ref} was changed by another writer; reload and retry`);
  if (e instanceof ShaMismatchError) return conflict(`sha does not match [given: ${e.expected}, expected: ${e.actual}]`);
  if (e instanceof FileNotFoundError) return notFound(`repository file does not exist [path: ${e.path}]`);
  if (e instanceof FileExistsError) return unprocessable(`repository file already exists [path: ${e.path}]`);
  if (e instanceof InvalidPathError) return unprocessable(`path contains a malformed path component [path: ${e.path}]`);
  if (e instanceof InvalidIdentityError || e instanceof InvalidMessageError) return unprocessable(e.message);
  if (e instanceof InvalidRefNameError) return unprocessable(`invalid reference name [name: ${e.ref}]`);
  if (e instanceof RevNotFoundError) return notFound(`revision does not exist [rev: ${e.rev}]`);
  if (e instanceof RefNotFoundError) return notFound(`reference does not exist [ref: ${e.ref}]`);
  if (e instanceof RefExistsError) return conflict(`reference already exists [ref: ${e.ref}]`);
  if (e instanceof PatchApplyError) return conflict(e.message);
  return null;
}

/** Runs a git write and rethrows client errors as HTTP errors. */
export async function gitWrite<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw httpErrorOf(e) ?? e;
  }
}

/**
 * After refs moved: the repository is not empty any more, its size and update time change, and the
 * first branch written to an empty repository becomes the default branch when the configured one
 * does not exist (Forgejo services/repository/push.go). Push mirrors with sync_on_commit become due.
 * With `pulls`, open pull requests whose head or base lives here follow the move.
 */
export async function refreshAfterWrite(
  em: EntityManager,
  repo: IRepository,
  repoPath: string,
  branches: string[] = [],
  pulls: PullRefresh | null = null,
): Promise<void> {
  const wasEmpty = repo.isEmpty;
  repo.isEmpty = await isEmpty(repoPath);
  if (wasEmpty && !repo.isEmpty && !(await readRef(repoPath, 'heads', repo.defaultBranch))) {
    for (const b of branches) {
      if (await readRef(repoPath, 'heads', b)) {
        await setHead(repoPath, b);
        repo.defaultBranch = b;
        break;
      }
    }
  }
  repo.size = await repoSize(repoPath);
  repo.updatedAt = new Date();
  await em.flush();
  await afterRefsUpdated(em, repo.id);
  if (pulls) await refreshPullsAfterRefChange(em, pulls.services, repo, pulls.doerId, pulls.config);
}

/** Who moved the refs, for the pull requests whose branches moved with them (lib/pulls/pulls.ts). */
export interface PullRefresh {
  services: Services;
  doerId: number /** Given, the pulls' `synchronized` events are sent. */;
  config?: Config;
}
export const pullRefresh = (s: { config: Config; services: Services; auth: { doer: { id: number } | null } }): PullRefresh => ({
  services: s.services,
  doerId: s.auth.doer?.id ?? 0,
  config: s.config,
});

/** A user's git identity: full name (else login) and email (the noreply address when kept private). */
export function identityOf(
  cfg: { SERVICE: { NO_REPLY_ADDRESS: string } },
  u: { name: string; fullName: string; email: string; lowerName: string; keepEmailPrivate: boolean },
) {
  return { name: u.fullName || u.name, email: u.keepEmailPrivate ? `${u.lowerName}@${cfg.SERVICE.NO_REPLY_ADDRESS}` : u.email };
}
