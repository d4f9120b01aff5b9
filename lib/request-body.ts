// Reading API request bodies, on demand (issue 9, items 11 and 13). Nothing reads a body before the
// row's chain asks for it — the BODY step, or SIG for the digest of an ActivityPub inbox — and every
// chain authenticates before that, so a caller the chain turns away (401, 403, 404, 429) costs no
// buffering at all. What one request may buffer is capped by [api] MAX_BODY_SIZE; a body over it
// is 413. Multipart uploads are parsed only for signed-in callers (every route taking one requires a
// token), so an anonymous client cannot make the server spool files to disk either.
import type { Socket } from 'node:net';
import type { Context, Middleware } from 'koa';
import { koaBody, HttpMethodEnum } from 'koa-body';
import type { Config } from '../config.ts';
import { HttpError } from './errors.ts';
import { formidableOptions } from './attachments.ts';

/** A body as received: the JSON value, text, form fields, or multipart `{ fields, files }`; and for JSON and text bodies kept whole, the text. */
export interface ReceivedBody {
  value: unknown;
  text?: string;
}

export interface BodyWanted {
  /** Multipart parsing (temporary files); only for a signed-in caller. */
  uploads: boolean;
  /** Keep the text as received (the HTTP signature's Digest, SIG). */
  text: boolean;
  /** The row takes `multipart`: its value is `{ fields, files }`. */
  multipart: boolean;
}

export type BodyReader = (ctx: Context, wanted: BodyWanted) => Promise<ReceivedBody>;

/** The cap of [api] MAX_BODY_SIZE in bytes. */
export const bodyCap = (cfg: Config) => cfg.API.MAX_BODY_SIZE * 1024 * 1024;

/** Status and message of a body the parser refused: over the cap (413, raw-body's `entity.too.large`, or formidable's) or malformed (422). */
function refusal(err: Error): HttpError {
  const e = err as { status?: number; httpCode?: number };
  if (e.status === 413 || e.httpCode === 413) return new HttpError(413, 'request entity too large');
  return new HttpError(422, `invalid request body: ${err.message}`);
}

export function bodyReader(cfg: Config): BodyReader {
  const limit = bodyCap(cfg);
  const options = {
    text: true,
    json: true,
    urlencoded: true,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
    // ActivityPub peers post `application/activity+json` (or ld+json).
    jsonTypes: ['application/json', 'application/json-patch+json', 'application/vnd.api+json', 'application/csp-report', 'application/activity+json', 'application/ld+json'],
    jsonLimit: limit,
    textLimit: limit,
    formLimit: limit,
    formidable: formidableOptions(cfg),
    onError: (err: Error) => { throw refusal(err); },
  };
  const withUploads = koaBody({ ...options, multipart: true });
  const withoutUploads = koaBody({ ...options, multipart: false });
  const withText = koaBody({ ...options, multipart: false, includeUnparsed: true });
  const done = async () => {};
  return async (ctx, wanted) => {
    await (wanted.text ? withText : wanted.uploads ? withUploads : withoutUploads)(ctx, done);
    const request = ctx.request as { body?: unknown; files?: unknown; rawBody?: unknown };
    return {
      value: wanted.multipart ? { fields: request.body, files: request.files } : request.body,
      text: typeof request.rawBody === 'string' ? request.rawBody : undefined,
    };
  };
}

/** Calls `read` once; later calls share its answer (or its failure). */
export function once<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => (pending ??= read());
}

// A body left unread when the answer is sent is drained by Node so the connection can carry the next
// request; past this size reading it to the end costs more than a new connection does.
const DRAIN_LIMIT = 64 * 1024;
// How long a connection closed on an unread body keeps reading (and dropping) what still arrives.
const LINGER_MS = 500;

/**
 * Koa middleware, mounted first: when the answer goes out while a large request body is still
 * arriving (a 401 before the body was wanted, a 413 on its declared length), the connection is
 * closed instead of reading the rest.
 */
export function closeUnreadBodies(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      // `readableFlowing` is true when someone streams the body (git pushes, package uploads).
      if (!ctx.req.complete && ctx.req.readableFlowing !== true && !ctx.headerSent && unreadIsLarge(ctx)) {
        ctx.set('Connection', 'close');
        lingerOnClose(ctx.req.socket);
      }
    }
  };
}

function unreadIsLarge(ctx: Context): boolean {
  const length = Number(ctx.get('Content-Length') || Number.NaN);
  return Number.isNaN(length) || length > DRAIN_LIMIT;
}

/**
 * Node ends a `Connection: close` socket as soon as the answer is written; the kernel then answers
 * the body still arriving with a reset, and a client busy sending may lose the answer it was sent.
 * As Go's net/http does (closeWriteAndWait), the socket is half-closed first and destroyed a moment
 * later, while Node drops what arrives meanwhile.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}
