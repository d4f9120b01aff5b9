// The last line of defence of a serving process: an exception or rejection nothing handled is logged
// through pino instead of printed raw. A client that went away (a socket's error with no listener)
// is logged as such and the process goes on; anything else is logged as fatal and ends the process,
// as Node itself would.
import type { Logger } from 'pino';
import { isClientGone } from '../http/client-gone.ts';

export function guardProcess(log: Logger): void {
  const fatal = (e: unknown, what: string) => {
    if (isClientGone(e)) {
      log.info({ code: (e as { code?: unknown }).code, reason: (e as Error).message }, 'client went away');
      return;
    }
    // pino's default destination writes synchronously: the line is out before the exit.
    log.fatal({ err: e }, what);
    process.exit(1);
  };
  process.on('uncaughtException', (e) => fatal(e, 'uncaught exception'));
  process.on('unhandledRejection', (e) => fatal(e, 'unhandled promise rejection'));
}
