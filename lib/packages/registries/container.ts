// The container registry (OCI distribution spec; Forgejo routers/api/packages/container), at <ROOT>v2/:
//   GET  /v2/                                      200 once the client holds a token, else 401 with the Bearer challenge
//   GET  /v2/token                                 a registry token for the caller (Basic credentials, or anonymous)
//   POST /v2/<owner>/<image>/blobs/uploads/         `?digest=` monolithic upload (201), else a new upload session (202)
//   GET|PATCH|PUT|DELETE .../blobs/uploads/<uuid>   session status, append a chunk, finish with `?digest=`, cancel
//   HEAD|GET|DELETE .../blobs/<digest>
//   HEAD|GET|PUT|DELETE .../manifests/<tag|digest>  image manifests and indexes (OCI and Docker media types)
//   GET  .../tags/list                             `?n=&last=` paging
// An image is a package of type `container`; uploaded blobs are files of its internal version `_`, and every
// manifest is a version named by its tag (or its digest when pushed untagged) holding `manifest.json` and a file
// per blob it references, so a blob stays while a manifest needs it. Errors are `{"errors":[{code,message}]}`.
import type { Context, Middleware } from 'koa';
import { User } from '../../../model/user.ts';
import { authenticate } from '../../auth/auth.ts';
import { HttpError } from '../../http/errors.ts';
import { pathSegments } from '../../http/url-path.ts';
import { checkAccess, RegistryError, type PackageRegistryDeps } from './common.ts';
import { IMAGE, E, renderError, type ImageRequest, answer } from './container-storage.ts';
import { mintToken, tokenAuth } from './container-token.ts';
import { startUpload, uploadStatus, uploadChunk, finishUpload, cancelUpload, getBlob, deleteBlob } from './container-blobs.ts';
import { putManifest, getManifest, deleteManifest, tagList } from './container-manifests.ts';

// ---------------------------------------------------------------------------------------------
// Routing

type Op = { level: 'read' | 'write'; run(r: ImageRequest): Promise<void> };

/** The owner, image and operation a method and the segments after `/v2/` name; null answers 404. */
function route(method: string, parts: string[]): { owner: string; image: string[]; op: Op } | null {
  const get = method === 'GET' || method === 'HEAD';
  const n = parts.length;
  const read = (run: Op['run']): Op => ({ level: 'read', run });
  const write = (run: Op['run']): Op => ({ level: 'write', run });
  const at = (image: string[], op: Op | null) => (op && image.length >= 1 ? { owner: parts[0], image, op } : null);
  if (n >= 4 && parts[n - 2] === 'tags' && parts[n - 1] === 'list') return at(parts.slice(1, n - 2), get ? read(tagList) : null);
  if (n >= 4 && parts[n - 2] === 'blobs' && parts[n - 1] === 'uploads')
    return at(parts.slice(1, n - 2), method === 'POST' ? write(startUpload) : null);
  if (n >= 5 && parts[n - 3] === 'blobs' && parts[n - 2] === 'uploads') {
    const uuid = parts[n - 1];
    const op =
      method === 'GET'
        ? read((r) => uploadStatus(r, uuid))
        : method === 'PATCH'
          ? write((r) => uploadChunk(r, uuid))
          : method === 'PUT'
            ? write((r) => finishUpload(r, uuid))
            : method === 'DELETE'
              ? write((r) => cancelUpload(r, uuid))
              : null;
    // Uploading needs write access; reading a session's state too, as Forgejo's route group does.
    return at(parts.slice(1, n - 3), op && { ...op, level: 'write' });
  }
  if (n >= 4 && parts[n - 2] === 'blobs') {
    const digest = parts[n - 1];
    return at(
      parts.slice(1, n - 2),
      get ? read((r) => getBlob(r, digest)) : method === 'DELETE' ? write((r) => deleteBlob(r, digest)) : null,
    );
  }
  if (n >= 4 && parts[n - 2] === 'manifests') {
    const ref = parts[n - 1];
    return at(
      parts.slice(1, n - 2),
      get
        ? read((r) => getManifest(r, ref))
        : method === 'PUT'
          ? write((r) => putManifest(r, ref))
          : method === 'DELETE'
            ? write((r) => deleteManifest(r, ref))
            : null,
    );
  }
  return null;
}

async function serve(ctx: Context, deps: PackageRegistryDeps, parts: string[]): Promise<void> {
  const em = deps.orm.em.fork();
  const header = typeof ctx.headers.authorization === 'string' ? ctx.headers.authorization : '';
  const auth = async () =>
    (await tokenAuth(em, deps, header)) ??
    authenticate(em, deps.config, deps.authDeps, {
      headers: ctx.headers,
      query: new URLSearchParams(ctx.querystring),
      peer: ctx.req.socket.remoteAddress,
    });

  if (parts.length === 1 && parts[0] === 'token' && ctx.method === 'GET') {
    const caller = await auth();
    if (!caller.doer && deps.config.SERVICE.REQUIRE_SIGNIN_VIEW) throw E.unauthorized();
    ctx.status = 200;
    ctx.body = { token: mintToken(deps, caller) };
    return;
  }
  // Every other route wants a caller: a registry token (an anonymous one too) or credentials; none gets the challenge.
  const found = parts.length === 0 ? null : route(ctx.method, parts);
  if (parts.length > 0 && !found) throw new RegistryError(404, 'NOT_FOUND:not found');
  const signed = await tokenAuth(em, deps, header);
  const caller = signed ?? (await auth());
  if (!caller.doer && (!signed || deps.config.SERVICE.REQUIRE_SIGNIN_VIEW)) throw E.unauthorized();
  if (!found) return answer(ctx, 200);
  const image = found.image.join('/');
  if (!IMAGE.test(image)) throw E.nameInvalid();
  const owner = await em.findOne(User, { lowerName: found.owner.toLowerCase() });
  if (!owner) throw E.nameUnknown();
  const r: ImageRequest = { ctx, deps, em, auth: caller, owner, image };
  try {
    await checkAccess(deps.config, r, found.op.level);
  } catch (e) {
    if (e instanceof RegistryError && e.status === 401) throw E.unauthorized(e.message);
    if (e instanceof RegistryError && e.status === 403) throw E.denied(e.message);
    throw e;
  }
  await found.op.run(r);
}

/** Koa middleware for `<ROOT>v2/`; mount it before the body parser, which must not read the uploads. */
export function serveContainerRegistry(deps: PackageRegistryDeps): Middleware {
  const prefix = `${deps.config.appSubUrl}/v2`;
  return async (ctx, next) => {
    if (ctx.path !== prefix && !ctx.path.startsWith(`${prefix}/`)) return next();
    const parts = pathSegments(ctx.path.slice(prefix.length));
    try {
      if (!parts) throw new RegistryError(400, 'NAME_INVALID:invalid path');
      await serve(ctx, deps, parts);
    } catch (e) {
      const err =
        e instanceof RegistryError
          ? e
          : e instanceof HttpError && e.status < 500
            ? new RegistryError(e.status, e.message, e.status === 401)
            : null;
      if (!err) throw e;
      if (e instanceof HttpError) for (const [k, v] of Object.entries(e.extra.headers ?? {})) ctx.set(k, v);
      renderError(ctx, deps.config.appUrl, err);
    }
  };
}
