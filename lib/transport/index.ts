// What other domains of lib/ may use of lib/transport/: they import it from here, never from its files.
export { lfsBytesOfOwner } from './lfs-objects.ts';
export { emitRefChanges, refSnapshot } from './push-events.ts';
