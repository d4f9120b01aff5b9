// Generated from Forgejo's swagger (definitions section) and hand-checked; see index.ts for the conventions.
// Issues, labels, milestones, comments, reactions, attachments, time tracking, issue templates.
//
// Conventions: request types (…Option/…Options/…Form) carry Forgejo's Go binding rules as
// `x-binding` + constraint; response types accept `null` for object refs, arrays, maps and date-times.
// `date-time`/`email` formats are kept as `x-format` annotations (never validated).
import { Type, type Static } from 'typebox';
import { INT32, INT53, PATTERN_LABEL_COLOR, RepositoryMeta, StateType } from './common.ts';
import { Team } from './org.ts';
import { User } from './user.ts';

export const AddTimeOption = Type.Object(
  {
    created: Type.Optional(Type.String({ 'x-format': 'date-time', 'x-go-name': 'Created' })),
    time: Type.Integer({ ...INT53, format: 'int64', description: 'time in seconds', 'x-go-name': 'Time' }),
    user_name: Type.Optional(Type.String({ description: 'User who spent the time (optional)', 'x-go-name': 'User' })),
  },
  { $id: 'AddTimeOption', description: 'AddTimeOption options for adding time to an issue' },
);
export type AddTimeOption = Static<typeof AddTimeOption>;

export const Attachment = Type.Object(
  {
    browser_download_url: Type.Optional(Type.String({ 'x-go-name': 'DownloadURL' })),
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    download_count: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'DownloadCount' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    size: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Size' })),
    type: Type.Optional(Type.Union([Type.Literal('attachment'), Type.Literal('external')], { 'x-go-name': 'Type' })),
    uuid: Type.Optional(Type.String({ 'x-go-name': 'UUID' })),
  },
  { $id: 'Attachment', description: 'Attachment a generic attachment' },
);
export type Attachment = Static<typeof Attachment>;

export const Comment = Type.Object(
  {
    assets: Type.Optional(
      Type.Union([Type.Array(Attachment), Type.Null()], { description: 'The attachments to the comment', 'x-go-name': 'Attachments' }),
    ),
    body: Type.Optional(Type.String({ description: 'The body of the comment', 'x-go-name': 'Body' })),
    created_at: Type.Optional(
      Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], {
        description: "The time of the comment's creation",
        'x-go-name': 'Created',
      }),
    ),
    html_url: Type.Optional(Type.String({ description: 'The HTML URL of the comment', 'x-go-name': 'HTMLURL' })),
    id: Type.Optional(Type.Integer({ format: 'int64', description: 'The identifier of the comment', 'x-go-name': 'ID' })),
    issue_url: Type.Optional(
      Type.String({
        description: 'The HTML URL of the issue if the comment is posted on an issue, else empty string',
        'x-go-name': 'IssueURL',
      }),
    ),
    original_author: Type.Optional(
      Type.String({
        description: 'The original author that posted the comment if it was not posted locally, else empty string',
        'x-go-name': 'OriginalAuthor',
      }),
    ),
    original_author_id: Type.Optional(
      Type.Integer({
        format: 'int64',
        description: 'The ID of the original author that posted the comment if it was not posted locally, else 0',
        'x-go-name': 'OriginalAuthorID',
      }),
    ),
    pull_request_url: Type.Optional(
      Type.String({
        description: 'The HTML URL of the pull request if the comment is posted on a pull request, else empty string',
        'x-go-name': 'PRURL',
      }),
    ),
    updated_at: Type.Optional(
      Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], {
        description: "The time of the comment's update",
        'x-go-name': 'Updated',
      }),
    ),
    user: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'User' })),
  },
  { $id: 'Comment', description: 'Comment represents a comment on a commit or issue' },
);
export type Comment = Static<typeof Comment>;

export const CreateIssueCommentOption = Type.Object(
  {
    body: Type.String({ description: 'The body of the comment', 'x-go-name': 'Body' }),
    updated_at: Type.Optional(
      Type.String({
        'x-format': 'date-time',
        description: "The time of the comment's update, needs admin or repository owner permission",
        'x-go-name': 'Updated',
      }),
    ),
  },
  { $id: 'CreateIssueCommentOption', description: 'CreateIssueCommentOption options for creating a comment on an issue' },
);
export type CreateIssueCommentOption = Static<typeof CreateIssueCommentOption>;

export const CreateIssueOption = Type.Object(
  {
    title: Type.String({ maxLength: 255, 'x-go-name': 'Title' }),
    body: Type.Optional(Type.String({ 'x-go-name': 'Body' })),
    ref: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'Ref' })),
    assignee: Type.Optional(Type.String({ description: 'deprecated', 'x-go-name': 'Assignee' })),
    assignees: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'Assignees' })),
    due_date: Type.Optional(Type.String({ 'x-format': 'date-time', 'x-go-name': 'Deadline' })),
    milestone: Type.Optional(Type.Integer({ ...INT32, format: 'int64', description: 'milestone id', 'x-go-name': 'Milestone' })),
    labels: Type.Optional(
      Type.Array(Type.Integer({ ...INT32, format: 'int64' }), { description: 'list of label ids', 'x-go-name': 'Labels' }),
    ),
    closed: Type.Optional(Type.Boolean({ 'x-go-name': 'Closed' })),
  },
  { $id: 'CreateIssueOption', description: 'CreateIssueOption options to create one issue' },
);
export type CreateIssueOption = Static<typeof CreateIssueOption>;

export const CreateLabelOption = Type.Object(
  {
    name: Type.String({ maxLength: 255, 'x-go-name': 'Name' }),
    exclusive: Type.Optional(Type.Boolean({ 'x-go-name': 'Exclusive', example: false })),
    color: Type.String({ 'x-go-name': 'Color', example: '#00aabb', pattern: PATTERN_LABEL_COLOR }),
    description: Type.Optional(Type.String({ 'x-go-name': 'Description' })),
    is_archived: Type.Optional(Type.Boolean({ 'x-go-name': 'IsArchived', example: false })),
  },
  { $id: 'CreateLabelOption', description: 'CreateLabelOption options for creating a label' },
);
export type CreateLabelOption = Static<typeof CreateLabelOption>;

export const CreateMilestoneOption = Type.Object(
  {
    // required (cairn rule; swagger lists no required fields)
    title: Type.String({ maxLength: 255, 'x-go-name': 'Title' }),
    description: Type.Optional(Type.String({ 'x-go-name': 'Description' })),
    due_on: Type.Optional(Type.String({ 'x-format': 'date-time', 'x-go-name': 'Deadline' })),
    state: Type.Optional(Type.Union([Type.Literal(''), Type.Literal('open'), Type.Literal('closed')], { 'x-go-name': 'State' })),
  },
  { $id: 'CreateMilestoneOption', description: 'CreateMilestoneOption options for creating a milestone' },
);
export type CreateMilestoneOption = Static<typeof CreateMilestoneOption>;

export const DeleteLabelsOption = Type.Object(
  {
    updated_at: Type.Optional(Type.String({ 'x-format': 'date-time', 'x-go-name': 'Updated' })),
  },
  { $id: 'DeleteLabelsOption', description: 'DeleteLabelOption options for deleting a label' },
);
export type DeleteLabelsOption = Static<typeof DeleteLabelsOption>;

export const EditAttachmentOptions = Type.Object(
  {
    browser_download_url: Type.Optional(
      Type.String({
        maxLength: 2048,
        description: '(Can only be set if existing attachment is of external type)',
        'x-go-name': 'DownloadURL',
      }),
    ),
    name: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'Name' })),
  },
  { $id: 'EditAttachmentOptions', description: 'EditAttachmentOptions options for editing attachments' },
);
export type EditAttachmentOptions = Static<typeof EditAttachmentOptions>;

export const EditDeadlineOption = Type.Object(
  {
    due_date: Type.String({ 'x-format': 'date-time', 'x-go-name': 'Deadline' }),
  },
  { $id: 'EditDeadlineOption', description: 'EditDeadlineOption options for creating a deadline' },
);
export type EditDeadlineOption = Static<typeof EditDeadlineOption>;

export const EditIssueCommentOption = Type.Object(
  {
    body: Type.String({ description: 'The body of the comment', 'x-go-name': 'Body' }),
    updated_at: Type.Optional(
      Type.String({
        'x-format': 'date-time',
        description: "The time of the comment's update, needs admin or repository owner permission",
        'x-go-name': 'Updated',
      }),
    ),
  },
  { $id: 'EditIssueCommentOption', description: 'EditIssueCommentOption options for editing a comment' },
);
export type EditIssueCommentOption = Static<typeof EditIssueCommentOption>;

export const EditIssueOption = Type.Object(
  {
    assignee: Type.Optional(Type.String({ description: 'deprecated', 'x-go-name': 'Assignee' })),
    assignees: Type.Optional(Type.Array(Type.String(), { 'x-go-name': 'Assignees' })),
    body: Type.Optional(Type.String({ 'x-go-name': 'Body' })),
    due_date: Type.Optional(Type.String({ 'x-format': 'date-time', 'x-go-name': 'Deadline' })),
    milestone: Type.Optional(Type.Integer({ ...INT32, format: 'int64', 'x-go-name': 'Milestone' })),
    ref: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'Ref' })),
    state: Type.Optional(Type.String({ 'x-go-name': 'State' })),
    title: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'Title' })),
    unset_due_date: Type.Optional(Type.Boolean({ 'x-go-name': 'RemoveDeadline' })),
    updated_at: Type.Optional(Type.String({ 'x-format': 'date-time', 'x-go-name': 'Updated' })),
  },
  { $id: 'EditIssueOption', description: 'EditIssueOption options for editing an issue' },
);
export type EditIssueOption = Static<typeof EditIssueOption>;

export const EditLabelOption = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'Name' })),
    exclusive: Type.Optional(Type.Boolean({ 'x-go-name': 'Exclusive', example: false })),
    color: Type.Optional(Type.String({ 'x-go-name': 'Color', example: '#00aabb', pattern: PATTERN_LABEL_COLOR })),
    description: Type.Optional(Type.String({ 'x-go-name': 'Description' })),
    is_archived: Type.Optional(Type.Boolean({ 'x-go-name': 'IsArchived', example: false })),
  },
  { $id: 'EditLabelOption', description: 'EditLabelOption options for editing a label' },
);
export type EditLabelOption = Static<typeof EditLabelOption>;

export const EditMilestoneOption = Type.Object(
  {
    description: Type.Optional(Type.String({ 'x-go-name': 'Description' })),
    due_on: Type.Optional(Type.String({ 'x-format': 'date-time', 'x-go-name': 'Deadline' })),
    state: Type.Optional(Type.String({ 'x-go-name': 'State' })),
    title: Type.Optional(Type.String({ maxLength: 255, 'x-go-name': 'Title' })),
  },
  { $id: 'EditMilestoneOption', description: 'EditMilestoneOption options for editing a milestone' },
);
export type EditMilestoneOption = Static<typeof EditMilestoneOption>;

export const EditReactionOption = Type.Object(
  {
    content: Type.Optional(Type.String({ maxLength: 64, 'x-go-name': 'Reaction' })),
  },
  { $id: 'EditReactionOption', description: 'EditReactionOption contain the reaction type' },
);
export type EditReactionOption = Static<typeof EditReactionOption>;

export const Label = Type.Object(
  {
    color: Type.Optional(Type.String({ 'x-go-name': 'Color', example: '00aabb' })),
    description: Type.Optional(Type.String({ 'x-go-name': 'Description' })),
    exclusive: Type.Optional(Type.Boolean({ 'x-go-name': 'Exclusive', example: false })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    is_archived: Type.Optional(Type.Boolean({ 'x-go-name': 'IsArchived', example: false })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'Label', description: 'Label a label to an issue or a pr' },
);
export type Label = Static<typeof Label>;

export const Milestone = Type.Object(
  {
    closed_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Closed' })),
    closed_issues: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ClosedIssues' })),
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    description: Type.Optional(Type.String({ 'x-go-name': 'Description' })),
    due_on: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Deadline' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    open_issues: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'OpenIssues' })),
    state: Type.Optional(Type.With(StateType, { 'x-go-name': 'State' })),
    title: Type.Optional(Type.String({ 'x-go-name': 'Title' })),
    updated_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Updated' })),
  },
  { $id: 'Milestone', description: 'Milestone milestone is a collection of issues on one repository' },
);
export type Milestone = Static<typeof Milestone>;

export const PullRequestMeta = Type.Object(
  {
    draft: Type.Optional(Type.Boolean({ 'x-go-name': 'IsWorkInProgress' })),
    html_url: Type.Optional(Type.String({ 'x-go-name': 'HTMLURL' })),
    merged: Type.Optional(Type.Boolean({ 'x-go-name': 'HasMerged' })),
    merged_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Merged' })),
  },
  { $id: 'PullRequestMeta', description: 'PullRequestMeta PR info if an issue is a PR' },
);
export type PullRequestMeta = Static<typeof PullRequestMeta>;

export const Issue = Type.Object(
  {
    assets: Type.Optional(Type.Union([Type.Array(Attachment), Type.Null()], { 'x-go-name': 'Attachments' })),
    assignee: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'Assignee' })),
    assignees: Type.Optional(Type.Union([Type.Array(User), Type.Null()], { 'x-go-name': 'Assignees' })),
    body: Type.Optional(Type.String({ 'x-go-name': 'Body' })),
    closed_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Closed' })),
    comments: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Comments' })),
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    due_date: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Deadline' })),
    html_url: Type.Optional(Type.String({ 'x-go-name': 'HTMLURL' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    is_locked: Type.Optional(Type.Boolean({ 'x-go-name': 'IsLocked' })),
    labels: Type.Optional(Type.Union([Type.Array(Label), Type.Null()], { 'x-go-name': 'Labels' })),
    milestone: Type.Optional(Type.Union([Milestone, Type.Null()], { 'x-go-name': 'Milestone' })),
    number: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'Index' })),
    original_author: Type.Optional(Type.String({ 'x-go-name': 'OriginalAuthor' })),
    original_author_id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'OriginalAuthorID' })),
    pin_order: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'PinOrder' })),
    pull_request: Type.Optional(Type.Union([PullRequestMeta, Type.Null()], { 'x-go-name': 'PullRequest' })),
    ref: Type.Optional(Type.String({ 'x-go-name': 'Ref' })),
    repository: Type.Optional(Type.Union([RepositoryMeta, Type.Null()], { 'x-go-name': 'Repository' })),
    state: Type.Optional(Type.With(StateType, { 'x-go-name': 'State' })),
    title: Type.Optional(Type.String({ 'x-go-name': 'Title' })),
    updated_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Updated' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
    user: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'User' })),
  },
  { $id: 'Issue', description: 'Issue represents an issue in a repository' },
);
export type Issue = Static<typeof Issue>;

export const IssueConfigContactLink = Type.Object(
  {
    about: Type.Optional(Type.String({ 'x-go-name': 'About' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    url: Type.Optional(Type.String({ 'x-go-name': 'URL' })),
  },
  { $id: 'IssueConfigContactLink' },
);
export type IssueConfigContactLink = Static<typeof IssueConfigContactLink>;

export const IssueConfig = Type.Object(
  {
    blank_issues_enabled: Type.Optional(Type.Boolean({ 'x-go-name': 'BlankIssuesEnabled' })),
    contact_links: Type.Optional(Type.Union([Type.Array(IssueConfigContactLink), Type.Null()], { 'x-go-name': 'ContactLinks' })),
  },
  { $id: 'IssueConfig' },
);
export type IssueConfig = Static<typeof IssueConfig>;

export const IssueConfigValidation = Type.Object(
  {
    message: Type.Optional(Type.String({ 'x-go-name': 'Message' })),
    valid: Type.Optional(Type.Boolean({ 'x-go-name': 'Valid' })),
  },
  { $id: 'IssueConfigValidation' },
);
export type IssueConfigValidation = Static<typeof IssueConfigValidation>;

export const IssueDeadline = Type.Object(
  {
    due_date: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Deadline' })),
  },
  { $id: 'IssueDeadline', description: 'IssueDeadline represents an issue deadline' },
);
export type IssueDeadline = Static<typeof IssueDeadline>;

export const IssueFormFieldType = Type.String({
  $id: 'IssueFormFieldType',
  title: 'IssueFormFieldType defines issue form field type, can be "markdown", "textarea", "input", "dropdown" or "checkboxes"',
});
export type IssueFormFieldType = Static<typeof IssueFormFieldType>;

export const IssueFormFieldVisible = Type.String({
  $id: 'IssueFormFieldVisible',
  description: 'IssueFormFieldVisible defines issue form field visible',
});
export type IssueFormFieldVisible = Static<typeof IssueFormFieldVisible>;

export const IssueFormField = Type.Object(
  {
    attributes: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { 'x-go-name': 'Attributes' })),
    id: Type.Optional(Type.String({ 'x-go-name': 'ID' })),
    type: Type.Optional(Type.With(IssueFormFieldType, { 'x-go-name': 'Type' })),
    validations: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { 'x-go-name': 'Validations' })),
    visible: Type.Optional(Type.Union([Type.Array(IssueFormFieldVisible), Type.Null()], { 'x-go-name': 'Visible' })),
  },
  { $id: 'IssueFormField', description: 'IssueFormField represents a form field' },
);
export type IssueFormField = Static<typeof IssueFormField>;

export const IssueLabelsOption = Type.Object(
  {
    labels: Type.Optional(
      Type.Array(Type.Unknown(), {
        description: 'Labels can be a list of integers representing label IDs\nor a list of strings representing label names',
        'x-go-name': 'Labels',
      }),
    ),
    updated_at: Type.Optional(Type.String({ 'x-format': 'date-time', 'x-go-name': 'Updated' })),
  },
  { $id: 'IssueLabelsOption', description: 'IssueLabelsOption a collection of labels' },
);
export type IssueLabelsOption = Static<typeof IssueLabelsOption>;

export const IssueMeta = Type.Object(
  {
    index: Type.Optional(Type.Integer({ ...INT32, format: 'int64', 'x-go-name': 'Index' })),
    owner: Type.Optional(Type.String({ 'x-go-name': 'Owner' })),
    repo: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
  },
  { $id: 'IssueMeta', description: 'IssueMeta basic issue information' },
);
export type IssueMeta = Static<typeof IssueMeta>;

export const IssueTemplateLabels = Type.Array(Type.String(), { $id: 'IssueTemplateLabels' });
export type IssueTemplateLabels = Static<typeof IssueTemplateLabels>;

export const IssueTemplate = Type.Object(
  {
    about: Type.Optional(Type.String({ 'x-go-name': 'About' })),
    body: Type.Optional(Type.Union([Type.Array(IssueFormField), Type.Null()], { 'x-go-name': 'Fields' })),
    content: Type.Optional(Type.String({ 'x-go-name': 'Content' })),
    file_name: Type.Optional(Type.String({ 'x-go-name': 'FileName' })),
    labels: Type.Optional(Type.Union([IssueTemplateLabels, Type.Null()], { 'x-go-name': 'Labels' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    ref: Type.Optional(Type.String({ 'x-go-name': 'Ref' })),
    title: Type.Optional(Type.String({ 'x-go-name': 'Title' })),
  },
  { $id: 'IssueTemplate', description: 'IssueTemplate represents an issue template for a repository' },
);
export type IssueTemplate = Static<typeof IssueTemplate>;

export const NewIssuePinsAllowed = Type.Object(
  {
    issues: Type.Optional(Type.Boolean({ 'x-go-name': 'Issues' })),
    pull_requests: Type.Optional(Type.Boolean({ 'x-go-name': 'PullRequests' })),
  },
  { $id: 'NewIssuePinsAllowed', description: 'NewIssuePinsAllowed represents an API response that says if new Issue Pins are allowed' },
);
export type NewIssuePinsAllowed = Static<typeof NewIssuePinsAllowed>;

export const Reaction = Type.Object(
  {
    content: Type.Optional(Type.String({ 'x-go-name': 'Reaction' })),
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    user: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'User' })),
  },
  { $id: 'Reaction', description: 'Reaction contain one reaction' },
);
export type Reaction = Static<typeof Reaction>;

export const TrackedTime = Type.Object(
  {
    created: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    issue: Type.Optional(Type.Union([Issue, Type.Null()], { 'x-go-name': 'Issue' })),
    issue_id: Type.Optional(
      Type.Integer({ format: 'int64', description: 'deprecated (only for backwards compatibility)', 'x-go-name': 'IssueID' }),
    ),
    time: Type.Optional(Type.Integer({ format: 'int64', description: 'Time in seconds', 'x-go-name': 'Time' })),
    user_id: Type.Optional(
      Type.Integer({ format: 'int64', description: 'deprecated (only for backwards compatibility)', 'x-go-name': 'UserID' }),
    ),
    user_name: Type.Optional(Type.String({ 'x-go-name': 'UserName' })),
  },
  { $id: 'TrackedTime', description: 'TrackedTime worked time for an issue / pr' },
);
export type TrackedTime = Static<typeof TrackedTime>;

export const TimelineComment = Type.Object(
  {
    assignee: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'Assignee' })),
    assignee_team: Type.Optional(Type.Union([Team, Type.Null()], { 'x-go-name': 'AssigneeTeam' })),
    body: Type.Optional(Type.String({ 'x-go-name': 'Body' })),
    created_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Created' })),
    dependent_issue: Type.Optional(Type.Union([Issue, Type.Null()], { 'x-go-name': 'DependentIssue' })),
    html_url: Type.Optional(Type.String({ 'x-go-name': 'HTMLURL' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    issue_url: Type.Optional(Type.String({ 'x-go-name': 'IssueURL' })),
    label: Type.Optional(Type.Union([Label, Type.Null()], { 'x-go-name': 'Label' })),
    milestone: Type.Optional(Type.Union([Milestone, Type.Null()], { 'x-go-name': 'Milestone' })),
    new_ref: Type.Optional(Type.String({ 'x-go-name': 'NewRef' })),
    new_title: Type.Optional(Type.String({ 'x-go-name': 'NewTitle' })),
    old_milestone: Type.Optional(Type.Union([Milestone, Type.Null()], { 'x-go-name': 'OldMilestone' })),
    old_project_id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'OldProjectID' })),
    old_ref: Type.Optional(Type.String({ 'x-go-name': 'OldRef' })),
    old_title: Type.Optional(Type.String({ 'x-go-name': 'OldTitle' })),
    project_id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ProjectID' })),
    pull_request_url: Type.Optional(Type.String({ 'x-go-name': 'PRURL' })),
    ref_action: Type.Optional(Type.String({ 'x-go-name': 'RefAction' })),
    ref_comment: Type.Optional(Type.Union([Comment, Type.Null()], { 'x-go-name': 'RefComment' })),
    ref_commit_sha: Type.Optional(Type.String({ description: 'commit SHA where issue/PR was referenced', 'x-go-name': 'RefCommitSHA' })),
    ref_issue: Type.Optional(Type.Union([Issue, Type.Null()], { 'x-go-name': 'RefIssue' })),
    removed_assignee: Type.Optional(
      Type.Boolean({ description: 'whether the assignees were removed or added', 'x-go-name': 'RemovedAssignee' }),
    ),
    resolve_doer: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'ResolveDoer' })),
    review_id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ReviewID' })),
    tracked_time: Type.Optional(Type.Union([TrackedTime, Type.Null()], { 'x-go-name': 'TrackedTime' })),
    type: Type.Optional(Type.String({ 'x-go-name': 'Type' })),
    updated_at: Type.Optional(Type.Union([Type.String({ 'x-format': 'date-time' }), Type.Null()], { 'x-go-name': 'Updated' })),
    user: Type.Optional(Type.Union([User, Type.Null()], { 'x-go-name': 'User' })),
  },
  { $id: 'TimelineComment', description: 'TimelineComment represents a timeline comment (comment of any type) on a commit or issue' },
);
export type TimelineComment = Static<typeof TimelineComment>;
