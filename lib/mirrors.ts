// Migrations from a git URL, pull mirrors and push mirrors (Forgejo services/migrations,
// services/mirror). Remote credentials are sealed with the instance secret and handed to git only
// through its environment (git/remote.ts).
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../config.ts';
import type { Services } from './services.ts';
import { Mirror, PushMirror, type IMirror, type IPushMirror } from '../model/mirror.ts';
import type { IRepository } from '../model/repo.ts';
import type { IUser } from '../model/user.ts';
import { HttpError, unprocessable } from './errors.ts';
import { DEFAULT_UNITS, type UnitName } from './perm.ts';
import { MIRROR_UNITS, insertRepository, wikiPath, withNewGitDir } from './repos.ts';
import { DEFAULT_MIRROR_INTERVAL, checkMirrorInterval, parseDuration } from '../model/duration.ts';
import { checkRemoteAllowed, parseRemote, type Remote } from './remote-url.ts';
import { GlobError, compileGlob } from './glob.ts';
import { importFromApi, type ImportPlan } from './migrate-import.ts';
import type { ApiSource } from './migrate-remote.ts';
import { GitError } from '../git/errors.ts';
import { readRef } from '../git/lookup.ts';
import { initBare, isEmpty, listRefs, repoSize, setHead, deleteRepo } from '../git/repo.ts';
import { ALL_BRANCHES_AND_TAGS, configureMirrorOrigin, fetchFrom, fetchOrigin, pushTo, remoteExists, remoteHeadBranch, removeOrigin, type RemoteAuth } from '../git/remote.ts';

const seal = (services: Services, auth: RemoteAuth | null) => (auth ? services.secrets.seal(JSON.stringify(auth)) : '');
function unseal(services: Services, sealed: string): RemoteAuth | null {
  if (!sealed) return null;
  const v = JSON.parse(services.secrets.open(sealed)) as Partial<RemoteAuth>;
  return { username: String(v.username ?? ''), password: String(v.password ?? '') };
}

/** Git's own words for a failed remote operation, as Forgejo's handleMigrateError words them (422). */
function remoteFailure(e: unknown): never {
  if (e instanceof GitError) {
    const detail = e.stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '').slice(-2).join(' ');
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

export async function migrateRepository(em: EntityManager, cfg: Config, services: Services, doer: IUser, owner: IUser, input: MigrateInput): Promise<IRepository> {
  let interval = DEFAULT_MIRROR_INTERVAL;
  let intervalMs = parseDuration(DEFAULT_MIRROR_INTERVAL) ?? 0;
  if (input.mirror && input.mirrorInterval) {
    const r = checkMirrorInterval(input.mirrorInterval);
    if ('error' in r) throw unprocessable(r.error);
    interval = r.text;
    intervalMs = r.ms;
  }
  const remote = await migrationRemote(cfg, input);
  const units: UnitName[] = input.mirror ? MIRROR_UNITS : DEFAULT_UNITS;
  const repo = await insertRepository(em, cfg, owner, doer, {
    name: input.name,
    description: input.description,
    private: input.private,
    units,
    isMirror: !!input.mirror,
    mirrorInterval: input.mirror ? interval : '',
    originalUrl: remote.url,
  });
  const path = services.repoPath(owner.name, repo.name);
  await withNewGitDir(path, { defaultBranch: repo.defaultBranch }, async () => {
    const head = await remoteHeadBranch(remote.url, remote.auth).catch(remoteFailure);
    await fetchFrom(path, remote.url, ALL_BRANCHES_AND_TAGS, { auth: remote.auth }).catch(remoteFailure);
    const branches = (await listRefs(path, 'refs/heads/')).map((r) => r.name.slice('refs/heads/'.length));
    const branch = head && branches.includes(head) ? head : (branches.includes(repo.defaultBranch) ? repo.defaultBranch : branches[0]);
    if (branch) {
      await setHead(path, branch);
      repo.defaultBranch = branch;
    }
    repo.isEmpty = await isEmpty(path);
    repo.size = await repoSize(path);
    if (input.mirror) {
      await configureMirrorOrigin(path, remote.url);
      const now = new Date();
      em.create(Mirror, {
        repoId: repo.id, remoteAddress: remote.url, credentials: seal(services, remote.auth), interval,
        enablePrune: true, updatedAt: now, nextUpdateAt: intervalMs ? new Date(now.getTime() + intervalMs) : null,
      });
      repo.mirrorUpdatedAt = now;
    }
    if (input.wiki) await migrateWiki(services, owner, repo, remote);
    if (input.apiImport) {
      // withNewGitDir removes the repository directory when this throws; the wiki goes with it.
      await importFromApi({ em, cfg, services, repo, owner, doer, path, remote }, input.apiImport.src, input.apiImport.plan)
        .catch(async (e: unknown) => { await deleteRepo(wikiPath(services, owner.name, repo.name)); remoteFailure(e); });
    }
    await em.flush();
  });
  return repo;
}

/** A wiki next to the remote is copied when there is one; a wiki that fails to copy is left out, as in Forgejo. */
async function migrateWiki(services: Services, owner: IUser, repo: IRepository, remote: Remote): Promise<void> {
  const url = wikiUrlOf(remote.url);
  if (!(await remoteExists(url, remote.auth))) return;
  const path = wikiPath(services, owner.name, repo.name);
  await initBare(path, { defaultBranch: repo.wikiBranch });
  const ok = await fetchFrom(path, url, ALL_BRANCHES_AND_TAGS, { auth: remote.auth }).then(() => true, (e: unknown) => {
    if (e instanceof GitError) return false;
    throw e;
  });
  if (!ok) await deleteRepo(path);
}

/** `POST {R}/mirror-sync`: fetches from the mirror's origin now. A failure is kept as the mirror's last error. */
export async function syncMirror(em: EntityManager, services: Services, repo: IRepository): Promise<IMirror | null> {
  const mirror = await em.findOne(Mirror, { repoId: repo.id }, { populate: ['credentials'] });
  if (!mirror) return null;
  const path = services.repoPath(repo.ownerName, repo.name);
  try {
    await fetchOrigin(path, { auth: unseal(services, mirror.credentials), prune: mirror.enablePrune });
    mirror.lastError = '';
  } catch (e) {
    if (!(e instanceof GitError)) throw e;
    mirror.lastError = e.stderr.trim() || e.message;
  }
  const now = new Date();
  const ms = parseDuration(mirror.interval) ?? 0;
  mirror.updatedAt = now;
  mirror.nextUpdateAt = ms ? new Date(now.getTime() + ms) : null;
  repo.mirrorUpdatedAt = now;
  repo.isEmpty = await isEmpty(path);
  repo.size = await repoSize(path);
  // A mirror of an empty (or since renamed) default branch follows the first branch there is.
  if (!(await readRef(path, 'heads', repo.defaultBranch))) {
    const first = (await listRefs(path, 'refs/heads/'))[0];
    if (first) {
      repo.defaultBranch = first.name.slice('refs/heads/'.length);
      await setHead(path, repo.defaultBranch);
    }
  }
  await em.flush();
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

export async function createPushMirror(em: EntityManager, cfg: Config, services: Services, repo: IRepository, input: NewPushMirror): Promise<IPushMirror> {
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
  const pm = em.create(PushMirror, {
    repoId: repo.id,
    remoteName: `remote_mirror_${randomBytes(5).toString('hex')}`,
    remoteAddress: remote.url,
    credentials: seal(services, remote.auth),
    branchFilter: input.branchFilter ?? '',
    syncOnCommit: input.syncOnCommit ?? false,
    interval: checked.text,
    nextUpdateAt: checked.ms ? new Date(Date.now() + checked.ms) : null,
  });
  await em.flush();
  return pm;
}

const splitFilter = (f: string) => f.split(',').map((x) => x.trim()).filter((x) => x !== '');

/** Pushes to one push mirror; false (with `last_error` set) when the remote refused. */
export async function syncPushMirror(em: EntityManager, services: Services, repo: IRepository, pm: IPushMirror): Promise<boolean> {
  const path = services.repoPath(repo.ownerName, repo.name);
  const sealed = (await em.findOneOrFail(PushMirror, { id: pm.id }, { populate: ['credentials'] })).credentials;
  let branches: string[] = [];
  if (pm.branchFilter) {
    const globs = splitFilter(pm.branchFilter).map((f) => compileGlob(f, '/'));
    branches = (await listRefs(path, 'refs/heads/')).map((r) => r.name.slice('refs/heads/'.length)).filter((b) => globs.some((g) => g.test(b)));
  }
  let ok = true;
  try {
    if (!pm.branchFilter || branches.length) await pushTo(path, pm.remoteAddress, unseal(services, sealed), branches);
    pm.lastError = '';
  } catch (e) {
    if (!(e instanceof GitError)) throw e;
    pm.lastError = e.stderr.trim() || e.message;
    ok = false;
  }
  pm.lastUpdate = new Date();
  await em.flush();
  return ok;
}

