// What happens around `git receive-pack`, for every transport: the pre-receive hook session that
// checks protection rules (lib/transport/push-hook.ts, lib/transport/push-rules.ts) when the repository has any, the
// wiki created by its first push, and once the refs are committed (receive-pack's report begins, or
// its output ended: lib/transport/push-report.ts) the change announced, the repository record
// refreshed and the push/create/delete events sent for the refs that really moved. Git over HTTP and over SSH both
// call this, so a push is judged the same way whichever way it came.
import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import type { Services } from '../http/services.ts';
import type { GitAccess } from './git-access.ts';
import type { ObjectFormat } from '../../git/repo.ts';
import { refreshAfterWrite } from '../repos/index.ts';
import { appliedUpdates, emitRefUpdates } from './push-events.ts';
import { ensureWikiRepo } from '../repos/index.ts';
import { checkPush, hasPushRules, type RefUpdate } from './push-rules.ts';
import { openHookSession, type HookDirs, type HookSession } from './push-hook.ts';
import { CommandSniffer } from './push-commands.ts';
import { repositoryChanged } from '../../git/changes.ts';
import { pausepoint } from '../runtime/failpoint.ts';

/** The reason a push's report gives for each ref when the push moved refs but could not be announced. */
export const PUSH_NOT_ANNOUNCED = 'moved, but not announced (database unreachable): reads may be stale until it is';

export interface PushDeps {
  config: Config;
  services: Services;
  hooks: HookDirs;
}

export interface PushRun {
  /** Environment for receive-pack (the hook's socket), if a hook runs. */
  env: Record<string, string> | undefined;
  /** `-c` settings for receive-pack: which hooks directory applies. */
  config: Record<string, string>;
  /** Reads the client's ref commands as its request passes to git; attach in the tick git's pipe is attached. */
  observe(input: Readable): void;
  /** Once the refs are committed (the report begins, or git's output ended): closes the hook session, announces, refreshes the repository, sends events. */
  finish(): Promise<void>;
  /** After receive-pack failed or its client went away: closes the hook session and announces (once). */
  abort(): Promise<void>;
}

/** A wiki is created by its first push (Forgejo's InitWiki): before its refs are advertised for one. */
export async function ensurePushTarget(config: Config, access: GitAccess): Promise<void> {
  const { repo } = access;
  if (access.isWiki)
    await ensureWikiRepo(
      { path: access.path, branch: repo.wikiBranch || config.REPOSITORY.DEFAULT_BRANCH },
      repo.objectFormatName as ObjectFormat,
    );
}

/** Prepares one push into `access` (a write access from resolveGitAccess). `em` is the request's. */
export async function startPush(em: EntityManager, deps: PushDeps, access: GitAccess): Promise<PushRun> {
  const { config, services, hooks } = deps;
  const { repo, path: repoPath, isWiki, pusher } = access;
  if (!pusher) throw new Error('a push needs a pusher');
  await ensurePushTarget(config, access);
  let session: HookSession | null = null;
  // Branch protection is a rule of the code repository; the wiki has none. Without rules no hook runs.
  if (!isWiki && (await hasPushRules(em, repo.id))) {
    session = await openHookSession(
      (updates: RefUpdate[], env) =>
        checkPush(
          { em: em.fork(), repoId: repo.id, repoPath, doer: pusher, perm: access.perm, env, deployKey: !!access.deployKey },
          updates,
        ),
      (e) => services.log.error({ err: e, repo: repo.id }, 'push check failed'),
    );
  }
  const sniffer = new CommandSniffer();
  let closed = false;
  // receive-pack may have moved refs even when it failed: either way kept answers are told first.
  const close = async () => {
    if (closed) return;
    closed = true;
    await session?.close();
    await repositoryChanged();
  };
  return {
    env: session?.env,
    config: { 'core.hooksPath': session ? hooks.check : hooks.none },
    observe: (input) => input.on('data', (chunk: Buffer) => sniffer.feed(chunk)),
    abort: close,
    async finish() {
      await pausepoint('push-finish');
      await close();
      if (isWiki) return;
      await refreshAfterWrite(em, repo, repoPath, sniffer.branches(), { services, doerId: pusher.id, config });
      await emitRefUpdates(em, { config, services }, repo, pusher, repoPath, await appliedUpdates(repoPath, sniffer.updates));
    },
  };
}
