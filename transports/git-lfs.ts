// The Git LFS server (Forgejo's services/lfs, routed in routers/web/web.go under
// `{owner}/{repo}.git/info/lfs` while [server] LFS_START_SERVER is on): the batch API with the basic
// transfer (upload, download, verify) and the locks API, answered in `application/vnd.git-lfs+json`.
// Callers authenticate as for git over HTTP (a password or a token, Basic or `token`/`Bearer`), or
// with the token `git-lfs-authenticate` gave them over SSH; what they may do is decided by
// lib/transport/git-access.ts like every git request (the code unit: read to download, write to upload and
// lock). Uploads stream to disk through sha256 and length checks (lib/transport/lfs-store.ts) and count in the
// repository owner's quota (`size:git:lfs`); downloads stream from disk, with ranges.
import type { Context, Middleware } from 'koa';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../config.ts';
import type { Orm } from '../model/db.ts';
import type { Services } from '../lib/http/services.ts';
import { authenticate, type AuthDeps } from '../lib/auth/auth.ts';
import { HttpError } from '../lib/http/errors.ts';
import { isDenial, isMoved, resolveGitAccess, type GitAccess, type GitMode, type GitPrincipal } from '../lib/transport/git-access.ts';
import { looksLikeLfsToken, verifyLfsToken, type LfsClaims } from '../lib/transport/lfs-token.ts';
import { LfsContentError, LfsStore, OID, validPointer } from '../lib/transport/lfs-store.ts';
import { findMeta, linkObject } from '../lib/transport/lfs-objects.ts';
import { batchObjects, LFS_MEDIA_TYPE } from '../lib/transport/lfs-batch.ts';
import { cleanLockPath, createLock, listLocks, lockJson, unlock } from '../lib/transport/lfs-locks.ts';
import { withinQuota } from '../lib/quota/quota.ts';
import { KeyType, PublicKey } from '../model/keys.ts';
import { User } from '../model/user.ts';

export interface GitLfsDeps {
  config: Config;
  orm: Orm;
  services: Services;
  authDeps: AuthDeps;
}

const ROUTE = /^\/([^/]+)\/([^/]+)\/info\/lfs(\/.*)?$/;
/** Batch, verify and lock requests are small JSON documents; a larger body is refused unread. */
const JSON_LIMIT = 8 * 1024 * 1024;

class LfsError extends Error {
  readonly status: number;
  readonly extra: Record<string, unknown>;
  constructor(status: number, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.extra = extra;
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
  416: 'Requested Range Not Satisfiable',
  422: 'Unprocessable Entity',
};
const lfsError = (status: number, message = STATUS_TEXT[status] ?? 'Error') => new LfsError(status, message);

interface Req {
  ctx: Context;
  em: EntityManager;
  owner: string;
  repo: string;
}

export function createGitLfs(deps: GitLfsDeps): Middleware {
  const { config, orm, services } = deps;
  const store = LfsStore.forDataPath(config.dataPath);
  const prefix = config.appSubUrl;

  return async (ctx, next) => {
    if (!config.SERVER.LFS_START_SERVER || !ctx.path.startsWith(`${prefix}/`)) return next();
    const m = ROUTE.exec(ctx.path.slice(prefix.length));
    if (!m) return next();
    const [, owner, rawRepo, rest = ''] = m;
    const r: Req = { ctx, em: orm.em.fork(), owner, repo: rawRepo.replace(/\.git$/, '') };
    try {
      await route(r, ctx.method, rest);
    } catch (e) {
      if (e instanceof LfsError) return send(ctx, e.status, { message: e.message, ...e.extra }, e.status === 401);
      if (e instanceof HttpError) return send(ctx, e.status, { message: e.message }, e.status === 401);
      throw e;
    }
  };

  async function route(r: Req, method: string, rest: string): Promise<void> {
    let m: RegExpExecArray | null;
    if (method === 'POST' && rest === '/objects/batch') return batch(r);
    if (method === 'PUT' && (m = /^\/objects\/([^/]+)\/([^/]+)$/.exec(rest))) return upload(r, m[1], m[2]);
    if ((method === 'GET' || method === 'HEAD') && (m = /^\/objects\/([^/]+)(?:\/[^/]+)?$/.exec(rest))) return download(r, m[1]);
    if (method === 'POST' && rest === '/verify') return verify(r);
    if (method === 'GET' && (rest === '/locks' || rest === '/locks/')) return locksList(r);
    if (method === 'POST' && (rest === '/locks' || rest === '/locks/')) return lockCreate(r);
    if (method === 'POST' && rest === '/locks/verify') return locksVerify(r);
    if (method === 'POST' && (m = /^\/locks\/(\d{1,15})\/unlock$/.exec(rest))) return lockDelete(r, Number(m[1]));
    throw lfsError(404);
  }

  // -----------------------------------------------------------------------------------------------
  // Access

  /** The caller: an LFS token from git-lfs-authenticate, else the credentials git over HTTP accepts. */
  async function principal(r: Req): Promise<{ who: GitPrincipal; claims: LfsClaims | null }> {
    const [scheme = '', value = ''] = r.ctx.get('Authorization').trim().split(/\s+/);
    if (/^(bearer|token)$/i.test(scheme) && looksLikeLfsToken(value)) {
      const claims = verifyLfsToken(services.secrets, value);
      if (!claims) throw lfsError(401, 'invalid or expired LFS token');
      if (claims.DeployKeyID) {
        const key = await r.em.findOne(PublicKey, { id: claims.DeployKeyID, type: KeyType.deploy });
        if (!key) throw lfsError(401, 'invalid or expired LFS token');
        return { who: { doer: null, token: null, task: null, deployKeys: [key] }, claims };
      }
      const user = await r.em.findOne(User, { id: claims.UserID, type: 0 });
      if (!user || !user.isActive || user.prohibitLogin) throw lfsError(401, 'invalid or expired LFS token');
      return { who: { doer: user, token: null, task: null, deployKeys: null }, claims };
    }
    const auth = await authenticate(r.em, config, deps.authDeps, {
      headers: r.ctx.headers,
      query: new URLSearchParams(r.ctx.querystring),
      peer: r.ctx.req.socket.remoteAddress,
    });
    return { who: { doer: auth.doer, token: auth.token, task: auth.task ?? null, deployKeys: null }, claims: null };
  }

  /** The repository for `mode`, or the LFS error git-lfs shows; `signed` demands a signed-in caller (locks). */
  async function access(r: Req, mode: GitMode, signed = false): Promise<GitAccess> {
    const { who, claims } = await principal(r);
    // A download token does not upload.
    if (claims && mode === 'write' && claims.Op !== 'upload') throw lfsError(401, 'the LFS token does not allow uploads');
    const gitDeps = { config, services };
    let a = await resolveGitAccess(r.em, gitDeps, who, r.owner, r.repo, mode);
    if (isMoved(a)) a = await resolveGitAccess(r.em, gitDeps, who, a.owner, a.name, mode);
    if (isMoved(a)) throw lfsError(404, 'Repository not found');
    if (isDenial(a)) throw lfsError(a.status, a.message);
    if (a.isWiki) throw lfsError(404, 'Repository not found');
    if (claims && claims.RepoID !== a.repo.id) throw lfsError(401, 'the LFS token is for another repository');
    if (signed && !a.pusher)
      throw lfsError(401, mode === 'read' ? 'You must have pull access to list locks' : 'You must have push access to change locks');
    return a;
  }

  // -----------------------------------------------------------------------------------------------
  // Objects

  async function batch(r: Req): Promise<void> {
    acceptsLfs(r.ctx);
    const body = await readJson(r.ctx, 400);
    const operation = body.operation;
    if (operation !== 'upload' && operation !== 'download') throw lfsError(400);
    const a = await access(r, operation === 'upload' ? 'write' : 'read');
    if (operation === 'upload' && !(await withinQuota(r.em, config, a.owner.id, 'size:git:lfs'))) throw lfsError(413, 'quota exceeded');
    const objects = Array.isArray(body.objects) ? body.objects : [];
    const out = await batchObjects(r.em, config, store, {
      operation,
      objects,
      repo: a.repo,
      owner: a.owner,
      authorization: r.ctx.get('Authorization') || undefined,
    });
    send(r.ctx, 200, { objects: out });
  }

  async function upload(r: Req, oid: string, rawSize: string): Promise<void> {
    const size = /^\d{1,15}$/.test(rawSize) ? Number(rawSize) : -1;
    if (!validPointer(oid, size)) throw lfsError(422);
    const a = await access(r, 'write');
    const max = config.SERVER.LFS_MAX_FILE_SIZE;
    if (max > 0 && size > max) throw lfsError(413, `Size must be less than or equal to ${max}`);
    if (!(await withinQuota(r.em, config, a.owner.id, 'size:git:lfs'))) throw lfsError(413, 'quota exceeded');
    const stored = await store.size(oid);
    try {
      // An object stored for another repository is linked only after its bytes were sent again.
      await store.put(oid, size, r.ctx.req, { discard: stored !== null });
    } catch (e) {
      if (e instanceof LfsContentError) throw lfsError(422, e.message);
      throw e;
    }
    await linkObject(r.em, a.repo.id, oid, size);
    send(r.ctx, 200, { message: 'OK' });
  }

  async function download(r: Req, oid: string): Promise<void> {
    if (!OID.test(oid)) throw lfsError(422, 'Oid or size are invalid');
    const a = await access(r, 'read');
    const meta = await findMeta(r.em, a.repo.id, oid);
    const stored = meta && (await store.size(oid));
    if (!meta || stored === null || stored === undefined) throw lfsError(404);
    let start = 0;
    let end = stored - 1;
    const range = /^bytes=(\d+)-(\d*)/.exec(r.ctx.get('Range'));
    if (range) {
      start = Number(range[1]);
      if (start >= stored) throw lfsError(416);
      if (range[2] !== '' && Number(range[2]) >= start && Number(range[2]) < end) end = Number(range[2]);
      r.ctx.set('Content-Range', `bytes ${start}-${end}/${stored}`);
      r.ctx.set('Access-Control-Expose-Headers', 'Content-Range');
    }
    r.ctx.status = range ? 206 : 200;
    r.ctx.type = 'application/octet-stream';
    r.ctx.length = end + 1 - start;
    // A HEAD answer has no body: no file is opened for it.
    if (r.ctx.method !== 'HEAD') r.ctx.body = store.read(oid, { start, end });
  }

  async function verify(r: Req): Promise<void> {
    acceptsLfs(r.ctx);
    const body = await readJson(r.ctx, 422);
    if (!validPointer(body.oid, body.size)) throw lfsError(422, 'Oid or size are invalid');
    const a = await access(r, 'write');
    const meta = await findMeta(r.em, a.repo.id, body.oid as string);
    const stored = meta && (await store.size(meta.oid));
    if (!meta || stored !== body.size) throw lfsError(404);
    send(r.ctx, 200, { message: 'OK' });
  }

  // -----------------------------------------------------------------------------------------------
  // Locks

  async function locksList(r: Req): Promise<void> {
    acceptsLfs(r.ctx);
    const a = await access(r, 'read', true);
    const q = r.ctx.query;
    const id = typeof q.id === 'string' && q.id !== '' ? q.id : undefined;
    if (id !== undefined && !/^\d{1,15}$/.test(id)) throw lfsError(400, `bad request : invalid id ${JSON.stringify(id)}`);
    const lockPath = typeof q.path === 'string' && q.path !== '' ? cleanLockPath(q.path) : undefined;
    const found = await listLocks(r.em, a.repo.id, {
      id: id === undefined ? undefined : Number(id),
      path: lockPath,
      ...pageOf(config, q.cursor, q.limit),
    });
    send(r.ctx, 200, { locks: await lockJson(r.em, found.locks), next_cursor: found.next || undefined });
  }

  async function lockCreate(r: Req): Promise<void> {
    acceptsLfs(r.ctx);
    const a = await access(r, 'write', true);
    const body = await readJson(r.ctx, 400);
    const lockPath = typeof body.path === 'string' ? cleanLockPath(body.path) : '';
    if (lockPath === '') throw lfsError(400, 'a lock needs a path');
    const { created, lock } = await createLock(r.em, a.repo.id, a.pusher!.id, lockPath);
    const [json] = await lockJson(r.em, [lock]);
    if (!created) throw new LfsError(409, 'already created lock', { lock: json });
    send(r.ctx, 201, { lock: json });
  }

  async function locksVerify(r: Req): Promise<void> {
    acceptsLfs(r.ctx);
    const a = await access(r, 'write', true);
    const body = await readJson(r.ctx, 400);
    const found = await listLocks(r.em, a.repo.id, pageOf(config, body.cursor ?? r.ctx.query.cursor, body.limit ?? r.ctx.query.limit));
    const json = await lockJson(r.em, found.locks);
    const mine = (i: number) => found.locks[i].ownerId === a.pusher!.id;
    send(r.ctx, 200, {
      ours: json.filter((_, i) => mine(i)),
      theirs: json.filter((_, i) => !mine(i)),
      next_cursor: found.next || undefined,
    });
  }

  async function lockDelete(r: Req, id: number): Promise<void> {
    acceptsLfs(r.ctx);
    const a = await access(r, 'write', true);
    const body = await readJson(r.ctx, 400);
    // Anyone who may push may break another's lock, but only by saying so (Forgejo's DeleteLFSLockByID).
    const result = await unlock(r.em, a.repo.id, id, a.pusher!.id, body.force === true);
    if ('missing' in result) throw lfsError(404, 'lock not found');
    if ('notOwner' in result) throw lfsError(403, "user doesn't own lock and force flag is not set");
    const [json] = await lockJson(r.em, [result.lock]);
    send(r.ctx, 200, { lock: json });
  }
}

// -------------------------------------------------------------------------------------------------
// Wire helpers

/** Cursors are page numbers, as in Forgejo; without a limit one page of [server] LFS_LOCKS_PAGING_NUM is sent. */
function pageOf(config: Config, cursor: unknown, limit: unknown): { page: number; limit: number } {
  const int = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : /^\d{1,9}$/.test(String(v ?? '')) ? Number(v) : 0);
  const max = config.SERVER.LFS_LOCKS_PAGING_NUM > 0 ? config.SERVER.LFS_LOCKS_PAGING_NUM : 50;
  const l = int(limit);
  return { page: Math.max(1, int(cursor)), limit: l > 0 && l < max ? l : max };
}

/** Forgejo's CheckAcceptMediaType: the JSON endpoints answer 415 to a client that does not accept LFS JSON. */
function acceptsLfs(ctx: Context): void {
  if (ctx.get('Accept').split(';')[0].trim() !== LFS_MEDIA_TYPE) throw lfsError(415);
}

/** A JSON object body, read up to JSON_LIMIT bytes; `invalid` is the status of a body that is not one. */
async function readJson(ctx: Context, invalid: 400 | 422): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > JSON_LIMIT) throw lfsError(413);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    if (e instanceof SyntaxError) throw lfsError(invalid);
    throw e;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw lfsError(invalid);
  return value as Record<string, unknown>;
}

function send(ctx: Context, status: number, body: unknown, askAuth = false): void {
  ctx.status = status;
  if (askAuth) ctx.set('WWW-Authenticate', 'Basic realm="cairn"');
  ctx.type = LFS_MEDIA_TYPE;
  ctx.body = `${JSON.stringify(body)}\n`;
}
