// Git over HTTP (smart protocol): `{ROOT_URL}{owner}/{repo}[.git]/info/refs?service=...`,
// `.../git-upload-pack` (clone, fetch, shallow, protocol v2) and `.../git-receive-pack` (push), as
// Forgejo serves them (routers/web/repo/githttp.go): anonymous reads of public repositories; a 401
// with `WWW-Authenticate` whenever credentials are needed and none were sent; 404 for what the caller
// cannot see; token scopes honoured (read:repository to fetch, write:repository to push); archived
// and mirror repositories read-only; protection rules checked by a pre-receive hook; and the
// repository record refreshed after a push. `{owner}/{repo}.wiki[.git]/...` serves the repository's
// wiki under the wiki unit's permissions (its first push creates it). Pack data is streamed both
// ways, never buffered. Who may do what is lib/transport/git-access.ts and the push path lib/transport/git-push.ts,
// shared with git over SSH.
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Context, Middleware } from 'koa';
import type { Config } from '../config.ts';
import type { Orm } from '../model/db.ts';
import type { Services } from '../lib/http/services.ts';
import { authenticate, type AuthResult, type AuthDeps } from '../lib/auth/auth.ts';
import { HttpError } from '../lib/http/errors.ts';
import { isDenial, isMoved, resolveGitAccess } from '../lib/transport/git-access.ts';
import { ensurePushTarget, PUSH_NOT_ANNOUNCED, startPush } from '../lib/transport/git-push.ts';
import { ReportGate } from '../lib/transport/push-report.ts';
import { installHooks } from '../lib/transport/push-hook.ts';
import { advertiseRefs, contentType, serviceRpc, type GitService } from '../git/http.ts';
import { GitArgError } from '../git/errors.ts';

export interface GitHttpDeps {
  config: Config;
  orm: Orm;
  services: Services;
  authDeps: AuthDeps;
}

const ROUTE = /^\/([^/]+)\/([^/]+)\/(info\/refs|git-upload-pack|git-receive-pack)$/;

class GitHttpError extends Error {
  readonly status: number;
  readonly askAuth: boolean;
  constructor(status: number, message: string, askAuth = false) {
    super(message);
    this.status = status;
    this.askAuth = askAuth;
  }
}

export function createGitHttp(deps: GitHttpDeps): Middleware {
  const { config, orm, services, authDeps } = deps;
  const hooks = installHooks(config.dataPath);
  const prefix = config.appSubUrl;

  return async (ctx: Context, next) => {
    if (!ctx.path.startsWith(`${prefix}/`) || ctx.path.startsWith(`${prefix}/api/`)) return next();
    const m = ROUTE.exec(ctx.path.slice(prefix.length));
    if (!m) return next();
    const [, ownerName, rawRepo, action] = m;
    const isInfo = action === 'info/refs';
    if (isInfo ? ctx.method !== 'GET' && ctx.method !== 'HEAD' : ctx.method !== 'POST') return next();
    const service = (isInfo ? ctx.query.service : action) as string | undefined;
    try {
      if (service !== 'git-upload-pack' && service !== 'git-receive-pack')
        throw new GitHttpError(403, 'unsupported service (only the smart HTTP protocol is served)');
      if (config.REPOSITORY.DISABLE_HTTP_GIT) throw new GitHttpError(403, 'Interacting with repositories by HTTP protocol is not allowed');
      await serve(
        ctx,
        ownerName,
        rawRepo.replace(/\.git$/, ''),
        service,
        isInfo,
        (o, n) =>
          `${prefix}/${encodeURIComponent(o)}/${encodeURIComponent(n)}${rawRepo.endsWith('.git') ? '.git' : ''}/${action}${ctx.querystring ? `?${ctx.querystring}` : ''}`,
      );
    } catch (e) {
      if (e instanceof GitHttpError) return reply(ctx, e.status, e.message, e.askAuth);
      if (e instanceof HttpError) {
        for (const [k, v] of Object.entries(e.extra.headers ?? {})) ctx.set(k, v);
        return reply(ctx, e.status, e.message, e.status === 401);
      }
      if (e instanceof GitArgError) return reply(ctx, 400, e.message, false);
      throw e;
    }
  };

  function reply(ctx: Context, status: number, message: string, askAuth: boolean): void {
    ctx.status = status;
    if (askAuth) ctx.set('WWW-Authenticate', 'Basic realm="cairn"');
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = `${message}\n`;
  }

  async function serve(
    ctx: Context,
    ownerName: string,
    requested: string,
    service: GitService,
    isInfo: boolean,
    moved: (owner: string, name: string) => string,
  ): Promise<void> {
    const em = orm.em.fork();
    const query = new URLSearchParams(ctx.querystring);
    const auth: AuthResult = await authenticate(em, config, authDeps, { headers: ctx.headers, query, peer: ctx.req.socket.remoteAddress });
    const isPull = service === 'git-upload-pack';
    const who = { doer: auth.doer, token: auth.token, task: auth.task ?? null, deployKeys: null };
    const access = await resolveGitAccess(em, { config, services }, who, ownerName, requested, isPull ? 'read' : 'write');
    // A renamed or transferred repository: git follows a redirect of its first request.
    if (isMoved(access)) {
      ctx.status = 301;
      ctx.redirect(moved(access.owner, access.name));
      return;
    }
    if (isDenial(access)) throw new GitHttpError(access.status, access.message, access.status === 401);
    const repoPath = access.path;
    if (!isPull) await ensurePushTarget(config, access);
    const header = ctx.get('Git-Protocol');
    const gitProtocol = header === '' ? undefined : header;
    ctx.set('Cache-Control', 'no-cache, max-age=0, must-revalidate');
    ctx.set('Expires', 'Fri, 01 Jan 1980 00:00:00 GMT');
    ctx.set('Pragma', 'no-cache');
    if (isInfo) {
      const body = await advertiseRefs(repoPath, service, { gitProtocol });
      ctx.status = 200;
      ctx.type = contentType(service, 'advertisement');
      ctx.body = body;
      return;
    }
    const request: Readable = ctx.get('Content-Encoding') === 'gzip' ? ctx.req.pipe(zlib.createGunzip()) : ctx.req;
    if (isPull) {
      ctx.status = 200;
      ctx.type = contentType(service, 'result');
      ctx.body = serviceRpc(repoPath, service, request, { gitProtocol });
      return;
    }

    const push = await startPush(em, { config, services, hooks }, access);
    const git = serviceRpc(repoPath, service, request, { gitProtocol, env: push.env, config: push.config });
    // Attached in the same tick as git's own pipe, so both see every chunk.
    push.observe(request);
    // receive-pack's report reaches the client only after the push was announced and the repository
    // record reflects it (lib/transport/push-report.ts), so a client that reads the API as soon as it
    // has the report sees the push, in every process.
    const out = new ReportGate({
      advertisement: false,
      settle: () =>
        push.finish().catch((e: unknown) => {
          services.log.error({ err: e, repo: access.repo.id }, 'push not announced: its report says so');
          throw e;
        }),
      reason: PUSH_NOT_ANNOUNCED,
    });
    git.pipe(out);
    const abort = () => void push.abort().catch((err: unknown) => services.log.error({ err, repo: access.repo.id }, 'push not announced'));
    git.on('error', (e) => {
      abort();
      out.destroy(e);
    });
    // A client gone before the report: git runs to its end unread, and whatever it moved is announced
    // once it has ended (after a report that reached the client, this finds the push announced).
    out.once('close', () => git.resume());
    git.once('close', abort);
    ctx.status = 200;
    ctx.type = contentType(service, 'result');
    ctx.body = out;
  }
}
