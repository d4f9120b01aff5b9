// The issues unit's tracker settings (Forgejo's IssuesConfig, shown as `internal_tracker` on a
// repository) and the rules built on them: who may track time on an issue (Forgejo's
// CanUseTimetracker) and which repository a caller may reach for a cross-repository dependency.
import { RepoUnit, Repository, type IRepoUnit, type IRepository } from '../../model/repo.ts';
import { User, type IUser } from '../../model/user.ts';
import { IssueAssignee, type IIssue } from '../../model/issue.ts';
import { isSiteAdmin, type LoadedRepo, type RequestState } from '../http/request.ts';
import { Unit, repoPermission } from '../auth/perm.ts';
import { canWriteIssues } from './issues.ts';

export interface TrackerConfig {
  timeTracking: boolean;
  onlyContributors: boolean;
  dependencies: boolean;
}

/**
 * A repository without the issues unit (pull requests only) falls back to the service defaults, all
 * on (Forgejo's IsTimetrackerEnabled, AllowOnlyContributorsToTrackTime, IsDependenciesEnabled); a key
 * missing from the stored config reads as on, as `internal_tracker` shows it (model/api-repo.ts).
 */
export function trackerConfig(units: readonly IRepoUnit[]): TrackerConfig {
  const cfg = units.find((u) => u.type === Unit.issues)?.config ?? {};
  const on = (v: unknown) => v !== false;
  return {
    timeTracking: on(cfg.enable_time_tracker),
    onlyContributors: on(cfg.allow_only_contributors_to_track_time),
    dependencies: on(cfg.enable_issue_dependencies),
  };
}

/**
 * Forgejo's CanUseTimetracker: time tracking is on, and either anyone may track time or the caller
 * writes to the issue's unit, posted the issue or is assigned to it.
 */
export async function canTrackTime(s: RequestState, loaded: LoadedRepo, issue: IIssue): Promise<boolean> {
  const cfg = trackerConfig(loaded.units ?? []);
  const doer = s.auth.doer;
  if (!cfg.timeTracking || !doer) return false;
  if (!cfg.onlyContributors || canWriteIssues({ repo: loaded, auth: s.auth }, issue.isPull) || issue.posterId === doer.id) return true;
  return (await s.em.count(IssueAssignee, { issueId: issue.id, assigneeId: doer.id })) > 0;
}

/**
 * Another repository named by owner and name, with the caller's permission on it; null when it does
 * not exist or the caller cannot reach it at all (which answers as absent).
 */
export async function loadOtherRepo(s: RequestState, ownerName: string, repoName: string): Promise<LoadedRepo | null> {
  const owner: IUser | null = await s.em.findOne(User, { lowerName: ownerName.toLowerCase() });
  const repo: IRepository | null = owner && (await s.em.findOne(Repository, { ownerId: owner.id, lowerName: repoName.toLowerCase() }));
  if (!owner || !repo) return null;
  const units = await s.em.find(RepoUnit, { repoId: repo.id }, { orderBy: { type: 'asc' } });
  const perm = await repoPermission(
    s.em,
    { repo, owner, doer: s.auth.doer, siteAdmin: isSiteAdmin(s), token: s.auth.token },
    new Set(units.map((u) => u.type)),
  );
  return perm.hasAnyAccess() ? { repo, owner, perm, units } : null;
}

/** The caller's permission on each repository of `repoIds` (for filtering lists of issues). */
export async function permissionsOf(s: RequestState, repoIds: number[], known: LoadedRepo): Promise<Map<number, LoadedRepo | null>> {
  const out = new Map<number, LoadedRepo | null>([[known.repo.id, known]]);
  const want = [...new Set(repoIds)].filter((id) => !out.has(id));
  if (want.length === 0) return out;
  const em = s.em;
  const repos = await em.find(Repository, { id: { $in: want } });
  const owners = new Map((await em.find(User, { id: { $in: [...new Set(repos.map((r) => r.ownerId))] } })).map((u) => [u.id, u]));
  const units = await em.find(RepoUnit, { repoId: { $in: want } });
  for (const id of want) out.set(id, null);
  for (const repo of repos) {
    const owner = owners.get(repo.ownerId);
    if (!owner) continue;
    const mine = units.filter((u) => u.repoId === repo.id);
    const perm = await repoPermission(
      em,
      { repo, owner, doer: s.auth.doer, siteAdmin: isSiteAdmin(s), token: s.auth.token },
      new Set(mine.map((u) => u.type)),
    );
    out.set(repo.id, { repo, owner, perm, units: mine });
  }
  return out;
}
