// Errors that say the client went away (closed the connection mid-answer, or abandoned its request
// mid-body): nothing is wrong with the server, so they are logged as a client gone, not as errors.
import type { Context } from 'koa';
import type { Logger } from 'pino';

const GONE_CODES = new Set([
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_STREAM_DESTROYED',
  'ERR_STREAM_UNABLE_TO_PIPE',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ECANCELED',
]);

/** True when `e` says the peer closed the connection or sent an incomplete request body. */
export function isClientGone(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const err = e as { code?: unknown; message?: unknown; type?: unknown };
  if (typeof err.code === 'string' && (GONE_CODES.has(err.code) || err.code.startsWith('HPE_'))) return true;
  // Node's request stream ('aborted'), raw-body's ('request aborted'), llhttp's ('Parse Error').
  if (err.type === 'request.aborted') return true;
  return typeof err.message === 'string' && /^(aborted|request aborted|Parse Error)/.test(err.message);
}

/**
 * Koa's `error` event: what went wrong once the answer had begun or outside the middleware (a streamed
 * body that failed, a request stream's error). Koa's own listener prints a raw stack to stderr; this
 * logs through pino with the request id.
 */
export function logAppError(log: Logger, e: unknown, ctx?: Context): void {
  const requestId = ctx?.res.getHeader('X-Request-Id');
  const where = ctx ? { requestId, method: ctx.method, path: ctx.path } : {};
  if (isClientGone(e)) {
    log.info({ ...where, code: (e as { code?: unknown }).code, reason: (e as Error).message }, 'client went away');
    return;
  }
  log.error({ ...where, err: e }, 'error while answering');
}
