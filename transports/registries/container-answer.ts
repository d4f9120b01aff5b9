// How the container registry answers (OCI distribution spec): its headers, empty answers, the error body
// `{"errors":[{code,message}]}` and the Bearer challenge of a 401.
import type { Context } from 'koa';
import type { ImageRequest } from '../../lib/packages/registries/container-storage.ts';
import type { RegistryError } from '../../lib/packages/registries/common.ts';

export function challenge(ctx: Context, appUrl: string): void {
  ctx.set('WWW-Authenticate', `Bearer realm="${appUrl}v2/token",service="container_registry",scope="*"`);
}

export function renderError(ctx: Context, appUrl: string, err: RegistryError): void {
  const cut = err.message.indexOf(':');
  const [code, message] =
    cut > 0 && /^[A-Z_]+$/.test(err.message.slice(0, cut))
      ? [err.message.slice(0, cut), err.message.slice(cut + 1)]
      : [err.status === 401 ? 'UNAUTHORIZED' : err.status === 403 ? 'DENIED' : 'UNSUPPORTED', err.message];
  if (err.status === 401) challenge(ctx, appUrl);
  ctx.status = err.status;
  ctx.set('Docker-Distribution-Api-Version', 'registry/2.0');
  ctx.body = { errors: [{ code, message }] };
}

export const ownerPath = (r: ImageRequest) => `/v2/${r.owner.lowerName}/${r.image}`;

export function setHeaders(ctx: Context, h: { location?: string; digest?: string; range?: string; uuid?: string }): void {
  ctx.set('Docker-Distribution-Api-Version', 'registry/2.0');
  if (h.location) ctx.set('Location', h.location);
  if (h.range) ctx.set('Range', h.range);
  if (h.uuid) ctx.set('Docker-Upload-Uuid', h.uuid);
  if (h.digest) {
    ctx.set('Docker-Content-Digest', h.digest);
    ctx.set('ETag', `"${h.digest}"`);
  }
}

export function answer(ctx: Context, status: number, h: Parameters<typeof setHeaders>[1] = {}): void {
  setHeaders(ctx, h);
  ctx.body = null;
  ctx.status = status;
  ctx.length = 0;
}
