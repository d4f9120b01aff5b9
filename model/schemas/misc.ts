// Generated from Forgejo's swagger (definitions section) and hand-checked; see index.ts for the conventions.
// API error shapes, ActivityPub, NodeInfo, settings, markup, notifications and other small shared types.
//
// Conventions: request types (…Option/…Options/…Form) carry Forgejo's Go binding rules as
// `x-binding` + constraint; response types accept `null` for object refs, arrays, maps and date-times.
// `date-time`/`email` formats are kept as `x-format` annotations (never validated).
import { Type, type Static } from 'typebox';
import { NotifySubjectType, StateType, TimeStamp } from './common.ts';
import { Comment } from './issue.ts';
import { Repository } from './repo.ts';
import { User } from './user.ts';

export const APIError = Type.Object(
  {
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'APIError', description: 'APIError is an api error with a message' },
);
export type APIError = Static<typeof APIError>;

export const APIForbiddenError = Type.Object(
  {
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'APIForbiddenError' },
);
export type APIForbiddenError = Static<typeof APIForbiddenError>;

export const APIInternalServerError = Type.Object(
  {
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'APIInternalServerError' },
);
export type APIInternalServerError = Static<typeof APIInternalServerError>;

export const APIInvalidTopicsError = Type.Object(
  {
    invalidTopics: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'InvalidTopics' })),
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
  },
  { $id: 'APIInvalidTopicsError' },
);
export type APIInvalidTopicsError = Static<typeof APIInvalidTopicsError>;

export const APINotFound = Type.Object(
  {
    errors: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'Errors' })),
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'APINotFound' },
);
export type APINotFound = Static<typeof APINotFound>;

export const APIRepoArchivedError = Type.Object(
  {
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'APIRepoArchivedError' },
);
export type APIRepoArchivedError = Static<typeof APIRepoArchivedError>;

export const APIUnauthorizedError = Type.Object(
  {
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'APIUnauthorizedError' },
);
export type APIUnauthorizedError = Static<typeof APIUnauthorizedError>;

export const APIValidationError = Type.Object(
  {
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'APIValidationError' },
);
export type APIValidationError = Static<typeof APIValidationError>;

export const APRemoteFollowOption = Type.Object(
  {
    target: Type.Optional(Type.String({ 'x-go-name': 'Target' })),
  },
  { $id: 'APRemoteFollowOption' },
);
export type APRemoteFollowOption = Static<typeof APRemoteFollowOption>;

export const Activity = Type.Object(
  {
    act_user: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'ActUser' })),
    act_user_id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ActUserID' })),
    comment: Type.Optional(Type.Union([Comment, Type.Null()], { 'x-go-name': 'Comment' })),
    comment_id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'CommentID' })),
    content: Type.Optional(Type.String({ 'x-go-name': 'Content' })),
    created: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    is_private: Type.Optional(Type.Boolean({ 'x-go-name': 'IsPrivate' })),
    op_type: Type.Optional(
      Type.Union(
        [
          Type.Literal('create_repo'),
          Type.Literal('rename_repo'),
          Type.Literal('star_repo'),
          Type.Literal('watch_repo'),
          Type.Literal('commit_repo'),
          Type.Literal('create_issue'),
          Type.Literal('create_pull_request'),
          Type.Literal('transfer_repo'),
          Type.Literal('push_tag'),
          Type.Literal('comment_issue'),
          Type.Literal('merge_pull_request'),
          Type.Literal('close_issue'),
          Type.Literal('reopen_issue'),
          Type.Literal('close_pull_request'),
          Type.Literal('reopen_pull_request'),
          Type.Literal('delete_tag'),
          Type.Literal('delete_branch'),
          Type.Literal('mirror_sync_push'),
          Type.Literal('mirror_sync_create'),
          Type.Literal('mirror_sync_delete'),
          Type.Literal('approve_pull_request'),
          Type.Literal('reject_pull_request'),
          Type.Literal('comment_pull'),
          Type.Literal('publish_release'),
          Type.Literal('pull_review_dismissed'),
          Type.Literal('pull_request_ready_for_review'),
          Type.Literal('auto_merge_pull_request'),
        ],
        { description: 'the type of action', 'x-go-name': 'OpType' },
      ),
    ),
    ref_name: Type.Optional(Type.String({ 'x-go-name': 'RefName' })),
    repo: Type.Optional(Type.Union([Repository, Type.Null()], { 'x-go-name': 'Repo' })),
    repo_id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'RepoID' })),
    user_id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'UserID' })),
  },
  { $id: 'Activity' },
);
export type Activity = Static<typeof Activity>;

export const ActivityPub = Type.Object(
  {
    '@context': Type.Optional(Type.String({ 'x-go-name': 'Context' })),
  },
  { $id: 'ActivityPub', description: 'ActivityPub type' },
);
export type ActivityPub = Static<typeof ActivityPub>;

export const ForgeLike = Type.Object({}, { $id: 'ForgeLike', description: 'ForgeLike activity data type' });
export type ForgeLike = Static<typeof ForgeLike>;

export const ForgeOutbox = Type.Object({}, { $id: 'ForgeOutbox', description: 'ActivityStream OrderedCollection of activities' });
export type ForgeOutbox = Static<typeof ForgeOutbox>;

export const GeneralAPISettings = Type.Object(
  {
    default_git_trees_per_page: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'DefaultGitTreesPerPage' })),
    default_max_blob_size: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'DefaultMaxBlobSize' })),
    default_paging_num: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'DefaultPagingNum' })),
    max_response_items: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'MaxResponseItems' })),
  },
  { $id: 'GeneralAPISettings', description: 'GeneralAPISettings contains global api settings exposed by it' },
);
export type GeneralAPISettings = Static<typeof GeneralAPISettings>;

export const GeneralAttachmentSettings = Type.Object(
  {
    allowed_types: Type.Optional(Type.String({ 'x-go-name': 'AllowedTypes' })),
    enabled: Type.Optional(Type.Boolean({ 'x-go-name': 'Enabled' })),
    max_files: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'MaxFiles' })),
    max_size: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'MaxSize' })),
  },
  { $id: 'GeneralAttachmentSettings', description: 'GeneralAttachmentSettings contains global Attachment settings exposed by API' },
);
export type GeneralAttachmentSettings = Static<typeof GeneralAttachmentSettings>;

export const GeneralRepoSettings = Type.Object(
  {
    forks_disabled: Type.Optional(Type.Boolean({ 'x-go-name': 'ForksDisabled' })),
    http_git_disabled: Type.Optional(Type.Boolean({ 'x-go-name': 'HTTPGitDisabled' })),
    lfs_disabled: Type.Optional(Type.Boolean({ 'x-go-name': 'LFSDisabled' })),
    migrations_disabled: Type.Optional(Type.Boolean({ 'x-go-name': 'MigrationsDisabled' })),
    mirrors_disabled: Type.Optional(Type.Boolean({ 'x-go-name': 'MirrorsDisabled' })),
    stars_disabled: Type.Optional(Type.Boolean({ 'x-go-name': 'StarsDisabled' })),
    time_tracking_disabled: Type.Optional(Type.Boolean({ 'x-go-name': 'TimeTrackingDisabled' })),
  },
  { $id: 'GeneralRepoSettings', description: 'GeneralRepoSettings contains global repository settings exposed by API' },
);
export type GeneralRepoSettings = Static<typeof GeneralRepoSettings>;

export const GeneralUISettings = Type.Object(
  {
    allowed_reactions: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'AllowedReactions' })),
    custom_emojis: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'CustomEmojis' })),
    default_theme: Type.Optional(Type.String({ 'x-go-name': 'DefaultTheme' })),
  },
  { $id: 'GeneralUISettings', description: 'GeneralUISettings contains global ui settings exposed by API' },
);
export type GeneralUISettings = Static<typeof GeneralUISettings>;

export const GitignoreTemplateInfo = Type.Object(
  {
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    source: Type.Optional(Type.String({ 'x-go-name': 'Source' })),
  },
  { $id: 'GitignoreTemplateInfo', description: 'GitignoreTemplateInfo name and text of a gitignore template' },
);
export type GitignoreTemplateInfo = Static<typeof GitignoreTemplateInfo>;

export const LabelTemplate = Type.Object(
  {
    color: Type.Optional(Type.String({ 'x-go-name': 'Color', example: '00aabb' })),
    description: Type.Optional(Type.String({ 'x-go-name': 'Description' })),
    exclusive: Type.Optional(Type.Boolean({ 'x-go-name': 'Exclusive', example: false })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
  },
  { $id: 'LabelTemplate', description: 'LabelTemplate info of a Label template' },
);
export type LabelTemplate = Static<typeof LabelTemplate>;

export const LicenseTemplateInfo = Type.Object(
  {
    body: Type.Optional(Type.String({ 'x-go-name': 'Body' })),
    implementation: Type.Optional(Type.String({ 'x-go-name': 'Implementation' })),
    key: Type.Optional(Type.String({ 'x-go-name': 'Key' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'LicenseTemplateInfo', description: 'LicensesInfo contains information about a License' },
);
export type LicenseTemplateInfo = Static<typeof LicenseTemplateInfo>;

export const LicensesTemplateListEntry = Type.Object(
  {
    key: Type.Optional(Type.String({ 'x-go-name': 'Key' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'LicensesTemplateListEntry', description: 'LicensesListEntry is used for the API' },
);
export type LicensesTemplateListEntry = Static<typeof LicensesTemplateListEntry>;

export const MarkdownOption = Type.Object(
  {
    Context: Type.Optional(Type.String({ description: 'Context to render', 'x-go-name': 'Context' })),
    Mode: Type.Optional(Type.String({ description: 'Mode to render (comment, gfm, markdown)', 'x-go-name': 'Mode' })),
    Text: Type.Optional(Type.String({ description: 'Text markdown to render', 'x-go-name': 'Text' })),
    Wiki: Type.Optional(Type.Boolean({ description: 'Is it a wiki page ?', 'x-go-name': 'Wiki' })),
  },
  { $id: 'MarkdownOption', description: 'MarkdownOption markdown options' },
);
export type MarkdownOption = Static<typeof MarkdownOption>;

export const MarkupOption = Type.Object(
  {
    BranchPath: Type.Optional(
      Type.String({ description: 'The current branch path where the form gets posted', 'x-go-name': 'BranchPath' }),
    ),
    Context: Type.Optional(Type.String({ description: 'Context to render', 'x-go-name': 'Context' })),
    FilePath: Type.Optional(Type.String({ description: 'File path for detecting extension in file mode', 'x-go-name': 'FilePath' })),
    Mode: Type.Optional(Type.String({ description: 'Mode to render (comment, gfm, markdown, file)', 'x-go-name': 'Mode' })),
    Text: Type.Optional(Type.String({ description: 'Text markup to render', 'x-go-name': 'Text' })),
    Wiki: Type.Optional(Type.Boolean({ description: 'Is it a wiki page ?', 'x-go-name': 'Wiki' })),
  },
  { $id: 'MarkupOption', description: 'MarkupOption markup options' },
);
export type MarkupOption = Static<typeof MarkupOption>;

export const NodeInfoServices = Type.Object(
  {
    inbound: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'Inbound' })),
    outbound: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'Outbound' })),
  },
  {
    $id: 'NodeInfoServices',
    description: 'NodeInfoServices contains the third party sites this server can connect to via their application API',
  },
);
export type NodeInfoServices = Static<typeof NodeInfoServices>;

export const NodeInfoSoftware = Type.Object(
  {
    homepage: Type.Optional(Type.String({ 'x-go-name': 'Homepage' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    repository: Type.Optional(Type.String({ 'x-go-name': 'Repository' })),
    version: Type.Optional(Type.String({ 'x-go-name': 'Version' })),
  },
  { $id: 'NodeInfoSoftware', description: 'NodeInfoSoftware contains Metadata about server software in use' },
);
export type NodeInfoSoftware = Static<typeof NodeInfoSoftware>;

export const NodeInfoUsageUsers = Type.Object(
  {
    activeHalfyear: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ActiveHalfyear' })),
    activeMonth: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ActiveMonth' })),
    total: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Total' })),
  },
  { $id: 'NodeInfoUsageUsers', description: 'NodeInfoUsageUsers contains statistics about the users of this server' },
);
export type NodeInfoUsageUsers = Static<typeof NodeInfoUsageUsers>;

export const NodeInfoUsage = Type.Object(
  {
    localComments: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'LocalComments' })),
    localPosts: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'LocalPosts' })),
    users: Type.Optional(Type.Union([NodeInfoUsageUsers, Type.Null()], { 'x-go-name': 'Users' })),
  },
  { $id: 'NodeInfoUsage', description: 'NodeInfoUsage contains usage statistics for this server' },
);
export type NodeInfoUsage = Static<typeof NodeInfoUsage>;

export const NodeInfo = Type.Object(
  {
    metadata: Type.Optional(Type.Union([Type.Object({}), Type.Null()], { 'x-go-name': 'Metadata' })),
    openRegistrations: Type.Optional(Type.Boolean({ 'x-go-name': 'OpenRegistrations' })),
    protocols: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-go-name': 'Protocols' })),
    services: Type.Optional(Type.Union([NodeInfoServices, Type.Null()], { 'x-go-name': 'Services' })),
    software: Type.Optional(Type.Union([NodeInfoSoftware, Type.Null()], { 'x-go-name': 'Software' })),
    usage: Type.Optional(Type.Union([NodeInfoUsage, Type.Null()], { 'x-go-name': 'Usage' })),
    version: Type.Optional(Type.String({ 'x-go-name': 'Version' })),
  },
  {
    $id: 'NodeInfo',
    description: 'NodeInfo contains standardized way of exposing metadata about a server running one of the distributed social networks',
  },
);
export type NodeInfo = Static<typeof NodeInfo>;

export const NotificationCount = Type.Object(
  {
    new: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'New' })),
  },
  { $id: 'NotificationCount', description: 'NotificationCount number of unread notifications' },
);
export type NotificationCount = Static<typeof NotificationCount>;

export const NotificationSubject = Type.Object(
  {
    html_url: Type.Optional(Type.String({ 'x-go-name': 'HTMLURL' })),
    latest_comment_html_url: Type.Optional(Type.String({ 'x-go-name': 'LatestCommentHTMLURL' })),
    latest_comment_url: Type.Optional(Type.String({ 'x-go-name': 'LatestCommentURL' })),
    state: Type.Optional(Type.With(StateType, { 'x-go-name': 'State' })),
    title: Type.Optional(Type.String({ 'x-go-name': 'Title' })),
    type: Type.Optional(Type.With(NotifySubjectType, { 'x-go-name': 'Type' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'NotificationSubject', description: 'NotificationSubject contains the notification subject (Issue/Pull/Commit)' },
);
export type NotificationSubject = Static<typeof NotificationSubject>;

export const NotificationThread = Type.Object(
  {
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    pinned: Type.Optional(Type.Boolean({ 'x-go-name': 'Pinned' })),
    repository: Type.Optional(Type.Union([Repository, Type.Null()], { 'x-go-name': 'Repository' })),
    subject: Type.Optional(Type.Union([NotificationSubject, Type.Null()], { 'x-go-name': 'Subject' })),
    unread: Type.Optional(Type.Boolean({ 'x-go-name': 'Unread' })),
    updated_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'UpdatedAt' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'NotificationThread', description: 'NotificationThread expose Notification on API' },
);
export type NotificationThread = Static<typeof NotificationThread>;

export const SearchResults = Type.Object(
  {
    data: Type.Optional(Type.Union([Type.Array(Repository), Type.Null()], { 'x-go-name': 'Data' })),
    ok: Type.Optional(Type.Boolean({ 'x-go-name': 'OK' })),
  },
  { $id: 'SearchResults', description: 'SearchResults results of a successful search' },
);
export type SearchResults = Static<typeof SearchResults>;

export const ServerVersion = Type.Object(
  {
    version: Type.Optional(Type.String({ 'x-go-name': 'Version' })),
  },
  { $id: 'ServerVersion', description: 'ServerVersion wraps the version of the server' },
);
export type ServerVersion = Static<typeof ServerVersion>;

export const UserHeatmapData = Type.Object(
  {
    contributions: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Contributions' })),
    timestamp: Type.Optional(Type.With(TimeStamp, { 'x-go-name': 'Timestamp' })),
  },
  { $id: 'UserHeatmapData', description: 'UserHeatmapData represents the data needed to create a heatmap' },
);
export type UserHeatmapData = Static<typeof UserHeatmapData>;

// Not in swagger: the ActivityPub activity body (BodySchemas.Activity). Swagger's `Activity` is the user activity feed item, a response type.
export const APActivity = Type.Object(
  {},
  { $id: 'APActivity', description: 'ActivityPub activity (JSON-LD object with arbitrary fields) as POSTed to an inbox' },
);
export type APActivity = Static<typeof APActivity>;
