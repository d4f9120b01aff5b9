// What other domains of lib/ may use of lib/quota/: they import it from here, never from its files.
export { withinQuota } from './quota.ts';
