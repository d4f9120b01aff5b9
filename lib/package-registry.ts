// The generic package registry, outside /api/v1 (Forgejo routers/api/packages/api.go and generic/generic.go):
//   PUT    <ROOT>api/packages/<owner>/generic/<name>/<version>/<file>   upload one file (201; 409 when present)
//   GET    <ROOT>api/packages/<owner>/generic/<name>/<version>/<file>   download (HEAD too)
//   DELETE <ROOT>api/packages/<owner>/generic/<name>/<version>/<file>   delete one file (204)
//   DELETE <ROOT>api/packages/<owner>/generic/<name>/<version>          delete the version (204)
// The caller authenticates as on the API. Access to the owner's packages follows PKGREAD/PKGWRITE
// (guards/pkg.ts packageAccess): reading needs read, everything else write. As in Forgejo's
// reqPackageAccess, a token without `read:package`/`write:package` or a caller without the access gets
// 401 with a Basic challenge (package clients then send credentials), and a public-only token 403 on a
// non-public owner. Package clients read plain-text errors, so every answer here is plain text.
import { pathSegments } from './url-path.ts';
import type { Context, Middleware } from 'koa';
import type { EntityManager } from '@mikro-orm/core';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import fs from 'node:fs';
import type { Config } from '../config.ts';
import type { Orm } from '../model/db.ts';
import type { Services } from './services.ts';
import { User, type IUser } from '../model/user.ts';
import { PackageFile } from '../model/package.ts';
import { authenticate, type AuthResult, type AuthDeps } from './auth.ts';
import { hasScope } from './scopes.ts';
import { withinQuota } from './quota.ts';
import { HttpError, MSG } from './errors.ts';
import { isSiteAdmin } from '../guards/types.ts';
import { packageAccess } from '../guards/pkg.ts';
import { addPackageFile, blobPath, countDownload, DuplicateFileError, findVersion, removePackageFile, removePackageVersion, spool, versionFiles } from './packages.ts';

export interface PackageRegistryDeps {
  config: Config;
  orm: Orm;
  services: Services;
  authDeps: AuthDeps;
}

const TYPE = 'generic';

/** A plain-text answer, the registry's error shape (Forgejo's apiError → ctx.PlainText). */
class RegistryError extends Error {
  constructor(readonly status: number, message: string, readonly challenge = false) { super(message); }
}

const missing = () => new RegistryError(404, 'package does not exist');

// Forgejo generic.go: names of letters, digits and `-_+.`; file names a wider set, no outer spaces.
const NAME = /^[-_+.A-Za-z0-9]+$/;
const FILE_NAME = /^[-_+=:;.()[\]{}~!@#$%^& A-Za-z0-9]+$/;

/** The `package`, `package_version` and `package_file` name columns are varchar(255) (issue 9, item 8). */
const MAX_NAME = 255;

function checkNames(name: string, version: string, filename: string): void {
  if (!NAME.test(name) || name.length > MAX_NAME || name === '..' || (name.length === 1 && !/[A-Za-z0-9]/.test(name))) throw new RegistryError(400, 'invalid package name');
  if (!FILE_NAME.test(filename) || filename.length > MAX_NAME || filename.trim() !== filename || filename === '.' || filename === '..') throw new RegistryError(400, 'invalid filename');
  if (version.trim() !== version || version === '' || version.length > MAX_NAME) throw new RegistryError(400, 'invalid package version');
}


interface Request {
  em: EntityManager;
  auth: AuthResult;
  owner: IUser;
  name: string;
  version: string;
  filename: string | null;
}

/** Forgejo's reqPackageAccess for the level the method needs. */
async function checkAccess(cfg: Config, r: Request, level: 'read' | 'write'): Promise<void> {
  const { auth, owner } = r;
  const token = auth.token;
  if (token) {
    if (!token.scopes || !hasScope(token.scopes, 'package', level)) throw new RegistryError(401, MSG.packageAccess, true);
    if (token.publicOnly && owner.visibility !== 'public') throw new RegistryError(403, MSG.publicOnly('packages'));
  }
  if (isSiteAdmin({ auth })) return;
  const mode = !auth.doer && cfg.SERVICE.REQUIRE_SIGNIN_VIEW ? 0 : await packageAccess(r.em, owner, auth.doer);
  if (mode < (level === 'read' ? 1 : 2)) throw new RegistryError(401, MSG.packageAccess, true);
}

async function upload(ctx: Context, deps: PackageRegistryDeps, r: Request): Promise<void> {
  const filename = r.filename!;
  // Write access implies a signed-in caller; this only narrows the type.
  const creator = r.auth.doer;
  if (!creator) throw new RegistryError(401, MSG.packageAccess, true);
  checkNames(r.name, r.version, filename);
  // Forgejo's enforcePackagesQuota: the uploader's package quota, checked before the bytes are read.
  if (!(await withinQuota(r.em, deps.config, creator.id, 'size:assets:packages:all'))) throw new RegistryError(413, MSG.quotaExceeded);
  const up = await spool(deps.config, ctx.req);
  try {
    await r.em.transactional((tx) => addPackageFile(tx, deps.config, {
      ownerId: r.owner.id, type: TYPE, name: r.name, version: r.version, creator, filename, upload: up,
    }));
  } catch (e) {
    // A concurrent upload of the same file loses on the unique index, as a sequential one does on the check.
    if (e instanceof DuplicateFileError || e instanceof UniqueConstraintViolationException) throw new RegistryError(409, 'package file already exists');
    throw e;
  } finally {
    await fs.promises.rm(up.file, { force: true });
  }
  // Koa turns an empty body into 204 unless the status is set after it.
  ctx.body = null;
  ctx.status = 201;
}

async function download(ctx: Context, deps: PackageRegistryDeps, r: Request): Promise<void> {
  const found = await findVersion(r.em, { ownerId: r.owner.id, type: TYPE, name: r.name, version: r.version });
  const lower = r.filename!.toLowerCase();
  const entry = found && (await versionFiles(r.em, found.version.id)).find((f) => f.file.lowerName === lower);
  if (!found || !entry) throw missing();
  const file = blobPath(deps.config, entry.blob.hashSha256);
  const stat = await fs.promises.stat(file).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
  if (!stat) throw new RegistryError(404, 'package file does not exist');
  if (ctx.method === 'GET' && entry.file.isLead) await countDownload(r.em, found.version.id);
  ctx.status = 200;
  ctx.type = 'application/octet-stream';
  ctx.set('Content-Disposition', `attachment; filename="${entry.file.name.replace(/["\\]/g, '_')}"`);
  ctx.set('Last-Modified', entry.file.createdAt.toUTCString());
  ctx.set('ETag', `"${entry.blob.hashSha256}"`);
  ctx.body = fs.createReadStream(file);
  ctx.length = stat.size;
}

async function removeFile(ctx: Context, deps: PackageRegistryDeps, r: Request): Promise<void> {
  await r.em.transactional(async (tx) => {
    const found = await findVersion(tx, { ownerId: r.owner.id, type: TYPE, name: r.name, version: r.version });
    const file = found && (await tx.findOne(PackageFile, { versionId: found.version.id, lowerName: r.filename!.toLowerCase() }));
    if (!found || !file) throw missing();
    await removePackageFile(tx, deps.config, found.version, file);
  });
  ctx.status = 204;
}

async function removeVersion(ctx: Context, deps: PackageRegistryDeps, r: Request): Promise<void> {
  await r.em.transactional(async (tx) => {
    const found = await findVersion(tx, { ownerId: r.owner.id, type: TYPE, name: r.name, version: r.version });
    if (!found) throw missing();
    await removePackageVersion(tx, deps.config, found.version);
  });
  ctx.status = 204;
}

/** Which operation a method and path name, and the access it needs; null when none. */
function operation(method: string, withFile: boolean) {
  if (withFile && (method === 'GET' || method === 'HEAD')) return { level: 'read', run: download } as const;
  if (withFile && method === 'PUT') return { level: 'write', run: upload } as const;
  if (method === 'DELETE') return { level: 'write', run: withFile ? removeFile : removeVersion } as const;
  return null;
}

async function serve(ctx: Context, deps: PackageRegistryDeps, parts: string[]): Promise<void> {
  const [ownerName, type, name, version, filename, ...rest] = parts;
  const op = type === TYPE && name && version && rest.length === 0 ? operation(ctx.method, filename !== undefined) : null;
  if (!op) throw new RegistryError(404, 'Not Found');
  const em = deps.orm.em.fork();
  const auth = await authenticate(em, deps.config, deps.authDeps, { headers: ctx.headers, query: new URLSearchParams(ctx.querystring), peer: ctx.req.socket.remoteAddress });
  const owner = await em.findOne(User, { lowerName: ownerName.toLowerCase() });
  if (!owner) throw new RegistryError(404, 'user does not exist');
  const r: Request = { em, auth, owner, name, version, filename: filename ?? null };
  await checkAccess(deps.config, r, op.level);
  await op.run(ctx, deps, r);
}

/** Koa middleware; mount it before the body parser, which must not read the uploads. */
export function servePackageRegistry(deps: PackageRegistryDeps): Middleware {
  const prefix = `${deps.config.appSubUrl}/api/packages/`;
  return async (ctx, next) => {
    if (!ctx.path.startsWith(prefix)) return next();
    const parts = pathSegments(ctx.path.slice(prefix.length));
    try {
      if (!parts) throw new RegistryError(400, 'invalid path');
      await serve(ctx, deps, parts);
    } catch (e) {
      const err = e instanceof RegistryError ? e : e instanceof HttpError && e.status < 500 ? new RegistryError(e.status, e.message) : null;
      if (!err) throw e;
      if (e instanceof HttpError) for (const [k, v] of Object.entries(e.extra.headers ?? {})) ctx.set(k, v);
      ctx.status = err.status;
      if (err.challenge) ctx.set('WWW-Authenticate', 'Basic realm="Forgejo Package API"');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = err.message;
    }
  };
}
