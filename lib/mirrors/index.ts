// What other domains of lib/ may use of lib/mirrors/: they import it from here, never from its files.
export { migrationSpool } from './mirrors.ts';
export { checkRemoteAllowed, HostList } from './remote-url.ts';
export { afterRefsUpdated, mirrorTick, TICK_MS } from './schedule.ts';
