// Repository records: create (for the caller or, as admin, for another owner), read, edit, delete.
import type { Handler, HandlerCtx } from '../lib/handler.ts';
import { json, noContent } from '../lib/handler.ts';
import type { CreateRepoOption, EditRepoOption } from '../model/schemas/index.ts';
import { RepoUnit, type IRepository } from '../model/repo.ts';
import type { IUser } from '../model/user.ts';
import { createRepository, defaultUnitConfig, deleteRepository, renameRepository, repoUnits } from '../lib/repos.ts';
import { repoPermission, Unit, type UnitName } from '../lib/perm.ts';
import { unprocessable } from '../lib/errors.ts';
import { toApiRepo } from '../model/api-repo.ts';
import { isSiteAdmin, need, type RequestState } from '../guards/types.ts';
import { revParse } from '../git/repo.ts';
import { setHead } from '../git/repo.ts';

export async function repoJson(s: RequestState, repo: IRepository, owner: IUser) {
  const units = await repoUnits(s.em, repo.id);
  const perm = await repoPermission(s.em, { repo, owner, doer: s.auth.doer, siteAdmin: isSiteAdmin(s), token: s.auth.token }, new Set(units.map((u) => u.type)));
  return toApiRepo(s.config, { repo, owner, units, perm }, { doer: s.auth.doer, siteAdmin: isSiteAdmin(s) });
}

async function createFor(c: HandlerCtx<CreateRepoOption>, owner: IUser) {
  const b = c.body;
  const repo = await createRepository(c.em, c.config, c.services, owner, c.auth.doer!, {
    name: b.name,
    description: b.description,
    private: b.private,
    autoInit: b.auto_init,
    defaultBranch: b.default_branch,
    readme: b.readme,
    gitignores: b.gitignores,
    license: b.license,
    issueLabels: b.issue_labels,
    template: b.template,
    objectFormat: b.object_format_name || undefined,
    trustModel: b.trust_model || undefined,
  });
  return json(201, await repoJson(c, repo, owner));
}

export const createForMe: Handler<CreateRepoOption> = (c) => createFor(c, c.auth.doer!);
export const createForUser: Handler<CreateRepoOption> = (c) => createFor(c, need(c.contextUser, 'user'));

export const get: Handler = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  return json(200, await repoJson(c, repo, owner));
};

export const remove: Handler = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  await deleteRepository(c.em, c.services, repo, owner);
  return noContent();
};

const UNIT_FLAGS: [keyof EditRepoOption, UnitName][] = [
  ['has_issues', 'issues'], ['has_wiki', 'wiki'], ['has_pull_requests', 'pulls'], ['has_projects', 'projects'],
  ['has_releases', 'releases'], ['has_packages', 'packages'], ['has_actions', 'actions'],
];
const PULL_SETTINGS = [
  'allow_merge_commits', 'allow_rebase', 'allow_rebase_explicit', 'allow_squash_merge', 'allow_fast_forward_only_merge',
  'allow_rebase_update', 'allow_manual_merge', 'autodetect_manual_merge', 'default_delete_branch_after_merge',
  'default_merge_style', 'default_update_style', 'default_allow_maintainer_edit', 'ignore_whitespace_conflicts',
] as const;

export const edit: Handler<EditRepoOption> = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  const b = c.body;
  if (b.name !== undefined && b.name !== repo.name) await renameRepository(c.em, c.services, repo, owner, b.name);
  if (b.description !== undefined) repo.description = b.description;
  if (b.website !== undefined) repo.website = b.website;
  if (b.private !== undefined) repo.isPrivate = c.config.REPOSITORY.FORCE_PRIVATE || b.private;
  if (b.template !== undefined) repo.isTemplate = b.template;
  if (b.wiki_branch) repo.wikiBranch = b.wiki_branch;
  if (b.default_branch !== undefined && b.default_branch !== repo.defaultBranch) {
    const path = c.services.repoPath(owner.name, repo.name);
    if (!repo.isEmpty && !(await revParse(path, `refs/heads/${b.default_branch}`))) throw unprocessable(`branch does not exist [name: ${b.default_branch}]`);
    await setHead(path, b.default_branch);
    repo.defaultBranch = b.default_branch;
  }
  const units = await repoUnits(c.em, repo.id);
  for (const [field, name] of UNIT_FLAGS) {
    const want = b[field];
    if (typeof want !== 'boolean') continue;
    const row = units.find((u) => u.type === Unit[name]);
    if (want && !row) units.push(c.em.create(RepoUnit, { repoId: repo.id, type: Unit[name], config: defaultUnitConfig(name) }));
    if (!want && row) { c.em.remove(row); units.splice(units.indexOf(row), 1); }
  }
  const pulls = units.find((u) => u.type === Unit.pulls);
  if (pulls) {
    const config = { ...pulls.config };
    for (const k of PULL_SETTINGS) if (b[k] !== undefined && b[k] !== '') config[k] = b[k];
    pulls.config = config;
  }
  const issues = units.find((u) => u.type === Unit.issues);
  if (issues && b.internal_tracker) issues.config = { ...issues.config, ...b.internal_tracker };
  if (b.archived !== undefined && b.archived !== repo.isArchived) {
    repo.isArchived = b.archived;
    repo.archivedAt = b.archived ? new Date() : null;
  }
  repo.updatedAt = new Date();
  await c.em.flush();
  return json(200, await repoJson(c, repo, owner));
};
