// Migrations, pull-mirror sync, mirror conversion and push mirrors (Forgejo routers/api/v1/repo/
// migrate.go, mirror.go, repo.go Convert).
import type { Handler } from '../lib/handler.ts';
import { json, noContent } from '../lib/handler.ts';
import type { CreatePushMirrorOption, MigrateRepoOptions } from '../model/schemas/index.ts';
import { User, type IUser } from '../model/user.ts';
import { PushMirror } from '../model/mirror.ts';
import { notFound, unprocessable } from '../lib/errors.ts';
import { pageOf, pagingHeaders } from '../lib/paging.ts';
import { convertMirror, createPushMirror, migrateRepository, pushMirrorJson, syncMirror, syncPushMirror } from '../lib/mirrors.ts';
import { need } from '../guards/types.ts';
import { repoJson } from './repos.ts';

const NOT_MIGRATABLE = ['issues', 'labels', 'milestones', 'releases', 'pull_requests'] as const;

/** `POST /repos/migrate`. MIGRATE_OWNER has vetted the owner; only git data (and a wiki) is migrated. */
export const migrate: Handler<MigrateRepoOptions> = async (c) => {
  const b = c.body;
  const doer = c.auth.doer!;
  let owner: IUser = doer;
  if (b.repo_owner) owner = await c.em.findOneOrFail(User, { lowerName: b.repo_owner.toLowerCase() });
  else if (b.uid) owner = await c.em.findOneOrFail(User, { id: b.uid });
  // Forgejo's plain git migration ignores these options; for other services cairn cannot fetch them.
  const asked = NOT_MIGRATABLE.filter((k) => b[k]);
  if (!b.mirror && asked.length && b.service && b.service !== 'git') {
    throw unprocessable(`migrating ${asked.join(', ')} from ${b.service} is not supported; only git data and the wiki can be migrated`);
  }
  const repo = await migrateRepository(c.em, c.config, c.services, doer, owner, {
    cloneAddr: b.clone_addr,
    authUsername: b.auth_username,
    authPassword: b.auth_password,
    authToken: b.auth_token,
    name: b.repo_name,
    description: b.description,
    private: b.private,
    mirror: b.mirror,
    mirrorInterval: b.mirror_interval,
    wiki: b.wiki,
  });
  return json(201, await repoJson(c, repo, owner));
};

export const mirrorSync: Handler = async (c) => {
  await syncMirror(c.em, c.services, need(c.repo, 'repo').repo);
  return { status: 200 };
};

export const convert: Handler = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  await convertMirror(c.em, c.services, repo);
  return json(200, await repoJson(c, repo, owner));
};

export const listPushMirrors: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const p = pageOf(c);
  const [rows, total] = await c.em.findAndCount(PushMirror, { repoId: repo.id }, { orderBy: { id: 'asc' }, limit: p.limit, offset: p.offset });
  return json(200, rows.map((pm) => pushMirrorJson(repo, pm)), pagingHeaders(c, p, total));
};

export const getPushMirror: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const pm = await c.em.findOne(PushMirror, { repoId: repo.id, remoteName: c.params.name ?? '' });
  if (!pm) throw notFound();
  return json(200, pushMirrorJson(repo, pm));
};

export const createPushMirrorOf: Handler<CreatePushMirrorOption> = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const b = c.body;
  const pm = await createPushMirror(c.em, c.config, c.services, repo, {
    remoteAddress: b.remote_address ?? '',
    remoteUsername: b.remote_username,
    remotePassword: b.remote_password,
    interval: b.interval,
    syncOnCommit: b.sync_on_commit,
    branchFilter: b.branch_filter,
    useSsh: b.use_ssh,
  });
  return json(200, pushMirrorJson(repo, pm));
};

export const removePushMirror: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  if ((await c.em.nativeDelete(PushMirror, { repoId: repo.id, remoteName: c.params.name ?? '' })) === 0) throw notFound();
  return noContent();
};

/** Pushes to every push mirror now; a failure is kept as that mirror's `last_error`. */
export const syncPushMirrors: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  for (const pm of await c.em.find(PushMirror, { repoId: repo.id }, { orderBy: { id: 'asc' } })) {
    if (!(await syncPushMirror(c.em, c.services, repo, pm))) {
      return json(500, { message: `error occurred when syncing push mirror ${pm.remoteName}`, url: `${c.config.appUrl}api/swagger` });
    }
  }
  return { status: 200 };
};
