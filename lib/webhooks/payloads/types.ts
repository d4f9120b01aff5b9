// The API payloads a hook task stores (lib/webhooks/tasks.ts, Forgejo's modules/structs/hook.go), as the
// chat-service converters read them back: only the fields they use. The task's payload is our own
// JSON, written by us, so it is read without validation.
export interface PUser {
  login: string;
  full_name?: string;
  avatar_url?: string;
  html_url?: string;
}
export interface PRepo {
  full_name: string;
  html_url: string;
  clone_url: string;
  ssh_url: string;
  private: boolean;
}
export interface PCommit {
  id: string;
  message: string;
  url: string;
  author: { name: string } | null;
}
export interface PMilestone {
  id: number;
  title: string;
}
interface PIssueFields {
  number: number;
  title: string;
  body: string;
  html_url: string;
  state: string;
  user: PUser;
  assignees: PUser[] | null;
  labels: { name: string }[] | null;
  milestone: PMilestone | null;
}
export interface PIssue extends PIssueFields {
  ref: string;
}
export interface PPull extends PIssueFields {
  merged: boolean;
  head: { ref: string } | null;
  base: { ref: string } | null;
  requested_reviewers: PUser[] | null;
  requested_reviewers_teams: { name: string }[] | null;
}
export interface PComment {
  body: string;
  html_url: string;
  issue_url: string;
  pull_request_url: string;
}

export interface PushPayload {
  ref: string;
  compare_url: string;
  commits: PCommit[];
  total_commits: number;
  head_commit: PCommit | null;
  repository: PRepo;
  pusher: PUser;
  sender: PUser;
}
export interface CreatePayload {
  sha: string;
  ref: string;
  ref_type: string;
  repository: PRepo;
  sender: PUser;
}
export interface DeletePayload {
  ref: string;
  ref_type: string;
  repository: PRepo;
  sender: PUser;
}
export interface ForkPayload {
  forkee: PRepo;
  repository: PRepo;
  sender: PUser;
}
export interface IssuePayload {
  action: string;
  number: number;
  issue: PIssue;
  repository: PRepo;
  sender: PUser;
}
export interface IssueCommentPayload {
  action: string;
  issue: PIssue;
  comment: PComment;
  repository: PRepo;
  sender: PUser;
  is_pull: boolean;
}
export interface PullRequestPayload {
  action: string;
  number: number;
  pull_request: PPull;
  repository: PRepo;
  sender: PUser;
  review: { type: string; content: string } | null;
}
export interface ReleasePayload {
  action: string;
  release: { tag_name: string; html_url: string; body: string };
  repository: PRepo;
  sender: PUser;
}
export interface RepositoryPayload {
  action: string;
  repository: PRepo;
  sender: PUser;
}
export interface WikiPayload {
  action: string;
  page: string;
  comment: string;
  repository: PRepo;
  sender: PUser;
}

/** The event a review task carries (Forgejo's HookEventPullRequestReview*). */
export type ReviewEvent = 'pull_request_review_approved' | 'pull_request_review_rejected' | 'pull_request_review_comment';

/**
 * One service's converter (Forgejo's shared.PayloadConvertor): one method per payload family. A method
 * may throw UnsupportedEvent (sourcehut builds only builds pushes and new refs).
 */
export interface Convertor<T> {
  create(p: CreatePayload): T | Promise<T>;
  delete(p: DeletePayload): T | Promise<T>;
  fork(p: ForkPayload): T | Promise<T>;
  issue(p: IssuePayload): T | Promise<T>;
  issueComment(p: IssueCommentPayload): T | Promise<T>;
  push(p: PushPayload): T | Promise<T>;
  pullRequest(p: PullRequestPayload): T | Promise<T>;
  review(p: PullRequestPayload, event: ReviewEvent): T | Promise<T>;
  repository(p: RepositoryPayload): T | Promise<T>;
  release(p: ReleasePayload): T | Promise<T>;
  wiki(p: WikiPayload): T | Promise<T>;
}

/** A payload a service cannot take (Forgejo's ErrPayloadTypeNotSupported), or a hook whose settings are unusable. */
export class UnsupportedEvent extends Error {}
