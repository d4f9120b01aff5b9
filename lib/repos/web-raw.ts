// The web download links the API hands out: a contents answer's `download_url` is Forgejo's web route
// `<ROOT>{owner}/{repo}/raw/{branch|tag|commit}/{ref}/{path}`, and the same under `/media/`. Forgejo
// serves both with ServeBlobOrLFS: the file, or for a Git LFS pointer the object it points to. cairn
// has no web interface, so both are answered by the API's own `GET {R}/media/*` row (which does just
// that) with `?ref=`: the same authentication, permission chain and headers, nothing decided twice. A branch or tag name may hold slashes; as Forgejo does, the
// shortest leading run of segments that names an existing ref of that kind is the ref.
import type { Middleware } from 'koa';
import type { Config } from '../../config.ts';
import type { Services } from '../http/services.ts';
import { readRef } from '../../git/lookup.ts';
import { pathSegments } from '../http/url-path.ts';

const KINDS = new Set(['raw', 'media']);
const REF_TYPES: Record<string, 'heads' | 'tags' | null> = { branch: 'heads', tag: 'tags', commit: null };

/** Koa middleware; mount it before the API's authentication, which then sees an API path. */
export function serveWebRaw(config: Config, services: Services): Middleware {
  const prefix = config.appSubUrl;
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.path.startsWith(`${prefix}/`)) return next();
    const parts = pathSegments(ctx.path.slice(prefix.length));
    if (!parts || parts.length < 6 || parts[0] === 'api' || !KINDS.has(parts[2]) || !(parts[3] in REF_TYPES)) return next();
    const [owner, repo, , refType] = parts;
    const rest = parts.slice(4);
    const refKind = REF_TYPES[refType];
    let refLength = 1;
    if (refKind) {
      const repoPath = services.repoPath(owner, repo);
      refLength = 0;
      for (let i = 1; i < rest.length; i++) {
        if (await readRef(repoPath, refKind, rest.slice(0, i).join('/')).catch(() => null)) {
          refLength = i;
          break;
        }
      }
      // No such ref (or no such repository): the API's 404, for a ref nobody has.
      if (refLength === 0) refLength = 1;
    }
    const query = new URLSearchParams(ctx.querystring);
    query.set('ref', rest.slice(0, refLength).join('/'));
    const file = rest.slice(refLength).map(encodeURIComponent).join('/');
    ctx.path = `/api/v1/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/media/${file}`;
    ctx.querystring = query.toString();
    return next();
  };
}
