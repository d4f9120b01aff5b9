// Repository records: create (for the caller, in an organization, or as admin for another owner),
// read, edit, delete.
import { emitEvent } from '../lib/activity/events.ts';
import type { Handler, HandlerCtx, SignedInCtx } from '../lib/http/handler.ts';
import { json, noContent, signedIn } from '../lib/http/handler.ts';
import type { CreateRepoOption, EditRepoOption } from '../model/schemas/index.ts';
import { Repository, RepoUnit, type IRepository, type IRepoUnit } from '../model/repo.ts';
import { managedOf } from '../model/raw.ts';
import { repoJson } from '../lib/repos/api/repo-json.ts';
import { Mirror } from '../model/mirror.ts';
import type { IUser } from '../model/user.ts';
import { createRepository, defaultUnitConfig, deleteRepository, renameRepository, repoUnits } from '../lib/repos/repos.ts';
import { Unit, type UnitName } from '../lib/auth/perm.ts';
import { unprocessable } from '../lib/http/errors.ts';
import { checkRepoName } from '../lib/users/names.ts';
import { checkMirrorInterval } from '../model/duration.ts';
import { isSiteAdmin, need } from '../lib/http/request.ts';
import { revParse, setHead } from '../git/repo.ts';
import { isValidBranchName } from '../git/refname.ts';

async function createFor(c: SignedInCtx<CreateRepoOption>, owner: IUser) {
  const b = c.body;
  const repo = await createRepository(c.em, c.config, c.services, owner, c.auth.doer, {
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
  await emitEvent(c.em, c, { name: 'repository', repo, sender: c.auth.doer, action: 'created' });
  return json(201, await repoJson(c, repo, owner));
}

export const createForMe = signedIn<CreateRepoOption>((c) => createFor(c, c.auth.doer));
export const createForUser = signedIn<CreateRepoOption>((c) => createFor(c, need(c.contextUser, 'user')));
export const createInOrg = signedIn<CreateRepoOption>((c) => createFor(c, need(c.org, 'org')));

export const get: Handler = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  return json(200, await repoJson(c, repo, owner));
};

export const remove: Handler = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  // The row has no TOK (OWN decides), so the type does not know the owner is signed in.
  await emitEvent(c.em, c, { name: 'repository', repo, sender: c.auth.doer!, action: 'deleted' });
  await deleteRepository(c.em, c.services, repo, owner);
  return noContent();
};

const MERGE_STYLES = ['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only', 'manually-merged', 'rebase-update-only'];
const UPDATE_STYLES = ['merge', 'rebase'];
const TRACKER_STYLES = ['', 'numeric', 'alphanumeric', 'regexp'];
const PULL_SETTINGS = [
  'allow_merge_commits',
  'allow_rebase',
  'allow_rebase_explicit',
  'allow_squash_merge',
  'allow_fast_forward_only_merge',
  'allow_rebase_update',
  'allow_manual_merge',
  'autodetect_manual_merge',
  'default_delete_branch_after_merge',
  'default_merge_style',
  'default_update_style',
  'default_allow_maintainer_edit',
  'ignore_whitespace_conflicts',
] as const;
const SIMPLE_UNITS: [keyof EditRepoOption, UnitName][] = [
  ['has_projects', 'projects'],
  ['has_releases', 'releases'],
  ['has_packages', 'packages'],
  ['has_actions', 'actions'],
];

const isHttpUrl = (u: string) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol);
const trackerFormatOk = (f: string) => isHttpUrl(f.replaceAll('{user}', 'u').replaceAll('{repo}', 'r').replaceAll('{index}', '1'));

/** Every 422 of PATCH {R} is decided here, before anything is written or moved. */
async function checkEdit(c: HandlerCtx<EditRepoOption>, repo: IRepository, owner: IUser): Promise<void> {
  const b = c.body;
  if (b.name && b.name !== repo.name) {
    checkRepoName(b.name);
    if (
      b.name.toLowerCase() !== repo.lowerName &&
      (await c.em.count(Repository, { ownerId: owner.id, lowerName: b.name.toLowerCase() })) > 0
    ) {
      throw unprocessable(`repo name is already taken [name: ${b.name}]`);
    }
  }
  if (b.private === false && repo.isPrivate && !repo.isFork && c.config.REPOSITORY.FORCE_PRIVATE && !isSiteAdmin(c)) {
    throw unprocessable('cannot change private repository to public');
  }
  if (b.default_branch !== undefined && b.default_branch !== repo.defaultBranch && !repo.isEmpty) {
    if (!(await revParse(c.services.repoPath(owner.name, repo.name), `refs/heads/${b.default_branch}`)))
      throw unprocessable(`branch does not exist [name: ${b.default_branch}]`);
  }
  if (b.wiki_branch && !isValidBranchName(b.wiki_branch)) throw unprocessable('[WikiBranch]: GitRefName');
  const t = b.external_tracker;
  if (t && b.has_issues !== false) {
    if (!isHttpUrl(t.external_tracker_url ?? '')) throw unprocessable('Invalid external tracker URL');
    if (t.external_tracker_format && !trackerFormatOk(t.external_tracker_format))
      throw unprocessable('Invalid external tracker URL format');
    if (!TRACKER_STYLES.includes(t.external_tracker_style ?? ''))
      throw unprocessable(`Invalid external tracker style: "${t.external_tracker_style}"`);
  }
  if (b.external_wiki && b.has_wiki !== false && !isHttpUrl(b.external_wiki.external_wiki_url ?? ''))
    throw unprocessable('Invalid external wiki URL');
  if (b.default_merge_style && !MERGE_STYLES.includes(b.default_merge_style))
    throw unprocessable(`Invalid default merge style: "${b.default_merge_style}"`);
  if (b.default_update_style && !UPDATE_STYLES.includes(b.default_update_style))
    throw unprocessable(`Invalid default update style: "${b.default_update_style}"`);
  if (b.archived !== undefined && repo.isMirror) throw unprocessable('repo is a mirror, cannot archive/un-archive');
  if ((b.mirror_interval !== undefined || b.enable_prune !== undefined) && !repo.isMirror)
    throw unprocessable('repo is not a mirror, can not change mirror interval');
  if (b.mirror_interval !== undefined) {
    const r = checkMirrorInterval(b.mirror_interval);
    if ('error' in r) throw unprocessable(r.error);
  }
}

/** Forgejo's updateRepoUnits: issues vs external tracker, wiki vs external wiki, pull settings, plain units. */
function editUnits(c: HandlerCtx<EditRepoOption>, repoId: number, units: IRepoUnit[]): void {
  const b = c.body;
  const find = (u: UnitName) => units.find((x) => x.type === Unit[u]);
  const drop = (u: UnitName) => {
    const row = find(u);
    if (row) {
      c.em.remove(row);
      units.splice(units.indexOf(row), 1);
    }
  };
  const put = (u: UnitName, config: Record<string, unknown>) => {
    const row = find(u);
    if (row) row.config = config;
    else units.push(c.em.create(RepoUnit, { repoId, type: Unit[u], config }));
  };

  const hasIssues = b.has_issues ?? !!(find('issues') || find('ext_issues'));
  if (!hasIssues) {
    drop('issues');
    drop('ext_issues');
  } else if (b.external_tracker) {
    const t = b.external_tracker;
    put('ext_issues', {
      external_tracker_url: t.external_tracker_url ?? '',
      external_tracker_format: t.external_tracker_format ?? '',
      external_tracker_style: t.external_tracker_style ?? '',
      external_tracker_regexp_pattern: t.external_tracker_regexp_pattern ?? '',
    });
    drop('issues');
  } else if (b.has_issues !== undefined || b.internal_tracker || find('issues')) {
    const it = b.internal_tracker;
    // Go's bools: fields left out of internal_tracker count as false, as in Forgejo.
    const config = it
      ? {
          enable_time_tracker: !!it.enable_time_tracker,
          allow_only_contributors_to_track_time: !!it.allow_only_contributors_to_track_time,
          enable_issue_dependencies: !!it.enable_issue_dependencies,
        }
      : (find('issues')?.config ?? defaultUnitConfig('issues'));
    put('issues', config);
    drop('ext_issues');
  }

  const hasWiki = b.has_wiki ?? !!(find('wiki') || find('ext_wiki'));
  if (!hasWiki) {
    drop('wiki');
    drop('ext_wiki');
  } else if (b.external_wiki) {
    put('ext_wiki', { external_wiki_url: b.external_wiki.external_wiki_url ?? '' });
    drop('wiki');
  } else if (b.has_wiki !== undefined || b.globally_editable_wiki !== undefined || find('wiki')) {
    const config = { ...(find('wiki')?.config ?? {}) };
    if (b.globally_editable_wiki !== undefined) config.default_permissions = b.globally_editable_wiki ? 'write' : 'read';
    put('wiki', config);
    drop('ext_wiki');
  }

  const hasPulls = b.has_pull_requests ?? !!find('pulls');
  if (!hasPulls) drop('pulls');
  else {
    const config = { ...(find('pulls')?.config ?? { ...defaultUnitConfig('pulls'), allow_manual_merge: true }) };
    for (const k of PULL_SETTINGS) if (b[k] !== undefined && b[k] !== '') config[k] = b[k];
    put('pulls', config);
  }

  for (const [field, name] of SIMPLE_UNITS) {
    const want = b[field];
    if (want === true && !find(name)) put(name, defaultUnitConfig(name));
    if (want === false) drop(name);
  }
}

export const edit: Handler<EditRepoOption> = async (c) => {
  const loaded = need(c.repo, 'repo');
  const repo = managedOf(c.em, Repository, loaded.repo);
  const owner = loaded.owner;
  const b = c.body;
  await checkEdit(c, repo, owner);
  const path = c.services.repoPath(owner.name, repo.name);

  if (b.description !== undefined) repo.description = b.description;
  if (b.website !== undefined) repo.website = b.website;
  if (b.template !== undefined) repo.isTemplate = b.template;
  if (b.wiki_branch) repo.wikiBranch = b.wiki_branch;
  if (b.private !== undefined) {
    // A fork's visibility follows its base repository.
    const base = repo.isFork ? await c.em.findOne(Repository, { id: repo.forkId }) : null;
    const priv = base ? base.isPrivate : b.private;
    if (priv !== repo.isPrivate) {
      repo.isPrivate = priv;
      for (const fork of await c.em.find(Repository, { forkId: repo.id })) fork.isPrivate = priv || owner.visibility === 'private';
    }
  }
  const units = await repoUnits(c.em, repo.id);
  editUnits(c, repo.id, units);
  if (b.archived !== undefined && b.archived !== repo.isArchived) {
    repo.isArchived = b.archived;
    repo.archivedAt = b.archived ? new Date() : null;
  }
  if (b.mirror_interval !== undefined || b.enable_prune !== undefined) {
    const mirror = await c.em.findOneOrFail(Mirror, { repoId: repo.id });
    if (b.mirror_interval !== undefined) {
      const r = checkMirrorInterval(b.mirror_interval);
      if (!('error' in r)) {
        mirror.interval = r.text;
        mirror.nextUpdateAt = r.ms ? new Date(Date.now() + r.ms) : null;
        repo.mirrorInterval = r.text;
      }
    }
    if (b.enable_prune !== undefined) mirror.enablePrune = b.enable_prune;
  }
  const newBranch = b.default_branch !== undefined && b.default_branch !== repo.defaultBranch ? b.default_branch : null;
  if (newBranch) repo.defaultBranch = newBranch;
  repo.updatedAt = new Date();
  await c.em.flush();
  // Disk changes last: every check has passed and the record is written.
  if (newBranch) await setHead(path, newBranch);
  if (b.name && b.name !== repo.name) await renameRepository(c.em, c.services, repo, owner, b.name);
  return json(200, await repoJson(c, repo, owner));
};

/** This family's handlers; `routes.table.ts` names each `repos.<key>`. */
export const handlers = {
  createForMe,
  createForUser,
  get,
  edit,
  remove,
  createInOrg,
  createRepo: createInOrg,
  getById: get,
} satisfies Record<string, Handler<never, never>>;
