// What other domains of lib/ may use of lib/issues/: they import it from here, never from its files.
export {
  commentsToApi,
  issuePath,
  issuesToApi,
  issueToApi,
  isWorkInProgress,
  repoApiUrl,
  repoHtmlUrl,
  toApiAttachment,
  usersById,
} from './api/issue.ts';
export type { ApiAttachment, ApiComment } from './api/issue.ts';
export { emitPullMerged, emitSynchronized } from './events.ts';
export { addComment, createIssue, labelIdsOf, numberPending, positiveInt, recountIssueTotals } from './issues.ts';
export { normalizeLabelColor } from './label-color.ts';
export { labelSet } from './label-templates.ts';
export { mentionedUsers } from './mentions.ts';
