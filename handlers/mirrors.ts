// Migrations, pull-mirror sync, mirror conversion and push mirrors (Forgejo routers/api/v1/repo/
// migrate.go, mirror.go, repo.go Convert).
import type { Handler } from '../lib/http/handler.ts';
import { json, network, noContent, signedIn, transactionOf } from '../lib/http/handler.ts';
import type { CreatePushMirrorOption, MigrateRepoOptions } from '../model/schemas/index.ts';
import { User, type IUser } from '../model/user.ts';
import { PushMirror } from '../model/mirror.ts';
import { notFound, unprocessable } from '../lib/http/errors.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { toApiPushMirror } from '../lib/mirrors/api/mirror.ts';
import {
  convertMirror,
  createPushMirror,
  migrateRepository,
  syncMirror,
  syncPushMirror,
  type MigrateInput,
} from '../lib/mirrors/mirrors.ts';
import { apiSourceOf, servesApi } from '../lib/mirrors/migrate-remote.ts';
import { need } from '../lib/http/request.ts';
import { repoJson } from '../lib/repos/api/repo-json.ts';

const IMPORTABLE = ['issues', 'labels', 'milestones', 'releases', 'pull_requests'] as const;

/**
 * `POST /repos/migrate`. MIGRATE_OWNER has vetted the owner. Besides git data (and a wiki), the
 * repository's milestones, labels, releases, issues and pull requests are imported from another
 * instance of this API: `service: gitea`, or a git URL whose host serves `/api/v1/version`. A plain
 * git source ignores those options and a mirror never takes them, as in Forgejo; other services
 * cannot be read. The handlers of this family that reach a remote are `network`: they hold no
 * transaction while the remote answers (lib/mirrors/mirrors.ts).
 */
export const migrate = network(
  signedIn<MigrateRepoOptions>(async (c) => {
    const b = c.body;
    const doer = c.auth.doer;
    let owner: IUser = doer;
    if (b.repo_owner) owner = await c.em.findOneOrFail(User, { lowerName: b.repo_owner.toLowerCase() });
    else if (b.uid) owner = await c.em.findOneOrFail(User, { id: b.uid });
    const asked = b.mirror ? [] : IMPORTABLE.filter((k) => b[k]);
    let apiImport: MigrateInput['apiImport'];
    if (asked.length) {
      const service = b.service || 'git';
      if (service !== 'git' && service !== 'gitea') {
        throw unprocessable(
          `migrating ${asked.join(', ')} from ${service} is not supported; only another Forgejo or Gitea instance (service "gitea") can be read`,
        );
      }
      const src = apiSourceOf(b.clone_addr, { username: b.auth_username, password: b.auth_password, token: b.auth_token });
      if (service === 'gitea' && !src)
        throw unprocessable('clone_addr must be the http(s) address of a repository, <instance>/<owner>/<repo>, to migrate from gitea');
      if (src && (service === 'gitea' || (await servesApi(c.config, src)))) {
        apiImport = {
          src,
          plan: { milestones: !!b.milestones, labels: !!b.labels, releases: !!b.releases, issues: !!b.issues, pulls: !!b.pull_requests },
        };
      }
    }
    const repo = await migrateRepository(c.em, transactionOf(c), c.config, c.services, doer, owner, {
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
      apiImport,
    });
    return json(201, await repoJson(c, repo, owner));
  }),
);

export const mirrorSync: Handler = network(async (c) => {
  await syncMirror(c.em, transactionOf(c), c.services, need(c.repo, 'repo').repo);
  return { status: 200 };
});

export const convert: Handler = async (c) => {
  const { repo, owner } = need(c.repo, 'repo');
  await convertMirror(c.em, c.services, repo);
  return json(200, await repoJson(c, repo, owner));
};

export const listPushMirrors: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const p = pageOf(c);
  const [rows, total] = await c.em.findAndCount(
    PushMirror,
    { repoId: repo.id },
    { orderBy: { id: 'asc' }, limit: p.limit, offset: p.offset },
  );
  return json(
    200,
    rows.map((pm) => toApiPushMirror(repo, pm)),
    pagingHeaders(c, p, total),
  );
};

export const getPushMirror: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  const pm = await c.em.findOne(PushMirror, { repoId: repo.id, remoteName: c.params.name ?? '' });
  if (!pm) throw notFound();
  return json(200, toApiPushMirror(repo, pm));
};

export const createPushMirrorOf: Handler<CreatePushMirrorOption> = network(async (c) => {
  const { repo } = need(c.repo, 'repo');
  const b = c.body;
  const pm = await createPushMirror(c.em, transactionOf(c), c.config, c.services, repo, {
    remoteAddress: b.remote_address ?? '',
    remoteUsername: b.remote_username,
    remotePassword: b.remote_password,
    interval: b.interval,
    syncOnCommit: b.sync_on_commit,
    branchFilter: b.branch_filter,
    useSsh: b.use_ssh,
  });
  return json(200, toApiPushMirror(repo, pm));
});

export const removePushMirror: Handler = async (c) => {
  const { repo } = need(c.repo, 'repo');
  if ((await c.em.nativeDelete(PushMirror, { repoId: repo.id, remoteName: c.params.name ?? '' })) === 0) throw notFound();
  return noContent();
};

/** Pushes to every push mirror now; a failure is kept as that mirror's `last_error`. */
export const syncPushMirrors: Handler = network(async (c) => {
  const { repo } = need(c.repo, 'repo');
  for (const pm of await c.em.find(PushMirror, { repoId: repo.id }, { orderBy: { id: 'asc' } })) {
    if (!(await syncPushMirror(c.em, transactionOf(c), c.services, repo, pm))) {
      return json(500, { message: `error occurred when syncing push mirror ${pm.remoteName}`, url: `${c.config.appUrl}api/swagger` });
    }
  }
  return { status: 200 };
});

/** This family's handlers; `routes.table.ts` names each `mirrors.<key>`. */
export const handlers = {
  migrate,
  convert,
  mirrorSync,
  syncPushMirrors,
  listPushMirrors,
  createPushMirrorOf,
  getPushMirror,
  removePushMirror,
} satisfies Record<string, Handler<never, never>>;
