// Graceful shutdown, as Forgejo's graceful manager does on SIGTERM: stop accepting, let what is in
// flight finish within [server] GRACEFUL_HAMMER_TIME, then cut what is left ("the hammer").
//
// Invariants:
// - Once draining begins no new connection is accepted (the listening socket is closed at once), so
//   a client either reaches the server before the signal or is refused.
// - A request the server has begun reading is answered completely unless the hammer falls: a
//   connection with a request in flight is never closed before its response has ended; keep-alive
//   connections are closed as soon as they are idle (at once for those idle at the signal), and a
//   request that still arrives on one is answered with `Connection: close`.
// - The hammer falls GRACEFUL_HAMMER_TIME after the signal whatever is still running, so a shutdown
//   is bounded.
import type http from 'node:http';
import type net from 'node:net';

/** How often connections that went idle meanwhile are closed while draining (ms). */
const IDLE_SWEEP_MS = 50;

/**
 * Stops `server` accepting and resolves once every connection has ended, true; or, `graceMs` after the
 * call, cuts the connections left and resolves false. `hammer()` cuts them at once (a second signal).
 */
export function drainHttp(server: http.Server, graceMs: number): { done: Promise<boolean>; hammer(): void } {
  let hammer: () => void = () => undefined;
  const done = new Promise<boolean>((resolve) => {
    let settled = false;
    // Requests that come on a kept-alive connection meanwhile are answered, and that connection ends with them.
    const closeAfter = (_req: http.IncomingMessage, res: http.ServerResponse) => {
      if (!res.headersSent) res.setHeader('Connection', 'close');
    };
    server.prependListener('request', closeAfter);
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const finish = (drained: boolean) => {
      if (settled) return;
      settled = true;
      clearInterval(sweep);
      clearTimeout(timer);
      resolve(drained);
    };
    hammer = () => {
      server.closeAllConnections();
      finish(false);
    };
    const timer = setTimeout(hammer, graceMs);
    server.close(() => finish(true));
    server.closeIdleConnections();
  });
  return { done, hammer: () => hammer() };
}

/** Stops a plain net server (the admin socket) accepting; resolves once its connections ended, or after `graceMs`. */
export function drainServer(server: net.Server, graceMs: number): Promise<boolean> {
  return within(new Promise<boolean>((resolve) => server.close(() => resolve(true))), graceMs, false);
}

/** `work`'s value, or `fallback` once `ms` passed without it. */
export async function within<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `stop` on the first SIGTERM or SIGINT; a second one runs `hammer` (an operator who presses
 * Ctrl-C twice does not wait for the grace period). The function returned starts `stop` too, unless
 * it began already (a worker asked by its primary: lib/runtime/workers.ts); it never hammers.
 */
export function onStopSignals(
  stop: (signal: NodeJS.Signals) => Promise<void>,
  hammer: (signal: NodeJS.Signals) => void,
): (signal: NodeJS.Signals) => void {
  let stopping = false;
  const begin = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    void stop(signal);
  };
  const on = (signal: NodeJS.Signals) => {
    if (stopping) return hammer(signal);
    begin(signal);
  };
  process.on('SIGTERM', on);
  process.on('SIGINT', on);
  return begin;
}
