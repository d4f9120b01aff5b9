// What other domains of lib/ may use of lib/activity/: they import it from here, never from its files.
export { emitEvent, emitEvents, onEvent } from './events.ts';
export type { Changes, EventCtx, EventOf, IssueAction, PullAction, PushCommit, PushCommits, RepoEvent } from './events.ts';
export { feedWatchersList, feedWatchersOver, keepFeedWatchers } from './feeds.ts';
export type { ActionsPart } from './feeds.ts';
export type { ThreadsPart } from './notify.ts';
