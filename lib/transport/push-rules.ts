// What a push may do to protected refs (Forgejo routers/private/hook_pre_receive.go): protected
// branches cannot be deleted or force-pushed, their protected files cannot be changed, and only the
// push allowlist (or code writers) may push, except commits that only touch unprotected files;
// protected tags may only be created, moved or deleted by the users their rule lists.
import type { EntityManager } from '@mikro-orm/core';
import { runGit } from '../../git/exec.ts';
import { ProtectedBranch, ProtectedTag } from '../../model/branch-protection.ts';
import type { IUser } from '../../model/user.ts';
import type { RepoPermission } from '../auth/perm.ts';
import { canControlTag, canUserPushRule, filePatterns, firstMatch, loadBranchRules, matchesAnyFile } from '../repos/index.ts';

export interface RefUpdate {
  old: string;
  new: string;
  ref: string;
}

export interface PushContext {
  em: EntityManager;
  repoId: number;
  repoPath: string;
  doer: IUser;
  perm: RepoPermission;
  /** The quarantine environment receive-pack gave its hook: the pushed objects are only visible through it. */
  env: Record<string, string>;
  /** The push comes with a deploy key (over SSH); `doer` is then the repository owner. */
  deployKey?: boolean;
}

const isZero = (oid: string) => /^0+$/.test(oid);

async function git(p: PushContext, args: string[]): Promise<string> {
  return (await runGit(p.repoPath, args, { env: p.env })).stdout.toString('utf8');
}

async function changedFiles(p: PushContext, from: string, to: string): Promise<string[]> {
  const out = await git(p, ['diff-tree', '-r', '-z', '--name-only', '--no-renames', from, to]);
  return out.split('\0').filter((f) => f !== '');
}

/** The reason the push is refused, or null when every update is allowed. */
export async function checkPush(p: PushContext, updates: RefUpdate[]): Promise<string | null> {
  const rules = await loadBranchRules(p.em, p.repoId);
  for (const u of updates) {
    if (u.ref.startsWith('refs/tags/')) {
      const tag = u.ref.slice('refs/tags/'.length);
      if (!(await canControlTag(p.em, p.repoId, tag, p.doer))) return `Tag ${tag} is protected`;
      continue;
    }
    if (!u.ref.startsWith('refs/heads/')) continue;
    const branch = u.ref.slice('refs/heads/'.length);
    const rule = firstMatch(rules, branch);
    if (!rule) continue;
    if (isZero(u.new)) return `branch ${branch} is protected from deletion`;
    if (!isZero(u.old) && (await git(p, ['rev-list', '--max-count=1', u.old, `^${u.new}`])).trim() !== '') {
      return `branch ${branch} is protected from force push`;
    }
    if (rule.requireSignedCommits) {
      // No signing keys are stored, so no pushed commit can be verified.
      const range = isZero(u.old) ? [u.new, '--not', '--all'] : [u.new, `^${u.old}`];
      const unverified = (await git(p, ['rev-list', '--max-count=1', ...range])).trim();
      if (unverified) return `branch ${branch} is protected from unverified commit ${unverified}`;
    }
    const files = isZero(u.old) ? [] : await changedFiles(p, u.old, u.new);
    const protectedPatterns = filePatterns(rule.protectedFilePatterns);
    const protectedFile = files.find((f) => matchesAnyFile(protectedPatterns, f));
    // A deploy key is no user of an allowlist: it may push where pushing is on and the rule either
    // has no allowlist or admits deploy keys (Forgejo's preReceiveBranch).
    const allowed = p.deployKey
      ? rule.canPush && (!rule.enableWhitelist || rule.whitelistDeployKeys)
      : await canUserPushRule(p.em, rule, p.perm, p.doer);
    const canPush = !protectedFile && allowed;
    if (canPush) continue;
    if (protectedFile) return `branch ${branch} is protected from changing file ${protectedFile}`;
    const unprotected = filePatterns(rule.unprotectedFilePatterns);
    if (unprotected.length && files.length && files.every((f) => matchesAnyFile(unprotected, f))) continue;
    return `Not allowed to push to protected branch ${branch}`;
  }
  return null;
}

/** Whether a repository has any rule a push could break (otherwise the hook is not run at all). */
export async function hasPushRules(em: EntityManager, repoId: number): Promise<boolean> {
  return (await em.count(ProtectedBranch, { repoId })) > 0 || (await em.count(ProtectedTag, { repoId })) > 0;
}
