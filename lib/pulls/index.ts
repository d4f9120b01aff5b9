// What other domains of lib/ may use of lib/pulls/: they import it from here, never from its files.
export { pullToApi } from './api/pull.ts';
export { refreshPullsAfterRefChange, retestPull } from './pulls.ts';
