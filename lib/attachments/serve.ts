// Attachment downloads outside /api/v1, where every `browser_download_url` points (Forgejo
// routers/web/repo/attachment.go ServeAttachment, repo.go RedirectDownload):
//   GET <ROOT>attachments/<uuid>
//   GET <ROOT><owner>/<repo>/releases/download/<tag>/<file name>   (`latest` names the latest release)
// The caller authenticates as on the API. A token needs read:repository (release assets) or read:issue
// (issue and comment attachments). Whoever cannot read the unit the attachment belongs to — or, for a
// draft release, write to the releases unit — gets 404, as for a missing file. External assets redirect;
// every served download counts.
import { pathSegments } from '../http/url-path.ts';
import fs from 'node:fs';
import path from 'node:path';
import type { Context, Middleware } from 'koa';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import type { Orm } from '../../model/db.ts';
import type { Services } from '../http/services.ts';
import { Attachment, type IAttachment } from '../../model/attachment.ts';
import { Release } from '../../model/release.ts';
import { Issue } from '../../model/issue.ts';
import { Repository } from '../../model/repo.ts';
import { User } from '../../model/user.ts';
import { authenticate, type AuthResult, type AuthDeps } from '../auth/auth.ts';
import { siteAdminOf } from '../auth/auth-types.ts';
import { hasScope } from '../auth/scopes.ts';
import { repoPermission, type RepoPermission } from '../auth/perm.ts';
import { HttpError, MSG, NOT_FOUND } from '../http/errors.ts';
import { attachmentPath, countDownload, isUuid } from './attachments.ts';

export interface AttachmentServeDeps {
  config: Config;
  orm: Orm;
  services: Services;
  authDeps: AuthDeps;
}

const missing = () => new HttpError(404, NOT_FOUND, { errors: [] });

/** Content types shown inline by browsers; anything else is offered as a download of opaque bytes. */
const INLINE: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.pdf': 'application/pdf',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
};

/** RFC 6266: an ASCII fallback name and the UTF-8 one. */
function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

interface Caller {
  auth: AuthResult;
  siteAdmin: boolean;
}

async function permissionFor(em: EntityManager, caller: Caller, repoId: number): Promise<RepoPermission | null> {
  const repo = await em.findOne(Repository, { id: repoId });
  const owner = repo && (await em.findOne(User, { id: repo.ownerId }));
  if (!repo || !owner) return null;
  return repoPermission(em, { repo, owner, doer: caller.auth.doer, siteAdmin: caller.siteAdmin, token: caller.auth.token });
}

/** Forgejo's ServeAttachment checks, in its order: token scope (403), then read access (404). */
async function checkAccess(em: EntityManager, caller: Caller, a: IAttachment): Promise<void> {
  const token = caller.auth.token;
  if (token) {
    const category = a.releaseId ? 'repository' : 'issue';
    if (!token.scopes || !hasScope(token.scopes, category, 'read')) throw new HttpError(403, MSG.missingScope([`read:${category}`]));
  }
  if (!a.releaseId && !a.issueId) {
    // Not linked to anything yet: only its uploader may fetch it.
    if (caller.auth.doer?.id !== a.uploaderId) throw missing();
    return;
  }
  const perm = await permissionFor(em, caller, a.repoId);
  if (!perm) throw missing();
  if (a.releaseId) {
    const rel = await em.findOne(Release, { id: a.releaseId });
    if (!rel || !perm.canRead('releases') || (rel.isDraft && !perm.canWrite('releases'))) throw missing();
    return;
  }
  const issue = await em.findOne(Issue, { id: a.issueId });
  if (!issue || !perm.canRead(issue.isPull ? 'pulls' : 'issues')) throw missing();
}

async function send(ctx: Context, cfg: Config, em: EntityManager, a: IAttachment): Promise<void> {
  if (a.externalUrl) {
    ctx.status = 303;
    ctx.set('Location', a.externalUrl);
    ctx.body = '';
    return;
  }
  const file = attachmentPath(cfg, a.uuid);
  const stat = await fs.promises.stat(file).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
  if (!stat) throw missing();
  if (ctx.method === 'GET') await countDownload(em, a.id);
  const etag = `"${a.uuid}"`;
  ctx.set('ETag', etag);
  ctx.set('Cache-Control', 'private, max-age=300');
  if (ctx.get('If-None-Match') === etag) {
    ctx.status = 304;
    return;
  }
  const inline = INLINE[path.extname(a.name).toLowerCase()];
  ctx.status = 200;
  ctx.type = inline ?? 'application/octet-stream';
  ctx.set('Content-Disposition', contentDisposition(inline ? 'inline' : 'attachment', a.name));
  ctx.set('Access-Control-Expose-Headers', 'Content-Disposition');
  ctx.set('Last-Modified', a.createdAt.toUTCString());
  // Koa sends no body for HEAD and closes the stream once the response is finished.
  ctx.body = fs.createReadStream(file);
  ctx.length = stat.size;
}

/** `<owner>/<repo>/releases/download/<tag…>/<file>`: the release asset, if the caller may read releases. */
async function releaseAsset(em: EntityManager, caller: Caller, parts: string[]): Promise<IAttachment | null> {
  const [ownerName, repoName, , , ...rest] = parts;
  const fileName = rest.pop()!;
  const tag = rest.join('/');
  const owner = await em.findOne(User, { lowerName: ownerName.toLowerCase() });
  const repo = owner && (await em.findOne(Repository, { ownerId: owner.id, lowerName: repoName.toLowerCase() }));
  const perm =
    repo && owner
      ? await repoPermission(em, { repo, owner, doer: caller.auth.doer, siteAdmin: caller.siteAdmin, token: caller.auth.token })
      : null;
  if (!repo || !perm || !perm.canRead('releases')) return null;
  const drafts = perm.canWrite('releases') ? {} : { isDraft: false };
  let rel = await em.findOne(Release, { repoId: repo.id, tagName: tag, isTag: false, ...drafts });
  // GitHub's alias: `latest` is the latest release unless a release is tagged so.
  if (!rel && tag === 'latest') {
    rel = await em.findOne(
      Release,
      { repoId: repo.id, isDraft: false, isPrerelease: false, isTag: false },
      { orderBy: { createdAt: 'desc', id: 'desc' } },
    );
  }
  return rel && em.findOne(Attachment, { releaseId: rel.id, name: fileName }, { orderBy: { id: 'asc' } });
}

/** Koa middleware; mount it before the API router. Anything else passes through. */
export function serveAttachments({ config, orm, services, authDeps }: AttachmentServeDeps): Middleware {
  const prefix = config.appSubUrl;
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.path.startsWith(`${prefix}/`) || ctx.path.startsWith(`${prefix}/api/`))
      return next();
    const parts = pathSegments(ctx.path.slice(prefix.length));
    const byUuid = parts?.length === 2 && parts[0] === 'attachments';
    const byRelease = !!parts && parts.length >= 6 && parts[2] === 'releases' && parts[3] === 'download';
    if (!parts || (!byUuid && !byRelease)) return next();
    const em = orm.em.fork();
    const auth = await authenticate(em, config, authDeps, {
      headers: ctx.headers,
      query: new URLSearchParams(ctx.querystring),
      peer: ctx.req.socket.remoteAddress,
    });
    if (auth.warning) ctx.set('Warning', auth.warning);
    if (!auth.doer && config.SERVICE.REQUIRE_SIGNIN_VIEW) throw new HttpError(401, MSG.signinRequired);
    const caller: Caller = { auth, siteAdmin: siteAdminOf(auth) };
    const a = byUuid ? (isUuid(parts[1]) ? await em.findOne(Attachment, { uuid: parts[1] }) : null) : await releaseAsset(em, caller, parts);
    if (!a) throw missing();
    await checkAccess(em, caller, a);
    await send(ctx, config, em, a);
  };
}
