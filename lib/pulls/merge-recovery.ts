// One merge per pull request, and git and the database agreeing after a crash.
//
// Claim (lib/pulls/pulls.ts claimPull): a merge takes the pull's row lock (`for no key update`) in the request's transaction before
// it looks at `has_merged`, so concurrent merges of one pull, in one process or several, run one
// after the other and every later one sees the pull merged (405, as Forgejo answers).
//
// Crash: git moves the base branch before the transaction that records the merge commits. A process
// killed in between leaves the merge in git and the pull open. So the merge writes an intent first
// (a small file under APP_DATA_PATH/merge-intents, flushed to disk: pull id, the commit the base
// branch is about to take, the merger), and `reconcileMerge` settles a pull whose intent outlived
// its request: if the intent's commit is in the base branch, the pull is recorded merged with it;
// if not, the branch never moved and the intent goes. That covers every style, squash and rebase
// included, whose results do not contain the head commit. A pull whose head commit is in the base
// branch without an intent (merged by a push) is recorded merged too, as Forgejo's pull checker
// records a manual merge. Settling happens when the pull is merged again (under the claim) and for
// every intent at start (`reconcileAllMerges`).
//
// The other places where git moves before a transaction commits need no intent: branch and tag
// rows, commit counts and pull states are derived from git and recomputed from it by the next
// refresh of the repository (lib/repos/git.ts refreshAfterWrite); a lost head-branch deletion after
// a merge leaves the branch, which the caller may delete again.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import type { Services } from '../http/services.ts';
import type { Orm } from '../../model/db.ts';
import { Issue, type IIssue } from '../../model/issue.ts';
import { PullRequest, PullStatus, type IPullRequest } from '../../model/pull.ts';
import { Repository, type IRepository } from '../../model/repo.ts';
import { readRef } from '../../git/lookup.ts';
import { isAncestor } from '../../git/merge.ts';
import { runGit } from '../../git/exec.ts';
import { refreshAfterWrite } from '../repos/index.ts';

import { recordMerged } from './merge.ts';
import { dropMergeIntent, intentDir, readMergeIntent, type Intent } from './merge-intent.ts';
import { claimPull, repoPathOf } from './pulls.ts';

/**
 * Settles a claimed pull (see claimPull) against git. Returns true when the pull is merged, already
 * or now: recorded from an intent that reached the base branch, or because its head commit is in
 * the base branch. `doerId` is who asked (the merger of a merge found by its head commit); `headCommit`
 * the pull's head as just read from git, when the caller has it; `byHead: false` when the caller
 * records a manual merge itself (its own commit id decides).
 */
export async function reconcileMerge(
  em: EntityManager,
  services: Services,
  cfg: Config,
  c: {
    pull: IPullRequest;
    issue: IIssue;
    base: IRepository;
    doerId: number;
    headCommit?: string;
    byHead?: boolean;
    intent?: Intent | null;
  },
): Promise<boolean> {
  const { pull, issue, base } = c;
  // The caller may have read it under the claim already.
  const intent = c.intent !== undefined ? c.intent : await readMergeIntent(cfg, pull.id);
  if (pull.hasMerged) {
    if (intent) await dropMergeIntent(cfg, pull.id);
    return true;
  }
  const basePath = repoPathOf(services, base);
  const tip = (await readRef(basePath, 'heads', pull.baseBranch, true))?.oid;
  if (intent && tip && (await isAncestor(basePath, intent.commit, tip).catch(() => false))) {
    await recordMerged(em, pull, issue, intent.commit, new Date(), false, intent.doerId);
    await refreshAfterWrite(em, base, basePath, [pull.baseBranch], { services, doerId: intent.doerId });
    return true;
  }
  if (intent) await dropMergeIntent(cfg, pull.id);
  // A head that was in the base when the pull was last tested (a pull with nothing to merge) proves nothing.
  const head = c.headCommit ?? pull.headCommitId;
  if (c.byHead === false || !tip || !head || pull.mergeBase === head) return false;
  if (!(await isAncestor(basePath, head, tip).catch(() => false))) return false;
  // Forgejo's getMergeCommit: the first merge commit on the way from the head to the base tip, else
  // the head itself (a fast-forward).
  const merges = await runGit(basePath, ['rev-list', '--ancestry-path', '--merges', '--reverse', `${head}..${tip}`]);
  const commit = merges.stdout.toString().split('\n')[0]?.trim() || head;
  pull.status = PullStatus.manuallyMerged;
  await recordMerged(em, pull, issue, commit, new Date(), false, c.doerId);
  return true;
}

/**
 * At start: every intent left by a killed process is settled, each under its pull's claim in a
 * transaction of its own (another process merging the same pull waits, then finds it settled).
 * Returns the ids of the pulls recorded merged.
 */
export async function reconcileAllMerges(orm: Orm, services: Services, cfg: Config): Promise<number[]> {
  let names: string[];
  try {
    names = await fs.readdir(intentDir(cfg));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const merged: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) {
      // A temporary file of a write that was interrupted.
      if (name.endsWith('.tmp')) await fs.rm(path.join(intentDir(cfg), name), { force: true });
      continue;
    }
    const pullId = Number(name);
    const em = orm.em.fork();
    await em.transactional(async (tx) => {
      const pull = await tx.findOne(PullRequest, { id: pullId });
      const issue = pull && (await tx.findOne(Issue, { id: pull.issueId }));
      const base = pull && (await tx.findOne(Repository, { id: pull.baseRepoId }));
      if (!pull || !issue || !base) return dropMergeIntent(cfg, pullId);
      await claimPull(tx, pull, issue);
      const wasMerged = pull.hasMerged;
      const intent = await readMergeIntent(cfg, pullId);
      if (!intent) return;
      if ((await reconcileMerge(tx, services, cfg, { pull, issue, base, doerId: intent.doerId, intent })) && !wasMerged)
        merged.push(pullId);
    });
    // Recorded and committed: the intent has done its work.
    if (merged.includes(pullId)) await dropMergeIntent(cfg, pullId);
  }
  return merged;
}
