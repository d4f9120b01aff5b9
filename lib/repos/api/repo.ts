// api.Repository wire shape (forgejo-facts 6.5).
import type { Config } from '../../../config.ts';
import type { IRepository, IRepoUnit } from '../../../model/repo.ts';
import type { IUser } from '../../../model/user.ts';
import type { Plain } from '../../../model/raw.ts';
import { Unit, type RepoPermission } from '../../auth/perm.ts';
import { toApiUser, type Viewer } from '../../users/index.ts';
import { EPOCH, fmtTime, ZERO_TIME } from '../../../model/time.ts';
import type { ExternalTracker, ExternalWiki, Repository, RepoTransfer, Wire } from '../../../model/schemas/index.ts';

export interface RepoView {
  repo: Plain<IRepository>;
  owner: Plain<IUser>;
  units: IRepoUnit[];
  perm: RepoPermission;
  parent?: ApiRepo | null;
  /** A pending transfer, null otherwise. */
  transfer?: ApiRepoTransfer | null;
}

/** api.Repository: `internal_tracker`, `external_tracker`, `external_wiki` and `wiki_branch` only when set, as Forgejo (omitempty). */
export type ApiRepo = Wire<Repository, 'internal_tracker' | 'external_tracker' | 'external_wiki' | 'wiki_branch'>;
export type ApiRepoTransfer = Wire<RepoTransfer>;

export function sshUrl(cfg: Config, owner: string, name: string): string {
  const host = cfg.SERVER.SSH_DOMAIN.includes(':') ? `[${cfg.SERVER.SSH_DOMAIN}]` : cfg.SERVER.SSH_DOMAIN;
  return cfg.SERVER.SSH_PORT === 22
    ? `${cfg.SERVER.SSH_USER}@${host}:${owner}/${name}.git`
    : `ssh://${cfg.SERVER.SSH_USER}@${host}:${cfg.SERVER.SSH_PORT}/${owner}/${name}.git`;
}

export function toApiRepo(cfg: Config, v: RepoView, viewer: Viewer): ApiRepo {
  const { repo, owner, perm } = v;
  const unit = (t: number) => v.units.find((u) => u.type === t);
  const pulls = unit(Unit.pulls)?.config ?? {};
  const issues = unit(Unit.issues)?.config;
  const bool = (v: unknown, dflt: boolean) => (typeof v === 'boolean' ? v : dflt);
  const hasPulls = !!unit(Unit.pulls);
  const htmlUrl = `${cfg.appUrl}${owner.name}/${repo.name}`;
  const apiUrl = `${cfg.appUrl}api/v1/repos/${owner.name}/${repo.name}`;
  const out: ApiRepo = {
    id: repo.id,
    owner: toApiUser(cfg, owner, viewer),
    name: repo.name,
    full_name: `${owner.name}/${repo.name}`,
    description: repo.description,
    empty: repo.isEmpty,
    private: repo.isPrivate,
    fork: repo.isFork,
    template: repo.isTemplate,
    parent: v.parent ?? null,
    mirror: repo.isMirror,
    size: Math.floor(repo.size / 1024),
    language: '',
    languages_url: `${apiUrl}/languages`,
    html_url: htmlUrl,
    url: apiUrl,
    link: '',
    ssh_url: sshUrl(cfg, owner.name, repo.name),
    clone_url: `${htmlUrl}.git`,
    original_url: repo.originalUrl,
    website: repo.website,
    stars_count: repo.numStars,
    forks_count: repo.numForks,
    watchers_count: repo.numWatches,
    open_issues_count: repo.numOpenIssues,
    open_pr_counter: repo.numOpenPulls,
    release_counter: repo.numReleases,
    default_branch: repo.defaultBranch,
    archived: repo.isArchived,
    created_at: fmtTime(repo.createdAt),
    updated_at: fmtTime(repo.updatedAt),
    archived_at: fmtTime(repo.archivedAt, EPOCH),
    permissions: { admin: perm.isAdmin(), push: perm.canWrite('code'), pull: perm.canRead('code') },
    has_issues: !!unit(Unit.issues) || !!unit(Unit.ext_issues),
    has_wiki: !!unit(Unit.wiki) || !!unit(Unit.ext_wiki),
    has_wiki_contents: false,
    wiki_ssh_url: sshUrl(cfg, owner.name, `${repo.name}.wiki`),
    wiki_clone_url: `${htmlUrl}.wiki.git`,
    globally_editable_wiki: unit(Unit.wiki)?.config?.default_permissions === 'write',
    has_pull_requests: hasPulls,
    has_projects: !!unit(Unit.projects),
    has_releases: !!unit(Unit.releases),
    has_packages: !!unit(Unit.packages),
    has_actions: !!unit(Unit.actions),
    ignore_whitespace_conflicts: bool(pulls.ignore_whitespace_conflicts, false),
    allow_merge_commits: bool(pulls.allow_merge_commits, true),
    allow_rebase: bool(pulls.allow_rebase, true),
    allow_rebase_explicit: bool(pulls.allow_rebase_explicit, true),
    allow_squash_merge: bool(pulls.allow_squash_merge, true),
    allow_fast_forward_only_merge: bool(pulls.allow_fast_forward_only_merge, true),
    allow_rebase_update: bool(pulls.allow_rebase_update, true),
    default_delete_branch_after_merge: bool(pulls.default_delete_branch_after_merge, false),
    default_merge_style: hasPulls && typeof pulls.default_merge_style === 'string' ? pulls.default_merge_style : 'merge',
    default_allow_maintainer_edit: bool(pulls.default_allow_maintainer_edit, false),
    default_update_style: hasPulls && typeof pulls.default_update_style === 'string' ? pulls.default_update_style : 'merge',
    avatar_url: repo.avatar ? `${cfg.appUrl}repo-avatars/${repo.avatar}` : '',
    internal: !repo.isPrivate && owner.visibility === 'private',
    mirror_interval: repo.isMirror ? repo.mirrorInterval : '',
    object_format_name: repo.objectFormatName === 'sha256' ? 'sha256' : 'sha1',
    mirror_updated: repo.isMirror ? fmtTime(repo.mirrorUpdatedAt) : ZERO_TIME,
    repo_transfer: v.transfer ?? null,
    topics: repo.topics ?? [],
  };
  if (issues) {
    out.internal_tracker = {
      enable_time_tracker: bool(issues.enable_time_tracker, true),
      allow_only_contributors_to_track_time: bool(issues.allow_only_contributors_to_track_time, true),
      enable_issue_dependencies: bool(issues.enable_issue_dependencies, true),
    };
  }
  const extTracker = unit(Unit.ext_issues)?.config;
  if (extTracker) out.external_tracker = extTracker as ExternalTracker;
  const extWiki = unit(Unit.ext_wiki)?.config;
  if (extWiki) out.external_wiki = extWiki as ExternalWiki;
  if (repo.wikiBranch) out.wiki_branch = repo.wikiBranch;
  return out;
}
