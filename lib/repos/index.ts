// What other domains of lib/ may use of lib/repos/: they import it from here, never from its files.
export { CommitUsers, repoUrls, toVerification } from './api/git.ts';
export { pathEscapeSegments, releaseToApi } from './api/release.ts';
export { reposJson } from './api/repo-json.ts';
export { toApiRepo } from './api/repo.ts';
export type { ApiRepo } from './api/repo.ts';
export { readRepoAvatar } from './avatar.ts';
export {
  branchRule,
  canControlTag,
  canUserMergeRule,
  canUserPushRule,
  filePatterns,
  firstMatch,
  loadBranchRules,
  matchesAnyFile,
} from './branch-rules.ts';
export { gitCtx, gitWrite, identityOf, refreshAfterWrite } from './git.ts';
export { compileGlob, compileGlobOrLiteral, GlobError } from './glob.ts';
export { findRedirectTarget } from './redirect.ts';
export {
  checkNewRepo,
  DEFAULT_PULLS_CONFIG,
  deleteRepository,
  FILES_EXIST,
  insertRepository,
  MIRROR_UNITS,
  repoUnits,
  wikiPath,
} from './repos.ts';
export type { RepoRecord } from './repos.ts';
import { pageCut, pageWithTotal, reachable as reachableRepos, reachableRows, type Caller } from './search.ts';
export { pageCut, pageWithTotal, reachableRows, reachableRepos };
export type { Caller };
export { recountStarsAndWatches, WATCHING } from './social.ts';
export { ensureWikiRepo } from './wiki.ts';
