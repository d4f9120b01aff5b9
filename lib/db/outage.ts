// A database that is down, refuses connections or does not answer within the bounds of
// [database] CONNECT_TIMEOUT, POOL_TIMEOUT and STATEMENT_TIMEOUT (model/db.ts) is an outage, not a
// bug: the request answers 503 with Retry-After in Forgejo's error shape, and the log says why once
// per outage and says when the database answers again.
import type { Logger } from 'pino';
import { HttpError } from '../http/errors.ts';

/** Seconds a client is asked to wait before trying again. */
export const OUTAGE_RETRY_AFTER_S = 5;
export const OUTAGE_MESSAGE = 'the database is unavailable; try again later';

/** The answer to a request that met an outage. */
export const serviceUnavailable = () => new HttpError(503, OUTAGE_MESSAGE, { headers: { 'Retry-After': String(OUTAGE_RETRY_AFTER_S) } });

// Node's socket errors of a server that cannot be reached or went away.
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// PostgreSQL's SQLSTATEs of an outage: connection exceptions (class 08), too many connections, a
// statement cancelled by statement_timeout, a server shutting down or starting (class 57P).
const SQLSTATE = /^(08\d{3}|53300|57014|57P0[1-4])$/;
// Errors that name no code: pg's and the pool's own.
const MESSAGES = [
  'Connection terminated',
  'Query read timeout',
  // pg's connect timeout destroys the socket with this error, which reaches the caller as it is.
  'timeout expired',
  'Timeout acquiring a connection',
  // pg's pool (model/statement-pool.ts): no connection free or made in time.
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection terminated due to connection timeout',
  'the database clock did not answer',
  // The clock refuses to answer while a change of this process is not announced (model/db-clock.ts).
  'a change is not announced yet',
];

/** True when `e` (or what caused it) says the database could not be reached or did not answer in time. */
export function isDatabaseUnavailable(e: unknown, depth = 0): boolean {
  if (depth > 4 || typeof e !== 'object' || e === null) return false;
  const err = e as { code?: unknown; sqlState?: unknown; message?: unknown; cause?: unknown; name?: unknown; errors?: unknown };
  for (const code of [err.code, err.sqlState]) {
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || SQLSTATE.test(code))) return true;
  }
  if (err.name === 'KnexTimeoutError' || err.name === 'AnnouncementError') return true;
  if (typeof err.message === 'string' && MESSAGES.some((m) => (err.message as string).includes(m))) return true;
  if (Array.isArray(err.errors) && err.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return isDatabaseUnavailable(err.cause, depth + 1);
}

export interface OutageLog {
  /** A request met the outage: logged as an error the first time, then only counted. */
  failed(e: unknown): void;
  /** The database answered: the end of an outage is logged once. */
  answered(): void;
}

const outageLogs = new WeakMap<Logger, OutageLog>();

/**
 * The log of one process's outages: one line when one begins, one when it ends. One per logger, so
 * the HTTP server and the SSH server of a process, given the same logger, share it.
 */
export function outageLog(log: Logger): OutageLog {
  let kept = outageLogs.get(log);
  if (!kept) {
    kept = newOutageLog(log);
    outageLogs.set(log, kept);
  }
  return kept;
}

function newOutageLog(log: Logger): OutageLog {
  let since: number | null = null;
  let requests = 0;
  return {
    failed(e) {
      requests++;
      if (since !== null) return;
      since = Date.now();
      const err = e instanceof Error ? { message: e.message, code: (e as { code?: unknown }).code } : { message: String(e) };
      log.error({ err }, 'database unavailable: requests answer 503 until it answers again');
    },
    answered() {
      if (since === null) return;
      log.info({ ms: Date.now() - since, requests }, 'database answers again');
      since = null;
      requests = 0;
    },
  };
}
