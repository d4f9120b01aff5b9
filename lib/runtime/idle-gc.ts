// Memory handed back when the server falls quiet after load (memory). Under load V8 grows
// the young generation to both of its 32 MB semi-spaces (lib/runtime/node-flags.ts) and the old space past
// the live heap; when the load stops, nothing allocates, so no collection runs that could shrink
// them, and V8 keeps the pages it freed in its own pool: the server stayed at its after-load size
// (272 MB, still 272 MB a minute later, while its live heap was about 60 MB). One collection of
// V8's "last resort" kind (the one behind V8's low-memory notification: it shrinks the young
// generation, compacts and returns free pages to the system) brought it to 168 MB, at 100-200 ms
// of the main thread, once.
//
// So: a timer looks every QUIET_MS whether a request arrived since its last look; when none did
// and V8's heap has grown by GROWTH_BYTES since the last such collection (or the start), it runs
// one. Sporadic requests grow nothing and cause none; a burst of load causes one, after it.
// Nothing here holds data: it only decides when to collect.
//
// The cost is that collection, and the next burst starting on a small young generation (more
// scavenges until it has grown again): with bursts of one to three seconds of CPU 4.5 s apart, a
// collection after each, the heavier reads took 10-20 % more CPU per request in some runs, within
// the noise of a shared machine in others. 5 s of quiet (not 2) keeps pauses between bursts of
// ordinary traffic from causing one.
import type http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';

export const QUIET_MS = 5_000;
export const GROWTH_BYTES = 24 * 1024 * 1024;

type Collect = () => void;

export interface IdleCollectorDeps {
  /** V8's committed heap in bytes. */
  heapBytes: () => number;
  collect: Collect;
}

/**
 * V8's gc extension, without `--expose-gc` on the command line (which would give every module a
 * global `gc`): the flag is set for the creation of one context, whose `gc` is kept, then unset.
 */
export function lastResortCollect(): Collect {
  const exposed = (globalThis as { gc?: (o: object) => void }).gc;
  let gc = exposed;
  if (typeof gc !== 'function') {
    v8.setFlagsFromString('--expose-gc');
    try {
      gc = vm.runInNewContext('gc') as (o: object) => void;
    } finally {
      v8.setFlagsFromString('--no-expose-gc');
    }
  }
  const fn = gc;
  return () => fn({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/** The decision of one look, kept apart from timers and V8 so it can be tested. */
export class IdleCollector {
  private seen = 0;
  private requests = 0;
  private floor = 0;
  collections = 0;
  private readonly deps: IdleCollectorDeps;
  constructor(deps: IdleCollectorDeps) {
    this.deps = deps;
  }

  request(): void {
    this.requests++;
  }

  /** One look: collects when no request came since the last look and the heap grew enough. */
  look(): boolean {
    if (this.requests !== this.seen) {
      this.seen = this.requests;
      return false;
    }
    if (this.deps.heapBytes() < this.floor + GROWTH_BYTES) return false;
    this.deps.collect();
    this.collections++;
    this.floor = this.deps.heapBytes();
    return true;
  }
}

/** Starts looking at `server`'s requests; `stop` ends it (the timer never keeps the process alive). */
export function collectWhenIdle(
  server: http.Server,
  deps: IdleCollectorDeps = { heapBytes: () => v8.getHeapStatistics().total_heap_size, collect: lastResortCollect() },
): { stop(): void } {
  const c = new IdleCollector(deps);
  const onRequest = () => c.request();
  server.on('request', onRequest);
  const timer = setInterval(() => c.look(), QUIET_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      server.off('request', onRequest);
    },
  };
}
