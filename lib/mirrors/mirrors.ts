// Migrations from a git URL, pull mirrors and push mirrors (Forgejo services/migrations,
// services/mirror). Remote credentials are sealed with the instance secret and handed to git only
// through its environment (git/remote.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import nodePath from 'node:path';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import type { Services } from '../http/services.ts';
import { Mirror, PushMirror, type IMirror, type IPushMirror } from '../../model/mirror.ts';
import type { IRepository } from '../../model/repo.ts';
import type { IUser } from '../../model/user.ts';
import { HttpError, conflict, unprocessable } from '../http/errors.ts';
import type { Transact } from '../http/request.ts';
import { DEFAULT_UNITS } from '../auth/perm.ts';
import { FILES_EXIST, MIRROR_UNITS, checkNewRepo, insertRepository, wikiPath, type RepoRecord } from '../repos/index.ts';
import { DEFAULT_MIRROR_INTERVAL, checkMirrorInterval, parseDuration } from '../../model/duration.ts';
import { checkRemoteAllowed, parseRemote, type Remote } from './remote-url.ts';
import { GlobError, compileGlob } from '../repos/index.ts';
import { discardImport, readImport, writeImport, type ImportData, type ImportPlan } from './migrate-import.ts';
import type { ApiSource } from './migrate-remote.ts';
import { GitError, RepoExistsError } from '../../git/errors.ts';
import { readRef } from '../../git/lookup.ts';
import { deleteRepo, initBare, isEmpty, listRefs, renameRepo, repoSize, setHead } from '../../git/repo.ts';
import {
  ALL_BRANCHES_AND_TAGS,
  configureMirrorOrigin,
  fetchFrom,
  fetchOrigin,
  pushTo,
  remoteExists,
  remoteHeadBranch,
  removeOrigin,
  type RemoteAuth,
} from '../../git/remote.ts';

const seal = (services: Services, auth: RemoteAuth | null) => (auth ? services.secrets.seal(JSON.stringify(auth)) : '');
function unseal(services: Services, sealed: string): RemoteAuth | null {
  if (!sealed) return null;
  const v = JSON.parse(services.secrets.open(sealed)) as Partial<RemoteAuth>;
  return { username: String(v.username ?? ''), password: String(v.password ?? '') };
}

/** Git's own words for a failed remote operation, as Forgejo's handleMigrateError words them (422). */
function remoteFailure(e: unknown): never {
  if (e instanceof GitError) {
    const detail = e.stderr
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '')
      .slice(-2)
      .join(' ');
    if (/Authentication failed|could not read Username|401|403/.test(e.stderr)) throw unprocessable(`Authentication failed: ${detail}.`);
    throw unprocessable(`Migration failed: ${detail || e.message}.`);
  }
  throw e;
}

export interface MigrateInput {
  cloneAddr: string;
  authUsername?: string;
  authPassword?: string;
  authToken?: string;
  name: string;
  description?: string;
  private?: boolean;
  mirror?: boolean;
  mirrorInterval?: string;
  wiki?: boolean;
  /** Milestones, labels, releases, issues and pulls to read from another instance of this API after the clone. */
  apiImport?: { src: ApiSource; plan: ImportPlan };
}

/** The remote of a migration request, checked against the instance's allow and block lists. */
export async function migrationRemote(cfg: Config, input: MigrateInput): Promise<Remote> {
  const remote = parseRemote(input.cloneAddr, input.authUsername ?? '', input.authPassword ?? '');
  if (input.authToken && !remote.auth) remote.auth = { username: 'oauth2', password: input.authToken };
  await checkRemoteAllowed(cfg, remote.url);
  return remote;
}

/** Forgejo's WikiRemoteURL: `<address without .git>.wiki.git`. */
const wikiUrlOf = (url: string) => `${url.replace(/\/+$/, '').replace(/\.git$/, '')}.wiki.git`;

/**
 * Where a migration clones before its repository exists, one directory each:
 * `<ROOT>/.migrating/<id>/{repo,wiki}.git` (no owner can be named `.migrating`). At start,
 * lib/maintenance/leftovers.ts removes what a killed process left there.
 */
export const migrationSpool = (cfg: Pick<Config, 'repoRoot'>) => nodePath.join(cfg.repoRoot, '.migrating');

/**
 * `POST /repos/migrate`, in three steps, none holding a transaction across a network call (the source
 * may be this very instance, whose git and API answers need the database too):
 * 1. the checks: the address against the allow and block lists, a free name, no files in its place;
 * 2. the clone, the wiki and the API import are read into a staging directory of the migration spool
 *    and the attachment spool, with no transaction open;
 * 3. one short transaction inserts the repository (its unique name is the claim: a request that took
 *    the name meanwhile makes this one 409), moves the staged directories into place and writes what
 *    was read.
 * When anything fails, what was staged or moved into place is removed and the transaction rolls back:
 * nothing is half-written. A process killed during step 2 leaves only the spools, cleared at the next
 * start; one killed inside step 3 may leave the moved directory without its record, as a repository
 * created through `POST /user/repos` may, which an admin adopts or deletes (`/admin/unadopted`).
 */
export async function migrateRepository(
  em: EntityManager,
  transact: Transact,
  cfg: Config,
  services: Services,
  doer: IUser,
  owner: IUser,
  input: MigrateInput,
): Promise<IRepository> {
  let interval = DEFAULT_MIRROR_INTERVAL;
  let intervalMs = parseDuration(DEFAULT_MIRROR_INTERVAL) ?? 0;
  if (input.mirror && input.mirrorInterval) {
    const r = checkMirrorInterval(input.mirrorInterval);
    if ('error' in r) throw unprocessable(r.error);
    interval = r.text;
    intervalMs = r.ms;
  }
  const remote = await migrationRemote(cfg, input);
  const record: RepoRecord = {
    name: input.name,
    description: input.description,
    private: input.private,
    units: input.mirror ? MIRROR_UNITS : DEFAULT_UNITS,
    isMirror: !!input.mirror,
    mirrorInterval: input.mirror ? interval : '',
    originalUrl: remote.url,
  };
  await checkNewRepo(em, cfg, owner, record);
  const path = services.repoPath(owner.name, input.name);
  const wiki = wikiPath(services, owner.name, input.name);
  if (await exists(path)) throw conflict(FILES_EXIST);

  const stage = nodePath.join(migrationSpool(cfg), randomUUID());
  const staged = { repo: nodePath.join(stage, 'repo.git'), wiki: nodePath.join(stage, 'wiki.git') };
  const defaultBranch = cfg.REPOSITORY.DEFAULT_BRANCH;
  let data: ImportData | null = null;
  const placed: string[] = [];
  try {
    await initBare(staged.repo, { defaultBranch });
    const head = await remoteHeadBranch(remote.url, remote.auth).catch(remoteFailure);
    await fetchFrom(staged.repo, remote.url, ALL_BRANCHES_AND_TAGS, { auth: remote.auth }).catch(remoteFailure);
    const branches = (await listRefs(staged.repo, 'refs/heads/')).map((r) => r.name.slice('refs/heads/'.length));
    const branch = head && branches.includes(head) ? head : branches.includes(defaultBranch) ? defaultBranch : branches[0];
    if (branch) await setHead(staged.repo, branch);
    const empty = await isEmpty(staged.repo);
    const size = await repoSize(staged.repo);
    if (input.mirror) await configureMirrorOrigin(staged.repo, remote.url);
    const withWiki = !!input.wiki && (await migrateWiki(staged.wiki, defaultBranch, remote));
    if (input.apiImport)
      data = await readImport(cfg, input.apiImport.src, input.apiImport.plan, { path: staged.repo, remote }).catch(remoteFailure);
    const read = data;
    return await transact(async () => {
      const repo = await insertRepository(em, cfg, owner, doer, record);
      if (branch) repo.defaultBranch = branch;
      repo.isEmpty = empty;
      repo.size = size;
      if (input.mirror) {
        const now = new Date();
        em.create(Mirror, {
          repoId: repo.id,
          remoteAddress: remote.url,
          credentials: seal(services, remote.auth),
          interval,
          enablePrune: true,
          updatedAt: now,
          nextUpdateAt: intervalMs ? new Date(now.getTime() + intervalMs) : null,
        });
        repo.mirrorUpdatedAt = now;
      }
      await moveInPlace(staged.repo, path, placed);
      if (withWiki) await moveInPlace(staged.wiki, wiki, placed);
      if (read) await writeImport({ em, cfg, services, repo, owner, doer, path, remote }, read).catch(remoteFailure);
      return repo;
    });
  } catch (e) {
    for (const p of placed) await deleteRepo(p);
    if (data) await discardImport(data);
    throw e;
  } finally {
    await deleteRepo(staged.repo);
    await deleteRepo(staged.wiki);
    await fs.rm(stage, { recursive: true, force: true });
  }
}

/** Moves a staged repository to `to` and notes it in `placed`; 409 when files are in its place. */
async function moveInPlace(from: string, to: string, placed: string[]): Promise<void> {
  try {
    await renameRepo(from, to);
  } catch (e) {
    if (e instanceof RepoExistsError) throw conflict(FILES_EXIST);
    throw e;
  }
  placed.push(to);
}

const exists = (p: string) =>
  fs.stat(p).then(
    () => true,
    (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return false;
      throw e;
    },
  );

/**
 * A wiki next to the remote is copied into `path` when there is one; a wiki that fails to copy is
 * left out, as in Forgejo. Whether it was copied.
 */
async function migrateWiki(path: string, defaultBranch: string, remote: Remote): Promise<boolean> {
  const url = wikiUrlOf(remote.url);
  if (!(await remoteExists(url, remote.auth))) return false;
  await initBare(path, { defaultBranch });
  const ok = await fetchFrom(path, url, ALL_BRANCHES_AND_TAGS, { auth: remote.auth }).then(
    () => true,
    (e: unknown) => {
      if (e instanceof GitError) return false;
      throw e;
    },
  );
  if (!ok) await deleteRepo(path);
  return ok;
}

/**
 * `POST {R}/mirror-sync` and the scheduler: fetches from the mirror's origin with no transaction open,
 * then writes the outcome in a short one. A failure is kept as the mirror's last error.
 */
export async function syncMirror(em: EntityManager, transact: Transact, services: Services, repo: IRepository): Promise<IMirror | null> {
  const mirror = await em.findOne(Mirror, { repoId: repo.id }, { populate: ['credentials'] });
  if (!mirror) return null;
  const path = services.repoPath(repo.ownerName, repo.name);
  let lastError = '';
  try {
    await fetchOrigin(path, { auth: unseal(services, mirror.credentials), prune: mirror.enablePrune });
  } catch (e) {
    if (!(e instanceof GitError)) throw e;
    lastError = e.stderr.trim() || e.message;
  }
  const empty = await isEmpty(path);
  const size = await repoSize(path);
  // A mirror of an empty (or since renamed) default branch follows the first branch there is.
  let defaultBranch = repo.defaultBranch;
  if (!(await readRef(path, 'heads', defaultBranch))) {
    const first = (await listRefs(path, 'refs/heads/'))[0];
    if (first) {
      defaultBranch = first.name.slice('refs/heads/'.length);
      await setHead(path, defaultBranch);
    }
  }
  await transact(async () => {
    const now = new Date();
    const ms = parseDuration(mirror.interval) ?? 0;
    mirror.lastError = lastError;
    mirror.updatedAt = now;
    mirror.nextUpdateAt = ms ? new Date(now.getTime() + ms) : null;
    repo.mirrorUpdatedAt = now;
    repo.isEmpty = empty;
    repo.size = size;
    repo.defaultBranch = defaultBranch;
  });
  return mirror;
}

/** `POST {R}/convert`: a mirror becomes an ordinary repository. */
export async function convertMirror(em: EntityManager, services: Services, repo: IRepository): Promise<void> {
  await em.nativeDelete(Mirror, { repoId: repo.id });
  repo.isMirror = false;
  repo.mirrorInterval = '';
  repo.mirrorUpdatedAt = null;
  await em.flush();
  await removeOrigin(services.repoPath(repo.ownerName, repo.name));
}

// --- Push mirrors ------------------------------------------------------------------------------

export interface NewPushMirror {
  remoteAddress: string;
  remoteUsername?: string;
  remotePassword?: string;
  interval?: string;
  syncOnCommit?: boolean;
  branchFilter?: string;
  useSsh?: boolean;
}

const badRequest400 = (m: string) => new HttpError(400, m);

/** Checks the push mirror (the address against the allow and block lists: a name lookup), then writes it in a short transaction. */
export async function createPushMirror(
  em: EntityManager,
  transact: Transact,
  cfg: Config,
  services: Services,
  repo: IRepository,
  input: NewPushMirror,
): Promise<IPushMirror> {
  const text = input.interval ?? '';
  const ms = parseDuration(text);
  if (ms === null) throw badRequest400(`time: invalid duration "${text}"`);
  const checked = checkMirrorInterval(text);
  if ('error' in checked) throw badRequest400(checked.error);
  if (input.useSsh) throw badRequest400('SSH authentication not available.');
  for (const f of splitFilter(input.branchFilter ?? '')) {
    try {
      compileGlob(f, '/');
    } catch (e) {
      if (e instanceof GlobError) throw badRequest400(`invalid branch filter: ${e.message}`);
      throw e;
    }
  }
  const remote = parseRemote(input.remoteAddress, input.remoteUsername ?? '', input.remotePassword ?? '');
  await checkRemoteAllowed(cfg, remote.url);
  return transact(async () =>
    em.create(PushMirror, {
      repoId: repo.id,
      remoteName: `remote_mirror_${randomBytes(5).toString('hex')}`,
      remoteAddress: remote.url,
      credentials: seal(services, remote.auth),
      branchFilter: input.branchFilter ?? '',
      syncOnCommit: input.syncOnCommit ?? false,
      interval: checked.text,
      nextUpdateAt: checked.ms ? new Date(Date.now() + checked.ms) : null,
    }),
  );
}

const splitFilter = (f: string) =>
  f
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');

/**
 * Pushes to one push mirror with no transaction open (the remote may be this very instance, whose
 * receiving end writes to the database), then records the outcome in a short one; false (with
 * `last_error` set) when the remote refused.
 */
export async function syncPushMirror(
  em: EntityManager,
  transact: Transact,
  services: Services,
  repo: IRepository,
  pm: IPushMirror,
): Promise<boolean> {
  const path = services.repoPath(repo.ownerName, repo.name);
  const sealed = (await em.findOneOrFail(PushMirror, { id: pm.id }, { populate: ['credentials'] })).credentials;
  let branches: string[] = [];
  if (pm.branchFilter) {
    const globs = splitFilter(pm.branchFilter).map((f) => compileGlob(f, '/'));
    branches = (await listRefs(path, 'refs/heads/'))
      .map((r) => r.name.slice('refs/heads/'.length))
      .filter((b) => globs.some((g) => g.test(b)));
  }
  let ok = true;
  let lastError = '';
  try {
    if (!pm.branchFilter || branches.length) await pushTo(path, pm.remoteAddress, unseal(services, sealed), branches);
  } catch (e) {
    if (!(e instanceof GitError)) throw e;
    lastError = e.stderr.trim() || e.message;
    ok = false;
  }
  await transact(async () => {
    pm.lastError = lastError;
    pm.lastUpdate = new Date();
  });
  return ok;
}
