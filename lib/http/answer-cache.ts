// Kept answers: the answer to a read of a row marked `cached` in the table is kept by this
// process and sent again, without authentication, guards, handler or rendering, while the database
// shows that nothing it depends on has changed since it was made.
//
// "Nothing has changed" is the database's own account (model/db-clock.ts): every transaction that
// writes a row, in any process, leaves marks of the scopes it changed (a repository, a user, or `*`:
// anything), and so does every git command that may move a ref (git/changes.ts, `*`). The clock reads
// the marks committed between its snapshots and counts generations. An answer is kept with the
// generation of a reading taken before its request read anything, and with what it depends on: the
// scopes its row declares (lib/http/answer-scopes.ts; a row that declares none depends on every
// change). It is sent again only to a request for which a reading taken after it arrived shows no
// change of those scopes, nor of `*`, after the answer's generation. So a kept answer is never older
// than a write that had ended before the request came, whichever process made the write: two
// processes behave as one.
//
// The clock asks once for all the requests that arrive while one is being asked: a request waits for
// the next question sent after it arrived (at most two round trips of a one-row statement), and under
// load the database answers one question for dozens of requests.
//
// What a request is keyed by: its path and query, and its credentials (a hash, not the secret). Only
// anonymous requests and requests with an access token in the `Authorization` header or the query
// are kept: a password is checked every time (limits, one-time codes), and `Sudo` is not keyed.
import { hash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { Lru } from '../../git/lru.ts';
import { noneMatch } from './conditional-get.ts';
import { isDatabaseUnavailable } from '../db/outage.ts';

/** A kept answer: the generation it was made at, what it depends on, and what is sent. */
interface Kept {
  gen: number;
  /** The scopes it depends on besides `*` (null: every change). */
  scopes: readonly string[] | null;
  /** When it is made again even if nothing changed (ms since the epoch). */
  until: number;
  headers: [string, string | number | string[]][];
  etag: string | undefined;
  body: Buffer;
}

export interface AnswerCacheOptions {
  /** A reading of the database's changes taken after the call: the generation reached (model/db-clock.ts `DbClock.read`). */
  read: () => Promise<number>;
  /** Whether one of the scopes (null: anything) changed after a generation (`DbClock.changedAfter`). */
  changedAfter: (gen: number, scopes: readonly string[] | null) => boolean;
  /** What the answer just made depends on besides `*` (null: every change), once the row has answered. */
  scopesOf: (ctx: Context) => readonly string[] | null;
  /** Bytes of answers kept at most. */
  maxBytes: number;
  /** How long an answer is kept at most, in ms, even when nothing changed. */
  maxAgeMs: number;
  /** Whether a request's matched table row is marked `cached`. */
  cachedRow: (ctx: Context) => boolean;
  /** Told of every lookup of a kept answer, whether it was sent again (the metrics count them). */
  onLookup?: (hit: boolean) => void;
}

// Headers a kept answer does not carry over: its own request's id, and what Koa sets from the body.
const NOT_KEPT = new Set(['x-request-id', 'content-length']);
const TOKEN_HEADER = /^(?:token|bearer)\s+\S+$/i;

/** The key of a request whose answer may be kept, or null. */
export function answerKey(ctx: Context): string | null {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return null;
  const h = ctx.headers;
  const authorization = h.authorization;
  if (authorization !== undefined && !TOKEN_HEADER.test(authorization.trim())) return null;
  if (h.sudo !== undefined) return null;
  // HEAD is answered from GET's answer, without its body (Koa sends none).
  return hash('sha256', `${ctx.url}\n${authorization?.trim() ?? ''}`, 'base64url');
}

export function answerCache(opts: AnswerCacheOptions): Middleware {
  const kept = new Lru<string, Kept>(opts.maxBytes, (k) => k.body.length + 512);
  // One answer takes at most a sixteenth of the room: a large file's contents does not push out the rest.
  const largest = opts.maxBytes / 16;
  return async (ctx, next) => {
    if (!opts.cachedRow(ctx)) return next();
    const key = answerKey(ctx);
    if (key === null) return next();
    let gen: number;
    try {
      gen = await opts.read();
    } catch (e) {
      // Without a reading nothing is kept or sent again. A database that cannot be reached or did not
      // answer in time ends the request here (503, lib/db/outage.ts): its own statements would wait
      // as long again. Otherwise the request runs as any other.
      if (isDatabaseUnavailable(e)) throw e;
      return next();
    }
    const hit = kept.get(key);
    const fresh = hit !== undefined && hit.until > Date.now() && !opts.changedAfter(hit.gen, hit.scopes);
    opts.onLookup?.(fresh);
    if (fresh) return send(ctx, hit);
    await next();
    if (ctx.status !== 200 || !Buffer.isBuffer(ctx.body) || ctx.body.length > largest) return;
    const headers: Kept['headers'] = [];
    for (const [name, value] of Object.entries(ctx.res.getHeaders())) {
      if (value !== undefined && !NOT_KEPT.has(name)) headers.push([name, value]);
    }
    const etag = ctx.res.getHeader('etag');
    kept.set(key, {
      gen,
      scopes: opts.scopesOf(ctx),
      until: Date.now() + opts.maxAgeMs,
      headers,
      etag: typeof etag === 'string' ? etag : undefined,
      body: ctx.body,
    });
  };
}

function send(ctx: Context, k: Kept): void {
  const res = ctx.res;
  for (const [name, value] of k.headers) res.setHeader(name, value);
  if (k.etag !== undefined && noneMatch(ctx.req.headers['if-none-match'] || undefined, k.etag)) {
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  ctx.status = 200;
  ctx.body = k.body;
}
