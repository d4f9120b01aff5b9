// Packages of an owner (Forgejo routers/api/v1/packages/package.go). Packages are created through the
// package registries (transports/registries/); the API lists, shows and deletes versions, lists their
// files, and links a package to a repository of its owner.
import type { FilterQuery } from '@mikro-orm/core';
import type { Handler, HandlerCtx } from '../lib/http/handler.ts';
import { json, noContent } from '../lib/http/handler.ts';
import { Package, PackageVersion, type IPackage, type IPackageVersion } from '../model/package.ts';
import { Repository } from '../model/repo.ts';
import { User, type IUser } from '../model/user.ts';
import { toApiPackage, toApiPackageFile } from '../lib/packages/api/package.ts';
import { findPackage, removePackageVersion, versionFiles } from '../lib/packages/packages.ts';
import { repoPermission } from '../lib/auth/perm.ts';
import { pageOf, pagingHeaders } from '../lib/http/paging.ts';
import { notFound } from '../lib/http/errors.ts';
import { isSiteAdmin, need } from '../lib/http/request.ts';
import { repoJson } from '../lib/repos/api/repo-json.ts';
import type { ApiRepo } from '../lib/repos/api/repo.ts';
import type { QueryOf } from '../model/schemas/query.ts';

type Row = { pkg: IPackage; version: IPackageVersion };

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** The linked repositories the caller may read, as api.Repository; Forgejo leaves the others out. */
async function readableRepos(c: HandlerCtx<unknown>, owner: IUser, repoIds: number[]): Promise<Map<number, ApiRepo>> {
  const out = new Map<number, ApiRepo>();
  if (repoIds.length === 0) return out;
  for (const repo of await c.em.find(Repository, { id: { $in: repoIds } })) {
    const perm = await repoPermission(c.em, { repo, owner, doer: c.auth.doer, siteAdmin: isSiteAdmin(c), token: c.auth.token });
    if (perm.hasAnyAccess()) out.set(repo.id, await repoJson(c, repo, owner));
  }
  return out;
}

/** api.Package for each version, creators and repositories loaded once. */
async function packagesJson(c: HandlerCtx<unknown>, rows: Row[]) {
  const owner = need(c.contextUser, 'user');
  const viewer = { doer: c.auth.doer, siteAdmin: isSiteAdmin(c) };
  const creatorIds = [...new Set(rows.map((r) => r.version.creatorId))];
  const creators = new Map((creatorIds.length ? await c.em.find(User, { id: { $in: creatorIds } }) : []).map((u) => [u.id, u]));
  const repos = await readableRepos(c, owner, [...new Set(rows.map((r) => r.pkg.repoId).filter((id) => id > 0))]);
  return rows.map(({ pkg, version }) =>
    toApiPackage(
      c.config,
      {
        pkg,
        version,
        owner,
        creator: creators.get(version.creatorId) ?? null,
        repository: repos.get(pkg.repoId) ?? null,
      },
      viewer,
    ),
  );
}

/** `type` filters exactly, `q` matches part of the name; newest versions first (Forgejo's SearchVersions). */
export const list: Handler<never, QueryOf<'Packages'>> = async (c) => {
  const owner = need(c.contextUser, 'user');
  const where: FilterQuery<IPackage> = { ownerId: owner.id };
  const type = (c.q.type ?? '').trim();
  const q = (c.q.q ?? '').trim();
  if (type !== '') where.type = type;
  if (q !== '') where.lowerName = { $like: `%${likeEscape(q.toLowerCase())}%` };
  const pkgs = new Map((await c.em.find(Package, where)).map((p) => [p.id, p]));
  const page = pageOf(c);
  const [versions, total] =
    pkgs.size === 0
      ? ([[], 0] as const)
      : await c.em.findAndCount(
          PackageVersion,
          { packageId: { $in: [...pkgs.keys()] }, isInternal: false },
          { orderBy: { createdAt: 'desc', id: 'desc' }, limit: page.limit, offset: page.offset },
        );
  const rows = versions.map((version) => ({ pkg: pkgs.get(version.packageId)!, version }));
  return json(200, await packagesJson(c, rows), pagingHeaders(c, page, total));
};

export const get: Handler = async (c) => {
  const [one] = await packagesJson(c, [need(c.package, 'package')]);
  return json(200, one);
};

/** Removes the version, its files, and blobs no other file shares. */
export const remove: Handler = async (c) => {
  await removePackageVersion(c.em, c.config, need(c.package, 'package').version);
  return noContent();
};

export const listFiles: Handler = async (c) => {
  const files = await versionFiles(c.em, need(c.package, 'package').version.id);
  return json(200, files.map(toApiPackageFile));
};

/** The package `{type}/{name}` of the owner, which the chain does not resolve for link and unlink. */
async function namedPackage(c: HandlerCtx<unknown>): Promise<IPackage> {
  const pkg = await findPackage(c.em, need(c.contextUser, 'user').id, c.params.type ?? '', c.params.name ?? '');
  if (!pkg) throw notFound();
  return pkg;
}

/**
 * Links the package to `{repo_name}` (Forgejo LinkToRepository; PKG_LINK_REPO and PKG_LINKER resolved the
 * repository and decided who may): unknown package 404. A linked package is linked anew, as Forgejo's
 * SetRepositoryLink does.
 */
export const link: Handler = async (c) => {
  const pkg = await namedPackage(c);
  pkg.repoId = need(c.repo, 'repo').repo.id;
  await c.em.flush();
  return { status: 201 };
};

/** Unlinking an unlinked package changes nothing and succeeds; 201 as Forgejo's API description says. */
export const unlink: Handler = async (c) => {
  const pkg = await namedPackage(c);
  pkg.repoId = 0;
  await c.em.flush();
  return { status: 201 };
};

/** This family's handlers; `routes.table.ts` names each `packages.<key>`. */
export const handlers = {
  list,
  get,
  remove,
  listFiles,
  link,
  unlink,
} satisfies Record<string, Handler<never, never>>;
