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
import { apiSourceOf, fetchSourceLabels, servesApi, type SourceLabel } from '../lib/migrate-labels.ts';
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
  // Forgejo's plain git migration ignores these options. From another instance of this API (service
  // gitea, or a git URL whose host serves /api/v1/version) labels are imported; the rest cannot be
  // stored by cairn, and no other service can be read.
  const asked = NOT_MIGRATABLE.filter((k) => b[k]);
  let labels: SourceLabel[] = [];
  if (!b.mirror && asked.length) {
    const service = b.service || 'git';
    const src = service === 'git' || service === 'gitea'
      ? apiSourceOf(b.clone_addr, { username: b.auth_username, password: b.auth_password, token: b.auth_token })
      : null;
    const isApi = !!src && (service === 'gitea' || (await servesApi(c.config, src)));
    if (service !== 'git' || isApi) {
      const refused = asked.filter((k) => k !== 'labels' || !isApi);
      if (refused.length) throw unprocessable(`migrating ${refused.join(', ')} from ${service} is not supported; only git data, the wiki and labels can be migrated`);
      if (src && b.labels) labels = await fetchSourceLabels(c.config, src);
    }
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
    labels,
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
