// Branch and tag protection rules: which rule applies to a ref, and whether a user may push to it,
// change a file on it, or create/delete a tag (Forgejo models/git/protected_branch.go,
// protected_tag.go, services/repository/files/update.go VerifyBranchProtection).
import type { EntityManager } from '@mikro-orm/core';
import type { IUser } from '../../model/user.ts';
import type { LoadedRepo } from '../http/request.ts';
import { ProtectedBranch, ProtectedTag, type IProtectedBranch, type IProtectedTag } from '../../model/branch-protection.ts';
import { TeamUser } from '../../model/org.ts';
import { compileGlobOrLiteral, isGlobPattern } from './glob.ts';
import type { RepoPermission } from '../auth/perm.ts';
import { MSG } from '../http/errors.ts';

// -------------------------------------------------------------------------------------------------
// Branch rules

/** A repository's rules in matching order: plain names first, then globs, each by creation. */
export async function loadBranchRules(em: EntityManager, repoId: number): Promise<IProtectedBranch[]> {
  const rules = await em.find(ProtectedBranch, { repoId }, { orderBy: { id: 'asc' } });
  return [...rules.filter((r) => !isGlobPattern(r.ruleName)), ...rules.filter((r) => isGlobPattern(r.ruleName))];
}

const globCache = new Map<string, RegExp>();
function cachedGlob(pattern: string, separators: string): RegExp {
  const key = `${separators}\0${pattern}`;
  let re = globCache.get(key);
  if (!re) {
    if (globCache.size > 1000) globCache.clear();
    re = compileGlobOrLiteral(pattern, separators);
    globCache.set(key, re);
  }
  return re;
}

/** Plain rule names match case-insensitively; globs use `/` as separator and are case-sensitive. */
export function ruleMatches(rule: Pick<IProtectedBranch, 'ruleName'>, branch: string): boolean {
  if (!isGlobPattern(rule.ruleName)) return rule.ruleName.toLowerCase() === branch.toLowerCase();
  return cachedGlob(rule.ruleName, '/').test(branch);
}

export function firstMatch(rules: IProtectedBranch[], branch: string): IProtectedBranch | null {
  return rules.find((r) => ruleMatches(r, branch)) ?? null;
}

export async function branchRule(em: EntityManager, repoId: number, branch: string): Promise<IProtectedBranch | null> {
  return firstMatch(await loadBranchRules(em, repoId), branch);
}

async function inTeams(em: EntityManager, uid: number, teamIds: number[]): Promise<boolean> {
  return teamIds.length > 0 && (await em.count(TeamUser, { uid, teamId: { $in: teamIds } })) > 0;
}

/** Forgejo's CanUserPush: push must be enabled, then the allowlist (or code write when there is none). */
export async function canUserPushRule(
  em: EntityManager,
  rule: IProtectedBranch,
  perm: RepoPermission,
  doer: IUser | null,
): Promise<boolean> {
  if (!doer || !rule.canPush) return false;
  if (!rule.enableWhitelist) return perm.canWrite('code');
  if (rule.whitelistUserIds.includes(doer.id)) return true;
  return inTeams(em, doer.id, rule.whitelistTeamIds);
}

/** Forgejo's IsUserMergeWhitelisted. */
export async function canUserMergeRule(
  em: EntityManager,
  rule: IProtectedBranch,
  perm: RepoPermission,
  doer: IUser | null,
): Promise<boolean> {
  if (!doer) return false;
  if (!rule.enableMergeWhitelist) return perm.canWrite('code');
  if (rule.mergeWhitelistUserIds.includes(doer.id)) return true;
  return inTeams(em, doer.id, rule.mergeWhitelistTeamIds);
}

/** `;`-separated globs, matched lower-cased with `.` and `/` as separators (GetProtectedFilePatterns). */
export function filePatterns(text: string): RegExp[] {
  return text
    .split(';')
    .map((p) => p.trim().toLowerCase())
    .filter((p) => p !== '')
    .map((p) => cachedGlob(p, './'));
}

export const matchesAnyFile = (patterns: RegExp[], path: string) => patterns.some((re) => re.test(path.trim().toLowerCase()));

export const MSG_CANNOT_COMMIT = (user: string) => `user cannot commit to repo [user: ${user}]`;
export const MSG_PATH_PROTECTED = (path: string) => `path is protected and can not be changed [path: ${path}]`;

/**
 * Whether `doer` may commit to `branch` through the API (the BRANCHW guard): code write access, then
 * the branch's protection rule for each changed path (VerifyBranchProtection). Returns the denial
 * message, or null.
 */
export async function canPushBranch(
  em: EntityManager,
  loaded: LoadedRepo,
  doer: IUser | null,
  branch: string,
  paths: string[] = [],
): Promise<string | null> {
  if (!doer || !loaded.perm.canWrite('code')) return MSG.branchWrite;
  const rule = await branchRule(em, loaded.repo.id, branch);
  if (!rule) return null;
  const canPush = await canUserPushRule(em, rule, loaded.perm, doer);
  const unprotected = filePatterns(rule.unprotectedFilePatterns);
  const protectedFiles = filePatterns(rule.protectedFilePatterns);
  // A change that names no path yet (a patch) is judged as one touching a protected location.
  for (const p of paths.length ? paths : ['']) {
    if (!canPush && !(p !== '' && matchesAnyFile(unprotected, p))) return MSG_CANNOT_COMMIT(doer.lowerName);
    if (p !== '' && matchesAnyFile(protectedFiles, p)) return MSG_PATH_PROTECTED(p);
  }
  return null;
}

// -------------------------------------------------------------------------------------------------
// Tag rules

export async function loadTagRules(em: EntityManager, repoId: number): Promise<IProtectedTag[]> {
  return em.find(ProtectedTag, { repoId }, { orderBy: { id: 'asc' } });
}

/** `/re/` is a regular expression, anything else a glob without separators. Null if it does not compile. */
export function tagPattern(pattern: string): RegExp | null {
  if (pattern.length >= 2 && pattern.startsWith('/') && pattern.endsWith('/')) {
    try {
      return new RegExp(pattern.slice(1, -1));
    } catch (e) {
      if (e instanceof SyntaxError) return null;
      throw e;
    }
  }
  return cachedGlob(pattern, '');
}

/**
 * Forgejo's IsUserAllowedToControlTag: every matching rule is tried until one lists the user (by
 * name or team); with no matching rule anyone with write access may create or delete the tag.
 */
export async function canControlTag(em: EntityManager, repoId: number, tag: string, doer: IUser | null): Promise<boolean> {
  let allowed = true;
  for (const rule of await loadTagRules(em, repoId)) {
    const re = tagPattern(rule.namePattern);
    // Forgejo fails the request on a pattern that does not compile; refusing is the safe reading.
    if (re === null) return false;
    if (!re.test(tag)) continue;
    allowed = !!doer && (rule.allowlistUserIds.includes(doer.id) || (await inTeams(em, doer.id, rule.allowlistTeamIds)));
    if (allowed) break;
  }
  return allowed;
}
