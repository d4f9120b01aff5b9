// Git over HTTP (smart protocol): `{ROOT_URL}{owner}/{repo}[.git]/info/refs?service=...`,
// `.../git-upload-pack` (clone, fetch, shallow, protocol v2) and `.../git-receive-pack` (push), as
// Forgejo serves them (routers/web/repo/githttp.go): anonymous reads of public repositories; a 401
// with `WWW-Authenticate` whenever credentials are needed and none were sent; 404 for what the caller
// cannot see; token scopes honoured (read:repository to fetch, write:repository to push); archived
// and mirror repositories read-only; protection rules checked by a pre-receive hook; and the
// repository record refreshed after a push. `{owner}/{repo}.wiki[.git]/...` serves the repository's
// wiki under the wiki unit's permissions (its first push creates it). Pack data is streamed both
// ways, never buffered.
import fs from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Context, Middleware } from 'koa';
import type { Config } from './config.ts';
import type { Orm } from './model/db.ts';
import type { Services } from './lib/services.ts';
import { authenticate, type AuthResult, type AuthDeps } from './lib/auth.ts';
import { HttpError } from './lib/errors.ts';
import { hasScope } from './lib/scopes.ts';
import { repoPermission } from './lib/perm.ts';
import { refreshAfterWrite } from './lib/repo-git.ts';
import { appliedUpdates, emitRefUpdates } from './lib/push-events.ts';
import { wikiPath } from './lib/repos.ts';
import { ensureWikiRepo } from './lib/wiki.ts';
import { findRedirectTarget } from './lib/repo-redirect.ts';
import { checkPush, hasPushRules, type RefUpdate } from './lib/push-rules.ts';
import { installHooks, openHookSession, type HookSession } from './lib/push-hook.ts';
import { User } from './model/user.ts';
import { Repository } from './model/repo.ts';
import { advertiseRefs, contentType, serviceRpc, type GitService } from './git/http.ts';
import type { ObjectFormat } from './git/repo.ts';
import { GitArgError } from './git/errors.ts';

export interface GitHttpDeps {
  config: Config;
  orm: Orm;
  services: Services;
  authDeps: AuthDeps;
}

const ROUTE = /^\/([^/]+)\/([^/]+)\/(info\/refs|git-upload-pack|git-receive-pack)$/;

class GitHttpError extends Error {
  constructor(readonly status: number, message: string, readonly askAuth = false) {
    super(message);
  }
}

/** The ref updates a receive-pack request asks for, read from its command pkt-lines as the bytes pass. */
class CommandSniffer {
  readonly refs: string[] = [];
  readonly updates: { ref: string; before: string; after: string }[] = [];
  private buf = Buffer.alloc(0);
  private done = false;

  feed(chunk: Buffer): void {
    if (this.done) return;
    this.buf = Buffer.concat([this.buf, chunk]);
    while (this.buf.length >= 4) {
      const len = parseInt(this.buf.subarray(0, 4).toString('latin1'), 16);
      if (Number.isNaN(len) || len === 0) { this.done = true; return; }
      if (this.buf.length < len) return;
      const line = this.buf.subarray(4, len).toString('utf8').split('\0')[0].trim();
      const [before, after, ref] = line.split(' ');
      if (ref) this.refs.push(ref);
      if (ref && before && after) this.updates.push({ ref, before, after });
      this.buf = this.buf.subarray(len);
    }
    if (this.buf.length > 65536) this.done = true;
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
      if (service !== 'git-upload-pack' && service !== 'git-receive-pack') throw new GitHttpError(403, 'unsupported service (only the smart HTTP protocol is served)');
      if (config.REPOSITORY.DISABLE_HTTP_GIT) throw new GitHttpError(403, 'Interacting with repositories by HTTP protocol is not allowed');
      await serve(ctx, ownerName, rawRepo.replace(/\.git$/, ''), service, isInfo, (o, n) => `${prefix}/${encodeURIComponent(o)}/${encodeURIComponent(n)}${rawRepo.endsWith('.git') ? '.git' : ''}/${action}${ctx.querystring ? `?${ctx.querystring}` : ''}`);
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

  async function serve(ctx: Context, ownerName: string, requested: string, service: GitService, isInfo: boolean, moved: (owner: string, name: string) => string): Promise<void> {
    // `<repo>.wiki` is the repository's wiki (no repository may be named so), guarded by the wiki unit.
    const isWiki = requested.toLowerCase().endsWith('.wiki');
    const repoName = isWiki ? requested.slice(0, -'.wiki'.length) : requested;
    const unit = isWiki ? 'wiki' : 'code';
    const movedTo = (owner: string, name: string) => moved(owner, isWiki ? `${name}.wiki` : name);
    const em = orm.em.fork();
    const query = new URLSearchParams(ctx.querystring);
    const auth: AuthResult = await authenticate(em, config, authDeps, { headers: ctx.headers, query, peer: ctx.req.socket.remoteAddress });
    const isPull = service === 'git-upload-pack';
    const doer = auth.doer;
    const owner = await em.findOne(User, { lowerName: ownerName.toLowerCase() });
    const repo = owner ? await em.findOne(Repository, { ownerId: owner.id, lowerName: repoName.toLowerCase() }) : null;
    const siteAdmin = !!doer?.isAdmin && !(auth.token && (auth.token.publicOnly || auth.token.repoIds));
    const perm = repo && owner ? await repoPermission(em, { repo, owner, doer, siteAdmin, token: auth.token }) : null;
    const canRead = !!perm && (perm.canRead(unit) || perm.isAdmin());
    // A renamed or transferred repository: git follows a redirect of its first request.
    const mayAsk = !!doer || (isPull && !config.SERVICE.REQUIRE_SIGNIN_VIEW);
    if (!repo && owner && mayAsk) {
      const target = await findRedirectTarget(em, owner.id, repoName);
      const movedPerm = target && (await repoPermission(em, { ...target, doer, siteAdmin, token: auth.token }));
      if (target && movedPerm && (movedPerm.canRead(unit) || movedPerm.isAdmin())) {
        ctx.status = 301;
        ctx.redirect(movedTo(target.owner.name, target.repo.name));
        return;
      }
    }
    // Only a public read needs no credentials; otherwise ask for them rather than reveal anything.
    if (!doer && (!isPull || !canRead || config.SERVICE.REQUIRE_SIGNIN_VIEW)) throw new GitHttpError(401, 'Unauthorized', true);
    if (!repo || !owner || !perm || !canRead) throw new GitHttpError(404, 'Repository not found');
    if (auth.token) {
      const level = isPull ? 'read' : 'write';
      if (!auth.token.scopes || !hasScope(auth.token.scopes, 'repository', level)) {
        throw new GitHttpError(403, `token does not have at least one of required scope(s): [${level}:repository]`);
      }
    }
    if (isWiki && !perm.unitEnabled('wiki')) throw new GitHttpError(403, 'repository wiki is disabled');
    if (!isPull) {
      if (!(perm.canWrite(unit) || perm.isAdmin())) throw new GitHttpError(403, 'User permission denied for writing.');
      if (repo.isArchived) throw new GitHttpError(403, 'repo is archived');
      if (repo.isMirror) throw new GitHttpError(403, 'mirror repository is read-only');
    }
    const repoPath = isWiki ? wikiPath(services, owner.name, repo.name) : services.repoPath(owner.name, repo.name);
    // A wiki is created by its first push (Forgejo's InitWiki); there is nothing to fetch before.
    if (isWiki && isPull && !(await fs.stat(repoPath).catch(() => null))) throw new GitHttpError(404, 'Repository not found');
    if (isWiki && !isPull) await ensureWikiRepo({ path: repoPath, branch: repo.wikiBranch || config.REPOSITORY.DEFAULT_BRANCH }, repo.objectFormatName as ObjectFormat);
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

    // A push: the hook runs only when the repository has rules to check.
    let session: HookSession | null = null;
    // Branch protection is a rule of the code repository; the wiki has none.
    if (!isWiki && (await hasPushRules(em, repo.id))) {
      session = await openHookSession(
        (updates: RefUpdate[], env) => checkPush({ em: orm.em.fork(), repoId: repo.id, repoPath, doer: doer!, perm, env }, updates),
        (e) => services.log.error({ err: e, repo: repo.id }, 'push check failed'),
      );
    }
    const git = serviceRpc(repoPath, service, request, {
      gitProtocol,
      env: session?.env,
      config: { 'core.hooksPath': session ? hooks.check : hooks.none },
    });
    // Attached in the same tick as git's own pipe, so both see every chunk.
    const sniffer = new CommandSniffer();
    request.on('data', (chunk: Buffer) => sniffer.feed(chunk));
    // The response ends only after the repository record reflects the push, so a client that
    // reads the API right after `git push` sees it.
    const out = new PassThrough();
    git.pipe(out, { end: false });
    git.on('error', (e) => {
      void session?.close();
      out.destroy(e);
    });
    git.on('end', () => {
      void (async () => {
        await session?.close();
        const branches = sniffer.refs.filter((r) => r.startsWith('refs/heads/')).map((r) => r.slice('refs/heads/'.length));
        if (!isWiki) await refreshAfterWrite(em, repo, repoPath, branches, { services, doerId: doer?.id ?? 0, config });
        if (!isWiki && doer) await emitRefUpdates(em, { config, services }, repo, doer, repoPath, await appliedUpdates(repoPath, sniffer.updates));
        out.end();
      })().catch((e: unknown) => {
        services.log.error({ err: e, repo: repo.id }, 'refresh after push failed');
        out.end();
      });
    });
    ctx.status = 200;
    ctx.type = contentType(service, 'result');
    ctx.body = out;
  }
}
