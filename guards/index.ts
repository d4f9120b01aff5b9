// The whole step vocabulary, as the route table imports it.
export { TOK } from './tok.ts';
export { BASIC } from './basic.ts';
export { SA } from './sa.ts';
export { SELF } from './self.ts';
export { OWN } from './own.ts';
export { ADM } from './adm.ts';
export { RW } from './rw.ts';
export { RR } from './rr.ts';
export { ARR } from './arr.ts';
export { ONA } from './ona.ts';
export { OM } from './om.ts';
export { TM } from './tm.ts';
export { GH } from './gh.ts';
export { WH } from './wh.ts';
export { NA } from './na.ts';
export { Q } from './q.ts';
export { BRANCHW } from './branchw.ts';
export { BRANCH_DELETABLE } from './branch-delete.ts';
export { BRANCH_RENAMABLE } from './branch-rename.ts';
export { TAG_CONTROL } from './tag-control.ts';
export { EXPLORE } from './explore.ts';
export { PKGREAD, PKGWRITE } from './pkg.ts';
export { SIG } from './sig.ts';
export { BODY } from './body.ts';
export { HEAD_REPO } from './head-repo.ts';
export { TARGET_USER } from './target-user.ts';
export { REPO } from './repo.ts';
export { REPO_ID } from './repo-id.ts';
export { CAN_CREATE_ORG } from './can-create-org.ts';
export { CAN_CREATE_ORG_REPO } from './can-create-org-repo.ts';
export { ADM_OR_SELF_COLLABORATOR } from './collaborator-permission.ts';
export { TRANSFER_RECIPIENT } from './transfer.ts';
export { FORK_TARGET, GENERATE_OWNER, MIGRATE_OWNER } from './owner-in-body.ts';
export { MIGRATIONS_GATE } from './migrations.ts';
export { ORG_REPO, TEAM_ACCESS_CHANGE } from './org-repo.ts';
export {
  NOT_BLOCKED_BY_OWNER,
  NOT_BLOCKED_BY_POSTER,
  NOT_BLOCKED_USER,
  COLLABORATOR_NOT_BLOCKED,
  NOT_BLOCKED_BY_NEW_OWNER,
} from './not-blocked.ts';
export { IS_FORK, IS_MIRROR, IS_TEMPLATE } from './repo-state.ts';
export { ORG } from './org.ts';
export { TEAM } from './team.ts';
export { TEAM_REPO, TEAM_REPO_ADM } from './team-repo.ts';
export { MEMBER_SELF } from './member-self.ts';
export { USER, USER_VISIBLE } from './user.ts';
export { ISSUE } from './issue.ts';
export { COMMENT } from './comment.ts';
export { ATTACHMENT } from './attachment.ts';
export { TRACKED_TIME } from './tracked-time.ts';
export { ISSUE_LOCKED } from './issue-locked.ts';
export { ISSUE_WRITER } from './issue-writer.ts';
export { POSTER_OR_WRITER } from './poster-or-writer.ts';
export { UPDATE_DATE } from './update-date.ts';
export { ALLOWED_REACTION } from './reaction.ts';
export { TRACK_TIME } from './track-time.ts';
export { STOPWATCH } from './stopwatch.ts';
export { TIME_OWNER } from './time-owner.ts';
export { LABEL_LIST } from './label-list.ts';
export { SUBSCRIBER, SUBSCRIBER_SELF } from './subscriber.ts';
export { PULL } from './pull.ts';
export { REVIEW, REVIEW_COMMENT } from './review.ts';
export { REVIEWER, REVIEWER_OR_ADMIN } from './reviewer.ts';
export { REVIEW_ADMIN } from './review-admin.ts';
export { DISMISSABLE } from './dismissable.ts';
export { TASK_TOKEN } from './task-token.ts';
export { TIMES_USER, TIMES_OF_USER } from './times-user.ts';
export { PACKAGE } from './package.ts';
export { USER_BY_ID, REPO_BY_ID } from './by-id.ts';
export { PUBLIC_ONLY } from './public-only.ts';
export { ONE_OF } from './one-of.ts';
export { NO_REPO_TOKEN } from './token-limits.ts';
export { OWNER_SCOPE } from './owner-scope.ts';
export {
  ISSUES_GATE,
  PULLS_GATE,
  ISSUES_OR_PULLS_GATE,
  LOCAL_ISSUE_GATE,
  WIKI_GATE,
  ATTACHMENTS_GATE,
  ACTIONS_GATE,
  TIME_TRACKER_GATE,
  TIME_TRACKING_ON,
} from './gates.ts';
export * from './chains.ts';
export { ALLOW_EDITS } from './allow-edits.ts';
export { SCHEDULED_MERGE } from './scheduled-merge.ts';
export { MERGE_SCHEDULER } from './merge-scheduler.ts';
export { PULL_UPDATER } from './pull-updater.ts';
export { KEY } from './key.ts';
export { KEY_OWNER } from './key-owner.ts';
export { NEW_OWNER } from './new-owner.ts';
export { TRANSFER_TEAMS } from './transfer-teams.ts';
export { PKG_LINK_REPO, PKG_LINKER } from './pkg-link.ts';
export { DEPENDENCY } from './dependency.ts';
export { DEPENDENCY_MANAGER } from './dependency-manager.ts';
export { TIMES_QUERY_USER } from './times-query-user.ts';
export { USER_ORG } from './user-org.ts';
export { NEW_COMMENT_AHEAD, NEW_ISSUE_AHEAD, STARS_AHEAD } from './token-reads.ts';
