// Reading API request bodies, on demand. Nothing reads a body before the
// row's chain asks for it — the BODY step, or SIG for the digest of an ActivityPub inbox — and every
// chain authenticates before that, so a caller the chain turns away (401, 403, 404, 429) costs no
// buffering at all. What one request may buffer is capped by [api] MAX_BODY_SIZE; a body over it
// is 413. Multipart uploads are parsed only for signed-in callers (every route taking one requires a
// token), so an anonymous client cannot make the server spool files to disk either.
import fs from 'node:fs';
import path from 'node:path';
import type { Socket } from 'node:net';
import type { Context, Middleware } from 'koa';
import * as coBody from 'co-body';
import type { Config } from '../../config.ts';
import { HttpError } from './errors.ts';

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

// JSON, text and form bodies are read with co-body, as koa-body reads them (its defaults: UTF-8,
// strict JSON, the same content types); only multipart bodies go through koa-body and formidable,
// loaded when the first one arrives: with zod (koa-body checks its options with it) they are 6 MB
// of heap that a server no upload reaches never holds (memory).
const PARSED_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// ActivityPub peers post `application/activity+json` (or ld+json).
const JSON_TYPES = [
  'application/json',
  'application/json-patch+json',
  'application/vnd.api+json',
  'application/csp-report',
  'application/activity+json',
  'application/ld+json',
];
const FORM_TYPES = ['urlencoded'];
const TEXT_TYPES = ['text/*'];
const MULTIPART_TYPES = ['multipart'];

interface Parsed {
  value: unknown;
  text?: string;
  files?: unknown;
}

/** co-body's answer with `returnRawBody`: the value and the text as received. */
const withText = (r: { parsed: unknown; raw: string }): Parsed => ({ value: r.parsed, text: r.raw });

export function bodyReader(cfg: Config): BodyReader {
  const limit = bodyCap(cfg);
  let multipart: Promise<Middleware> | null = null;
  const loadMultipart = () =>
    (multipart ??= import('koa-body').then(
      ({ koaBody }) =>
        koaBody({
          multipart: true,
          json: false,
          text: false,
          urlencoded: false,
          parsedMethods: [...PARSED_METHODS] as never,
          formidable: formidableOptions(cfg),
          onError: (err: Error) => {
            throw refusal(err);
          },
        }) as unknown as Middleware,
    ));
  const done = async () => {};
  const read = async (ctx: Context, wanted: BodyWanted): Promise<Parsed> => {
    const options = { encoding: 'utf-8', limit, returnRawBody: true as const };
    if (ctx.is(JSON_TYPES)) return withText(await coBody.json(ctx, { ...options, strict: true }));
    if (ctx.is(FORM_TYPES)) return withText(await coBody.form(ctx, options));
    if (ctx.is(TEXT_TYPES)) return withText(await coBody.text(ctx, options));
    // The text was kept for the HTTP signature's digest (SIG), and such bodies are never multipart.
    if (wanted.uploads && !wanted.text && ctx.is(MULTIPART_TYPES)) {
      await (await loadMultipart())(ctx, done);
      const request = ctx.request as { body?: unknown; files?: unknown };
      return { value: request.body, files: request.files };
    }
    return { value: undefined };
  };
  return async (ctx, wanted) => {
    let parsed: Parsed = { value: undefined };
    if (PARSED_METHODS.has(ctx.method.toUpperCase())) {
      try {
        parsed = await read(ctx, wanted);
      } catch (e) {
        if (e instanceof HttpError) throw e;
        throw refusal(e instanceof Error ? e : new Error(String(e)));
      }
    }
    return {
      // A multipart row gets koa-body's `{ fields, files }` whatever arrived (a JSON body as fields).
      value: wanted.multipart ? { fields: parsed.value, files: parsed.files } : parsed.value,
      text: wanted.text ? parsed.text : undefined,
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
 * For the outermost middleware, once the answer is made: when it goes out while a large request body
 * is still arriving (a 401 before the body was wanted, a 413 on its declared length), the connection
 * is closed instead of reading the rest.
 */
export function closeUnreadBody(ctx: Context): void {
  // `readableFlowing` is true when someone streams the body (git pushes, package uploads).
  if (!ctx.req.complete && ctx.req.readableFlowing !== true && !ctx.headerSent && unreadIsLarge(ctx)) {
    ctx.set('Connection', 'close');
    lingerOnClose(ctx.req.socket);
  }
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

/** Where multipart uploads are spooled until their request is answered (removed at start by lib/maintenance/leftovers.ts). */
export const uploadSpool = (cfg: Pick<Config, 'dataPath'>) => path.join(cfg.dataPath, 'attachments', 'tmp');

function formidableOptions(cfg: Config) {
  const uploadDir = uploadSpool(cfg);
  fs.mkdirSync(uploadDir, { recursive: true });
  return { uploadDir, maxFileSize: cfg.ATTACHMENT.MAX_SIZE * 1024 * 1024, allowEmptyFiles: true, minFileSize: 0 };
}
