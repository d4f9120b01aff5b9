// Generated from Forgejo's swagger (definitions section) and hand-checked; see index.ts for the conventions.
// Pull requests and reviews.
//
// Conventions: request types (…Option/…Options/…Form) carry Forgejo's Go binding rules as
// `x-binding` + constraint; response types accept `null` for object refs, arrays, maps and date-times.
// `date-time`/`email` formats are kept as `x-format` annotations (never validated).
import { Type, type Static } from 'typebox';
import { INT32, ReviewStateType, StateType } from './common.ts';
import { Label, Milestone } from './issue.ts';
import { Team } from './org.ts';
import { Repository } from './repo.ts';
import { User } from './user.ts';

export const CreatePullRequestOption = Type.Object(
  {
    // Go binding: Required
    head: Type.String({ 'x-go-name': 'Head' }),
    base: Type.String({ 'x-go-name': 'Base' }),
    title: Type.String({ maxLength: 255, 'x-go-name': 'Title' }),
    body: Type.Optional(Type.String({ 'x-go-name': 'Body' })),
    assignee: Type.Optional(Type.String({ 'x-go-name': 'Assignee' })),
    assignees: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'Assignees' })),
    milestone: Type.Optional(Type.Integer({ ...INT32, format: 'int64', 'x-go-name': 'Milestone' })),
    labels: Type.Optional(Type.Array(Type.Integer({ ...INT32, format: 'int64' }), { 'x-go-name': 'Labels' })),
    due_date: Type.Optional(Type.String({ 'x-format': 'date-time', 'x-go-name': 'Deadline' })),
  },
  { $id: 'CreatePullRequestOption', description: 'CreatePullRequestOption options when creating a pull request' },
);
export type CreatePullRequestOption = Static<typeof CreatePullRequestOption>;

export const CreatePullReviewComment = Type.Object(
  {
    body: Type.Optional(Type.String({ 'x-go-name': 'Body' })),
    extra_lines_count: Type.Optional(
      Type.Integer({
        ...INT32,
        format: 'int64',
        description: 'number of additional lines after the commented line (0 = single line comment)',
        'x-go-name': 'ExtraLinesCount',
      }),
    ),
    new_position: Type.Optional(
      Type.Integer({ ...INT32, format: 'int64', description: 'if comment to new file line or 0', 'x-go-name': 'NewLineNum' }),
    ),
    old_position: Type.Optional(
      Type.Integer({ ...INT32, format: 'int64', description: 'if comment to old file line or 0', 'x-go-name': 'OldLineNum' }),
    ),
    path: Type.Optional(Type.String({ maxLength: 4096, description: 'the tree path', 'x-go-name': 'Path' })),
  },
  { $id: 'CreatePullReviewComment', description: 'CreatePullReviewComment represent a review comment for creation api' },
);
export type CreatePullReviewComment = Static<typeof CreatePullReviewComment>;

/** CreatePullReviewCommentOptions: alias of CreatePullReviewComment in swagger (`$ref`), transcribed as a copy with its own $id. */
export const CreatePullReviewCommentOptions = Type.Object(
  {
    body: Type.Optional(Type.String({ 'x-go-name': 'Body' })),
    extra_lines_count: Type.Optional(
      Type.Integer({
        ...INT32,
        format: 'int64',
        description: 'number of additional lines after the commented line (0 = single line comment)',
        'x-go-name': 'ExtraLinesCount',
      }),
    ),
    new_position: Type.Optional(
      Type.Integer({ ...INT32, format: 'int64', description: 'if comment to new file line or 0', 'x-go-name': 'NewLineNum' }),
    ),
    old_position: Type.Optional(
      Type.Integer({ ...INT32, format: 'int64', description: 'if comment to old file line or 0', 'x-go-name': 'OldLineNum' }),
    ),
    path: Type.Optional(Type.String({ maxLength: 4096, description: 'the tree path', 'x-go-name': 'Path' })),
  },
  { $id: 'CreatePullReviewCommentOptions', description: 'CreatePullReviewComment represent a review comment for creation api' },
);
export type CreatePullReviewCommentOptions = Static<typeof CreatePullReviewCommentOptions>;

export const CreatePullReviewOptions = Type.Object(
  {
    body: Type.Optional(Type.String({ 'x-go-name': 'Body' })),
    comments: Type.Optional(Type.Array(CreatePullReviewComment, { 'x-go-name': 'Comments' })),
    commit_id: Type.Optional(Type.String({ maxLength: 64, 'x-go-name': 'CommitID' })),
    event: Type.Optional(Type.With(ReviewStateType, { 'x-go-name': 'Event' })),
  },
  { $id: 'CreatePullReviewOptions', description: 'CreatePullReviewOptions are options to create a pull review' },
);
export type CreatePullReviewOptions = Static<typeof CreatePullReviewOptions>;

export const DismissPullReviewOptions = Type.Object(
  {
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
    priors: Type.Optional(Type.Boolean({ 'x-go-name': 'Priors' })),
  },
  { $id: 'DismissPullReviewOptions', description: 'DismissPullReviewOptions are options to dismiss a pull review' },
);
export type DismissPullReviewOptions = Static<typeof DismissPullReviewOptions>;

export const EditPullRequestOption = Type.Object(
  {
    allow_maintainer_edit: Type.Optional(Type.Boolean({ 'x-go-name': 'AllowMaintainerEdit' })),
    assignee: Type.Optional(Type.String({ 'x-go-name': 'Assignee' })),
    assignees: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'Assignees' })),
    base: Type.Optional(Type.String({ 'x-go-name': 'Base' })),
    body: Type.Optional(Type.String({ 'x-go-name': 'Body' })),
    due_date: Type.Optional(Type.String({ 'x-format': 'date-time', 'x-go-name': 'Deadline' })),
    labels: Type.Optional(Type.Array(Type.Integer({ ...INT32, format: 'int64' }), { 'x-go-name': 'Labels' })),
    milestone: Type.Optional(Type.Integer({ ...INT32, format: 'int64', 'x-go-name': 'Milestone' })),
    state: Type.Optional(Type.String({ 'x-go-name': 'State' })),
    title: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'Title' })),
    unset_due_date: Type.Optional(Type.Boolean({ 'x-go-name': 'RemoveDeadline' })),
  },
  { $id: 'EditPullRequestOption', description: 'EditPullRequestOption options when modify pull request' },
);
export type EditPullRequestOption = Static<typeof EditPullRequestOption>;

export const MergePullRequestOption = Type.Object(
  {
    Do: Type.Union(
      [
        Type.Literal('merge'),
        Type.Literal('rebase'),
        Type.Literal('rebase-merge'),
        Type.Literal('squash'),
        Type.Literal('fast-forward-only'),
        Type.Literal('manually-merged'),
      ],
      { 'x-go-name': 'Do' },
    ),
    MergeTitleField: Type.Optional(Type.String({ 'x-go-name': 'MergeTitleField' })),
    MergeMessageField: Type.Optional(Type.String({ 'x-go-name': 'MergeMessageField' })),
    MergeCommitID: Type.Optional(Type.String({ 'x-go-name': 'MergeCommitID' })),
    head_commit_id: Type.Optional(Type.String({ 'x-go-name': 'HeadCommitID' })),
    force_merge: Type.Optional(Type.Boolean({ 'x-go-name': 'ForceMerge' })),
    merge_when_checks_succeed: Type.Optional(Type.Boolean({ 'x-go-name': 'MergeWhenChecksSucceed' })),
    delete_branch_after_merge: Type.Optional(Type.Boolean({ 'x-go-name': 'DeleteBranchAfterMerge' })),
  },
  { $id: 'MergePullRequestOption', description: 'MergePullRequestForm form for merging Pull Request' },
);
export type MergePullRequestOption = Static<typeof MergePullRequestOption>;

export const PRBranchInfo = Type.Object(
  {
    label: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    ref: Type.Optional(Type.String({ 'x-go-name': 'Ref' })),
    repo: Type.Optional(Type.Union([Repository, Type.Null()], { 'x-go-name': 'Repo' })),
    repo_id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'RepoID' })),
    sha: Type.Optional(Type.String({ 'x-go-name': 'Sha' })),
  },
  { $id: 'PRBranchInfo', description: 'PRBranchInfo information about a branch' },
);
export type PRBranchInfo = Static<typeof PRBranchInfo>;

export const PullRequest = Type.Object(
  {
    additions: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Additions' })),
    allow_maintainer_edit: Type.Optional(Type.Boolean({ 'x-go-name': 'AllowMaintainerEdit' })),
    assignee: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'Assignee' })),
    assignees: Type.Optional(Type.Union([Type.Array(User), Type.Null()], { 'x-go-name': 'Assignees' })),
    base: Type.Optional(Type.Union([PRBranchInfo, Type.Null()], { 'x-go-name': 'Base' })),
    body: Type.Optional(Type.String({ 'x-go-name': 'Body' })),
    changed_files: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ChangedFiles' })),
    closed_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Closed' })),
    comments: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Comments' })),
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    deletions: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Deletions' })),
    diff_url: Type.Optional(Type.String({ 'x-go-name': 'DiffURL' })),
    draft: Type.Optional(Type.Boolean({ 'x-go-name': 'Draft' })),
    due_date: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Deadline' })),
    flow: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Flow' })),
    head: Type.Optional(Type.Union([PRBranchInfo, Type.Null()], { 'x-go-name': 'Head' })),
    html_url: Type.Optional(Type.String({ 'x-go-name': 'HTMLURL' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    is_locked: Type.Optional(Type.Boolean({ 'x-go-name': 'IsLocked' })),
    labels: Type.Optional(Type.Union([Type.Array(Label), Type.Null()], { 'x-go-name': 'Labels' })),
    merge_base: Type.Optional(Type.String({ 'x-go-name': 'MergeBase' })),
    merge_commit_sha: Type.Optional(Type.Union([Type.String(), Type.Null()], { 'x-go-name': 'MergedCommitID' })),
    mergeable: Type.Optional(Type.Boolean({ 'x-go-name': 'Mergeable' })),
    merged: Type.Optional(Type.Boolean({ 'x-go-name': 'HasMerged' })),
    merged_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Merged' })),
    merged_by: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'MergedBy' })),
    milestone: Type.Optional(Type.Union([Milestone, Type.Null()], { 'x-go-name': 'Milestone' })),
    number: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Index' })),
    patch_url: Type.Optional(Type.String({ 'x-go-name': 'PatchURL' })),
    pin_order: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'PinOrder' })),
    requested_reviewers: Type.Optional(Type.Union([Type.Array(User), Type.Null()], { 'x-go-name': 'RequestedReviewers' })),
    requested_reviewers_teams: Type.Optional(Type.Union([Type.Array(Team), Type.Null()], { 'x-go-name': 'RequestedReviewersTeams' })),
    review_comments: Type.Optional(
      Type.Integer({
        format: 'int64',
        description: 'number of review comments made on the diff of a PR review (not including comments on commits or issues in a PR)',
        'x-go-name': 'ReviewComments',
      }),
    ),
    state: Type.Optional(Type.With(StateType, { 'x-go-name': 'State' })),
    title: Type.Optional(Type.String({ 'x-go-name': 'Title' })),
    updated_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Updated' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
    user: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'User' })),
  },
  { $id: 'PullRequest', description: 'PullRequest represents a pull request' },
);
export type PullRequest = Static<typeof PullRequest>;

export const PullReview = Type.Object(
  {
    body: Type.Optional(Type.String({ 'x-go-name': 'Body' })),
    comments_count: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'CodeCommentsCount' })),
    commit_id: Type.Optional(Type.String({ 'x-go-name': 'CommitID' })),
    dismissed: Type.Optional(Type.Boolean({ 'x-go-name': 'Dismissed' })),
    html_url: Type.Optional(Type.String({ 'x-go-name': 'HTMLURL' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    official: Type.Optional(Type.Boolean({ 'x-go-name': 'Official' })),
    pull_request_url: Type.Optional(Type.String({ 'x-go-name': 'HTMLPullURL' })),
    stale: Type.Optional(Type.Boolean({ 'x-go-name': 'Stale' })),
    state: Type.Optional(Type.With(ReviewStateType, { 'x-go-name': 'State' })),
    submitted_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Submitted' })),
    team: Type.Optional(Type.Union([Team, Type.Null()], { 'x-go-name': 'Team' })),
    updated_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Updated' })),
    user: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'User' })),
  },
  { $id: 'PullReview', description: 'PullReview represents a pull request review' },
);
export type PullReview = Static<typeof PullReview>;

export const PullReviewComment = Type.Object(
  {
    body: Type.Optional(Type.String({ 'x-go-name': 'Body' })),
    commit_id: Type.Optional(Type.String({ 'x-go-name': 'CommitID' })),
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    diff_hunk: Type.Optional(Type.String({ 'x-go-name': 'DiffHunk' })),
    extra_lines_count: Type.Optional(
      Type.Integer({
        format: 'int64',
        description: 'number of additional lines after the commented line (0 = single line comment)',
        'x-go-name': 'ExtraLinesCount',
      }),
    ),
    html_url: Type.Optional(Type.String({ 'x-go-name': 'HTMLURL' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    original_commit_id: Type.Optional(Type.String({ 'x-go-name': 'OrigCommitID' })),
    original_position: Type.Optional(Type.Integer({ format: 'uint64', 'x-go-name': 'OldLineNum' })),
    path: Type.Optional(Type.String({ 'x-go-name': 'Path' })),
    position: Type.Optional(Type.Integer({ format: 'uint64', 'x-go-name': 'LineNum' })),
    pull_request_review_id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ReviewID' })),
    pull_request_url: Type.Optional(Type.String({ 'x-go-name': 'HTMLPullURL' })),
    resolver: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'Resolver' })),
    updated_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Updated' })),
    user: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'User' })),
  },
  { $id: 'PullReviewComment', description: 'PullReviewComment represents a comment on a pull request review' },
);
export type PullReviewComment = Static<typeof PullReviewComment>;

export const PullReviewRequestOptions = Type.Object(
  {
    reviewers: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'Reviewers' })),
    team_reviewers: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'TeamReviewers' })),
  },
  { $id: 'PullReviewRequestOptions', description: 'PullReviewRequestOptions are options to add or remove pull review requests' },
);
export type PullReviewRequestOptions = Static<typeof PullReviewRequestOptions>;

export const SubmitPullReviewOptions = Type.Object(
  {
    body: Type.Optional(Type.String({ 'x-go-name': 'Body' })),
    event: Type.Optional(Type.With(ReviewStateType, { 'x-go-name': 'Event' })),
  },
  { $id: 'SubmitPullReviewOptions', description: 'SubmitPullReviewOptions are options to submit a pending pull review' },
);
export type SubmitPullReviewOptions = Static<typeof SubmitPullReviewOptions>;

// Not in swagger under this name: same fields as MergePullRequestOption (Forgejo's Go form is `MergePullRequestForm`).
export const MergePullRequestForm = Type.Object(
  {
    Do: Type.Union(
      [
        Type.Literal('merge'),
        Type.Literal('rebase'),
        Type.Literal('rebase-merge'),
        Type.Literal('squash'),
        Type.Literal('fast-forward-only'),
        Type.Literal('manually-merged'),
      ],
      { 'x-go-name': 'Do' },
    ),
    MergeTitleField: Type.Optional(Type.String({ 'x-go-name': 'MergeTitleField' })),
    MergeMessageField: Type.Optional(Type.String({ 'x-go-name': 'MergeMessageField' })),
    MergeCommitID: Type.Optional(Type.String({ 'x-go-name': 'MergeCommitID' })),
    head_commit_id: Type.Optional(Type.String({ 'x-go-name': 'HeadCommitID' })),
    force_merge: Type.Optional(Type.Boolean({ 'x-go-name': 'ForceMerge' })),
    merge_when_checks_succeed: Type.Optional(Type.Boolean({ 'x-go-name': 'MergeWhenChecksSucceed' })),
    delete_branch_after_merge: Type.Optional(Type.Boolean({ 'x-go-name': 'DeleteBranchAfterMerge' })),
  },
  { $id: 'MergePullRequestForm', description: 'MergePullRequestForm form for merging Pull request' },
);
export type MergePullRequestForm = Static<typeof MergePullRequestForm>;
