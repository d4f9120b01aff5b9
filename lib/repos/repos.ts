// Creating, renaming and deleting repositories: the database record, its units and the bare git
// repository on disk (forgejo-facts 8.1, 8.2, 10.1).
// Just over 400 lines: the lifecycle of one repository record and its disk copy, one concern.
import fs from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { deleteActionConfig } from '../../model/action-secret.ts';
import type { Config } from '../../config.ts';
import type { Services } from '../http/services.ts';
import { Collaboration, RepoRedirect, RepoUnit, Repository, type IRepository, type IRepoUnit } from '../../model/repo.ts';
import { AccessTokenRepo } from '../../model/token.ts';
import { Team, TeamRepo } from '../../model/org.ts';
import { Label } from '../../model/label.ts';
import { Star, Watch, WatchMode } from '../../model/star.ts';
import { Notification } from '../../model/notification.ts';
import { RepoTransfer } from '../../model/transfer.ts';
import { Mirror, PushMirror } from '../../model/mirror.ts';
import { ProtectedBranch, ProtectedTag } from '../../model/branch-protection.ts';
import { CommitStatus } from '../../model/commit-status.ts';
import { User, type IUser } from '../../model/user.ts';
import { mapPrefixed, plainPrefixed, prefixedColumns, type Plain } from '../../model/raw.ts';
import { executeSql, readPrepared, sql } from '../../model/sql.ts';
import { DEFAULT_UNITS, Mode, Unit, userPermission, type UnitName } from '../auth/perm.ts';
import { checkRepoName } from '../users/index.ts';
import { badRequest, conflict, unprocessable } from '../http/errors.ts';
import { initBare, renameRepo, deleteRepo, repoSize, type ObjectFormat } from '../../git/repo.ts';
import { closeBatch } from '../../git/cat-file.ts';
import { runGit } from '../../git/exec.ts';
import { commitFiles, type FileOp } from '../../git/write.ts';
import { isValidBranchName } from '../../git/refname.ts';
import { RepoExistsError } from '../../git/errors.ts';
import { gitignore } from './gitignore-templates.ts';
import { fillLicense, licenseText } from './license-templates.ts';
import { labelSet } from '../issues/index.ts';
import { dropRepoTopics } from './topics.ts';
import { learnCounters, lockCounterRows } from '../db/counters.ts';
import { unlinkRepoPackages } from '../packages/index.ts';
import { LfsLock, LfsMetaObject } from '../../model/lfs.ts';
import { Slot, type ReadAhead } from '../http/read-ahead.ts';

export const DEFAULT_PULLS_CONFIG = {
  ignore_whitespace_conflicts: false,
  allow_merge_commits: true,
  allow_rebase: true,
  allow_rebase_explicit: true,
  allow_squash_merge: true,
  allow_fast_forward_only_merge: true,
  allow_rebase_update: true,
  allow_manual_merge: false,
  autodetect_manual_merge: false,
  default_delete_branch_after_merge: false,
  default_merge_style: 'merge',
  default_update_style: 'merge',
  default_allow_maintainer_edit: false,
};
export const DEFAULT_ISSUES_CONFIG = {
  enable_time_tracker: true,
  allow_only_contributors_to_track_time: true,
  enable_issue_dependencies: true,
};

/** forgejo-facts 8.2: forks start with code and pulls, mirrors without pulls and actions. */
export const FORK_UNITS: UnitName[] = ['code', 'pulls'];
export const MIRROR_UNITS: UnitName[] = ['code', 'issues', 'releases', 'wiki', 'projects', 'packages'];

export function defaultUnitConfig(u: UnitName): Record<string, unknown> {
  if (u === 'pulls') return { ...DEFAULT_PULLS_CONFIG };
  if (u === 'issues') return { ...DEFAULT_ISSUES_CONFIG };
  return {};
}

export const REPO_EXISTS = 'The repository with the same name already exists.';
export const FILES_EXIST = 'Files already exist for this repository. Adopt them or delete them.';

let sha256Support: Promise<boolean> | null = null;
/**
 * Whether this server's git can hold sha256 repositories. Forgejo asks for git >= 2.42 (forgejo-facts
 * 10.3) because it runs porcelain in temporary clones; cairn only uses plumbing (init, cat-file,
 * hash-object, mktree, commit-tree, update-ref, merge-tree, upload/receive-pack), which handles sha256
 * from git 2.29 on — test/handlers/sha256.test.ts runs the whole repository scenario on such a
 * repository. What remains of the old limit is on the client side: a git older than 2.42 that clones an
 * EMPTY sha256 repository makes a sha1 clone and cannot push it back.
 */
export function gitSupportsSha256(): Promise<boolean> {
  sha256Support ??= runGit(null, ['version']).then(({ stdout }) => {
    const m = /(\d+)\.(\d+)/.exec(stdout.toString('utf8'));
    return !!m && (Number(m[1]) > 2 || (Number(m[1]) === 2 && Number(m[2]) >= 29));
  });
  return sha256Support;
}

/** The fields a new repository record takes; everything else starts at its default. */
export interface RepoRecord {
  name: string;
  description?: string;
  website?: string;
  private?: boolean;
  template?: boolean;
  defaultBranch?: string;
  objectFormat?: ObjectFormat;
  trustModel?: string;
  units?: UnitName[];
  isFork?: boolean;
  forkId?: number;
  templateId?: number;
  isMirror?: boolean;
  mirrorInterval?: string;
  originalUrl?: string;
  avatar?: string;
}

/** Checks that fail before anything is written: name rules, branch name, object format, a free name. */
export async function checkNewRepo(
  em: EntityManager,
  cfg: Config,
  owner: IUser,
  r: Pick<RepoRecord, 'name' | 'defaultBranch' | 'objectFormat'>,
): Promise<void> {
  checkRepoName(r.name);
  if (!isValidBranchName(r.defaultBranch || cfg.REPOSITORY.DEFAULT_BRANCH)) throw unprocessable('[DefaultBranch]: GitRefName');
  if (r.objectFormat === 'sha256' && !(await gitSupportsSha256()))
    throw unprocessable("object format sha256 is not supported by this server's git (it needs git 2.29 or newer)");
  if ((await em.count(Repository, { ownerId: owner.id, lowerName: r.name.toLowerCase() })) > 0) throw conflict(REPO_EXISTS);
}

/**
 * Writes the record with its units and the side effects of creation (forgejo-facts 8.1): teams that
 * include all repositories get it, a creator in an organization who is not admin there becomes an
 * admin collaborator, the creator watches it, and an old redirect for the name goes away.
 */
export async function insertRepository(em: EntityManager, cfg: Config, owner: IUser, doer: IUser, r: RepoRecord): Promise<IRepository> {
  await checkNewRepo(em, cfg, owner, r);
  const repo = em.create(Repository, {
    ownerId: owner.id,
    ownerName: owner.name,
    name: r.name,
    lowerName: r.name.toLowerCase(),
    description: r.description ?? '',
    website: r.website ?? '',
    defaultBranch: r.defaultBranch || cfg.REPOSITORY.DEFAULT_BRANCH,
    wikiBranch: cfg.REPOSITORY.DEFAULT_BRANCH,
    isPrivate: cfg.REPOSITORY.FORCE_PRIVATE || !!r.private,
    isTemplate: !!r.template,
    objectFormatName: r.objectFormat ?? 'sha1',
    trustModel: r.trustModel || 'default',
    isEmpty: true,
    isFork: !!r.isFork,
    forkId: r.forkId ?? 0,
    templateId: r.templateId ?? 0,
    isMirror: !!r.isMirror,
    mirrorInterval: r.isMirror ? (r.mirrorInterval ?? '') : '',
    originalUrl: r.originalUrl ?? '',
    avatar: r.avatar ?? '',
  });
  try {
    await em.flush();
  } catch (e) {
    // A concurrent request took the name between the check and the insert.
    if (e instanceof UniqueConstraintViolationException) throw conflict(REPO_EXISTS);
    throw e;
  }
  const units = r.units ?? DEFAULT_UNITS;
  for (const u of units) em.create(RepoUnit, { repoId: repo.id, type: Unit[u], config: defaultUnitConfig(u) });
  await em.nativeDelete(RepoRedirect, { ownerId: owner.id, lowerName: repo.lowerName });
  if (owner.type === 1) {
    const allRepoTeams = await em.find(Team, { orgId: owner.id, includesAllRepositories: true });
    for (const t of allRepoTeams) em.create(TeamRepo, { teamId: t.id, orgId: owner.id, repoId: repo.id });
    await em.flush();
    const perm = await userPermission(em, repo, owner, doer, new Set(units.map((u) => Unit[u])));
    if (!perm.isAdmin()) em.create(Collaboration, { repoId: repo.id, userId: doer.id, mode: Mode.admin });
  }
  em.create(Watch, { userId: doer.id, repoId: repo.id, mode: WatchMode.normal });
  repo.numWatches = 1;
  await em.flush();
  return repo;
}

/**
 * Claims the repository directory with `git init --bare`, then runs `fill`. When `fill` (or anything
 * in it) throws, the directory is removed again, so a failed request leaves no repository on disk;
 * the transaction takes the record away.
 */
export async function withNewGitDir<T>(
  path: string,
  init: { defaultBranch: string; objectFormat?: ObjectFormat },
  fill: () => Promise<T>,
): Promise<T> {
  try {
    await initBare(path, init);
  } catch (e) {
    if (e instanceof RepoExistsError) throw conflict(FILES_EXIST);
    throw e;
  }
  try {
    return await fill();
  } catch (e) {
    await deleteRepo(path);
    throw e;
  }
}

export const wikiPath = (services: Services, owner: string, name: string) => services.repoPath(owner, `${name}.wiki`);

export interface NewRepo {
  name: string;
  description?: string;
  private?: boolean;
  autoInit?: boolean;
  defaultBranch?: string;
  readme?: string;
  gitignores?: string;
  license?: string;
  issueLabels?: string;
  template?: boolean;
  objectFormat?: 'sha1' | 'sha256';
  trustModel?: string;
}

const splitList = (s: string | undefined) =>
  (s ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');

/** Template names a creation request refers to must exist before anything is written. */
function checkTemplates(input: NewRepo): void {
  if (input.autoInit) {
    const readme = input.readme || 'Default';
    if (readme !== 'Default') throw badRequest('readme template does not exist, available templates: [Default]');
    for (const g of splitList(input.gitignores))
      if (gitignore(g) === undefined) throw unprocessable(`gitignore template "${g}" does not exist`);
    if (input.license && licenseText(input.license) === undefined)
      throw unprocessable(`license template "${input.license}" does not exist`);
  }
  if (input.issueLabels && !labelSet(input.issueLabels))
    throw unprocessable(`failed to load label template file "${input.issueLabels}": template not found`);
}

export function authorOf(cfg: Config, u: IUser) {
  return { name: u.fullName || u.name, email: u.keepEmailPrivate ? `${u.lowerName}@${cfg.SERVICE.NO_REPLY_ADDRESS}` : u.email };
}

/** The files of `auto_init` (forgejo-facts 8.1): README, .gitignore blocks, LICENSE. */
function initialFiles(cfg: Config, repo: IRepository, owner: IUser, doer: IUser, input: NewRepo): FileOp[] {
  const ops: FileOp[] = [{ op: 'create', path: 'README.md', content: Buffer.from(`# ${repo.name}\n\n${repo.description}`) }];
  const ignores = splitList(input.gitignores);
  if (ignores.length) {
    const text = ignores.map((g) => `# ---> ${g}\n${gitignore(g)}\n`).join('');
    ops.push({ op: 'create', path: '.gitignore', content: Buffer.from(text) });
  }
  if (input.license) {
    const text = fillLicense(input.license, {
      owner: owner.name,
      email: authorOf(cfg, doer).email,
      repo: repo.name,
      year: String(new Date().getFullYear()),
    });
    ops.push({ op: 'create', path: 'LICENSE', content: Buffer.from(text ?? '') });
  }
  return ops;
}

export async function addLabelSet(em: EntityManager, repoId: number, setName: string): Promise<void> {
  for (const l of labelSet(setName) ?? []) {
    em.create(Label, { repoId, orgId: 0, name: l.name, color: `#${l.color}`, description: l.description, exclusive: l.exclusive });
  }
  await em.flush();
}

export async function createRepository(
  em: EntityManager,
  cfg: Config,
  services: Services,
  owner: IUser,
  doer: IUser,
  input: NewRepo,
): Promise<IRepository> {
  checkTemplates(input);
  const repo = await insertRepository(em, cfg, owner, doer, {
    name: input.name,
    description: input.description,
    private: input.private,
    template: input.template,
    defaultBranch: input.defaultBranch,
    objectFormat: input.objectFormat,
    trustModel: input.trustModel,
  });
  const path = services.repoPath(owner.name, repo.name);
  await withNewGitDir(path, { defaultBranch: repo.defaultBranch, objectFormat: repo.objectFormatName as ObjectFormat }, async () => {
    if (input.issueLabels) await addLabelSet(em, repo.id, input.issueLabels);
    if (input.autoInit) {
      const author = authorOf(cfg, doer);
      await commitFiles(path, {
        branch: repo.defaultBranch,
        parent: null,
        expectedOld: null,
        ops: initialFiles(cfg, repo, owner, doer, input),
        message: 'Initial commit',
        author,
      });
      repo.isEmpty = false;
      repo.size = await repoSize(path);
      await em.flush();
    }
  });
  return repo;
}

export async function repoUnits(em: EntityManager, repoId: number): Promise<IRepoUnit[]> {
  return em.find(RepoUnit, { repoId }, { orderBy: { type: 'asc' } });
}

/**
 * Selected with a repository `r`: its units (in no order: `repoFromRow` sorts them), and whether a
 * transfer is pending. An `array(...)` of rows, not `json_agg`: PostgreSQL sets up an aggregate, and
 * a sort, on every execution of a prepared statement (0.02 ms of backend CPU less for the
 * statement of `GET {R}` with a token, with the same change in the access facts, lib/auth/perm.ts).
 */
const REPO_EXTRAS = `to_json(array(select x from repo_unit x where x.repo_id = r.id)) as units,
    exists (select 1 from repo_transfer t where t.repo_id = r.id) as transfer_pending`;
type RepoRow = Record<string, unknown> & { units: Record<string, unknown>[] | null; transfer_pending: boolean | null };

const unitRow = (u: Record<string, unknown>): IRepoUnit => ({
  id: Number(u.id),
  repoId: Number(u.repo_id),
  type: Number(u.type),
  config: u.config as Record<string, unknown>,
});

/** An owner and its repository, managed (`U`, `R` the entities) or plain (`PlainRepoByName`). */
export interface RepoByName<U extends Plain<IUser> = IUser, R extends Plain<IRepository> = IRepository> {
  /** Null when no user or organization has the name. */
  owner: U | null;
  /** Null when the owner has no repository of the name. */
  repo: R | null;
  /** The repository's unit rows, by type. */
  units: IRepoUnit[];
  /** Whether a transfer of the repository waits for its recipient. */
  transferPending: boolean;
}
/** `RepoByName` whose owner and repository may be plain rows: read-only. */
export type PlainRepoByName = RepoByName<Plain<IUser>, Plain<IRepository>>;

let byOwnerNameSql: string | undefined;
let byOwnerSql: string | undefined;
let byIdSql: string | undefined;

/**
 * An owner (by name, unless already known) and its repository, with the repository's units and
 * whether a transfer is pending, in one query: this runs on every request below `{R}`. With `plain`,
 * for a request that changes nothing, the owner and repository are plain objects (model/raw.ts): with
 * `plain`, whether set or not, they are typed read-only (`Plain`).
 */
export async function findRepoByName(
  em: EntityManager,
  owner: IUser | string,
  repoName: string,
  opts?: { plain?: false; ahead?: ReadAhead },
): Promise<RepoByName>;
export async function findRepoByName(
  em: EntityManager,
  owner: Plain<IUser> | string,
  repoName: string,
  opts?: { plain?: boolean; ahead?: ReadAhead },
): Promise<PlainRepoByName>;
export async function findRepoByName(
  em: EntityManager,
  owner: Plain<IUser> | string,
  repoName: string,
  opts: { plain?: boolean; ahead?: ReadAhead } = {},
): Promise<PlainRepoByName> {
  const known = opts.ahead?.take(
    REPO_READ,
    (k) => k.repoName === repoName.toLowerCase() && k.ownerName === (typeof owner === 'string' ? owner.toLowerCase() : owner.lowerName),
  );
  if (known) {
    return repoFromRow(em, known.row, typeof owner === 'string' ? null : owner, !!opts.plain);
  }
  // The texts are built once and run as named prepared statements (model/sql.ts readPrepared).
  const rows =
    typeof owner === 'string'
      ? await readPrepared<RepoRow>(
          em,
          [User, Repository, RepoUnit, RepoTransfer],
          (byOwnerNameSql ??= `select ${prefixedColumns(em, User, 'u')}, ${prefixedColumns(em, Repository, 'r')}, ${REPO_EXTRAS}
         from "user" u left join repository r on r.owner_id = u.id and r.lower_name = ? where u.lower_name = ?`),
          [repoName.toLowerCase(), owner.toLowerCase()],
        )
      : await readPrepared<RepoRow>(
          em,
          [Repository, RepoUnit, RepoTransfer],
          (byOwnerSql ??= `select ${prefixedColumns(em, Repository, 'r')}, ${REPO_EXTRAS} from repository r where r.owner_id = ? and r.lower_name = ?`),
          [owner.id, repoName.toLowerCase()],
        );
  return repoFromRow(em, rows[0], typeof owner === 'string' ? null : owner, !!opts.plain);
}

/**
 * The select list and joins that find an owner (alias `o`) by name and its repository (`r`) by name
 * with its units and transfer state, for a statement that reads something else as well (the caller's
 * token, lib/auth/tokens.ts); its two placeholders are the repository's and the owner's name in lower case, as given to
 * `keepRepoRead`. `more` adds select expressions over `o` and `r`.
 */
export const repoByNameLateral = (em: EntityManager, more = '') =>
  `left join lateral (select ${prefixedColumns(em, User, 'o')}, ${prefixedColumns(em, Repository, 'r')}, ${REPO_EXTRAS}${more}
     from "user" o left join repository r on r.owner_id = o.id and r.lower_name = ? where o.lower_name = ?) ahead on true`;

/**
 * What another statement of this request read with `repoByNameLateral`, for the request's first
 * `findRepoByName` of that name (its REPO loader, before anything changed; plain objects for a request
 * that changes nothing, managed entities for a write): one statement instead of two for every request
 * below `{R}` with a token.
 */
const REPO_READ = new Slot<{ ownerName: string; repoName: string; row: RepoRow | undefined }>('repository read with the token');

/** Keeps the columns `repoByNameLateral` selected in `row` as the answer for this owner and repository name. */
export function keepRepoRead(ahead: ReadAhead, ownerName: string, repoName: string, row: Record<string, unknown>): void {
  const found = row.o == null ? undefined : ({ u: row.o, r: row.r, units: row.units, transfer_pending: row.transfer_pending } as RepoRow);
  ahead.keep(REPO_READ, { ownerName: ownerName.toLowerCase(), repoName: repoName.toLowerCase(), row: found });
}

function repoFromRow(em: EntityManager, row: RepoRow | undefined, knownOwner: null): RepoByName;
function repoFromRow(em: EntityManager, row: RepoRow | undefined, knownOwner: Plain<IUser> | null, plain: boolean): PlainRepoByName;
function repoFromRow(em: EntityManager, row: RepoRow | undefined, knownOwner: Plain<IUser> | null, plain = false): PlainRepoByName {
  const map = plain ? plainPrefixed : mapPrefixed;
  const owner = knownOwner ?? (row ? map(em, User, row, 'u') : null);
  const repo = row ? map(em, Repository, row, 'r') : null;
  return {
    owner,
    repo,
    // Plain rows, not managed entities: readers only look at them (an edit of the units reads them
    // again), and hydrating eight entities is a good part of a small request's time.
    units: repo ? (row!.units ?? []).map(unitRow).sort((a, b) => a.type - b.type) : [],
    transferPending: !!row?.transfer_pending,
  };
}

/** A repository by id with its owner, units and transfer state, in one query (a fork's parent). */
export async function findRepoById(em: EntityManager, id: number): Promise<RepoByName> {
  const rows = await readPrepared<RepoRow>(
    em,
    [User, Repository, RepoUnit, RepoTransfer],
    (byIdSql ??= `select ${prefixedColumns(em, User, 'u')}, ${prefixedColumns(em, Repository, 'r')}, ${REPO_EXTRAS}
       from repository r join "user" u on u.id = r.owner_id where r.id = ?`),
    [id],
  );
  return repoFromRow(em, rows[0], null);
}

const exists = (p: string) =>
  fs.access(p).then(
    () => true,
    () => false,
  );

/** Moves a repository directory and its wiki, if any. */
export async function moveGitDirs(
  services: Services,
  from: { owner: string; name: string },
  to: { owner: string; name: string },
): Promise<void> {
  const src = services.repoPath(from.owner, from.name);
  const dst = services.repoPath(to.owner, to.name);
  if (src === dst) return;
  await renameRepo(src, dst);
  const wikiSrc = wikiPath(services, from.owner, from.name);
  if (await exists(wikiSrc)) await renameRepo(wikiSrc, wikiPath(services, to.owner, to.name));
}

/** Moves the repository directory and leaves a redirect from the old name (spec, path resolution rule 3). */
export async function renameRepository(
  em: EntityManager,
  services: Services,
  repo: IRepository,
  owner: IUser,
  newName: string,
): Promise<void> {
  checkRepoName(newName);
  if (newName === repo.name) return;
  if (
    newName.toLowerCase() !== repo.lowerName &&
    (await em.count(Repository, { ownerId: owner.id, lowerName: newName.toLowerCase() })) > 0
  ) {
    throw conflict(REPO_EXISTS);
  }
  const oldName = repo.name;
  if (newName.toLowerCase() !== repo.lowerName) {
    await em.nativeDelete(RepoRedirect, { ownerId: owner.id, lowerName: newName.toLowerCase() });
    em.create(RepoRedirect, { ownerId: owner.id, lowerName: repo.lowerName, redirectRepoId: repo.id });
  }
  repo.name = newName;
  repo.lowerName = newName.toLowerCase();
  await em.flush();
  await moveGitDirs(services, { owner: owner.name, name: oldName }, { owner: owner.name, name: newName });
}

/**
 * Recount a repository's `num_forks` after a fork of it was created or deleted, under its row lock
 * (lib/db/counters.ts); an entity of it this request holds learns the new value.
 */
export async function recountForks(em: EntityManager, baseId: number): Promise<void> {
  await em.flush();
  await lockCounterRows(em, { repository: [baseId] });
  const rows = await executeSql<{ num_forks: number }>(
    em,
    sql`update repository r set num_forks = (select count(*) from repository f where f.fork_id = r.id) where r.id = ${baseId} returning num_forks`,
  );
  if (rows.length) learnCounters(em, Repository, baseId, { numForks: Number(rows[0]!.num_forks) });
}

/**
 * Deletes the record and everything that points at it, then the git directories. Forks of it become
 * ordinary repositories; the repository it was forked from counts one fork less.
 */
export async function deleteRepository(em: EntityManager, services: Services, repo: IRepository, owner: IUser): Promise<void> {
  const repoId = repo.id;
  await em.nativeDelete(RepoUnit, { repoId });
  await em.nativeDelete(Collaboration, { repoId });
  await em.nativeDelete(TeamRepo, { repoId });
  await em.nativeDelete(AccessTokenRepo, { repoId });
  await em.nativeDelete(Star, { repoId });
  await em.nativeDelete(Watch, { repoId });
  await em.nativeDelete(Notification, { repoId });
  await em.nativeDelete(RepoTransfer, { repoId });
  await em.nativeDelete(Mirror, { repoId });
  await em.nativeDelete(PushMirror, { repoId });
  await em.nativeDelete(Label, { repoId });
  await em.nativeDelete(ProtectedBranch, { repoId });
  await em.nativeDelete(ProtectedTag, { repoId });
  await em.nativeDelete(CommitStatus, { repoId });
  // The object files stay: another repository may link the same oid (lib/transport/lfs-store.ts).
  await em.nativeDelete(LfsMetaObject, { repositoryId: repoId });
  await em.nativeDelete(LfsLock, { repoId });
  await deleteActionConfig(em, { repoId });
  await dropRepoTopics(em, repoId);
  await unlinkRepoPackages(em, repoId);
  await em.nativeDelete(RepoRedirect, { redirectRepoId: repoId });
  await em.nativeUpdate(Repository, { forkId: repoId }, { forkId: 0, isFork: false });
  em.remove(repo);
  await em.flush();
  if (repo.isFork && repo.forkId) await recountForks(em, repo.forkId);
  // Move aside first so a half-finished removal never leaves a repository that looks valid.
  for (const dir of [services.repoPath(owner.name, repo.name), wikiPath(services, owner.name, repo.name)]) {
    await closeBatch(dir);
    const trash = `${dir}.deleted-${randomBytes(4).toString('hex')}`;
    await fs.rename(dir, trash).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
    await deleteRepo(trash);
  }
}
