// Generated from Forgejo's swagger (definitions section) and hand-checked; see index.ts for the conventions.
// Repositories, branches, protections, hooks, mirrors, collaborators and topics.
//
// Conventions: request types (…Option/…Options/…Form) carry Forgejo's Go binding rules as
// `x-binding` + constraint; response types accept `null` for object refs, arrays, maps and date-times.
// `date-time`/`email` formats are kept as `x-format` annotations (never validated).
// Over 400 lines on purpose: a transcription of Forgejo's repository types, kept together to diff against it.
import { Type, type Static } from 'typebox';
import { INT32, PATTERN_ALPHA_DASH_DOT, PATTERN_ALPHA_DASH_DOT_OR_EMPTY, PATTERN_GIT_REF_NAME } from './common.ts';
import { Team } from './org.ts';
import { User } from './user.ts';

export const AddCollaboratorOption = Type.Object(
  {
    // swagger enum read|write|admin not enforced: Forgejo ignores unknown values
    permission: Type.Optional(Type.String({ 'x-go-name': 'Permission' })),
  },
  { $id: 'AddCollaboratorOption', description: 'AddCollaboratorOption options when adding a user as a collaborator of a repository' },
);
export type AddCollaboratorOption = Static<typeof AddCollaboratorOption>;

export const BranchProtection = Type.Object(
  {
    apply_to_admins: Type.Optional(Type.Boolean({ 'x-go-name': 'ApplyToAdmins' })),
    approvals_whitelist_teams: Type.Optional(
      Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'ApprovalsWhitelistTeams' }),
    ),
    approvals_whitelist_username: Type.Optional(
      Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'ApprovalsWhitelistUsernames' }),
    ),
    block_on_official_review_requests: Type.Optional(Type.Boolean({ 'x-go-name': 'BlockOnOfficialReviewRequests' })),
    block_on_outdated_branch: Type.Optional(Type.Boolean({ 'x-go-name': 'BlockOnOutdatedBranch' })),
    block_on_rejected_reviews: Type.Optional(Type.Boolean({ 'x-go-name': 'BlockOnRejectedReviews' })),
    branch_name: Type.Optional(Type.String({ description: 'Deprecated: true', 'x-go-name': 'BranchName' })),
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    dismiss_stale_approvals: Type.Optional(Type.Boolean({ 'x-go-name': 'DismissStaleApprovals' })),
    enable_approvals_whitelist: Type.Optional(Type.Boolean({ 'x-go-name': 'EnableApprovalsWhitelist' })),
    enable_merge_whitelist: Type.Optional(Type.Boolean({ 'x-go-name': 'EnableMergeWhitelist' })),
    enable_push: Type.Optional(Type.Boolean({ 'x-go-name': 'EnablePush' })),
    enable_push_whitelist: Type.Optional(Type.Boolean({ 'x-go-name': 'EnablePushWhitelist' })),
    enable_status_check: Type.Optional(Type.Boolean({ 'x-go-name': 'EnableStatusCheck' })),
    ignore_stale_approvals: Type.Optional(Type.Boolean({ 'x-go-name': 'IgnoreStaleApprovals' })),
    merge_whitelist_teams: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'MergeWhitelistTeams' })),
    merge_whitelist_usernames: Type.Optional(
      Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'MergeWhitelistUsernames' }),
    ),
    protected_file_patterns: Type.Optional(Type.String({ 'x-go-name': 'ProtectedFilePatterns' })),
    push_whitelist_deploy_keys: Type.Optional(Type.Boolean({ 'x-go-name': 'PushWhitelistDeployKeys' })),
    push_whitelist_teams: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'PushWhitelistTeams' })),
    push_whitelist_usernames: Type.Optional(
      Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'PushWhitelistUsernames' }),
    ),
    require_signed_commits: Type.Optional(Type.Boolean({ 'x-go-name': 'RequireSignedCommits' })),
    required_approvals: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'RequiredApprovals' })),
    rule_name: Type.Optional(Type.String({ 'x-go-name': 'RuleName' })),
    status_check_contexts: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'StatusCheckContexts' })),
    unprotected_file_patterns: Type.Optional(Type.String({ 'x-go-name': 'UnprotectedFilePatterns' })),
    updated_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Updated' })),
  },
  { $id: 'BranchProtection', description: 'BranchProtection represents a branch protection for a repository' },
);
export type BranchProtection = Static<typeof BranchProtection>;

export const CreateBranchProtectionOption = Type.Object(
  {
    apply_to_admins: Type.Optional(Type.Boolean({ 'x-go-name': 'ApplyToAdmins' })),
    approvals_whitelist_teams: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'ApprovalsWhitelistTeams' })),
    approvals_whitelist_username: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'ApprovalsWhitelistUsernames' })),
    block_on_official_review_requests: Type.Optional(Type.Boolean({ 'x-go-name': 'BlockOnOfficialReviewRequests' })),
    block_on_outdated_branch: Type.Optional(Type.Boolean({ 'x-go-name': 'BlockOnOutdatedBranch' })),
    block_on_rejected_reviews: Type.Optional(Type.Boolean({ 'x-go-name': 'BlockOnRejectedReviews' })),
    branch_name: Type.Optional(Type.String({ maxLength: 255, description: 'Deprecated: true', 'x-go-name': 'BranchName' })),
    dismiss_stale_approvals: Type.Optional(Type.Boolean({ 'x-go-name': 'DismissStaleApprovals' })),
    enable_approvals_whitelist: Type.Optional(Type.Boolean({ 'x-go-name': 'EnableApprovalsWhitelist' })),
    enable_merge_whitelist: Type.Optional(Type.Boolean({ 'x-go-name': 'EnableMergeWhitelist' })),
    enable_push: Type.Optional(Type.Boolean({ 'x-go-name': 'EnablePush' })),
    enable_push_whitelist: Type.Optional(Type.Boolean({ 'x-go-name': 'EnablePushWhitelist' })),
    enable_status_check: Type.Optional(Type.Boolean({ 'x-go-name': 'EnableStatusCheck' })),
    ignore_stale_approvals: Type.Optional(Type.Boolean({ 'x-go-name': 'IgnoreStaleApprovals' })),
    merge_whitelist_teams: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'MergeWhitelistTeams' })),
    merge_whitelist_usernames: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'MergeWhitelistUsernames' })),
    protected_file_patterns: Type.Optional(Type.String({ 'x-go-name': 'ProtectedFilePatterns' })),
    push_whitelist_deploy_keys: Type.Optional(Type.Boolean({ 'x-go-name': 'PushWhitelistDeployKeys' })),
    push_whitelist_teams: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'PushWhitelistTeams' })),
    push_whitelist_usernames: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'PushWhitelistUsernames' })),
    require_signed_commits: Type.Optional(Type.Boolean({ 'x-go-name': 'RequireSignedCommits' })),
    required_approvals: Type.Optional(Type.Integer({ ...INT32, format: 'int64', 'x-go-name': 'RequiredApprovals' })),
    rule_name: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'RuleName' })),
    status_check_contexts: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'StatusCheckContexts' })),
    unprotected_file_patterns: Type.Optional(Type.String({ 'x-go-name': 'UnprotectedFilePatterns' })),
  },
  { $id: 'CreateBranchProtectionOption', description: 'CreateBranchProtectionOption options for creating a branch protection' },
);
export type CreateBranchProtectionOption = Static<typeof CreateBranchProtectionOption>;

export const CreateBranchRepoOption = Type.Object(
  {
    new_branch_name: Type.String({
      description: 'Name of the branch to create',
      'x-go-name': 'BranchName',
      pattern: PATTERN_GIT_REF_NAME,
      'x-binding': 'GitRefName',
      maxLength: 100,
    }),
    old_branch_name: Type.Optional(
      Type.String({
        description: 'Deprecated: true\nName of the old branch to create from',
        'x-go-name': 'OldBranchName',
        pattern: PATTERN_GIT_REF_NAME,
        'x-binding': 'GitRefName',
        maxLength: 100,
      }),
    ),
    old_ref_name: Type.Optional(
      Type.String({
        description: 'Name of the old branch/tag/commit to create from',
        'x-go-name': 'OldRefName',
        pattern: PATTERN_GIT_REF_NAME,
        'x-binding': 'GitRefName',
        maxLength: 100,
      }),
    ),
  },
  { $id: 'CreateBranchRepoOption', description: 'CreateBranchRepoOption options when creating a branch in a repository' },
);
export type CreateBranchRepoOption = Static<typeof CreateBranchRepoOption>;

export const CreateForkOption = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 100, description: 'name of the forked repository', 'x-go-name': 'Name' })),
    organization: Type.Optional(
      Type.String({ description: 'organization name, if forking into an organization', 'x-go-name': 'Organization' }),
    ),
  },
  { $id: 'CreateForkOption', description: 'CreateForkOption options for creating a fork' },
);
export type CreateForkOption = Static<typeof CreateForkOption>;

export const CreateHookOptionConfig = Type.Record(Type.String(), Type.String(), {
  $id: 'CreateHookOptionConfig',
  description: 'CreateHookOptionConfig has all config options in it\nrequired are "content_type" and "url" Required',
});
export type CreateHookOptionConfig = Static<typeof CreateHookOptionConfig>;

export const CreateHookOption = Type.Object(
  {
    // Forgejo documents an enum but binds any string and answers `Invalid hook type: <t>` itself (and
    // accepts matrix and sourcehut_builds too), so the list is checked by lib/webhooks/webhooks.ts, not here.
    type: Type.String({
      'x-go-name': 'Type',
      description:
        'forgejo, dingtalk, discord, gitea, gogs, msteams, slack, telegram, feishu, wechatwork, packagist, matrix, sourcehut_builds',
    }),
    config: Type.With(CreateHookOptionConfig, { 'x-go-name': 'Config' }),
    events: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'Events' })),
    branch_filter: Type.Optional(Type.String({ 'x-go-name': 'BranchFilter' })),
    authorization_header: Type.Optional(Type.String({ 'x-go-name': 'AuthorizationHeader' })),
    active: Type.Optional(Type.Boolean({ 'x-go-name': 'Active', default: false })),
  },
  { $id: 'CreateHookOption', description: 'CreateHookOption options when create a hook' },
);
export type CreateHookOption = Static<typeof CreateHookOption>;

export const CreatePushMirrorOption = Type.Object(
  {
    branch_filter: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'BranchFilter' })),
    interval: Type.Optional(Type.String({ maxLength: 32, 'x-go-name': 'Interval' })),
    remote_address: Type.Optional(Type.String({ maxLength: 2048, 'x-go-name': 'RemoteAddress' })),
    remote_password: Type.Optional(Type.String({ 'x-go-name': 'RemotePassword' })),
    remote_username: Type.Optional(Type.String({ 'x-go-name': 'RemoteUsername' })),
    sync_on_commit: Type.Optional(Type.Boolean({ 'x-go-name': 'SyncOnCommit' })),
    use_ssh: Type.Optional(Type.Boolean({ 'x-go-name': 'UseSSH' })),
  },
  { $id: 'CreatePushMirrorOption', title: 'CreatePushMirrorOption represents need information to create a push mirror of a repository.' },
);
export type CreatePushMirrorOption = Static<typeof CreatePushMirrorOption>;

export const CreateRepoOption = Type.Object(
  {
    name: Type.String({
      description: 'Name of the repository to create',
      'x-go-name': 'Name',
      pattern: PATTERN_ALPHA_DASH_DOT,
      'x-binding': 'AlphaDashDot',
      maxLength: 100,
    }),
    description: Type.Optional(
      Type.String({ description: 'Description of the repository to create', 'x-go-name': 'Description', maxLength: 2048 }),
    ),
    private: Type.Optional(Type.Boolean({ description: 'Whether the repository is private', 'x-go-name': 'Private' })),
    issue_labels: Type.Optional(Type.String({ description: 'Label-Set to use', 'x-go-name': 'IssueLabels' })),
    auto_init: Type.Optional(Type.Boolean({ description: 'Whether the repository should be auto-initialized?', 'x-go-name': 'AutoInit' })),
    template: Type.Optional(Type.Boolean({ description: 'Whether the repository is template', 'x-go-name': 'Template' })),
    gitignores: Type.Optional(Type.String({ description: 'Gitignores to use, separated by commas', 'x-go-name': 'Gitignores' })),
    license: Type.Optional(Type.String({ description: 'License to use', 'x-go-name': 'License' })),
    readme: Type.Optional(Type.String({ description: 'Readme of the repository to create', 'x-go-name': 'Readme' })),
    default_branch: Type.Optional(
      Type.String({
        description: 'DefaultBranch of the repository (used when initializes and in template)',
        'x-go-name': 'DefaultBranch',
        pattern: PATTERN_GIT_REF_NAME,
        'x-binding': 'GitRefName',
        maxLength: 100,
      }),
    ),
    trust_model: Type.Optional(
      Type.Union(
        [
          Type.Literal(''),
          Type.Literal('default'),
          Type.Literal('collaborator'),
          Type.Literal('committer'),
          Type.Literal('collaboratorcommitter'),
        ],
        { description: 'TrustModel of the repository', 'x-go-name': 'TrustModel' },
      ),
    ),
    object_format_name: Type.Optional(
      Type.Union([Type.Literal(''), Type.Literal('sha1'), Type.Literal('sha256')], {
        description: 'ObjectFormatName of the underlying git repository',
        'x-go-name': 'ObjectFormatName',
      }),
    ),
  },
  { $id: 'CreateRepoOption', description: 'CreateRepoOption options when creating repository' },
);
export type CreateRepoOption = Static<typeof CreateRepoOption>;

export const CreateTagProtectionOption = Type.Object(
  {
    name_pattern: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'NamePattern' })),
    whitelist_teams: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'WhitelistTeams' })),
    whitelist_usernames: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'WhitelistUsernames' })),
  },
  { $id: 'CreateTagProtectionOption', description: 'CreateTagProtectionOption options for creating a tag protection' },
);
export type CreateTagProtectionOption = Static<typeof CreateTagProtectionOption>;

export const ExternalTracker = Type.Object(
  {
    external_tracker_format: Type.Optional(
      Type.String({
        description:
          'External Issue Tracker URL Format. Use the placeholders {user}, {repo} and {index} for the username, repository name and issue index.',
        'x-go-name': 'ExternalTrackerFormat',
      }),
    ),
    external_tracker_regexp_pattern: Type.Optional(
      Type.String({ description: 'External Issue Tracker issue regular expression', 'x-go-name': 'ExternalTrackerRegexpPattern' }),
    ),
    external_tracker_style: Type.Optional(
      Type.String({
        description: 'External Issue Tracker Number Format, either `numeric`, `alphanumeric`, or `regexp`',
        'x-go-name': 'ExternalTrackerStyle',
      }),
    ),
    external_tracker_url: Type.Optional(Type.String({ description: 'URL of external issue tracker.', 'x-go-name': 'ExternalTrackerURL' })),
  },
  { $id: 'ExternalTracker', description: 'ExternalTracker represents settings for external tracker' },
);
export type ExternalTracker = Static<typeof ExternalTracker>;

export const ExternalWiki = Type.Object(
  {
    external_wiki_url: Type.Optional(Type.String({ description: 'URL of external wiki.', 'x-go-name': 'ExternalWikiURL' })),
  },
  { $id: 'ExternalWiki', description: 'ExternalWiki represents setting for external wiki' },
);
export type ExternalWiki = Static<typeof ExternalWiki>;

export const InternalTracker = Type.Object(
  {
    allow_only_contributors_to_track_time: Type.Optional(
      Type.Boolean({
        description: 'Let only contributors track time (Built-in issue tracker)',
        'x-go-name': 'AllowOnlyContributorsToTrackTime',
      }),
    ),
    enable_issue_dependencies: Type.Optional(
      Type.Boolean({
        description: 'Enable dependencies for issues and pull requests (Built-in issue tracker)',
        'x-go-name': 'EnableIssueDependencies',
      }),
    ),
    enable_time_tracker: Type.Optional(
      Type.Boolean({ description: 'Enable time tracking (Built-in issue tracker)', 'x-go-name': 'EnableTimeTracker' }),
    ),
  },
  { $id: 'InternalTracker', description: 'InternalTracker represents settings for internal tracker' },
);
export type InternalTracker = Static<typeof InternalTracker>;

export const Permission = Type.Object(
  {
    admin: Type.Optional(Type.Boolean({ 'x-go-name': 'Admin' })),
    pull: Type.Optional(Type.Boolean({ 'x-go-name': 'Pull' })),
    push: Type.Optional(Type.Boolean({ 'x-go-name': 'Push' })),
  },
  { $id: 'Permission', description: 'Permission represents a set of permissions' },
);
export type Permission = Static<typeof Permission>;

export const RepoTransfer = Type.Object(
  {
    doer: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'Doer' })),
    recipient: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'Recipient' })),
    teams: Type.Optional(Type.Union([Type.Array(Team), Type.Null()], { 'x-go-name': 'Teams' })),
  },
  { $id: 'RepoTransfer', description: 'RepoTransfer represents a pending repo transfer' },
);
export type RepoTransfer = Static<typeof RepoTransfer>;

const RepositoryFields = {
  allow_fast_forward_only_merge: Type.Optional(Type.Boolean({ 'x-go-name': 'AllowFastForwardOnly' })),
  allow_merge_commits: Type.Optional(Type.Boolean({ 'x-go-name': 'AllowMerge' })),
  allow_rebase: Type.Optional(Type.Boolean({ 'x-go-name': 'AllowRebase' })),
  allow_rebase_explicit: Type.Optional(Type.Boolean({ 'x-go-name': 'AllowRebaseMerge' })),
  allow_rebase_update: Type.Optional(Type.Boolean({ 'x-go-name': 'AllowRebaseUpdate' })),
  allow_squash_merge: Type.Optional(Type.Boolean({ 'x-go-name': 'AllowSquash' })),
  archived: Type.Optional(Type.Boolean({ 'x-go-name': 'Archived' })),
  archived_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'ArchivedAt' })),
  avatar_url: Type.Optional(Type.String({ 'x-go-name': 'AvatarURL' })),
  clone_url: Type.Optional(Type.String({ 'x-go-name': 'CloneURL' })),
  created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
  default_allow_maintainer_edit: Type.Optional(Type.Boolean({ 'x-go-name': 'DefaultAllowMaintainerEdit' })),
  default_branch: Type.Optional(Type.String({ 'x-go-name': 'DefaultBranch' })),
  default_delete_branch_after_merge: Type.Optional(Type.Boolean({ 'x-go-name': 'DefaultDeleteBranchAfterMerge' })),
  default_merge_style: Type.Optional(Type.String({ 'x-go-name': 'DefaultMergeStyle' })),
  default_update_style: Type.Optional(Type.String({ 'x-go-name': 'DefaultUpdateStyle' })),
  description: Type.Optional(Type.String({ 'x-go-name': 'Description' })),
  empty: Type.Optional(Type.Boolean({ 'x-go-name': 'Empty' })),
  external_tracker: Type.Optional(Type.Union([ExternalTracker, Type.Null()], { 'x-go-name': 'ExternalTracker' })),
  external_wiki: Type.Optional(Type.Union([ExternalWiki, Type.Null()], { 'x-go-name': 'ExternalWiki' })),
  fork: Type.Optional(Type.Boolean({ 'x-go-name': 'Fork' })),
  forks_count: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Forks' })),
  full_name: Type.Optional(Type.String({ 'x-go-name': 'FullName' })),
  globally_editable_wiki: Type.Optional(Type.Boolean({ 'x-go-name': 'GloballyEditableWiki' })),
  has_actions: Type.Optional(Type.Boolean({ 'x-go-name': 'HasActions' })),
  has_issues: Type.Optional(Type.Boolean({ 'x-go-name': 'HasIssues' })),
  has_packages: Type.Optional(Type.Boolean({ 'x-go-name': 'HasPackages' })),
  has_projects: Type.Optional(Type.Boolean({ 'x-go-name': 'HasProjects' })),
  has_pull_requests: Type.Optional(Type.Boolean({ 'x-go-name': 'HasPullRequests' })),
  has_releases: Type.Optional(Type.Boolean({ 'x-go-name': 'HasReleases' })),
  has_wiki: Type.Optional(Type.Boolean({ description: 'is the wiki enabled', 'x-go-name': 'HasWiki' })),
  has_wiki_contents: Type.Optional(Type.Boolean({ description: 'have wiki pages ever been created', 'x-go-name': 'HasWikiContents' })),
  html_url: Type.Optional(Type.String({ 'x-go-name': 'HTMLURL' })),
  id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
  ignore_whitespace_conflicts: Type.Optional(Type.Boolean({ 'x-go-name': 'IgnoreWhitespaceConflicts' })),
  internal: Type.Optional(Type.Boolean({ 'x-go-name': 'Internal' })),
  internal_tracker: Type.Optional(Type.Union([InternalTracker, Type.Null()], { 'x-go-name': 'InternalTracker' })),
  language: Type.Optional(Type.String({ 'x-go-name': 'Language' })),
  languages_url: Type.Optional(Type.String({ 'x-go-name': 'LanguagesURL' })),
  link: Type.Optional(Type.String({ 'x-go-name': 'Link' })),
  mirror: Type.Optional(Type.Boolean({ 'x-go-name': 'Mirror' })),
  mirror_interval: Type.Optional(Type.String({ 'x-go-name': 'MirrorInterval' })),
  mirror_updated: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'MirrorUpdated' })),
  name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
  object_format_name: Type.Optional(
    Type.Union([Type.Literal('sha1'), Type.Literal('sha256')], {
      description: 'ObjectFormatName of the underlying git repository',
      'x-go-name': 'ObjectFormatName',
    }),
  ),
  open_issues_count: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'OpenIssues' })),
  open_pr_counter: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'OpenPulls' })),
  original_url: Type.Optional(Type.String({ 'x-go-name': 'OriginalURL' })),
  owner: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'Owner' })),
  permissions: Type.Optional(Type.Union([Permission, Type.Null()], { 'x-go-name': 'Permissions' })),
  private: Type.Optional(Type.Boolean({ 'x-go-name': 'Private' })),
  release_counter: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Releases' })),
  repo_transfer: Type.Optional(Type.Union([RepoTransfer, Type.Null()], { 'x-go-name': 'RepoTransfer' })),
  size: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Size' })),
  ssh_url: Type.Optional(Type.String({ 'x-go-name': 'SSHURL' })),
  stars_count: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Stars' })),
  template: Type.Optional(Type.Boolean({ 'x-go-name': 'Template' })),
  topics: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'Topics' })),
  updated_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Updated' })),
  url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  watchers_count: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Watchers' })),
  website: Type.Optional(Type.String({ 'x-go-name': 'Website' })),
  wiki_branch: Type.Optional(Type.String({ 'x-go-name': 'WikiBranch' })),
  wiki_clone_url: Type.Optional(Type.String({ 'x-go-name': 'WikiCloneURL' })),
  wiki_ssh_url: Type.Optional(Type.String({ 'x-go-name': 'WikiSSHURL' })),
};
/** Repository as embedded in another Repository (`parent`): Forgejo fills the self-reference only one level deep, so the cycle is unrolled once and the nested `parent` is left unchecked. */
const RepositoryNested = Type.Object(
  {
    ...RepositoryFields,
    parent: Type.Optional(Type.Unknown({ 'x-go-name': 'Parent' })),
  },
  { description: 'Repository represents a repository (nested)' },
);
export const Repository = Type.Object(
  {
    ...RepositoryFields,
    parent: Type.Optional(Type.Union([RepositoryNested, Type.Null()], { 'x-go-name': 'Parent' })),
  },
  { $id: 'Repository', description: 'Repository represents a repository' },
);
export type Repository = Static<typeof Repository>;

export const DeployKey = Type.Object(
  {
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    fingerprint: Type.Optional(Type.String({ 'x-go-name': 'Fingerprint' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    key: Type.Optional(Type.String({ 'x-go-name': 'Key' })),
    key_id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'KeyID' })),
    read_only: Type.Optional(Type.Boolean({ 'x-go-name': 'ReadOnly' })),
    repository: Type.Optional(Type.Union([Repository, Type.Null()], { 'x-go-name': 'Repository' })),
    title: Type.Optional(Type.String({ 'x-go-name': 'Title' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'DeployKey', description: 'DeployKey a deploy key' },
);
export type DeployKey = Static<typeof DeployKey>;

export const EditBranchProtectionOption = Type.Object(
  {
    apply_to_admins: Type.Optional(Type.Boolean({ 'x-go-name': 'ApplyToAdmins' })),
    approvals_whitelist_teams: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'ApprovalsWhitelistTeams' })),
    approvals_whitelist_username: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'ApprovalsWhitelistUsernames' })),
    block_on_official_review_requests: Type.Optional(Type.Boolean({ 'x-go-name': 'BlockOnOfficialReviewRequests' })),
    block_on_outdated_branch: Type.Optional(Type.Boolean({ 'x-go-name': 'BlockOnOutdatedBranch' })),
    block_on_rejected_reviews: Type.Optional(Type.Boolean({ 'x-go-name': 'BlockOnRejectedReviews' })),
    dismiss_stale_approvals: Type.Optional(Type.Boolean({ 'x-go-name': 'DismissStaleApprovals' })),
    enable_approvals_whitelist: Type.Optional(Type.Boolean({ 'x-go-name': 'EnableApprovalsWhitelist' })),
    enable_merge_whitelist: Type.Optional(Type.Boolean({ 'x-go-name': 'EnableMergeWhitelist' })),
    enable_push: Type.Optional(Type.Boolean({ 'x-go-name': 'EnablePush' })),
    enable_push_whitelist: Type.Optional(Type.Boolean({ 'x-go-name': 'EnablePushWhitelist' })),
    enable_status_check: Type.Optional(Type.Boolean({ 'x-go-name': 'EnableStatusCheck' })),
    ignore_stale_approvals: Type.Optional(Type.Boolean({ 'x-go-name': 'IgnoreStaleApprovals' })),
    merge_whitelist_teams: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'MergeWhitelistTeams' })),
    merge_whitelist_usernames: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'MergeWhitelistUsernames' })),
    protected_file_patterns: Type.Optional(Type.String({ 'x-go-name': 'ProtectedFilePatterns' })),
    push_whitelist_deploy_keys: Type.Optional(Type.Boolean({ 'x-go-name': 'PushWhitelistDeployKeys' })),
    push_whitelist_teams: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'PushWhitelistTeams' })),
    push_whitelist_usernames: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'PushWhitelistUsernames' })),
    require_signed_commits: Type.Optional(Type.Boolean({ 'x-go-name': 'RequireSignedCommits' })),
    required_approvals: Type.Optional(Type.Integer({ ...INT32, format: 'int64', 'x-go-name': 'RequiredApprovals' })),
    status_check_contexts: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'StatusCheckContexts' })),
    unprotected_file_patterns: Type.Optional(Type.String({ 'x-go-name': 'UnprotectedFilePatterns' })),
  },
  { $id: 'EditBranchProtectionOption', description: 'EditBranchProtectionOption options for editing a branch protection' },
);
export type EditBranchProtectionOption = Static<typeof EditBranchProtectionOption>;

export const EditGitHookOption = Type.Object(
  {
    content: Type.Optional(Type.String({ 'x-go-name': 'Content' })),
  },
  { $id: 'EditGitHookOption', description: 'EditGitHookOption options when modifying one Git hook' },
);
export type EditGitHookOption = Static<typeof EditGitHookOption>;

export const EditHookOption = Type.Object(
  {
    config: Type.Optional(Type.Record(Type.String(), Type.String(), { 'x-go-name': 'Config' })),
    events: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'Events' })),
    branch_filter: Type.Optional(Type.String({ 'x-go-name': 'BranchFilter' })),
    authorization_header: Type.Optional(Type.String({ 'x-go-name': 'AuthorizationHeader' })),
    active: Type.Optional(Type.Boolean({ 'x-go-name': 'Active' })),
  },
  { $id: 'EditHookOption', description: 'EditHookOption options when modify one hook' },
);
export type EditHookOption = Static<typeof EditHookOption>;

export const EditRepoOption = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        description: 'name of the repository',
        'x-go-name': 'Name',
        pattern: PATTERN_ALPHA_DASH_DOT_OR_EMPTY,
        'x-binding': 'AlphaDashDot',
        maxLength: 100,
      }),
    ),
    description: Type.Optional(
      Type.String({ description: 'a short description of the repository.', 'x-go-name': 'Description', maxLength: 2048 }),
    ),
    website: Type.Optional(
      Type.String({ description: 'a URL with more information about the repository.', 'x-go-name': 'Website', maxLength: 1024 }),
    ),
    private: Type.Optional(
      Type.Boolean({
        description:
          'either `true` to make the repository private or `false` to make it public.\nNote: you will get a 422 error if the organization restricts changing repository visibility to organization\nowners and a non-owner tries to change the value of private.',
        'x-go-name': 'Private',
      }),
    ),
    template: Type.Optional(
      Type.Boolean({
        description: 'either `true` to make this repository a template or `false` to make it a normal repository',
        'x-go-name': 'Template',
      }),
    ),
    has_issues: Type.Optional(
      Type.Boolean({
        description: 'either `true` to enable issues for this repository or `false` to disable them.',
        'x-go-name': 'HasIssues',
      }),
    ),
    internal_tracker: Type.Optional(Type.With(InternalTracker, { 'x-go-name': 'InternalTracker' })),
    external_tracker: Type.Optional(Type.With(ExternalTracker, { 'x-go-name': 'ExternalTracker' })),
    has_wiki: Type.Optional(
      Type.Boolean({
        description: 'either `true` to enable the wiki for this repository or `false` to disable it.',
        'x-go-name': 'HasWiki',
      }),
    ),
    external_wiki: Type.Optional(Type.With(ExternalWiki, { 'x-go-name': 'ExternalWiki' })),
    default_branch: Type.Optional(
      Type.String({ maxLength: 255, description: 'sets the default branch for this repository.', 'x-go-name': 'DefaultBranch' }),
    ),
    allow_fast_forward_only_merge: Type.Optional(
      Type.Boolean({
        description: 'either `true` to allow fast-forward-only merging pull requests, or `false` to prevent fast-forward-only merging.',
        'x-go-name': 'AllowFastForwardOnly',
      }),
    ),
    allow_manual_merge: Type.Optional(
      Type.Boolean({
        description: 'either `true` to allow mark pr as merged manually, or `false` to prevent it.',
        'x-go-name': 'AllowManualMerge',
      }),
    ),
    allow_merge_commits: Type.Optional(
      Type.Boolean({
        description:
          'either `true` to allow merging pull requests with a merge commit, or `false` to prevent merging pull requests with merge commits.',
        'x-go-name': 'AllowMerge',
      }),
    ),
    allow_rebase: Type.Optional(
      Type.Boolean({
        description: 'either `true` to allow rebase-merging pull requests, or `false` to prevent rebase-merging.',
        'x-go-name': 'AllowRebase',
      }),
    ),
    allow_rebase_explicit: Type.Optional(
      Type.Boolean({
        description:
          'either `true` to allow rebase with explicit merge commits (--no-ff), or `false` to prevent rebase with explicit merge commits.',
        'x-go-name': 'AllowRebaseMerge',
      }),
    ),
    allow_rebase_update: Type.Optional(
      Type.Boolean({
        description: 'either `true` to allow updating pull request branch by rebase, or `false` to prevent it.',
        'x-go-name': 'AllowRebaseUpdate',
      }),
    ),
    allow_squash_merge: Type.Optional(
      Type.Boolean({
        description: 'either `true` to allow squash-merging pull requests, or `false` to prevent squash-merging.',
        'x-go-name': 'AllowSquash',
      }),
    ),
    archived: Type.Optional(Type.Boolean({ description: 'set to `true` to archive this repository.', 'x-go-name': 'Archived' })),
    autodetect_manual_merge: Type.Optional(
      Type.Boolean({
        description:
          'either `true` to enable AutodetectManualMerge, or `false` to prevent it. Note: In some special cases, misjudgments can occur.',
        'x-go-name': 'AutodetectManualMerge',
      }),
    ),
    default_allow_maintainer_edit: Type.Optional(
      Type.Boolean({ description: 'set to `true` to allow edits from maintainers by default', 'x-go-name': 'DefaultAllowMaintainerEdit' }),
    ),
    default_delete_branch_after_merge: Type.Optional(
      Type.Boolean({
        description: 'set to `true` to delete pr branch after merge by default',
        'x-go-name': 'DefaultDeleteBranchAfterMerge',
      }),
    ),
    default_merge_style: Type.Optional(
      Type.String({
        description:
          'set to a merge style to be used by this repository: "merge", "rebase", "rebase-merge", "squash", "fast-forward-only", "manually-merged", or "rebase-update-only".',
        'x-go-name': 'DefaultMergeStyle',
      }),
    ),
    default_update_style: Type.Optional(
      Type.String({
        description: 'set to a update style to be used by this repository: "rebase" or "merge"',
        'x-go-name': 'DefaultUpdateStyle',
      }),
    ),
    enable_prune: Type.Optional(
      Type.Boolean({ description: 'enable prune - remove obsolete remote-tracking references when mirroring', 'x-go-name': 'EnablePrune' }),
    ),
    globally_editable_wiki: Type.Optional(
      Type.Boolean({ description: 'set the globally editable state of the wiki', 'x-go-name': 'GloballyEditableWiki' }),
    ),
    has_actions: Type.Optional(
      Type.Boolean({ description: 'either `true` to enable actions unit, or `false` to disable them.', 'x-go-name': 'HasActions' }),
    ),
    has_packages: Type.Optional(
      Type.Boolean({ description: 'either `true` to enable packages unit, or `false` to disable them.', 'x-go-name': 'HasPackages' }),
    ),
    has_projects: Type.Optional(
      Type.Boolean({ description: 'either `true` to enable project unit, or `false` to disable them.', 'x-go-name': 'HasProjects' }),
    ),
    has_pull_requests: Type.Optional(
      Type.Boolean({
        description: 'either `true` to allow pull requests, or `false` to prevent pull request.',
        'x-go-name': 'HasPullRequests',
      }),
    ),
    has_releases: Type.Optional(
      Type.Boolean({ description: 'either `true` to enable releases unit, or `false` to disable them.', 'x-go-name': 'HasReleases' }),
    ),
    ignore_whitespace_conflicts: Type.Optional(
      Type.Boolean({
        description: 'either `true` to ignore whitespace for conflicts, or `false` to not ignore whitespace.',
        'x-go-name': 'IgnoreWhitespaceConflicts',
      }),
    ),
    mirror_interval: Type.Optional(
      Type.String({
        maxLength: 32,
        description: 'set to a string like `8h30m0s` to set the mirror interval time',
        'x-go-name': 'MirrorInterval',
      }),
    ),
    wiki_branch: Type.Optional(
      Type.String({ maxLength: 255, description: "sets the branch used for this repository's wiki.", 'x-go-name': 'WikiBranch' }),
    ),
  },
  { $id: 'EditRepoOption', description: "EditRepoOption options when editing a repository's properties" },
);
export type EditRepoOption = Static<typeof EditRepoOption>;

export const EditTagProtectionOption = Type.Object(
  {
    name_pattern: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'NamePattern' })),
    whitelist_teams: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'WhitelistTeams' })),
    whitelist_usernames: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'WhitelistUsernames' })),
  },
  { $id: 'EditTagProtectionOption', description: 'EditTagProtectionOption options for editing a tag protection' },
);
export type EditTagProtectionOption = Static<typeof EditTagProtectionOption>;

export const GenerateRepoOption = Type.Object(
  {
    owner: Type.String({ description: 'The organization or person who will own the new repository', 'x-go-name': 'Owner' }),
    name: Type.String({
      description: 'Name of the repository to create',
      'x-go-name': 'Name',
      pattern: PATTERN_ALPHA_DASH_DOT,
      'x-binding': 'AlphaDashDot',
      maxLength: 100,
    }),
    default_branch: Type.Optional(
      Type.String({ maxLength: 255, description: 'Default branch of the new repository', 'x-go-name': 'DefaultBranch' }),
    ),
    description: Type.Optional(
      Type.String({ description: 'Description of the repository to create', 'x-go-name': 'Description', maxLength: 2048 }),
    ),
    private: Type.Optional(Type.Boolean({ description: 'Whether the repository is private', 'x-go-name': 'Private' })),
    git_content: Type.Optional(
      Type.Boolean({ description: 'include git content of default branch in template repo', 'x-go-name': 'GitContent' }),
    ),
    topics: Type.Optional(Type.Boolean({ description: 'include topics in template repo', 'x-go-name': 'Topics' })),
    git_hooks: Type.Optional(Type.Boolean({ description: 'include git hooks in template repo', 'x-go-name': 'GitHooks' })),
    webhooks: Type.Optional(Type.Boolean({ description: 'include webhooks in template repo', 'x-go-name': 'Webhooks' })),
    avatar: Type.Optional(Type.Boolean({ description: 'include avatar of the template repo', 'x-go-name': 'Avatar' })),
    labels: Type.Optional(Type.Boolean({ description: 'include labels in template repo', 'x-go-name': 'Labels' })),
    protected_branch: Type.Optional(
      Type.Boolean({ description: 'include protected branches in template repo', 'x-go-name': 'ProtectedBranch' }),
    ),
  },
  { $id: 'GenerateRepoOption', description: 'GenerateRepoOption options when creating repository using a template' },
);
export type GenerateRepoOption = Static<typeof GenerateRepoOption>;

export const GitHook = Type.Object(
  {
    content: Type.Optional(Type.String({ 'x-go-name': 'Content' })),
    is_active: Type.Optional(Type.Boolean({ 'x-go-name': 'IsActive' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
  },
  { $id: 'GitHook', description: 'GitHook represents a Git repository hook' },
);
export type GitHook = Static<typeof GitHook>;

export const Hook = Type.Object(
  {
    active: Type.Optional(Type.Boolean({ 'x-go-name': 'Active' })),
    authorization_header: Type.Optional(Type.String({ 'x-go-name': 'AuthorizationHeader' })),
    branch_filter: Type.Optional(Type.String({ 'x-go-name': 'BranchFilter' })),
    config: Type.Optional(
      Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()], {
        description: 'Deprecated: use Metadata instead',
        'x-go-name': 'Config',
      }),
    ),
    content_type: Type.Optional(Type.String({ 'x-go-name': 'ContentType' })),
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    events: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'Events' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    metadata: Type.Optional(Type.Unknown({ 'x-go-name': 'Metadata' })),
    type: Type.Optional(Type.String({ 'x-go-name': 'Type' })),
    updated_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Updated' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'Hook', description: 'Hook a hook is a web hook when one repository changed' },
);
export type Hook = Static<typeof Hook>;

export const MigrateRepoOptions = Type.Object(
  {
    clone_addr: Type.String({ maxLength: 2048, 'x-go-name': 'CloneAddr' }),
    uid: Type.Optional(
      Type.Integer({ ...INT32, format: 'int64', description: 'deprecated (only for backwards compatibility)', 'x-go-name': 'RepoOwnerID' }),
    ),
    repo_owner: Type.Optional(
      Type.String({ description: 'Name of User or Organisation who will own Repo after migration', 'x-go-name': 'RepoOwner' }),
    ),
    repo_name: Type.String({ 'x-go-name': 'RepoName', pattern: PATTERN_ALPHA_DASH_DOT, 'x-binding': 'AlphaDashDot', maxLength: 100 }),
    service: Type.Optional(
      Type.Union(
        [
          Type.Literal(''),
          Type.Literal('git'),
          Type.Literal('github'),
          Type.Literal('gitea'),
          Type.Literal('gitlab'),
          Type.Literal('gogs'),
          Type.Literal('onedev'),
          Type.Literal('gitbucket'),
          Type.Literal('codebase'),
        ],
        { 'x-go-name': 'Service' },
      ),
    ),
    auth_username: Type.Optional(Type.String({ 'x-go-name': 'AuthUsername' })),
    auth_password: Type.Optional(Type.String({ 'x-go-name': 'AuthPassword' })),
    auth_token: Type.Optional(Type.String({ 'x-go-name': 'AuthToken' })),
    mirror: Type.Optional(Type.Boolean({ 'x-go-name': 'Mirror' })),
    lfs: Type.Optional(Type.Boolean({ 'x-go-name': 'LFS' })),
    lfs_endpoint: Type.Optional(Type.String({ 'x-go-name': 'LFSEndpoint' })),
    private: Type.Optional(Type.Boolean({ 'x-go-name': 'Private' })),
    description: Type.Optional(Type.String({ 'x-go-name': 'Description', maxLength: 2048 })),
    issues: Type.Optional(Type.Boolean({ 'x-go-name': 'Issues' })),
    labels: Type.Optional(Type.Boolean({ 'x-go-name': 'Labels' })),
    milestones: Type.Optional(Type.Boolean({ 'x-go-name': 'Milestones' })),
    mirror_interval: Type.Optional(Type.String({ maxLength: 32, 'x-go-name': 'MirrorInterval' })),
    pull_requests: Type.Optional(Type.Boolean({ 'x-go-name': 'PullRequests' })),
    releases: Type.Optional(Type.Boolean({ 'x-go-name': 'Releases' })),
    wiki: Type.Optional(Type.Boolean({ 'x-go-name': 'Wiki' })),
  },
  { $id: 'MigrateRepoOptions', description: "MigrateRepoOptions options for migrating repository's\nthis is used to interact with api v1" },
);
export type MigrateRepoOptions = Static<typeof MigrateRepoOptions>;

export const PushMirror = Type.Object(
  {
    branch_filter: Type.Optional(Type.String({ 'x-go-name': 'BranchFilter' })),
    created: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'CreatedUnix' })),
    interval: Type.Optional(Type.String({ 'x-go-name': 'Interval' })),
    last_error: Type.Optional(Type.String({ 'x-go-name': 'LastError' })),
    last_update: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'LastUpdateUnix' })),
    public_key: Type.Optional(Type.String({ 'x-go-name': 'PublicKey' })),
    remote_address: Type.Optional(Type.String({ 'x-go-name': 'RemoteAddress' })),
    remote_name: Type.Optional(Type.String({ 'x-go-name': 'RemoteName' })),
    repo_name: Type.Optional(Type.String({ 'x-go-name': 'RepoName' })),
    sync_on_commit: Type.Optional(Type.Boolean({ 'x-go-name': 'SyncOnCommit' })),
  },
  { $id: 'PushMirror', description: 'PushMirror represents information of a push mirror' },
);
export type PushMirror = Static<typeof PushMirror>;

export const ReplaceFlagsOption = Type.Object(
  {
    flags: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { 'x-go-name': 'Flags' })),
  },
  { $id: 'ReplaceFlagsOption', description: 'ReplaceFlagsOption options when replacing the flags of a repository' },
);
export type ReplaceFlagsOption = Static<typeof ReplaceFlagsOption>;

export const RepoCollaboratorPermission = Type.Object(
  {
    permission: Type.Optional(Type.String({ 'x-go-name': 'Permission' })),
    role_name: Type.Optional(Type.String({ 'x-go-name': 'RoleName' })),
    user: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'User' })),
  },
  { $id: 'RepoCollaboratorPermission', description: 'RepoCollaboratorPermission to get repository permission for a collaborator' },
);
export type RepoCollaboratorPermission = Static<typeof RepoCollaboratorPermission>;

export const RepoTopicOptions = Type.Object(
  {
    topics: Type.Optional(Type.Array(Type.String(), { description: 'list of topic names', 'x-go-name': 'Topics' })),
  },
  { $id: 'RepoTopicOptions', description: 'RepoTopicOptions a collection of repo topic names' },
);
export type RepoTopicOptions = Static<typeof RepoTopicOptions>;

export const SyncForkInfo = Type.Object(
  {
    allowed: Type.Optional(Type.Boolean({ 'x-go-name': 'Allowed' })),
    base_commit: Type.Optional(Type.String({ 'x-go-name': 'BaseCommit' })),
    commits_behind: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'CommitsBehind' })),
    fork_commit: Type.Optional(Type.String({ 'x-go-name': 'ForkCommit' })),
  },
  { $id: 'SyncForkInfo', description: 'SyncForkInfo information about syncing a fork' },
);
export type SyncForkInfo = Static<typeof SyncForkInfo>;

export const TagProtection = Type.Object(
  {
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    name_pattern: Type.Optional(Type.String({ 'x-go-name': 'NamePattern' })),
    updated_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Updated' })),
    whitelist_teams: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'WhitelistTeams' })),
    whitelist_usernames: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'WhitelistUsernames' })),
  },
  { $id: 'TagProtection', description: 'TagProtection represents a tag protection' },
);
export type TagProtection = Static<typeof TagProtection>;

export const TopicName = Type.Object(
  {
    topics: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'TopicNames' })),
  },
  { $id: 'TopicName', description: 'TopicName a list of repo topic names' },
);
export type TopicName = Static<typeof TopicName>;

export const TopicResponse = Type.Object(
  {
    created: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    repo_count: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'RepoCount' })),
    topic_name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    updated: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Updated' })),
  },
  { $id: 'TopicResponse', description: 'TopicResponse for returning topics' },
);
export type TopicResponse = Static<typeof TopicResponse>;

export const TransferRepoOption = Type.Object(
  {
    new_owner: Type.String({ 'x-go-name': 'NewOwner' }),
    team_ids: Type.Optional(
      Type.Array(Type.Integer({ ...INT32, format: 'int64' }), {
        description: 'ID of the team or teams to add to the repository. Teams can only be added to organization-owned repositories.',
        'x-go-name': 'TeamIDs',
      }),
    ),
  },
  { $id: 'TransferRepoOption', description: "TransferRepoOption options when transfer a repository's ownership" },
);
export type TransferRepoOption = Static<typeof TransferRepoOption>;

export const UpdateBranchRepoOption = Type.Object(
  {
    name: Type.String({
      description: 'New branch name',
      'x-go-name': 'Name',
      pattern: PATTERN_GIT_REF_NAME,
      'x-binding': 'GitRefName',
      maxLength: 100,
    }),
  },
  { $id: 'UpdateBranchRepoOption', description: 'UpdateBranchRepoOption options when updating a branch in a repository' },
);
export type UpdateBranchRepoOption = Static<typeof UpdateBranchRepoOption>;

export const UpdateRepoAvatarOption = Type.Object(
  {
    // Go binding: Required
    image: Type.String({ description: 'image must be base64 encoded', 'x-go-name': 'Image' }),
  },
  { $id: 'UpdateRepoAvatarOption', description: 'UpdateRepoAvatarUserOption options when updating the repo avatar' },
);
export type UpdateRepoAvatarOption = Static<typeof UpdateRepoAvatarOption>;

export const WatchInfo = Type.Object(
  {
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'CreatedAt' })),
    ignored: Type.Optional(Type.Boolean({ 'x-go-name': 'Ignored' })),
    reason: Type.Optional(Type.Unknown({ 'x-go-name': 'Reason' })),
    repository_url: Type.Optional(Type.String({ 'x-go-name': 'RepositoryURL' })),
    subscribed: Type.Optional(Type.Boolean({ 'x-go-name': 'Subscribed' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'WatchInfo', description: 'WatchInfo represents an API watch status of one repository' },
);
export type WatchInfo = Static<typeof WatchInfo>;
